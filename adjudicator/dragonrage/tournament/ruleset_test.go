package tournament_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonrage"
	"github.com/umpire-pbem/umpire/adjudicator/dragonrage/tournament"
)

func players(n int) []adjudicator.Side {
	var out []adjudicator.Side
	for i := 1; i <= n; i++ {
		out = append(out, adjudicator.Side("p"+strconv.Itoa(i)))
	}
	return out
}

// TestDRTour1Refused: Elowyn, point scenarios and campaign rules are
// refused with a message saying which rule and what to do.
func TestDRTour1Refused(t *testing.T) {
	cases := []struct {
		scenario string
		opts     map[string]string
		want     string
	}{
		{"", map[string]string{"game.elowyn": "on"}, "Elowyn is not used in tournaments (DR-TOUR-1"},
		{"", map[string]string{"elowyn": "on"}, "Elowyn is not used in tournaments (DR-TOUR-1"},
		{"", map[string]string{"game.points": "85/77"}, "point scenarios are not played in tournaments (DR-TOUR-1)"},
		{"", map[string]string{"scenario": "points-esirien"}, "point scenarios are not played in tournaments (DR-TOUR-1)"},
		{"points-nurkott", nil, "point scenarios are not played in tournaments (DR-TOUR-1)"},
		{"", map[string]string{"game.goal-adjust": "+2"}, "DR-TOUR-1"},
		{"", map[string]string{"game.forces.invader.TREX": "1"}, "DR-TOUR-1"},
		{"", map[string]string{"potential": "60"}, "campaign rules are not used in tournaments (DR-TOUR-1)"},
		{"", map[string]string{"game.campaign-game": "1"}, "campaign rules are not used in tournaments (DR-TOUR-1)"},
		{"", map[string]string{"game.balance-vp": "2"}, "campaign rules are not used in tournaments (DR-TOUR-1)"},
		{"e1", nil, `a tournament's only scenario is "tournament"`},
		{"", map[string]string{"format": "round-robin"}, "use format=swiss, single, double or swiss-top8"},
		{"", map[string]string{"scenario": "7"}, "use scenario=draw"},
		{"", map[string]string{"map": "mordor"}, "use map=esirien or map=nurkott"},
		{"", map[string]string{"format": "swiss", "rounds": "6"}, "give a number from 1 to 5"},
		{"", map[string]string{"format": "single", "rounds": "2"}, "rounds is for format=swiss or swiss-top8"},
		{"", map[string]string{"format": "swiss-top8"}, "a top 8 needs more than 8 players"},
		{"", map[string]string{"game.archers": "never"}, "the games' options (game.*)"},
		{"", map[string]string{"colour": "red"}, "a tournament takes format, rounds, map, scenario and game.OPTION"},
	}
	for _, c := range cases {
		_, err := tournament.Ruleset.Setup(adjudicator.Setup{Scenario: c.scenario, Options: c.opts, Sides: players(6)})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %v: got %v, want it to say %q", c.scenario, c.opts, err, c.want)
		}
	}
	if _, err := tournament.Ruleset.Setup(adjudicator.Setup{Scenario: tournament.ScenarioID, Sides: players(1)}); err == nil {
		t.Error("a tournament of one player was accepted")
	}
	if _, err := tournament.Ruleset.Setup(adjudicator.Setup{Scenario: tournament.ScenarioID, Sides: []adjudicator.Side{"p1", "x"}}); err == nil {
		t.Error("a side that is not pN was accepted")
	}
}

// TestFormatDefaults: single elimination up to 8 players, Swiss above
// (DR-TOUR-6, DR-TOUR-7); the games' own options go to every game.
func TestFormatDefaults(t *testing.T) {
	for n, want := range map[int]string{2: "single", 8: "single", 9: "swiss", 64: "swiss"} {
		st, err := tournament.Ruleset.Setup(adjudicator.Setup{Scenario: tournament.ScenarioID, Sides: players(n)})
		if err != nil {
			t.Fatal(err)
		}
		if got := st.(*tournament.State).Format; got != want {
			t.Errorf("%d players: format %s, want %s", n, got, want)
		}
	}
	st, err := tournament.Ruleset.Setup(adjudicator.Setup{Scenario: tournament.ScenarioID, Sides: players(4),
		Options: map[string]string{"game.archers": "may-melee", "map": "nurkott", "scenario": "1"}})
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*tournament.State)
	if s.Child["archers"] != "may-melee" || s.Map != "nurkott" || s.Draw || s.Fixed != 1 {
		t.Errorf("state %+v", s)
	}
}

// TestDRTour8NumberedScenarios: the 1d6 of DR-DICE-24 maps onto the six
// numbered scenarios of the map, in their printed order (FR §3.1, §3.2),
// and the map's VP total is every VP hex added up.
func TestDRTour8NumberedScenarios(t *testing.T) {
	for m, want := range map[string][]string{
		"esirien": {"e1", "e2", "e3", "e4", "e5", "e6"},
		"nurkott": {"n1", "n2", "n3", "n4", "n5", "n6"},
	} {
		got, err := dragonrage.NumberedScenarios(m)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("%s: %v %v, want %v", m, got, err, want)
		}
		if !strings.Contains(dragonrage.ScenarioTitle(got[0]), map[string]string{"esirien": "La Rage des Dragons", "nurkott": "Les humains attaquent!"}[m]) {
			t.Errorf("%s scenario 1 is %q (FR §5.3, §5.4 name it)", m, dragonrage.ScenarioTitle(got[0]))
		}
		mp, err := dragonrage.Ruleset.(adjudicator.HexMaps).Map(m)
		if err != nil {
			t.Fatal(err)
		}
		sum := 0
		for _, h := range mp.VPHexes() {
			sum += mp.VP(h)
		}
		total, assumed, err := dragonrage.MapVP(m)
		if err != nil || total != sum || total == 0 || !assumed {
			t.Errorf("%s: MapVP %d %v %v, the map's VP hexes add up to %d (and are assumed)", m, total, assumed, err, sum)
		}
	}
	if _, err := dragonrage.NumberedScenarios("mordor"); err == nil {
		t.Error("an unknown map has scenarios")
	}
}
