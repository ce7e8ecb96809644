package referee_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// TestKeys: what Keys says of each kind of mail, and, for each, that what
// Handle then changed lies within the keys: every game whose log grew, and
// the game the outcome names, is one of its "game:" keys — unless the mail
// has no keys (it is handled alone).
func TestKeys(t *testing.T) {
	f := newFixture(t)
	s2 := f.raceGame("race-2", map[string]string{"turns": "1", "press": "open"})
	ctx := context.Background()
	threadMail := func(from, subject, body string) []byte {
		f.n++
		return fmt.Appendf(nil, "From: %s\r\nTo: umpire@example.org\r\nSubject: %s\r\nMessage-ID: <k%d@example.org>\r\n\r\n%s", from, subject, f.n, strings.ReplaceAll(body, "\n", "\r\n"))
	}
	secret := func(s map[adjudicator.Side]string, side string) string { return s[adjudicator.Side(side)] }
	cases := []struct {
		name string
		raw  []byte
		want []string // the keys but "id:" (nil: none at all)
	}{
		{"orders", f.mail("Red <Red@Example.org>", f.bid("red", 1)),
			[]string{"from:red@example.org", "game:race-1"}},
		{"orders in a thread of another game", threadMail("blue@example.org", "Re: [umpire race-2] Welcome", f.bid("blue", 0)),
			[]string{"from:blue@example.org", "game:race-2", "game:race-1"}},
		{"orders without a game", threadMail("blue@example.org", "Re: [umpire race-2] Welcome", "side: blue\norders:\n  bid: 1\n"),
			[]string{"from:blue@example.org", "game:race-2"}},
		{"orders that are not YAML", threadMail("red@example.org", "Re: [umpire race-2] Welcome", "game: [race-1\n"),
			[]string{"from:red@example.org", "game:race-2"}},
		{"no orders at all", threadMail("red@example.org", "Re: [umpire race-1] Results", ""),
			[]string{"from:red@example.org", "game:race-1"}},
		{"press", f.mail("red@example.org", fmt.Sprintf("command: press\ngame: race-2\nside: red\nsecret: %s\nto: blue\ntext: hello\n", secret(s2, "red"))),
			[]string{"from:red@example.org", "game:race-2"}},
		{"status", f.mail("blue@example.org", fmt.Sprintf("command: status\ngame: race-2\nside: blue\nsecret: %s\n", secret(s2, "blue"))),
			[]string{"from:blue@example.org", "game:race-2"}},
		{"away", f.mail("blue@example.org", fmt.Sprintf("command: away\ngame: race-2\nside: blue\nsecret: %s\nuntil: 2026-12-01\n", secret(s2, "blue"))),
			[]string{"from:blue@example.org", "game:race-2"}},
		{"status with a wrong secret", f.mail("blue@example.org", "command: status\ngame: race-1\nside: blue\nsecret: nope\n"),
			[]string{"from:blue@example.org", "game:race-1"}},
		{"help", f.mail("red@example.org", "command: help\n"), []string{"from:red@example.org"}},
		{"stranger", f.mail("who@elsewhere.example", "hello"), []string{"from:who@elsewhere.example"}},
		{"referee's pause", f.mail("ref@example.org", "command: pause\ngame: race-2\nreason: a break\n"), nil},
		{"referee's new game", f.mail("ref@example.org", "command: new\nid: race-3\nruleset: race\nscenario: sprint\nplayers: {red: x@example.org, blue: y@example.org}\n"), nil},
		{"referee's unlock", f.mail("ref@example.org", "command: unlock\ngame: race-1\n"), nil},
		{"a player's try at a referee's command", f.mail("red@example.org", "command: replace\ngame: race-1\nside: blue\naddress: red@example.org\n"), nil},
		{"orders for the new game", f.mail("x@example.org", "game: race-3\nside: red\nsecret: nope\norders:\n  bid: 1\n"),
			[]string{"from:x@example.org", "game:race-3"}},
		{"unreadable header", []byte("this is not a mail\r\n"), nil},
	}
	for _, c := range cases {
		keys := f.desk.Keys(c.raw)
		var rest []string
		ids := 0
		for _, k := range keys {
			if strings.HasPrefix(k, "id:") {
				ids++
				continue
			}
			rest = append(rest, k)
		}
		if c.want == nil {
			if keys != nil {
				t.Errorf("%s: keys %q, want none", c.name, keys)
			}
		} else if !slices.Equal(rest, c.want) || ids != 1 {
			t.Errorf("%s: keys %q, want %q and one id", c.name, keys, c.want)
		}

		before := f.versions(ctx)
		out := f.handle(c.raw)
		after := f.versions(ctx)
		if keys == nil {
			continue
		}
		if out.Game != "" && !slices.Contains(keys, "game:"+out.Game) {
			t.Errorf("%s: handled as a mail of game %s, keys %q (%+v)", c.name, out.Game, keys, out)
		}
		for id, v := range after {
			if v != before[id] && !slices.Contains(keys, "game:"+id) {
				t.Errorf("%s: game %s changed (version %d to %d), keys %q (%+v)", c.name, id, before[id], v, keys, out)
			}
		}
	}
	if _, ok := f.versions(ctx)["race-3"]; !ok {
		t.Error("the referee's new game was not created: the case after it tested nothing")
	}
}

// versions is every game's version.
func (f *fixture) versions(ctx context.Context) map[string]uint64 {
	f.t.Helper()
	ids, err := f.st.Games(ctx)
	if err != nil {
		f.t.Fatal(err)
	}
	out := map[string]uint64{}
	for _, id := range ids {
		v, err := f.st.Version(ctx, id)
		if err != nil {
			f.t.Fatal(err)
		}
		out[id] = v
	}
	return out
}
