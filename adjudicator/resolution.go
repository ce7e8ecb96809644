package adjudicator

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Roller throws one die. The game package supplies the auditable stream
// (package dice) or scripted faces.
type Roller interface {
	Roll(label string, faces int) (int, error)
}

// Roll is one throw of one or more dice, as recorded in the log and shown
// to players: "melee on 1108 by ORC-3: 1d6=5, needs 4+: destroyed".
type Roll struct {
	N       int    `json:"n"`                 // index of its first die within the adjudication, from 0
	Label   string `json:"label"`             // what it is for; part of the dice derivation
	Dice    string `json:"dice"`              // e.g. "1d6", "2d6"
	Faces   []int  `json:"faces"`             // each die's face
	Total   int    `json:"total"`             // sum of the faces
	Outcome string `json:"outcome,omitempty"` // what it meant, e.g. "needs 4+: destroyed"
	// To is who may see the roll; nil for everyone. A roll that is not
	// public is sealed in the log until it may be revealed.
	To Audience `json:"to,omitempty"`
	// Sealed marks the stand-in of a roll that is not public: only N and
	// Dice are given, the rest is in the adjudication's sealed part.
	Sealed bool `json:"sealed,omitempty"`
}

// String renders the roll for people.
func (r *Roll) String() string {
	if r.Sealed {
		return fmt.Sprintf("(sealed: %s from die %d)", r.Dice, r.N)
	}
	var b strings.Builder
	b.WriteString(r.Label)
	b.WriteString(": ")
	b.WriteString(r.Dice)
	b.WriteString("=")
	if len(r.Faces) > 1 {
		parts := make([]string, len(r.Faces))
		for i, f := range r.Faces {
			parts[i] = strconv.Itoa(f)
		}
		b.WriteString(strings.Join(parts, "+"))
		b.WriteString("=")
	}
	b.WriteString(strconv.Itoa(r.Total))
	if r.Outcome != "" {
		b.WriteString(", ")
		b.WriteString(r.Outcome)
	}
	return b.String()
}

// Resolution is what Decide works through: the state as it stands after the
// events emitted so far, the dice, and the report for people.
//
// Emit applies an event at once, so later decisions see its effect: decide
// then apply, one event at a time. Dice errors (scripted dice running out) are
// sticky, like bufio.Scanner's: Roll always returns a Roll, and the engine
// discards the whole adjudication if Err is set afterwards.
type Resolution struct {
	rs     Ruleset
	state  State
	roller Roller
	events []Event
	rolls  []*Roll
	report []Line
	dieN   int
	err    error
}

// NewResolution starts a resolution on st, which it will modify: pass a clone.
func NewResolution(rs Ruleset, st State, roller Roller) *Resolution {
	return &Resolution{rs: rs, state: st, roller: roller}
}

// State is the current working state. Treat it as read-only: change it only
// through Emit.
func (r *Resolution) State() State { return r.state }

// Emit records ev and applies it to the working state. A *Secret is
// applied as the event it wraps; a *Reveal changes nothing (secret.go),
// nor does a *ChildSecret, which the ruleset's Evolve never sees
// (childsecret.go; the game's replay skips it the same way).
func (r *Resolution) Emit(ev Event) {
	r.events = append(r.events, ev)
	if inner := Unwrap(ev); inner != nil {
		if _, ok := inner.(*ChildSecret); !ok {
			r.state = r.rs.Evolve(r.state, inner)
		}
	}
}

// Roll throws count dice of the given number of faces for label and records
// the throw. Set Outcome on the result to say what it meant.
func (r *Resolution) Roll(label string, count, faces int) *Roll {
	return r.RollFor(Everyone, label, count, faces)
}

// RollFor is Roll for a throw that only audience may see (a search for a
// hidden stack, a secret draw). Its label and faces are sealed in the log
// until revealed; see Audience.
func (r *Resolution) RollFor(audience Audience, label string, count, faces int) *Roll {
	roll := &Roll{N: r.dieN, Label: label, Dice: fmt.Sprintf("%dd%d", count, faces), To: slices.Clone(audience)}
	for i := 0; i < count; i++ {
		v := 1
		if r.err == nil {
			var err error
			v, err = r.roller.Roll(label, faces)
			if err != nil {
				r.err = err
				v = 1
			}
		}
		roll.Faces = append(roll.Faces, v)
		roll.Total += v
		r.dieN++
	}
	r.rolls = append(r.rolls, roll)
	return roll
}

// Sayf adds a line to the report every side reads.
func (r *Resolution) Sayf(format string, args ...any) {
	r.report = append(r.report, Line{Text: fmt.Sprintf(format, args...)})
}

// Tellf adds a line to the report that only audience reads (a side's own
// hidden move, a referee's note). It is sealed in the log until revealed.
func (r *Resolution) Tellf(audience Audience, format string, args ...any) {
	r.report = append(r.report, Line{Text: fmt.Sprintf(format, args...), To: slices.Clone(audience)})
}

// Fail makes the adjudication fail with err (sticky, first wins).
func (r *Resolution) Fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

// Err is the first error met, if any.
func (r *Resolution) Err() error { return r.err }

// Events are the events emitted so far.
func (r *Resolution) Events() []Event { return r.events }

// Rolls are the rolls made so far.
func (r *Resolution) Rolls() []*Roll { return r.rolls }

// Report is the report so far, every line with its audience.
func (r *Resolution) Report() []Line { return r.report }
