package referee

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/mail/compose"
	"github.com/umpire-pbem/umpire/mail/extract"
	"github.com/umpire-pbem/umpire/templates"
)

// What a mail says it is, besides its text: the subject (after the
// game's "[umpire GAME]", which compose.Subject adds) and the X-Umpire-*
// headers. heading is the one place that makes them, for every mail,
// from the data its template gets; reply and toPlayer apply it.

// heading is a mail's subject text and X-Umpire-* headers.
type heading struct {
	kind     string    // X-Umpire-Kind (compose.Kind*)
	text     string    // the subject after the game's prefix
	turn     int       // X-Umpire-Turn; 0 when not known
	due      []string  // X-Umpire-Due: the request ids due from the recipient
	deadline time.Time // X-Umpire-Deadline: the earliest of their deadlines
}

// apply puts h into m: its subject, with game's prefix, and headers.
func (h heading) apply(m *compose.Mail) {
	m.Subject = compose.Subject(m.Game, h.text)
	m.Kind, m.Turn, m.Due, m.Deadline = h.kind, h.turn, h.due, h.deadline
}

// subjectTime is a deadline in a subject: "Fri 28 Nov 18:00 UTC".
const subjectTime = "Mon 2 Jan 15:04 MST"

// headingFor makes the heading of a mail whose text is made from data.
// idKind is the kind its Message-ID is made from ("ack", "results",
// "resend", "ask-status", ...); in is the mail it answers (nil for none).
func headingFor(idKind string, in *extract.Mail, data any) heading {
	switch v := data.(type) {
	case templates.WelcomeData:
		h := dueHeading(compose.KindWelcome, v.Due)
		h.text = join("Welcome: you play "+v.Side, h.text)
		return h
	case templates.AckData:
		h := dueHeading(compose.KindAccepted, v.Waiting)
		h.turn = v.Turn
		rest := h.text // what is due now: "waiting for blue", "your move: ..."
		if v.Adjudicated {
			rest = "results follow"
		}
		h.text = join(fmt.Sprintf("Orders accepted (turn %d, %s)", v.Turn, v.Phase), rest)
		return h
	case templates.RejectedData:
		h := dueHeading(compose.KindRejected, v.Due)
		noun := "Orders"
		if in != nil && isPress(in.Orders) {
			noun = "Press"
		}
		h.text = noun + " REJECTED"
		if n := v.Count(); n > 0 {
			h.text += ": " + plural(n, "error")
		}
		if v.Paused != nil {
			h.text += "; guessing paused until " + v.Paused.Until
		}
		return h
	case templates.PausedData:
		return heading{kind: compose.KindRejected, text: "Orders REFUSED unread: guessing paused until " + v.Until}
	case templates.ResultsData:
		h := dueHeading(compose.KindResults, v.Due)
		word := "results"
		switch idKind {
		case "resend":
			word = "results (sent again)"
		case "digest":
			word = "results (the referee's digest)"
		default:
			if v.ForReferee {
				word = "results (the referee's copy)"
			}
		}
		first := "Results"
		if h.turn > 0 {
			first = fmt.Sprintf("Turn %d %s", h.turn, word)
		} else if word != "results" {
			first = "Results " + strings.TrimPrefix(word, "results ")
		}
		if v.Over {
			h.text = "game over"
			if v.Result != "" {
				h.text += ": " + v.Result
			}
		}
		h.text = join(first, h.text)
		return h
	case templates.ClockData:
		return clockHeading(idKind, v)
	case templates.NoticeData:
		h := dueHeading(compose.KindNotice, v.Waiting)
		h.text = "Notice: " + firstClause(v.What)
		return h
	case templates.LockoutData:
		return heading{kind: compose.KindNotice, text: fmt.Sprintf("Notice: guessing the secret of %s is paused until %s", v.Side, v.Until)}
	case templates.ObservingData:
		if v.Added {
			return heading{kind: compose.KindNotice, text: "Notice: you now observe this game"}
		}
		return heading{kind: compose.KindNotice, text: "Notice: you no longer observe this game"}
	case templates.ObserverResultsData:
		h := heading{kind: compose.KindObserver, turn: v.Turn}
		late := ""
		if v.Delay > 0 {
			late = ", " + plural(v.Delay, "turn") + " late"
		}
		h.text = fmt.Sprintf("Turn %d results (observer%s)", v.Turn, late)
		if v.Over {
			h.text += " - game over"
		}
		return h
	case templates.PressData:
		if v.ToReferee {
			return heading{kind: compose.KindPress, text: fmt.Sprintf("Press (copy): %s to %s", v.From, v.To)}
		}
		if v.From == "" {
			return heading{kind: compose.KindPress, text: "Press to " + v.To + " (sender not named)"}
		}
		return heading{kind: compose.KindPress, text: fmt.Sprintf("Press from %s to %s", v.From, v.To)}
	case templates.PressSentData:
		return heading{kind: compose.KindAccepted, text: "Press sent to " + v.To}
	case templates.StatusData:
		h := dueHeading(compose.KindAnswer, v.Due)
		first := fmt.Sprintf("Status: turn %d, %s", v.Turn, v.Phase)
		if v.Over {
			first = "Status: game over"
		}
		h.text = join(first, h.text)
		if h.turn == 0 {
			h.turn = v.Turn
		}
		return h
	case templates.HistoryData:
		return heading{kind: compose.KindAnswer, text: "History: " + plural(len(v.Entries), "adjudication")}
	case templates.AdjudicationData:
		return heading{kind: compose.KindAnswer, text: fmt.Sprintf("Results of adjudication %d (%s)", v.Adjudication.K, v.Title)}
	case templates.MapData:
		h := heading{kind: compose.KindAnswer, turn: v.Turn, text: fmt.Sprintf("Map: turn %d, %s", v.Turn, v.Phase)}
		if v.Past {
			h.text = fmt.Sprintf("Map: the end of turn %d", v.Turn)
		}
		return h
	case templates.ExportData:
		if v.File == "" {
			return heading{kind: compose.KindAnswer, text: "Export: too large to mail (over " + v.Limit + ")"}
		}
		return heading{kind: compose.KindAnswer, text: fmt.Sprintf("Export: %s (%s)", v.File, v.Size)}
	case templates.HelpData:
		return heading{kind: compose.KindAnswer, text: "umpire: the commands it answers by mail"}
	case templates.AskRefusedData:
		h := heading{kind: compose.KindRejected, text: "Command REFUSED: " + orDefault(v.Command, "(none)")}
		if n := v.Count(); n > 0 {
			h.text += " (" + plural(n, "error") + ")"
		}
		return h
	case templates.RefereeData:
		if v.OK {
			return heading{kind: compose.KindReferee, text: "Done: " + v.Command}
		}
		return heading{kind: compose.KindReferee, text: "REFUSED: " + v.Command}
	}
	text := "Your mail to the referee"
	if in != nil && in.Subject != "" {
		text = "Re: " + in.Subject
	}
	return heading{kind: compose.KindAnswer, text: text}
}

