package referee_test

import (
	"context"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/mail/referee"
)

// TestCommandNewChecksAddresses: a "command: new" with a bad player
// address is refused with the line of the address in the mail, before any
// mailbox is prepared, and creates nothing.
func TestCommandNewChecksAddresses(t *testing.T) {
	cases := []struct{ red, want string }{
		{`"Bob <bob@example.org>"`, `line 8, column 8: players: red: "Bob <bob@example.org>" is not one mail address: give the bare address, "bob@example.org"`},
		{`"a@example.org, b@example.org"`, `line 8, column 8: players: red: "a@example.org, b@example.org" is not one mail address: it holds 2 addresses; give one`},
		{`"a@example.org\r\nBcc: x@example.org"`, `line 8, column 8: players: red: "a@example.org\r\nBcc: x@example.org" is not one mail address: it contains a line break`},
		{`bob`, `line 8, column 8: players: red: "bob" is not one mail address: write it as name@domain`},
	}
	for _, c := range cases {
		f := newFixture(t)
		prepared := 0
		f.desk.PrepareAddresses = func(context.Context, []string) (string, error) { prepared++; return "", nil }
		// Line 8 of the body holds red's address.
		body := "Please start this one.\n---\ncommand: new\nid: race-2\nruleset: race\nscenario: sprint\nplayers:\n  red: " + c.red + "\n  blue: b@example.org\n"
		out := f.handle(f.mail("ref@example.org", body))
		if out.Folder != referee.Rejected || out.Game != "" {
			t.Errorf("%s: %+v", c.red, out)
		}
		if prepared != 0 {
			t.Errorf("%s: mailboxes were prepared for a refused command", c.red)
		}
		if ids, _ := f.st.Games(context.Background()); len(ids) != 1 {
			t.Errorf("%s: games %v", c.red, ids)
		}
		msgs := f.outbox()
		if len(msgs) == 0 {
			t.Fatalf("%s: no reply", c.red)
		}
		reply := unfold(string(msgs[len(msgs)-1].Raw))
		if !strings.Contains(reply, "The game was not created:") || !strings.Contains(reply, c.want) {
			t.Errorf("%s: the reply does not say %q:\n%s", c.red, c.want, reply)
		}
	}
}

// unfold undoes quoted-printable soft line breaks, enough to search a
// reply's text.
func unfold(s string) string {
	s = strings.ReplaceAll(s, "=\r\n", "")
	return strings.ReplaceAll(s, "=3D", "=")
}
