package tournament

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
)

func ent(side string, points, res, floated int, met ...string) entrant {
	e := entrant{Side: adjudicator.Side(side), Points: points, Resistance: res, Floated: floated}
	for _, m := range met {
		e.Met = append(e.Met, adjudicator.Side(m))
	}
	return e
}

func drawn(es ...entrant) []entrant {
	for i := range es {
		es[i].pos = i
	}
	return es
}

func pairsText(p pairing) string {
	s := ""
	for _, pr := range p.Pairs {
		s += fmt.Sprintf("%s-%s ", pr[0], pr[1])
	}
	if p.Bye != "" {
		s += "bye " + string(p.Bye)
	}
	return s
}

// TestDRTour7PairedDown: of an odd score group, the one paired down is one
// who has not been paired down yet, then the one with the fewest
// resistance points (FR §5.2); he meets the first drawn of the next group
// he has not met.
func TestDRTour7PairedDown(t *testing.T) {
	cases := []struct {
		name string
		es   []entrant
		want string
	}{
		{"fewest resistance goes down", drawn(
			ent("p1", 2, 30, 0), ent("p2", 2, 10, 0), ent("p3", 2, 20, 0),
			ent("p4", 0, 50, 0), ent("p5", 0, 40, 0), ent("p6", 0, 60, 0)),
			"p1-p3 p2-p4 p5-p6 "},
		{"one already paired down stays up", drawn(
			ent("p1", 2, 30, 0), ent("p2", 2, 10, 1), ent("p3", 2, 20, 0),
			ent("p4", 0, 50, 0), ent("p5", 0, 40, 0), ent("p6", 0, 60, 0)),
			"p1-p2 p3-p4 p5-p6 "},
		{"the floater skips an opponent he has met", drawn(
			ent("p1", 2, 30, 0), ent("p2", 2, 10, 0, "p4"), ent("p3", 2, 20, 0),
			ent("p4", 0, 50, 0, "p2"), ent("p5", 0, 40, 0), ent("p6", 0, 60, 0)),
			"p1-p3 p2-p5 p4-p6 "},
		{"same points, draw order", drawn(
			ent("p4", 1, 0, 0), ent("p2", 1, 0, 0), ent("p3", 1, 0, 0), ent("p1", 1, 0, 0)),
			"p4-p2 p3-p1 "},
		{"bye to the fewest points, latest drawn", drawn(
			ent("p1", 0, 0, 0), ent("p2", 0, 0, 0), ent("p3", 2, 0, 0), ent("p4", 0, 0, 0), ent("p5", 1, 0, 0)),
			"p3-p5 p1-p2 bye p4"},
		{"no second bye while others had none", drawn(
			ent("p1", 0, 0, 0), ent("p2", 0, 0, 0), ent("p3", 2, 0, 0), ent("p4", 2, 0, 0), ent("p5", 1, 0, 0)),
			"p3-p4 p1-p2 bye p5"},
	}
	cases[5].es[0].Byes, cases[5].es[1].Byes = 1, 1 // p1 and p2 had theirs
	for _, c := range cases {
		p, ok := pairSwiss(c.es)
		if !ok || pairsText(p) != c.want {
			t.Errorf("%s: got %q (ok %v), want %q", c.name, pairsText(p), ok, c.want)
		}
	}
}

// TestDRTour7GoesBack: the first choice in each order would leave two
// players who have met; the search goes back and takes the next one.
func TestDRTour7GoesBack(t *testing.T) {
	es := drawn(
		ent("p1", 1, 0, 0, "p2"), ent("p2", 1, 0, 0, "p1", "p4"), ent("p3", 1, 0, 0), ent("p4", 1, 0, 0, "p2"))
	p, ok := pairSwiss(es)
	if !ok || pairsText(p) != "p1-p4 p2-p3 " {
		t.Fatalf("got %q", pairsText(p))
	}
	// Nobody can be paired: everybody has met everybody.
	es = drawn(ent("p1", 1, 0, 0, "p2", "p3", "p4"), ent("p2", 1, 0, 0, "p1", "p3", "p4"),
		ent("p3", 1, 0, 0, "p1", "p2", "p4"), ent("p4", 1, 0, 0, "p1", "p2", "p3"))
	if _, ok := pairSwiss(es); ok {
		t.Fatal("a round robin done cannot be paired again without a rematch")
	}
}

