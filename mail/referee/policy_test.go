package referee_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/store/games"
)

// TestNoMoveDefault: with no-move=default, a side that misses its deadline
// gets the rules' default answer (a bid of 0 in race), the adjudication
// runs, and every results mail says the default was applied.
func TestNoMoveDefault(t *testing.T) {
	c := newClockDeskWith(t, "  no-move: default\n")
	ctx := context.Background()
	g, _ := c.svc.Load(ctx, "race-9")
	secrets := map[string]string{"red": c.secret("red@example.org"), "blue": c.secret("blue@example.org")}
	c.mail("red@example.org", "game: race-9\nside: red\nsecret: "+secrets["red"]+"\nturn: 1\nphase: bid\norders:\n  bid: 2\n")
	c.tickEveryMinute(g.Deadlines["t1.bid.blue"].Due.Add(time.Minute))
	g, _ = c.svc.Load(ctx, "race-9")
	if g.K != 1 {
		t.Fatalf("no adjudication after blue's deadline: K=%d", g.K)
	}
	for _, to := range []string{"red@example.org", "blue@example.org"} {
		if countWith(c.bodies(to), "the rules' default answer was applied") != 1 {
			t.Errorf("%s is not told the default was applied", to)
		}
	}
	if a, err := c.svc.Replay(ctx, "race-9"); err != nil || !a.OK() {
		t.Fatalf("replay: %+v %v", a, err)
	}
	// The next request, due after the adjudication, has its own deadline.
	for _, r := range g.Due() {
		if _, ok := g.Deadlines[r.ID]; !ok {
			t.Errorf("%s has no deadline", r.ID)
		}
	}
}

// TestNoMoveGraceAndForfeit: the first missed deadline of a side gets the
// grace once; with no-move.forfeit=1 the next one ends the game.
func TestNoMoveGraceAndForfeit(t *testing.T) {
	c := newClockDeskWith(t, "  no-move.grace: 24h\n  no-move.forfeit: \"1\"\n")
	ctx := context.Background()
	first := c.deadline("blue").Due
	c.tickEveryMinute(first.Add(time.Minute))
	if dl := c.deadline("blue"); dl.Passed || !dl.Due.Equal(first.Add(24*time.Hour)) {
		t.Fatalf("after the first miss: %+v", dl)
	}
	if countWith(c.bodies("blue@example.org"), "its one grace of 24h0m0s per game") == 0 {
		t.Error("blue is not told of its grace")
	}
	c.tickEveryMinute(first.Add(24*time.Hour + time.Minute))
	g, _ := c.svc.Load(ctx, "race-9")
	if !g.Over() || g.Ended == nil || !strings.Contains(g.View("").Result, "forfeits") {
		t.Fatalf("the game did not end by forfeit: over %v, %+v", g.Over(), g.Ended)
	}
	for _, to := range []string{"red@example.org", "blue@example.org", "ref@example.org"} {
		if countWith(c.bodies(to), "the game is over") == 0 {
			t.Errorf("%s is not told the game is over", to)
		}
	}
	if a, err := c.svc.Verify(ctx, "race-9", games.Known{}); err != nil || !a.OK() {
		t.Fatalf("verify: %+v %v", a, err)
	}
}

// TestRefereeDigest: with referee.copies=digest the referee gets no copy
// of each adjudication but, a day on, one digest of them all.
func TestRefereeDigest(t *testing.T) {
	c := newClockDeskWith(t, "  referee.copies: digest\n")
	secrets := map[string]string{"red": c.secret("red@example.org"), "blue": c.secret("blue@example.org")}
	for _, side := range []string{"red", "blue"} {
		c.mail(side+"@example.org", "game: race-9\nside: "+side+"\nsecret: "+secrets[side]+"\nturn: 1\nphase: bid\norders:\n  bid: 0\n")
	}
	if n := countWith(c.bodies("ref@example.org"), "the referee's copy"); n != 0 {
		t.Fatalf("%d copies to the referee before the digest", n)
	}
	c.tick(c.now.Add(23 * time.Hour))
	if n := countWith(c.bodies("ref@example.org"), "the referee's copy"); n != 0 {
		t.Fatalf("a digest before a day passed")
	}
	c.tick(c.now.Add(2 * time.Hour))
	c.tick(c.now.Add(time.Hour)) // not twice
	digests := 0
	for _, b := range c.bodies("ref@example.org") {
		if strings.Contains(b, "the referee's copy") {
			digests++
			if !strings.Contains(b, "Adjudication 1") || !strings.Contains(b, "bids: red 0, blue 0") {
				t.Errorf("the digest lacks adjudication 1:\n%s", b)
			}
		}
	}
	if digests != 1 {
		t.Fatalf("%d digests, want 1", digests)
	}
}
