package dragonrage

import (
	"bytes"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
)

// TestCampaignOptions: the options a campaign gives its games are checked
// where they are set, with what to write instead.
func TestCampaignOptions(t *testing.T) {
	for _, c := range []struct {
		scenario string
		opts     map[string]string
		want     string // "" when accepted
	}{
		{"points-esirien", map[string]string{"campaign-game": "1"}, ""},
		{"points-nurkott", map[string]string{"campaign-game": "6", "balance-vp": "3", "points": "60/80"}, ""},
		{"points-esirien", map[string]string{"campaign-game": "0"}, "1 to 5, or 6 for a tie-break"},
		{"points-esirien", map[string]string{"campaign-game": "7"}, "1 to 5, or 6 for a tie-break"},
		{"points-esirien", map[string]string{"campaign-game": "two"}, "1 to 5, or 6 for a tie-break"},
		{"points-esirien", map[string]string{"campaign-game": "2", "balance-vp": "0"}, "a whole number from 1 to 100"},
		{"points-esirien", map[string]string{"balance-vp": "3"}, "give the game's number too, campaign-game=N"},
		{"weighted-esirien", map[string]string{"campaign-game": "1"}, "scenario weighted-esirien is not one"},
		{"e2", map[string]string{"campaign-game": "1"}, "scenario e2 is not one"},
		{"e2", map[string]string{"balance-vp": "2"}, "option balance-vp=2: it is for the games of a campaign"},
	} {
		_, err := Ruleset.Setup(adjudicator.Setup{Scenario: c.scenario, Options: c.opts})
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s %v: %v", c.scenario, c.opts, err)
		case c.want != "" && err == nil:
			t.Errorf("%s %v was set up", c.scenario, c.opts)
		case c.want != "" && !strings.Contains(err.Error(), c.want):
			t.Errorf("%s %v: %v, want it to say %q", c.scenario, c.opts, err, c.want)
		}
	}
	names := map[string]bool{}
	for _, o := range Ruleset.Info().Options {
		names[o.Name] = true
	}
	if !names["campaign-game"] || !names["balance-vp"] {
		t.Errorf("Info does not document the campaign options: %v", names)
	}
}

// TestUnitCap is Table DR-CAMP-7 and the tie-break game's ruling.
func TestUnitCap(t *testing.T) {
	for game, want := range map[int]int{1: 15, 2: 20, 3: 20, 4: 25, 5: 25, 6: 25} {
		if got := UnitCap(game); got != want {
			t.Errorf("game %d: cap %d, want %d", game, got, want)
		}
	}
}

// TestCampaignGoalFormula: DR-CAMP-9 against DR-THR-1 for the same armies.
func TestCampaignGoalFormula(t *testing.T) {
	units := func(side adjudicator.Side, n int, ty string) []NewUnit {
		var out []NewUnit
		for range n {
			out = append(out, NewUnit{Type: ty, Side: side})
		}
		return out
	}
	army := append(append(units(Invader, 1, "DRAGON"), units(Invader, 1, "YDRAGON")...), units(Invader, 3, "GIANT")...)
	army = append(append(army, units(Invader, 1, "TREX")...), units(Defender, 23, "INF")...)
	for _, c := range []struct {
		game int
		want int
	}{
		{0, 17 + 2 + 1 - 3},     // DR-THR-1: no minor monsters, every unit beyond 20
		{1, 17 + 2 + 1 + 4},     // DR-CAMP-9 in game 1: +4 minor monsters, no -3
		{3, 17 + 2 + 1 + 4},     // game 3 likewise
		{4, 17 + 2 + 1 + 4 - 3}, // games 4 and 5: beyond 20 counts
		{6, 17 + 2 + 1 + 4 - 3}, // a tie-break game as games 4 and 5 (ruling)
	} {
		st := &State{Map: "esirien", Options: map[string]string{}}
		if c.game > 0 {
			st.Options["campaign-game"] = string(rune('0' + c.game))
		}
		if got, why := st.pointGoal(army); got != c.want {
			t.Errorf("game %d: goal %d (%s), want %d", c.game, got, why, c.want)
		}
	}
}

// TestBalanceSealed: the invader's balancing markers are part of his
// hidden build, unreadable in the log until the defender's army is in;
// the build request tells him the allowance, and each side its cap.
func TestBalanceSealed(t *testing.T) {
	eg := newEngineGame(t, game.NewGame{
		ID: "c3", Ruleset: Ruleset, Scenario: "points-esirien",
		Options: map[string]string{"points": "60/80", "campaign-game": "3", "balance-vp": "4"},
		Players: []game.Player{{Side: Invader, Address: "i@example.org"}, {Side: Defender, Address: "d@example.org"}},
	})
	due := eg.g.Due()
	if len(due) != 2 {
		t.Fatalf("due %+v", due)
	}
	for _, r := range due {
		if !strings.Contains(r.Prompt, "campaign game 3: at most 20 units (DR-CAMP-7)") {
			t.Errorf("%s prompt lacks the cap: %s", r.Side, r.Prompt)
		}
		if has := strings.Contains(r.Prompt, "worth up to 4 VP"); has != (r.Side == Invader) {
			t.Errorf("%s prompt tells the balancing: %v: %s", r.Side, has, r.Prompt)
		}
	}
	eg.submit(Invader, "turn: 0\nphase: build\norders:\n  ORC: 10\n  destroyed-vp: [1812]\n")
	for _, e := range eg.log {
		if bytes.Contains(e.Payload, []byte("1812")) {
			t.Fatalf("the invader's markers are readable before the defender built: %s %s", e.Type, e.Payload)
		}
	}
	eg.submit(Defender, "turn: 0\nphase: build\norders:\n  INF: 12\n")
	st := eg.g.State.(*State)
	if st.Destroyed["1812"] != 3 || st.VP != 3 || st.Phase != phSetupDefender {
		t.Errorf("after the reveal: destroyed %v, VP %d, phase %s", st.Destroyed, st.VP, st.Phase)
	}
	if a := game.Replay(eg.log, lookupDR); !a.OK() {
		t.Errorf("replay: %+v", a)
	}
}