// clockHeading is the heading of a reminder (idKind "reminder") or of a
// notice that a deadline passed.
func clockHeading(idKind string, v templates.ClockData) heading {
	r := v.Request
	h := dueHeading(compose.KindLate, v.Waiting)
	h.turn = r.Turn
	if idKind == "reminder" {
		h.kind = compose.KindReminder
		h.due, h.deadline = []string{r.ID}, r.Deadline
		what := "orders are"
		switch r.Kind {
		case "setup":
			what = "setup is"
		case "decision":
			what = "decision is"
		}
		when := ""
		if !r.Deadline.IsZero() {
			when = " " + r.Deadline.UTC().Format(subjectTime)
		}
		h.text = fmt.Sprintf("Reminder: your %s due%s (%s)", what, when, move(r))
		return h
	}
	h.text = "Deadline passed: " + r.Side
	if v.ToReferee {
		h.text += " (" + move(r) + ")"
	}
	return h
}

// dueHeading says what is due from the recipient, from the list the
// template gets: "your move: invader melee, due Fri 28 Nov 18:00 UTC"
// (and "+1 more" when several), or "waiting for defender" when nothing is
// due from them, or "" when the game waits for nothing. Its turn is the
// turn of what is due; due and deadline are the recipient's requests and
// the earliest of their deadlines.
func dueHeading(kind string, dues []templates.Due) heading {
	h := heading{kind: kind}
	var mine []templates.Due
	var others []string
	for _, d := range dues {
		switch {
		case d.Received:
		case d.Mine:
			mine = append(mine, d)
		case d.Side == string(adjudicator.SeriesSide):
			// umpire answers it: a series waits for its games.
			if w := "its games"; !slices.Contains(others, w) {
				others = append(others, w)
			}
		case !slices.Contains(others, d.Side):
			others = append(others, d.Side)
		}
		if h.turn == 0 && !d.Received {
			h.turn = d.Turn
		}
	}
	if len(mine) == 0 {
		if len(others) > 0 {
			h.text = "waiting for " + strings.Join(others, " and ")
		}
		return h
	}
	first := mine[0]
	h.turn = first.Turn
	for _, d := range mine {
		h.due = append(h.due, d.ID)
		if !d.Deadline.IsZero() && (h.deadline.IsZero() || d.Deadline.Before(h.deadline)) {
			h.deadline = d.Deadline
		}
	}
	verb := "your move"
	if first.Kind == "decision" {
		verb = "your decision"
	}
	h.text = verb + ": " + move(first)
	if len(mine) > 1 {
		h.text += fmt.Sprintf(" (+%d more)", len(mine)-1)
	}
	if !h.deadline.IsZero() {
		h.text += ", due " + h.deadline.UTC().Format(subjectTime)
	}
	return h
}

// move names a request in few words: "invader melee", "red bid", or for a
// decision "invader, turn 3".
func move(d templates.Due) string {
	if d.Kind == "decision" || d.Phase == "" || d.Phase == "decision" {
		return fmt.Sprintf("%s, turn %d", d.Side, d.Turn)
	}
	return d.Side + " " + d.Phase
}

// firstClause is the start of a notice's sentence, up to its first
// colon, semicolon, bracket or full stop: "the referee paused the game".
func firstClause(s string) string {
	s = strings.TrimSpace(s)
	for _, sep := range []string{": ", "; ", " (", ". ", " — "} {
		if i := strings.Index(s, sep); i > 0 {
			s = s[:i]
		}
	}
	return strings.TrimSuffix(s, ".")
}

// join puts a subject's parts together with " - ", leaving out an empty
// one.
func join(first, rest string) string {
	if rest == "" {
		return first
	}
	return first + " - " + rest
}
