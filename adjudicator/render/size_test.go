package render

import (
	"bytes"
	"slices"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dragonrage"
	"github.com/umpire-pbem/umpire/adjudicator/game"
)

// maxPNG is the most a picture may weigh (issue 10): mails carry one per
// player and adjudication.
const maxPNG = 200_000

// welcomeE2 is the picture of a new game of Dragon Rage scenario E2 as the
// defender gets it with the welcome mail: Esirien with the setup zones
// shaded, the invader's army waiting off the map.
func welcomeE2(t testing.TB) *Picture {
	t.Helper()
	rec, _, err := game.Create(game.NewGame{ID: "e2", Ruleset: dragonrage.Ruleset, Scenario: "e2",
		Players: []game.Player{{Side: "invader"}, {Side: "defender"}}, Time: time.Unix(0, 0), Secret: make([]byte, dice.SeedSize)})
	if err != nil {
		t.Fatal(err)
	}
	lookup := game.Lookup(func(n string) (adjudicator.Ruleset, bool) { return dragonrage.Ruleset, n == "dragonrage" })
	g, err := game.Load([]game.Entry{{Seq: 1, Record: rec}}, lookup)
	if err != nil {
		t.Fatal(err)
	}
	pic, err := Game(loadMap(t, "esirien"), g, "defender", 1)
	if err != nil {
		t.Fatal(err)
	}
	return pic
}

// TestPictureSize: the crowded benchmark pictures and the E2 welcome
// picture, at the scale the mails use, stay under maxPNG. A PNG's size is
// deterministic, so this is exact, not a timing.
func TestPictureSize(t *testing.T) {
	pics := map[string]*Picture{"welcome-e2": welcomeE2(t)}
	for _, sc := range scenarios {
		pics[sc.name] = drawScenario(t, sc, 1)
	}
	for name, pic := range pics {
		b := encode(t, pic)
		t.Logf("%s: %dx%d, %d bytes", name, pic.Width, pic.Height, len(b))
		if len(b) >= maxPNG {
			t.Errorf("%s: the PNG is %d bytes, over %d", name, len(b), maxPNG)
		}
	}
}

// TestLayerCache: a picture drawn over a kept map layer has the bytes of
// the same picture drawn from nothing, and a change to the layer (a gate
// repaired) is drawn, not taken from the kept one.
func TestLayerCache(t *testing.T) {
	sc := scenarios[0]
	draw := func(v adjudicator.View, cold bool) []byte {
		if cold {
			layers.reset()
		}
		opt := sc.opt
		opt.Scale = 1
		pic, err := Board(loadMap(t, v.Map), v, opt)
		if err != nil {
			t.Fatal(err)
		}
		return encode(t, pic)
	}
	v := sc.view()
	cold := draw(v, true)
	if len(layers.kept) != 1 {
		t.Fatalf("%d layers kept", len(layers.kept))
	}
	if warm := draw(v, false); !bytes.Equal(warm, cold) {
		t.Error("the picture over the kept layer differs from the one drawn from nothing")
	}
	repaired := sc.view()
	repaired.Hexes = slices.DeleteFunc(repaired.Hexes, func(m adjudicator.HexMark) bool { return m.Kind == "broken" })
	warm := draw(repaired, false)
	if len(layers.kept) != 2 {
		t.Errorf("%d layers kept after a second layer", len(layers.kept))
	}
	if bytes.Equal(warm, cold) {
		t.Fatal("repairing the gate changed nothing")
	}
	if fresh := draw(repaired, true); !bytes.Equal(warm, fresh) {
		t.Error("the picture with the gate repaired, drawn while another layer was kept, differs from the one drawn from nothing")
	}
}
