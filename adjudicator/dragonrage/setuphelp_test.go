package dragonrage_test

import (
	"errors"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dragonrage"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/render"
	"github.com/umpire-pbem/umpire/adjudicator/script"
)

// newGame starts a game of scenario sc with no orders yet.
func newGame(t *testing.T, sc string) (*game.Game, func(side adjudicator.Side, src []byte) error) {
	t.Helper()
	secret := make([]byte, dice.SeedSize)
	rec, _, err := game.Create(game.NewGame{ID: sc, Ruleset: dragonrage.Ruleset, Scenario: sc,
		Players: []game.Player{{Side: "invader"}, {Side: "defender"}}, Time: time.Unix(0, 0), Secret: secret})
	if err != nil {
		t.Fatal(err)
	}
	g, err := game.Load([]game.Entry{{Seq: 1, Record: rec}}, lookup)
	if err != nil {
		t.Fatal(err)
	}
	vault := game.Vault{}
	n := 0
	submit := func(side adjudicator.Side, src []byte) error {
		n++
		out, err := g.Submit(game.Input{Side: side, Src: src, Time: time.Unix(int64(n), 0), Via: "test",
			Secrets: func(int) ([]byte, error) { return secret, nil }, NextSecret: dice.Hash(secret),
			Rand: zeros{}, Unseal: vault.Unseal})
		if err != nil {
			return err
		}
		vault.Keep(out.Records)
		*g = *out.Next
		return nil
	}
	return g, submit
}

func setupHelp(t *testing.T, g *game.Game, side adjudicator.Side) ([]adjudicator.Zone, string, bool) {
	t.Helper()
	for _, r := range g.Due() {
		if r.Side == side {
			return dragonrage.Ruleset.(adjudicator.SetupHelper).SetupHelp(g.State, r)
		}
	}
	return nil, "", false
}

var placeholderLine = regexp.MustCompile(`(?m)^(  [A-Z]+-[0-9]+): "____"   # (.*)$`)

// fill replaces every placeholder of a skeleton by the first hex of the
// unit's zones not yet taken, as a newcomer reading only the mail would.
func fill(t *testing.T, skeleton string, zones []adjudicator.Zone) string {
	t.Helper()
	hexes := map[string][]string{}
	for _, z := range zones {
		hexes[z.Name] = z.Hexes
	}
	taken := map[string]bool{}
	out := placeholderLine.ReplaceAllStringFunc(skeleton, func(line string) string {
		m := placeholderLine.FindStringSubmatch(line)
		for _, z := range strings.Split(m[2], " or ") {
			for _, h := range hexes[z] {
				if !taken[h] {
					taken[h] = true
					return m[1] + ": \"" + h + "\""
				}
			}
		}
		t.Fatalf("no hex left for %s", line)
		return ""
	})
	if strings.Contains(out, `"____"`) {
		t.Fatalf("placeholders left:\n%s", out)
	}
	return out
}

