package referee_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-message/mail"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/render"
	"github.com/umpire-pbem/umpire/adjudicator/testrules"
	"github.com/umpire-pbem/umpire/mail/compose"
	"github.com/umpire-pbem/umpire/mail/referee"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
	"github.com/umpire-pbem/umpire/templates"
)

// patrolGame is a game of the test ruleset patrol (played on a map of
// regions) by mail, with an observer.
type patrolGame struct {
	t       *testing.T
	st      store.Store
	desk    *referee.Desk
	secrets map[adjudicator.Side]string
	n       int
}

var patrolPlayers = map[adjudicator.Side]string{"red": "red@example.org", "blue": "blue@example.org"}

// newPatrolGame creates game p1, with a referee (who gets a copy of every
// results mail) when withReferee is set, and an observer.
func newPatrolGame(t *testing.T, withReferee bool) *patrolGame {
	t.Helper()
	ref := ""
	if withReferee {
		ref = "ref@example.org"
	}
	st := store.NewMemory()
	clock := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	svc := &games.Service{Store: st, Rules: testrules.Lookup, Now: func() time.Time { clock = clock.Add(time.Second); return clock }, Rand: &fixedRand{}}
	d := &referee.Desk{Games: svc, Templates: templates.Default(), From: compose.Address{Name: "Umpire", Address: "umpire@example.org"}, Referee: "ref@example.org"}
	c, err := svc.Create(context.Background(), games.CreateRequest{ID: "p1", Ruleset: "patrol", Scenario: "skirmish", Referee: ref,
		Options: map[string]string{"turns": "5"},
		Players: []games.Player{{Side: "red", Address: patrolPlayers["red"]}, {Side: "blue", Address: patrolPlayers["blue"]}}})
	if err != nil {
		t.Fatal(err)
	}
	p := &patrolGame{t: t, st: st, desk: d, secrets: c.Secrets}
	p.send("ref@example.org", "command: observe\ngame: p1\naddress: carol@example.org\n")
	return p
}

func (p *patrolGame) send(from, body string) {
	p.t.Helper()
	p.n++
	raw := fmt.Sprintf("From: %s\r\nTo: umpire@example.org\r\nSubject: orders\r\nMessage-ID: <p%d@example.org>\r\n\r\n%s", from, p.n, strings.ReplaceAll(body, "\n", "\r\n"))
	out, err := p.desk.Handle(context.Background(), []byte(raw))
	if err != nil || out.Folder != referee.Processed {
		p.t.Fatalf("%s: %+v %v", body, out, err)
	}
}

// turn plays one turn: each side's orders (YAML flow lists of moves).
// It returns the PNG pictures each address got, by address.
func (p *patrolGame) turn(turn int, red, blue string) map[string][][]byte {
	p.t.Helper()
	before, err := p.st.Messages(context.Background(), "")
	if err != nil {
		p.t.Fatal(err)
	}
	for _, s := range []struct {
		side   adjudicator.Side
		orders string
	}{{"red", red}, {"blue", blue}} {
		p.send(patrolPlayers[s.side], fmt.Sprintf("game: p1\nside: %s\nsecret: %s\nturn: %d\nphase: move\norders: %s\n", s.side, p.secrets[s.side], turn, s.orders))
	}
	after, err := p.st.Messages(context.Background(), "")
	if err != nil {
		p.t.Fatal(err)
	}
	out := map[string][][]byte{}
	for _, m := range after[len(before):] {
		out[m.To[0]] = append(out[m.To[0]], pngsOf(p.t, m.Raw)...)
	}
	return out
}

// pngsOf are the PNG attachments of a mail.
func pngsOf(t *testing.T, raw []byte) [][]byte {
	t.Helper()
	r, err := mail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for {
		part, err := r.NextPart()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		if h, ok := part.Header.(*mail.AttachmentHeader); ok {
			b, _ := io.ReadAll(part.Body)
			if name, _ := h.Filename(); strings.HasSuffix(name, ".png") {
				out = append(out, b)
			}
		}
	}
}

