package adjudicator

import "slices"

// Audience says who may read a report line, a roll or a notice: every side
// (the zero value), some sides, or the referee alone. The referee reads
// everything.
//
// In the log, what every side may read is public: it is in the hashed
// event, in every export and in every side's mails. Anything else is
// sealed: the event holds only a commitment (a hash) of it, the referee's
// data file keeps the text, and it is revealed in the log when it may be
// (at the latest when the game ends). See docs/trust.md.
type Audience []Side

// RefereeName is the audience entry that no side can match: a line or roll
// for RefereeOnly is read by the referee alone.
const RefereeName Side = "referee"

// Everyone is the audience of public lines and rolls.
var Everyone Audience

// RefereeOnly is the audience of what no side may read during the game.
var RefereeOnly = Audience{RefereeName}

// To is the audience of the given sides (and the referee).
func To(sides ...Side) Audience { return Audience(slices.Clone(sides)) }

// Public reports whether every side may read it.
func (a Audience) Public() bool { return len(a) == 0 }

// Includes reports whether viewer may read it. The referee (the empty
// Side) reads everything.
func (a Audience) Includes(viewer Side) bool {
	return viewer == Referee || len(a) == 0 || slices.Contains(a, viewer)
}

// Line is one line of a report or notice, with who may read it.
type Line struct {
	Text string   `json:"text"`
	To   Audience `json:"to,omitempty"`
}

// Lines makes public lines from plain texts.
func Lines(texts ...string) []Line {
	out := make([]Line, len(texts))
	for i, t := range texts {
		out[i] = Line{Text: t}
	}
	return out
}

// For returns the lines viewer may read, in order.
func For(lines []Line, viewer Side) []Line {
	var out []Line
	for _, l := range lines {
		if l.To.Includes(viewer) {
			out = append(out, l)
		}
	}
	return out
}

// Texts returns the texts of lines.
func Texts(lines []Line) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = l.Text
	}
	return out
}

// Observer is the viewer of an observer: someone who follows a game
// without playing it. No side can have this name, so no audience but the
// public one includes it: an observer reads only what every side may, and a
// ruleset's View(st, Observer) shows only what every side may see.
const Observer Side = "(observer)"
