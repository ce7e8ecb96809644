package conquete_test

import (
	"bytes"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir/conquete"
	"github.com/umpire-pbem/umpire/adjudicator/render"
)

// hiddenMoveState is the state after the Reptilians' stealthy Scouts (R2)
// went from Fort Ekal to La Croisée unseen (DN3-CAMP-STEALTH-4).
func hiddenMoveState(t *testing.T) *conquete.State {
	t.Helper()
	g, fails := playDirect(t, loadCase(t, "move/DN3-CAMP-STEALTH-4-a-hidden-move.yaml"))
	if len(fails) > 0 {
		t.Fatal(fails)
	}
	return g.st.(*conquete.State)
}

func regionGraph(t *testing.T, st *conquete.State, viewer adjudicator.Side) adjudicator.RegionGraph {
	t.Helper()
	g, ok := conquete.Ruleset.(adjudicator.RegionMaps).RegionGraph(st, viewer)
	if !ok {
		t.Fatal("the campaign has no map of regions")
	}
	if p := g.Problems(); len(p) > 0 {
		t.Fatalf("%s's map of regions: %v", viewer, p)
	}
	return g
}

func items(g adjudicator.RegionGraph, region string) []adjudicator.RegionItem {
	r, _ := g.Region(region)
	return r.Items
}

// TestRegionGraph checks the valley's picture: every Region of
// valley.yaml where the file puts it, the viewer's troops with their
// size, the other's visible troops as bare markers, its stealthy troop
// nowhere, fog where the viewer has no troop, the people markers.
func TestRegionGraph(t *testing.T) {
	st := hiddenMoveState(t)
	d := st.Data()
	reb := regionGraph(t, st, conquete.Rebels)
	if len(reb.Regions) != len(d.Order) {
		t.Fatalf("%d regions drawn, want %d", len(reb.Regions), len(d.Order))
	}
	for _, r := range reb.Regions {
		if m := d.Regions[r.ID]; m == nil || m.X != r.X || m.Y != r.Y || m.Name != r.Name {
			t.Errorf("region %s at (%d, %d), want valley.yaml's %+v", r.ID, r.X, r.Y, m)
		}
	}
	if len(reb.Paths) != len(d.Paths) {
		t.Errorf("%d paths drawn, want %d", len(reb.Paths), len(d.Paths))
	}
	if got := items(reb, "la-croisee"); len(got) != 1 || got[0].Label != "R1 (1)" || got[0].Side != conquete.Rebels {
		t.Errorf("the Rebels see at La Croisée %+v, want their R1 (1) alone", got)
	}
	if got := items(reb, "fort-ekal"); len(got) != 1 || got[0].Label != "R1" || got[0].Side != conquete.Reptilians {
		t.Errorf("the Rebels see at Fort Ekal %+v, want the Reptilians' bare marker R1", got)
	}
	for _, r := range reb.Regions {
		want := r.ID != "la-croisee" && r.ID != "le-pont"
		if r.Fog != want {
			t.Errorf("the Rebels' fog on %s is %v, want %v", r.ID, r.Fog, want)
		}
		for _, it := range r.Items {
			if it.Side == conquete.Reptilians && it.Label != "R1" {
				t.Errorf("the Rebels see %+v at %s", it, r.ID)
			}
		}
	}
	for _, tr := range reb.Traces {
		if tr.Side == conquete.Reptilians {
			t.Errorf("the Rebels see the trace of a stealthy move: %+v", tr)
		}
	}
	rep := regionGraph(t, st, conquete.Reptilians)
	got := items(rep, "la-croisee")
	if !slices.ContainsFunc(got, func(it adjudicator.RegionItem) bool {
		return it.Label == "R2 (2)" && slices.Contains(it.Status, "hidden")
	}) {
		t.Errorf("the Reptilians do not see their hidden R2 at La Croisée: %+v", got)
	}
	if !slices.ContainsFunc(rep.Traces, func(tr adjudicator.RegionTrace) bool {
		return tr.Label == "R2" && strings.Join(tr.Path, " ") == "fort-ekal le-pont la-croisee"
	}) {
		t.Errorf("the Reptilians do not see their own move: %+v", rep.Traces)
	}
	if r, _ := rep.Region("village-gobelin"); !slices.ContainsFunc(r.Items, func(it adjudicator.RegionItem) bool {
		return strings.HasPrefix(it.Label, "people: ")
	}) {
		t.Errorf("no people marker at the Village gobelin: %+v", r.Items)
	}
	for _, r := range regionGraph(t, st, adjudicator.Referee).Regions {
		if r.Fog {
			t.Errorf("the referee has fog on %s", r.ID)
		}
	}
}

// TestRegionPictureLeak draws each viewer's picture from two states that
// differ only in where the Reptilians' stealthy Scouts went (La Croisée
// or Le Pont): the Rebels' and an observer's graphs and pictures are the
// same, the Reptilians' are not (so the test can fail).
func TestRegionPictureLeak(t *testing.T) {
	a := hiddenMoveState(t)
	b := a.Clone()
	r2 := b.Troop(conquete.Reptilians, "R2")
	r2.Region, r2.Trail = "le-pont", []string{"fort-ekal", "le-pont"}
	draw := func(st *conquete.State, viewer adjudicator.Side) (adjudicator.RegionGraph, []byte) {
		g := regionGraph(t, st, viewer)
		pic, err := render.Regions(g, conquete.Ruleset.View(st, viewer), render.Options{Viewer: viewer,
			Sides: []adjudicator.Side{conquete.Rebels, conquete.Reptilians}})
		if err != nil {
			t.Fatal(err)
		}
		png, err := pic.PNG()
		if err != nil {
			t.Fatal(err)
		}
		return g, png
	}
	for _, viewer := range []adjudicator.Side{conquete.Rebels, adjudicator.Observer, conquete.Reptilians} {
		ga, pa := draw(a, viewer)
		gb, pb := draw(b, viewer)
		same := reflect.DeepEqual(ga, gb) && bytes.Equal(pa, pb)
		if want := viewer != conquete.Reptilians; same != want {
			t.Errorf("%s: the pictures are the same: %v, want %v", viewer, same, want)
		}
	}
}