// TestSetupSkeletonFilled: the setup skeleton, filled with the first legal
// hexes the help lists (each zone's first, distinct), is accepted — for
// the Nurkott 2 defender (whose invader then sets up nothing, DR-SCEN-9)
// and for both sides of Esirien 2 (DR-SCEN-3, DR-SCEN-4, DR-SCEN-8).
func TestSetupSkeletonFilled(t *testing.T) {
	for _, tc := range []struct {
		scenario string
		sides    []adjudicator.Side
	}{
		{"n2", []adjudicator.Side{"defender"}},
		{"e2", []adjudicator.Side{"defender", "invader"}},
	} {
		g, submit := newGame(t, tc.scenario)
		for _, side := range tc.sides {
			zones, skel, ok := setupHelp(t, g, side)
			if !ok || len(zones) == 0 {
				t.Fatalf("%s %s: no setup help", tc.scenario, side)
			}
			if !strings.HasPrefix(skel, "turn: 0\nphase: setup\norders:\n") {
				t.Errorf("%s %s: skeleton starts\n%s", tc.scenario, side, skel)
			}
			// Valid as written except for the hexes: every unit is placed, and
			// the only problems are the placeholders.
			err := submit(side, []byte(skel))
			var es adjudicator.OrderErrors
			if !errors.As(err, &es) {
				t.Fatalf("%s %s: the bare skeleton: %v", tc.scenario, side, err)
			}
			for _, e := range es {
				if e.Code != "bad-hex" || !strings.Contains(e.Msg, "replace ____") {
					t.Errorf("%s %s: the bare skeleton: %s: %s", tc.scenario, side, e.Code, e.Msg)
				}
			}
			// Only this side's zones are drawn, for this side (and the referee).
			marks := render.SetupZoneMarks(g, side)
			if len(marks) == 0 || marks[0].Kind != "zone" || marks[0].Label != zones[0].Name {
				t.Errorf("%s %s: zone marks %v", tc.scenario, side, marks)
			}
			if len(render.SetupZoneMarks(g, adjudicator.Referee)) != len(marks) {
				t.Errorf("%s %s: the referee's picture has other zones", tc.scenario, side)
			}
			for _, other := range []adjudicator.Side{"invader", "defender", adjudicator.Observer} {
				if m := render.SetupZoneMarks(g, other); other != side && len(m) > 0 {
					t.Fatalf("%s: %s sees %s's zone marks %v", tc.scenario, other, side, m[0])
				}
			}
			if err := submit(side, []byte(fill(t, skel, zones))); err != nil {
				t.Fatalf("%s %s: the filled skeleton is refused: %v\n%s", tc.scenario, side, err, fill(t, skel, zones))
			}
		}
		if tc.scenario == "n2" {
			if _, _, ok := setupHelp(t, g, "invader"); ok {
				t.Error("n2: setup help for the invader, who sets up nothing")
			}
			if _, _, ok := setupHelp(t, g, "defender"); ok {
				t.Error("n2: setup help after the setup")
			}
		}
		if m := render.SetupZoneMarks(g, adjudicator.Referee); len(m) > 0 {
			t.Fatalf("%s: a zone mark after the setup: %v", tc.scenario, m[0])
		}
	}
}

// TestSetupErrorsOnce: the rule case setup-every-problem-once.yaml lists
// each problem once — a unit at an illegal hex is not also "not set up",
// and the zone's legal hexes are given once (DR-SCEN-8, DR-SCEN-5).
func TestSetupErrorsOnce(t *testing.T) {
	src, err := os.ReadFile("testdata/core/setup/setup-every-problem-once.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s, err := script.Parse("setup-every-problem-once.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	_, submit := newGame(t, s.Scenario)
	err = submit(adjudicator.Side(s.Steps[0].Side), []byte(s.Steps[0].Orders))
	var es adjudicator.OrderErrors
	if !errors.As(err, &es) {
		t.Fatalf("not a list of order errors: %v", err)
	}
	var got []string
	for _, e := range es {
		got = append(got, e.Code+": "+e.Msg)
	}
	all := strings.Join(got, "\n")
	want := []string{"outside-setup-zone: TRL-1 may not set up in 0202", "outside-setup-zone: GOB-1 may not set up in 0516", "stacking: hex 0805", "unit-not-placed: every unit must be set up; these are not: WRG-5"}
	if len(es) != len(want) {
		t.Errorf("%d errors, want %d:\n%s", len(es), len(want), all)
	}
	for _, w := range want {
		if !strings.Contains(all, w) {
			t.Errorf("no %q in\n%s", w, all)
		}
	}
	if strings.Count(all, "defender-setup is 0402") != 1 {
		t.Errorf("the legal hexes are not given exactly once:\n%s", all)
	}
	if missing := got[0]; !strings.HasPrefix(missing, "unit-not-placed") || strings.Contains(missing, "TRL-1") || strings.Contains(missing, "GOB-1") {
		t.Errorf("TRL-1 is reported missing too:\n%s", all)
	}
}
