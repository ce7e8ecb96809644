package dragonrage

import (
	"fmt"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// The reach of every major monster's areas, restated from the rules' text
// as offsets from its facing (0 = the hex it faces, 1 = right front,
// 2 = right rear, 3 = behind, 4 = left rear, 5 = left front; "own" = its
// hex), independently of the record sheets' position names and of
// relation(): the tests below compare the engine with these tables on an
// open map, every facing, every neighbour.
type reachRow struct {
	offsets []int
	own     bool
}

// attacksInto is where each area's groups strike (DR-DRAGON-ATK-3,
// DR-YDRAGON-3, DR-ROC-8 with DR-AMB-22, DR-WYVERN-7).
var attacksInto = map[string]map[string]reachRow{
	"DRAGON":  {"head": {[]int{5, 0, 1}, true}, "wings": {[]int{5, 0, 1}, false}, "legs": {[]int{0, 1, 2, 3, 4, 5}, true}},
	"YDRAGON": {"head": {[]int{5, 0, 1}, true}, "wings": {[]int{5, 0, 1}, false}, "legs": {[]int{0, 1, 2, 3, 4, 5}, true}},
	"ROC":     {"head": {[]int{0, 1, 2, 4, 5}, true}, "wings": {[]int{0, 1, 2, 4, 5}, false}, "legs": {[]int{0, 1, 2, 3, 4, 5}, true}},
	"WYVERN":  {"head": {[]int{5, 0, 1}, true}, "legs": {[]int{0, 1, 2, 3, 4, 5}, true}},
}

// attackedFrom is where each area is attacked from on the ground
// (DR-DRAGON-DEF-1, -5, -7, -9, DR-YDRAGON-3, DR-ROC-10 with DR-AMB-16,
// DR-WYVERN-9).
var attackedFromTable = map[string]map[string]reachRow{
	"DRAGON":  {"head": {[]int{0}, false}, "wings": {[]int{1, 2, 4, 5}, false}, "legs": {[]int{0, 1, 2, 3, 4, 5}, true}, "belly": {nil, true}},
	"YDRAGON": {"head": {[]int{0}, false}, "wings": {[]int{1, 2, 4, 5}, false}, "legs": {[]int{0, 1, 2, 3, 4, 5}, true}, "belly": {nil, true}},
	"ROC":     {"head": {[]int{0}, false}, "wings": {[]int{1, 2, 4, 5}, false}, "legs": {[]int{0, 1, 2, 3, 4, 5}, true}, "belly": {nil, true}},
	"WYVERN":  {"head": {[]int{0}, false}, "legs": {[]int{0, 1, 2, 3, 4, 5}, true}, "belly": {nil, true}},
}

// openWorld sets up a major monster of type code in 0505 facing f on an
// open map, with an infantry unit of the defender in 0909.
func openWorld(t *testing.T, code string, f hex.Direction) (*world, *Unit, *Unit) {
	t.Helper()
	pos := fmt.Sprintf(`map: {cols: 10, rows: 10}
goal: 10
turn: 1
phase: defender-melee
units:
  - {id: M-1, type: %s, side: invader, at: "0505", facing: %s}
  - {id: INF-1, type: INF, side: defender, at: "0909"}
`, code, f)
	s, err := Ruleset.Setup(adjudicator.Setup{Position: []byte(pos)})
	if err != nil {
		t.Fatal(err)
	}
	st := s.(*State)
	return newWorld(st, nil), st.unit("M-1"), st.unit("INF-1")
}

func (r reachRow) has(at, h hex.Hex, f hex.Direction) bool {
	if h == at {
		return r.own
	}
	for _, o := range r.offsets {
		if at.Neighbour(f.Rotate(o)) == h {
			return true
		}
	}
	return false
}

// TestMajorReach compares, for every major monster, facing and hex around
// it, the areas whose groups may strike that hex with attacksInto.
func TestMajorReach(t *testing.T) {
	for code, areas := range attacksInto {
		for f := hex.Direction(0); f < 6; f++ {
			w, m, _ := openWorld(t, code, f)
			at := w.st.hexOf(m)
			ns := at.Neighbours()
			for _, h := range append([]hex.Hex{at}, ns[:]...) {
				for _, a := range w.st.major(m).Areas {
					want := false
					if row, ok := areas[a.Name]; ok {
						want = row.has(at, h, f)
					}
					got := a.Strength > 0 && w.areaStrikes(m, a, h) == ""
					if got != want {
						t.Errorf("%s facing %s: %s on %s: strikes %v, the rules say %v (%s)", code, f, a.Name, h, got, want, w.areaStrikes(m, a, h))
					}
				}
			}
		}
	}
}

// TestMajorAttackedFrom compares, for every major monster, facing and
// hex around it, the areas a unit standing there may attack with
// attackedFromTable.
func TestMajorAttackedFrom(t *testing.T) {
	for code, areas := range attackedFromTable {
		for f := hex.Direction(0); f < 6; f++ {
			w, m, inf := openWorld(t, code, f)
			at := w.st.hexOf(m)
			ns := at.Neighbours()
			for _, h := range append([]hex.Hex{at}, ns[:]...) {
				inf.Hex = h.String()
				for _, a := range w.st.major(m).Areas {
					want := areas[a.Name].has(at, h, f)
					_, why, _ := w.strikeProblem(inf, m, a, false)
					if got := why == ""; got != want {
						t.Errorf("%s facing %s: %s from %s: allowed %v, the rules say %v (%s)", code, f, a.Name, h, got, want, why)
					}
				}
			}
		}
	}
}

// TestHeadFromTheFrontThree checks DR-DRAGON-DEF-1's second sentence: with
// both wings and all legs lost, a Dragon's head is attacked from the three
// front hexes, and not before.
func TestHeadFromTheFrontThree(t *testing.T) {
	w, m, inf := openWorld(t, "DRAGON", hex.N)
	at := w.st.hexOf(m)
	head := w.st.major(m).area("head")
	left := at.Neighbour(hex.NW)
	inf.Hex = left.String()
	if _, why, _ := w.strikeProblem(inf, m, head, false); why == "" {
		t.Fatal("the head of a whole Dragon is attacked from its left front")
	}
	s := w.st.sheet(m)
	absorb(s.def, s.hits, "wings", 12)
	absorb(s.def, s.hits, "legs", 11)
	m.Hits = s.hits
	if _, why, _ := w.strikeProblem(inf, m, head, false); why == "" {
		t.Fatal("the head is attacked from its left front with a leg group left")
	}
	absorb(s.def, s.hits, "legs", 1)
	m.Hits = s.hits
	if _, why, _ := w.strikeProblem(inf, m, head, false); why != "" {
		t.Fatalf("with both wings and all legs lost the head is attacked from the three front hexes: %s", why)
	}
}

// TestReadGroup checks the ways players write groups and areas.
func TestReadGroup(t *testing.T) {
	d, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	m := d.Types["DRAGON"].Major
	for in, want := range map[string]string{
		"head": "head", "Wings": "wings", "wing": "wings", "legs.1": "legs.1", "legs-4": "legs.4",
		"leg 2": "legs.2", "legs3": "legs.3", "wings.2": "wings.2", " WING 1 ": "wings.1",
	} {
		a, i, ok := readGroup(m, in)
		if !ok {
			t.Errorf("%q not read", in)
			continue
		}
		got := a.Name
		if i >= 0 {
			got = majorGroup{area: a, i: i}.name()
		}
		if got != want {
			t.Errorf("%q read as %q, want %q", in, got, want)
		}
	}
	for _, in := range []string{"tail", "wings.3", "legs.0", "legs.x", "head.2", ""} {
		if _, _, ok := readGroup(m, in); ok {
			t.Errorf("%q read, want refused", in)
		}
	}
}
