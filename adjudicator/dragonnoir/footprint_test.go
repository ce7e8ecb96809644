package dragonnoir

import (
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// footprintState is La Fosse with guard-1 (facing N) at 0703 and the
// characters of units, from a position as a rule case gives it.
func footprintState(t *testing.T, units string) *State {
	t.Helper()
	d, err := builtinData()
	if err != nil {
		t.Fatal(err)
	}
	st, err := positionSetup(d, Rules{}, []byte("map: fosse\nunits: [{unit: guard-1, at: \"0703\"}"+units+"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// decide adjudicates one mail of side on st and fails the test on a
// panic or an error, saying which.
func decide(t *testing.T, st *State, side adjudicator.Side, o adjudicator.Orders, faces ...int) *adjudicator.Resolution {
	t.Helper()
	r := adjudicator.NewResolution(Ruleset, st, &dice.Script{Faces: faces})
	func() {
		defer func() {
			if p := recover(); p != nil {
				t.Fatalf("the %s mail's adjudication panics: %v", side, p)
			}
		}()
		if err := Ruleset.Decide(r, []adjudicator.Submission{{Side: side, Orders: o}}); err != nil {
			t.Fatalf("the %s mail's adjudication: %v", side, err)
		}
	}()
	return r
}

// TestFootprintOffTheBoard: a Guard whose triangle hangs off the board —
// as an engine before the footprint checks could leave it, and as its
// games' event logs still replay — covers only its hexes on the map, and
// a whole Adventurer player-turn with its Gharv interphase (which reads
// the terrain of every location of every character) is adjudicated
// without reading the terrain of a hex that is not there.
func TestFootprintOffTheBoard(t *testing.T) {
	st := footprintState(t, `, {unit: zacharie, at: "0104"}`)
	g := st.Chars["guard-1"]
	st = Ruleset.Evolve(st, &Moved{Unit: g.ID, Path: []string{"0703", "0802"}, Kind: "retreat"}).(*State)
	g = st.Chars["guard-1"]
	if hs := st.footprint(g).Hexes(); st.board.OnMap(hs[2]) {
		t.Fatalf("guard-1 at 0802 facing N covers %v: the test wants a hex off the map", hs)
	}
	for _, l := range st.Locs(g) {
		if !st.board.OnMap(l.Hex) {
			t.Errorf("guard-1's locations %v include %s, off the map", st.Locs(g), l.Hex)
		}
	}
	if n := len(st.Locs(g)); n != 2 {
		t.Errorf("guard-1 hanging off the board covers %d locations, want its 2 on the map", n)
	}
	r := decide(t, st, Adventurers, &Orders{})
	if got := r.State().(*State).Step; got != StepKrobs {
		t.Errorf("after the Adventurer mail the step is %s, want %s", got, StepKrobs)
	}
}

// TestStandOKWholeFootprint: a counter of several hexes put back on the
// map by a spell (resurrect: freeNear and standOK) stands where its whole
// footprint is on the map, on locations it may enter, with nobody on any
// of them — not on its anchor alone.
func TestStandOKWholeFootprint(t *testing.T) {
	for _, c := range []struct {
		name, units string
	}{
		{"a friend on a hex of its triangle", `, {unit: jon, at: "0802"}`},
		{"its anchor taken, the next free anchor's triangle off the board", `, {unit: jon, at: "0703"}, {unit: arlon, at: "0602"}, {unit: laberne, at: "0603"}, {unit: zed, at: "0702"}, {unit: godiva, at: "0704"}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := footprintState(t, c.units)
			st.Chars["guard-1"].Face = Killed
			w := newWorld(adjudicator.NewResolution(Ruleset, st, &dice.Script{}))
			g := w.st().Chars["guard-1"]
			l, ok := w.freeNear(g, w.st().loc(g))
			if !ok {
				t.Fatal("no room found for guard-1")
			}
			fp, err := footprintOf(st.board, st.Kind(g), l.Hex, g.Facing)
			if err != nil {
				t.Fatal(err)
			}
			for _, h := range fp.Hexes() {
				hl := st.board.FloorLoc(h)
				switch {
				case !st.board.OnMap(h):
					t.Errorf("guard-1 rises on %s, its triangle %v hanging off the board at %s", l.Hex, fp.Hexes(), h)
				case !st.CanEnter(st.Kind(g), hl):
					t.Errorf("guard-1 rises on %s, its triangle %v on %s, where it may not stand", l.Hex, fp.Hexes(), h)
				case w.occupied(g, hl):
					t.Errorf("guard-1 rises on %s, its triangle %v on %s, where someone stands", l.Hex, fp.Hexes(), h)
				}
			}
		})
	}
}
