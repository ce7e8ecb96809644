package dragonrage_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/script"
)

// playFirst plays the first k steps of a rule case and returns the game
// then.
func playFirst(t *testing.T, file string, k int) *game.Game {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	s, err := script.Parse(file, src)
	if err != nil {
		t.Fatal(err)
	}
	s.Steps, s.Expect = s.Steps[:k], nil
	run, err := script.Play(s, lookup, script.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, st := range run.Steps {
		if st.Err != nil {
			t.Fatalf("%s step %d: %v", file, i+1, st.Err)
		}
	}
	return run.Game
}

// readyIDs are the units the view marks ready, in view order; every
// viewer must see the same marks (Dragon Rage hides no unit).
func readyIDs(t *testing.T, g *game.Game) []string {
	t.Helper()
	var want []string
	for i, viewer := range []adjudicator.Side{adjudicator.Referee, "invader", "defender", adjudicator.Observer} {
		var ids []string
		for _, u := range g.View(viewer).Units {
			if u.Ready {
				ids = append(ids, u.ID)
			}
		}
		if i == 0 {
			want = ids
		} else if !slices.Equal(ids, want) {
			t.Errorf("%s sees %v ready, the referee %v", viewer, ids, want)
		}
	}
	return want
}

// TestReady: the units marked ready are those of the side whose phase it
// is that the rules let act in it, phase by phase.
func TestReady(t *testing.T) {
	const fire = "core/fire/five-at-range-one.yaml" // e6, a sea serpent beside two archers
	cases := []struct {
		file  string
		steps int
		want  []string
	}{
		// Invader movement (no invader wizard: magic passed): every
		// invader unit on the map moves.
		{fire, 2, []string{"GIANT-1", "GIANT-2", "GIANT-3", "GIANT-4", "GIANT-5", "GIANT-6", "GOB-1", "GOB-2", "SERP-1"}},
		// Invader melee: only the serpent, next to ARH-1, may attack (the
		// goblins are out of reach, so the fire phase was passed).
		{fire, 3, []string{"SERP-1"}},
		// Defender magic: the wizard, with spell points.
		{fire, 4, []string{"WZD-1"}},
		// Defender fire: the two archers within reach of the serpent; the
		// others are too far, the rest do not shoot.
		{fire, 6, []string{"ARH-1", "ARH-2"}},
		// A decision: the hero the defender moves out of the climbing
		// troll's way, in the invader's movement phase.
		{"units/decision-climb-waits.yaml", 5, []string{"HERO-1"}},
	}
	for _, c := range cases {
		g := playFirst(t, c.file, c.steps)
		if got := readyIDs(t, g); !slices.Equal(got, c.want) {
			t.Errorf("%s after %d steps (%s): ready %v, want %v", c.file, c.steps, g.View(adjudicator.Referee).Phase, got, c.want)
		}
	}
	// Defender movement: every defender unit on the map (all of them can
	// move), no invader.
	g := playFirst(t, fire, 5)
	for _, u := range g.View("defender").Units {
		if want := u.Side == "defender" && !u.Gone && u.At != "off-map"; u.Ready != want {
			t.Errorf("defender movement: %s (%s at %s) ready %v", u.ID, u.Side, u.At, u.Ready)
		}
	}
	// Nurkott, the invader's first movement: its army waits off the map
	// and may come in by the entry hexes, so every unit of it is ready.
	g = playFirst(t, "core/fire/nurkott-palisade.yaml", 1)
	n := 0
	for _, u := range g.View("invader").Units {
		if want := u.Side == "invader"; u.Ready != want || (want && u.At != "off-map") {
			t.Errorf("Nurkott, invader movement: %s (%s at %s) ready %v", u.ID, u.Side, u.At, u.Ready)
		}
		if u.Ready {
			n++
		}
	}
	if n == 0 {
		t.Error("Nurkott, invader movement: no unit ready")
	}
}
