package tournament

import (
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// The pairing procedures are pure functions of the standings and of the
// round's draw (the order the dice drew every player in), so that a
// referee can check them by hand and tests can run them on many draws.

// entrant is a player as the Swiss pairing sees him.
type entrant struct {
	Side       adjudicator.Side
	Points     int
	Resistance int
	Floated    int
	Byes       int
	Met        []adjudicator.Side
	pos        int // place in the round's draw, from 0
}

// pairing is what a pairing procedure decides.
type pairing struct {
	Pairs  [][2]adjudicator.Side // the first of each pair invades in game a
	Bye    adjudicator.Side
	Floats []adjudicator.Side
}

// budget bounds the search of one round's pairing: past it, the round
// cannot be paired (the tournament then ends). Counting steps, not time,
// keeps the outcome the same on every machine.
const budget = 2_000_000

// pairSwiss pairs a Swiss round (DR-TOUR-7); ok is false when no pairing
// without a rematch was found.
//
//  1. Bye (odd count): the candidates are the players without a bye yet
//     (all players, when every one has had one), the fewest points first
//     and, among equal points, the latest drawn first. The first candidate
//     with whom the others can be paired gets it.
//  2. The others are taken in score groups, the most points first; inside
//     a group, in the order of the draw.
//  3. Players floated down from the group above are paired first, each in
//     turn with the first player of this group (in draw order) he has not
//     met; one who has met them all floats on to the next group.
//  4. If the rest of the group is odd, one of them must be paired down
//     (FR §5.2): the one who has not yet been paired down, then the one
//     with the fewest resistance points, then the first drawn.
//  5. The rest is paired in draw order: the first with the next he has
//     not met, and so on.
//  6. Whenever a step leaves no way on, the search goes back to the last
//     choice and takes the next candidate in the same order (the next
//     partner, the next player to float down, then two of them instead of
//     one), so the first pairing in that order without a rematch is used.
func pairSwiss(es []entrant) (pairing, bool) {
	steps := 0
	rest := slices.Clone(es)
	if len(es)%2 == 1 {
		cands := slices.Clone(es)
		if slices.ContainsFunc(cands, func(e entrant) bool { return e.Byes == 0 }) {
			cands = slices.DeleteFunc(cands, func(e entrant) bool { return e.Byes > 0 })
		}
		slices.SortStableFunc(cands, func(a, b entrant) int {
			if a.Points != b.Points {
				return a.Points - b.Points
			}
			return b.pos - a.pos
		})
		for _, c := range cands {
			others := slices.DeleteFunc(slices.Clone(es), func(e entrant) bool { return e.Side == c.Side })
			if p, ok := pairGroups(others, &steps); ok {
				p.Bye = c.Side
				return p, true
			}
			if steps > budget {
				break
			}
		}
		return pairing{}, false
	}
	return pairGroups(rest, &steps)
}

// pairGroups runs steps 2 to 6 on an even number of players.
func pairGroups(es []entrant, steps *int) (pairing, bool) {
	sorted := slices.Clone(es)
	slices.SortStableFunc(sorted, func(a, b entrant) int {
		if a.Points != b.Points {
			return b.Points - a.Points
		}
		return a.pos - b.pos
	})
	var groups [][]entrant
	for i, e := range sorted {
		if i == 0 || e.Points != sorted[i-1].Points {
			groups = append(groups, nil)
		}
		groups[len(groups)-1] = append(groups[len(groups)-1], e)
	}
	s := &search{groups: groups, steps: steps}
	if !s.group(0, nil) {
		return pairing{}, false
	}
	return pairing{Pairs: s.pairs, Floats: s.floats}, true
}

type search struct {
	groups [][]entrant
	pairs  [][2]adjudicator.Side
	floats []adjudicator.Side
	steps  *int
}

func (s *search) tick() bool {
	*s.steps++
	return *s.steps <= budget
}

func met(a, b entrant) bool { return slices.Contains(a.Met, b.Side) }

func (s *search) push(a, b entrant) {
	s.pairs = append(s.pairs, [2]adjudicator.Side{a.Side, b.Side})
	if a.Points > b.Points {
		s.floats = append(s.floats, a.Side)
	}
}

func (s *search) pop(a, b entrant) {
	s.pairs = s.pairs[:len(s.pairs)-1]
	if a.Points > b.Points {
		s.floats = s.floats[:len(s.floats)-1]
	}
}

// group pairs group i, down being the players floated from above.
func (s *search) group(i int, down []entrant) bool {
	if !s.tick() {
		return false
	}
	if i == len(s.groups) {
		return len(down) == 0
	}
	return s.pairDown(i, down, 0, slices.Clone(s.groups[i]), nil)
}

// pairDown pairs down[j:] with players of avail (step 3).
func (s *search) pairDown(i int, down []entrant, j int, avail, next []entrant) bool {
	if !s.tick() {
		return false
	}
	if j == len(down) {
		return s.floatSome(i, avail, next)
	}
	f := down[j]
	for k, m := range avail {
		if met(f, m) {
			continue
		}
		s.push(f, m)
		if s.pairDown(i, down, j+1, without(avail, k), next) {
			return true
		}
		s.pop(f, m)
	}
	if i+1 < len(s.groups) {
		return s.pairDown(i, down, j+1, avail, append(slices.Clone(next), f))
	}
	return false
}

// floatSome chooses who of avail floats down (step 4, and step 6's two or
// more), then pairs the rest.
func (s *search) floatSome(i int, avail, next []entrant) bool {
	pref := slices.Clone(avail)
	slices.SortStableFunc(pref, func(a, b entrant) int {
		if (a.Floated > 0) != (b.Floated > 0) {
			if a.Floated == 0 {
				return -1
			}
			return 1
		}
		if a.Resistance != b.Resistance {
			return a.Resistance - b.Resistance
		}
		return a.pos - b.pos
	})
	last := i+1 == len(s.groups)
	for k := len(avail) % 2; k <= len(avail); k += 2 {
		if last && k > 0 {
			return false
		}
		ok := combinations(len(pref), k, func(idx []int) bool {
			var fl []entrant
			rest := slices.Clone(avail)
			for _, x := range idx {
				fl = append(fl, pref[x])
				rest = slices.DeleteFunc(rest, func(e entrant) bool { return e.Side == pref[x].Side })
			}
			return s.pairRest(i, rest, append(slices.Clone(next), fl...))
		})
		if ok {
			return true
		}
		if *s.steps > budget {
			return false
		}
	}
	return false
}

// pairRest pairs the rest of a group in draw order (step 5).
func (s *search) pairRest(i int, rest, next []entrant) bool {
	if !s.tick() {
		return false
	}
	if len(rest) == 0 {
		return s.group(i+1, next)
	}
	p := rest[0]
	for k := 1; k < len(rest); k++ {
		q := rest[k]
		if met(p, q) {
			continue
		}
		s.push(p, q)
		if s.pairRest(i, without(without(rest, k), 0), next) {
			return true
		}
		s.pop(p, q)
	}
	return false
}

func without(es []entrant, k int) []entrant {
	out := make([]entrant, 0, len(es)-1)
	out = append(out, es[:k]...)
	return append(out, es[k+1:]...)
}

// combinations calls f with each k-subset of 0..n-1 in lexicographic
// order until f returns true.
func combinations(n, k int, f func([]int) bool) bool {
	idx := make([]int, k)
	var rec func(start, d int) bool
	rec = func(start, d int) bool {
		if d == k {
			return f(idx)
		}
		for x := start; x <= n-(k-d); x++ {
			idx[d] = x
			if rec(x+1, d+1) {
				return true
			}
		}
		return false
	}
	return rec(0, 0)
}

// pairBracket pairs an elimination bracket (DR-TOUR-6) in its order, the
// bye already taken out: each player in turn with the next one still
// unpaired, except that two players whose match was tied in the round
// before are not paired again at once when another way exists (the first
// such pairing in bracket order is used). ok is false only for an odd
// list.
func pairBracket(order []adjudicator.Side, tied func(a, b adjudicator.Side) bool) ([][2]adjudicator.Side, bool) {
	if len(order)%2 == 1 {
		return nil, false
	}
	var pairs [][2]adjudicator.Side
	steps := 0
	var rec func(rest []adjudicator.Side) bool
	rec = func(rest []adjudicator.Side) bool {
		steps++
		if steps > budget {
			return false
		}
		if len(rest) == 0 {
			return true
		}
		for k := 1; k < len(rest); k++ {
			if tied(rest[0], rest[k]) {
				continue
			}
			pairs = append(pairs, [2]adjudicator.Side{rest[0], rest[k]})
			next := append(slices.Clone(rest[1:k]), rest[k+1:]...)
			if rec(next) {
				return true
			}
			pairs = pairs[:len(pairs)-1]
		}
		return false
	}
	if rec(order) {
		return pairs, true
	}
	pairs = nil
	for i := 0; i < len(order); i += 2 {
		pairs = append(pairs, [2]adjudicator.Side{order[i], order[i+1]})
	}
	return pairs, true
}

// seedOrder is the bracket order of eight seeds: 1 meets 8 and 4 meets 5,
// their winners meeting; 2 meets 7 and 3 meets 6.
var seedOrder = []int{1, 8, 4, 5, 2, 7, 3, 6}