// TestDRTour7NoRematchRandomHistories pairs random histories: whenever a
// pairing without a rematch exists (found by brute force), pairSwiss finds
// one, and it never pairs players who met.
func TestDRTour7NoRematchRandomHistories(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 400 {
		n := 2 + rng.IntN(9)
		var es []entrant
		for i := range n {
			es = append(es, ent(fmt.Sprintf("p%d", i+1), rng.IntN(4), rng.IntN(50), rng.IntN(2)))
		}
		for i := range n {
			for j := i + 1; j < n; j++ {
				if rng.IntN(3) == 0 {
					es[i].Met = append(es[i].Met, es[j].Side)
					es[j].Met = append(es[j].Met, es[i].Side)
				}
			}
		}
		rng.Shuffle(n, func(i, j int) { es[i], es[j] = es[j], es[i] })
		es = drawn(es...)
		p, ok := pairSwiss(es)
		if ok != bruteForce(es) {
			t.Fatalf("trial %d: pairSwiss ok=%v, but brute force says %v", trial, ok, !ok)
		}
		if !ok {
			continue
		}
		seen := map[adjudicator.Side]bool{}
		if p.Bye != "" {
			seen[p.Bye] = true
		}
		for _, pr := range p.Pairs {
			a := es[slices.IndexFunc(es, func(e entrant) bool { return e.Side == pr[0] })]
			if slices.Contains(a.Met, pr[1]) || seen[pr[0]] || seen[pr[1]] {
				t.Fatalf("trial %d: %s-%s again or twice", trial, pr[0], pr[1])
			}
			seen[pr[0]], seen[pr[1]] = true, true
		}
		if len(seen) != n {
			t.Fatalf("trial %d: %d of %d placed", trial, len(seen), n)
		}
	}
}

// bruteForce says whether some bye (to a player without one, when there
// is one) and perfect matching avoid every rematch.
func bruteForce(es []entrant) bool {
	var rec func(rest []entrant) bool
	rec = func(rest []entrant) bool {
		if len(rest) == 0 {
			return true
		}
		for k := 1; k < len(rest); k++ {
			if !met(rest[0], rest[k]) && rec(without(without(rest, k), 0)) {
				return true
			}
		}
		return false
	}
	if len(es)%2 == 0 {
		return rec(es)
	}
	for i := range es {
		if rec(without(es, i)) {
			return true
		}
	}
	return false
}

// TestDRTour6BracketAfterATie: two players who just tied are not paired
// again at once when another pairing exists; otherwise the bracket order
// stands.
func TestDRTour6BracketAfterATie(t *testing.T) {
	tied := func(a, b adjudicator.Side) bool { return a == "p2" && b == "p4" || a == "p4" && b == "p2" }
	got, _ := pairBracket([]adjudicator.Side{"p2", "p4", "p1", "p3"}, tied)
	if fmt.Sprint(got) != "[[p2 p1] [p4 p3]]" {
		t.Errorf("got %v", got)
	}
	got, _ = pairBracket([]adjudicator.Side{"p2", "p4"}, tied)
	if fmt.Sprint(got) != "[[p2 p4]]" {
		t.Errorf("two players left: got %v", got)
	}
	got, _ = pairBracket([]adjudicator.Side{"p1", "p3", "p2", "p4"}, tied)
	if fmt.Sprint(got) != "[[p1 p2] [p3 p4]]" {
		t.Errorf("the tie further down: got %v", got)
	}
	none := func(a, b adjudicator.Side) bool { return false }
	got, _ = pairBracket([]adjudicator.Side{"p1", "p3", "p2", "p4"}, none)
	if fmt.Sprint(got) != "[[p1 p3] [p2 p4]]" {
		t.Errorf("bracket order: got %v", got)
	}
}

func TestDefaultRounds(t *testing.T) {
	for n, want := range map[int]int{2: 1, 3: 2, 4: 2, 5: 3, 8: 3, 9: 4, 16: 4, 17: 5, 32: 5, 33: 7, 64: 7} {
		if got := DefaultRounds(n); got != want {
			t.Errorf("DefaultRounds(%d) = %d, want %d (FR §5.2: 5 for 32, 7 for 64)", n, got, want)
		}
	}
}
