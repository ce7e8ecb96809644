package templates

import (
	"strings"
	"testing"
)

// TestPauseTemplates: the reply to a paused side, the notices, and the
// rejection that begins a pause or lists only some errors.
func TestPauseTemplates(t *testing.T) {
	s := Default()
	g := Game{ID: "race-1", Ruleset: "race", Referee: "ref@example.org"}
	p := Pause{Until: "2026-11-22 11:00:05 UTC", Window: "1 hour", Limit: 5, Address: "red@example.org", Side: "red"}
	guesses := []Guess{{Time: "2026-11-22 10:00:05 UTC", From: "red@example.org", Game: "race-1", Side: "red"}}
	for _, c := range []struct {
		name string
		data any
		want []string
	}{
		{Paused, PausedData{Game: g, Side: "red", Pause: p},
			[]string{"was not read", "(5 within 1 hour)", "Until 2026-11-22 11:00:05 UTC", "for side red or from red@example.org", "ask the referee (ref@example.org)"}},
		{Lockout, LockoutData{Game: g, Side: "red", Owner: "red@example.org", Pause: p, Guesses: guesses, More: 4, Unlock: "command: unlock\n"},
			[]string{"Notice: guessing the secret of side red in game race-1 is paused", "5 order mails with a wrong secret", "... and 4 more", "ask the referee (ref@example.org)"}},
		{Lockout, LockoutData{Game: g, Side: "red", Owner: "red@example.org", ToReferee: true, Pause: Pause{Until: "x", Window: "1 hour", Side: "red"}, Guesses: guesses, Unlock: "command: unlock\ngame: race-1\n"},
			[]string{"Referee's notice", "1 order mail with a wrong secret was received", "for side red:", "  command: unlock\n  game: race-1"}},
		{Rejected, RejectedData{Game: g, Side: "red", Where: "your mail", Paused: &p,
			Errors: []ErrorLine{{Line: 3, Code: "bad-secret", Msg: "wrong", Quote: []QuotedLine{{Line: 2, Text: "side: red"}, {Line: 3, Text: "secret: (hidden)", Error: true}}}}},
			[]string{"        2 | side: red\n   >    3 | secret: (hidden)", "guessing is paused", "Only the referee\n(ref@example.org)"}},
		{Rejected, RejectedData{Game: g, Where: "your mail", Errors: []ErrorLine{{Line: 1, Code: "x", Msg: "bad"}}, More: 29},
			[]string{"30 problems in your mail", "... and 29 more problems not listed here", "Please correct it"}},
	} {
		out, err := s.Render(c.name, c.data)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s lacks %q:\n%s", c.name, w, out)
			}
		}
	}
}