// drawn is the picture render draws of game p1 now for viewer.
func (p *patrolGame) drawn(viewer adjudicator.Side) []byte {
	p.t.Helper()
	g, err := p.desk.Games.Load(context.Background(), "p1")
	if err != nil {
		p.t.Fatal(err)
	}
	pic, ok, err := render.GameRegions(g, viewer, 1, nil)
	if !ok || err != nil {
		p.t.Fatalf("no map of regions for %q: %v", viewer, err)
	}
	b, err := pic.PNG()
	if err != nil {
		p.t.Fatal(err)
	}
	return b
}

// TestRegionPictureForEachSide: on a map of regions, each player's
// results mail carries the picture of its own side, the observer's the
// picture of what every side may see, the referee's copy the whole map;
// a results mail whose map did not change carries none.
func TestRegionPictureForEachSide(t *testing.T) {
	p := newPatrolGame(t, true)
	got := p.turn(1, "[{troop: R1, to: wood}, {troop: R2, to: meadow}]", "[{troop: B1, to: ford}]")
	want := map[string]adjudicator.Side{"red@example.org": "red", "blue@example.org": "blue", "carol@example.org": adjudicator.Observer, "ref@example.org": adjudicator.Referee}
	seen := map[string]string{}
	for addr, viewer := range want {
		pics := got[addr]
		if len(pics) != 1 {
			t.Errorf("%s got %d pictures, want 1", addr, len(pics))
			continue
		}
		if !bytes.Equal(pics[0], p.drawn(viewer)) {
			t.Errorf("%s's picture is not the map as %q sees it", addr, viewer)
		}
		if other, dup := seen[string(pics[0])]; dup {
			t.Errorf("%s and %s get the same picture", addr, other)
		}
		seen[string(pics[0])] = addr
	}
	// Turn 2: nothing moves, but the troops no longer show where they
	// came from: a new picture. Turn 3: nothing moves again: none.
	if got := p.turn(2, "[]", "[]"); len(got["red@example.org"]) != 1 || len(got["blue@example.org"]) != 1 {
		t.Errorf("turn 2 changed the map, yet red gets %d pictures and blue %d", len(got["red@example.org"]), len(got["blue@example.org"]))
	}
	if got := p.turn(3, "[]", "[]"); len(got["red@example.org"])+len(got["blue@example.org"]) != 0 {
		t.Errorf("turn 3 changed nothing, yet red gets %d pictures and blue %d", len(got["red@example.org"]), len(got["blue@example.org"]))
	}
}

// TestRegionPictureKeepsTheFog: two games that differ only in where red
// moved a troop that blue cannot see (R2, from the gate to the meadow,
// both in fog for blue, whose troops are on the hill) give blue the same
// picture, byte for byte, and red two different ones; the observer, who
// sees no troop, the same. (Blue sees R1 come into the wood, next to the
// hill.)
func TestRegionPictureKeepsTheFog(t *testing.T) {
	a, b := newPatrolGame(t, false), newPatrolGame(t, false)
	pa := a.turn(1, "[{troop: R1, to: wood}, {troop: R2, to: meadow}]", "[{troop: B2, to: hill}]")
	pb := b.turn(1, "[{troop: R1, to: wood}]", "[{troop: B2, to: hill}]")
	for _, addr := range []string{"blue@example.org", "carol@example.org"} {
		if len(pa[addr]) != 1 || len(pb[addr]) != 1 || !bytes.Equal(pa[addr][0], pb[addr][0]) {
			t.Errorf("%s's picture tells where red's R2 went in the fog", addr)
		}
	}
	if len(pa["red@example.org"]) != 1 || len(pb["red@example.org"]) != 1 || bytes.Equal(pa["red@example.org"][0], pb["red@example.org"][0]) {
		t.Error("red's picture does not show where its own R2 went")
	}
}
