package dragonrage

import (
	"maps"
	"slices"
	"testing"
)

// TestLightningSpreadIsLegal checks lightningSpread against DR-AMB-54 read
// on its own: for every major monster, over a grid of damaged sheets and
// every power, the spread must be one that some legal point-by-point
// allocation reaches (an undamaged area first while one is left, else an
// area with no more points of this bolt than any other not destroyed;
// destroyed areas skipped), the points must add up, and points are lost
// only when every area is destroyed.
func TestLightningSpreadIsLegal(t *testing.T) {
	d, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	for _, code := range []string{"DRAGON", "YDRAGON", "ROC", "WYVERN"} {
		m := d.Types[code].Major
		for _, lost := range sheetGrid(m) {
			s := Sheet{def: m, hits: lost}
			for n := 1; n <= 6; n++ {
				for _, owner := range [][]string{nil, {"head", "belly"}, m.AreaNames()} { // any standing order is legal too
					parts, gone := lightningSpread(s, n, owner)
					got := map[string]int{}
					sum := 0
					for _, p := range parts {
						if p.Points <= 0 || got[p.Area] != 0 {
							t.Fatalf("%s %v power %d: bad part %+v in %+v", code, lost, n, p, parts)
						}
						got[p.Area] = p.Points
						sum += p.Points
					}
					if sum+gone != n {
						t.Fatalf("%s %v power %d: %d spread + %d lost != %d", code, lost, n, sum, gone, n)
					}
					if !reachable(s, got, map[string]int{}, sum) {
						t.Fatalf("%s %v power %d: %v is not a spread DR-AMB-54 allows", code, lost, n, got)
					}
					if gone > 0 {
						after := Sheet{def: m, hits: slices.Clone(lost)}
						for a, k := range got {
							absorb(m, after.hits, a, k)
						}
						for _, a := range m.AreaNames() {
							if !after.Destroyed(a) {
								t.Fatalf("%s %v power %d: %d points lost while the %s stands", code, lost, n, gone, a)
							}
						}
					}
				}
			}
		}
	}
}

// reachable reports whether legal single points, given one at a time,
// can bring the allocation done to want with left points to give.
func reachable(s Sheet, want, done map[string]int, left int) bool {
	if left == 0 {
		return maps.Equal(want, done)
	}
	var standing, fresh []string
	for _, a := range s.def.AreaNames() {
		if s.Destroyed(a) {
			continue
		}
		standing = append(standing, a)
		if s.Lost(a) == 0 {
			fresh = append(fresh, a)
		}
	}
	allowed := fresh
	if len(fresh) == 0 {
		least := -1
		for _, a := range standing {
			if least < 0 || done[a] < least {
				least = done[a]
			}
		}
		for _, a := range standing {
			if done[a] == least {
				allowed = append(allowed, a)
			}
		}
	}
	for _, a := range allowed {
		if done[a] >= want[a] {
			continue
		}
		hits := slices.Clone(s.hits)
		absorb(s.def, hits, a, 1)
		next := maps.Clone(done)
		next[a]++
		if reachable(Sheet{def: s.def, hits: hits}, want, next, left-1) {
			return true
		}
	}
	return false
}

// sheetGrid is a set of damage states of a record sheet: each area
// undamaged, hit once, or destroyed, in every combination.
func sheetGrid(m *MajorDef) [][]int {
	out := [][]int{nil}
	for _, a := range m.AreaNames() {
		var next [][]int
		for _, base := range out {
			for _, lost := range []int{0, 1, 1000} {
				hits := slices.Clone(base)
				if hits == nil {
					hits = make([]int, sheetSize(m))
				}
				absorb(m, hits, a, lost)
				next = append(next, hits)
			}
		}
		out = next
	}
	return out
}

// sheetSize is the number of groups on a record sheet.
func sheetSize(m *MajorDef) int {
	n := 0
	for _, a := range m.Areas {
		n += len(a.Groups)
	}
	return n
}
