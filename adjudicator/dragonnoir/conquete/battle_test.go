package conquete_test

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir/conquete"
	"github.com/umpire-pbem/umpire/adjudicator/script"
)

// TestBattlePosition reads the Battle a rule case creates: a dragonnoir
// child on the Region's assembly (DN3-WORLD-3, DN3-CAMP-BATTLE-4), played
// by the Rebels' player as adventurers and the Reptilians' as krobs, the
// troop on its arrival path entering by that path's edge and the one at
// the centre placed there (DN3-CAMP-BATTLE-5, -6): the battle position of
// the contracts.
func TestBattlePosition(t *testing.T) {
	_, child, pos := loggedBattle(t, "negotiation/DN3-CAMP-NEG-1-regions-in-turn.yaml")
	if child.Key != "b1" || child.Ruleset != "dragonnoir" || child.Scenario != "" || len(child.Players) != 2 ||
		child.Players[0] != (adjudicator.ChildPlayer{Side: conquete.ChildRebels, Player: conquete.Rebels}) ||
		child.Players[1] != (adjudicator.ChildPlayer{Side: conquete.ChildReptilians, Player: conquete.Reptilians}) {
		t.Errorf("child %+v", child)
	}
	b := pos.Battle
	if b.Region != "la-croisee" || b.Map != "battle-la-croisee" || b.Night || b.First != conquete.ChildRebels ||
		b.Names[conquete.ChildRebels] != "Rebels" || b.Names[conquete.ChildReptilians] != "Reptilians" {
		t.Errorf("battle %+v", b)
	}
	want := map[string]conquete.BattleForce{
		"konrad":         {Unit: "konrad", Side: conquete.ChildRebels, Zone: "edge", Edge: "le-pont"},
		"jon":            {Unit: "jon", Side: conquete.ChildRebels, Zone: "edge", Edge: "le-pont"},
		"chief-sarrak":   {Unit: "chief-sarrak", Side: conquete.ChildReptilians, Zone: "centre"},
		"rept-warrior-1": {Unit: "rept-warrior-1", Side: conquete.ChildReptilians, Zone: "centre"},
	}
	checkForces(t, pos, want)
}

// TestBattleFatigue: the Battle gets each counter's troop's fatigue, for
// the tactical game's maluses (DN3-CAMP-REST-6, -7), in the sealed part
// "sheet" of its side (HID-11), never in the position every side reads.
func TestBattleFatigue(t *testing.T) {
	run, child, pos := loggedBattle(t, "rest/DN3-CAMP-REST-11-a-battle-wakes-and-tires.yaml")
	for _, f := range pos.Forces {
		if f.Fatigue != "" || f.PE != 0 {
			t.Errorf("the battle position, which every side reads, gives %s's fatigue or PE: %+v", f.Unit, f)
		}
	}
	sheets := map[adjudicator.Side]string{}
	for _, p := range run.Game.ChildSecrets(child.Key) {
		if p.Name == "sheet" {
			sheets[p.Side] = p.Value
		}
	}
	if !strings.Contains(sheets[conquete.ChildRebels], "{unit: konrad, fatigue: fatigued}") || strings.Contains(sheets[conquete.ChildRebels], "chief-sarrak") ||
		!strings.Contains(sheets[conquete.ChildReptilians], "{unit: chief-sarrak, fatigue: exhausted}") || strings.Contains(sheets[conquete.ChildReptilians], "konrad") {
		t.Errorf("the sealed sheets: %q", sheets)
	}
}

// childParts are the sealed parts of the Battle's position the events
// seal (battleParts), by side and name; each must be sealed to its side.
func childParts(t *testing.T, evs []adjudicator.Event) map[adjudicator.Side]map[string]string {
	out := map[adjudicator.Side]map[string]string{}
	owner := map[adjudicator.Side]adjudicator.Side{conquete.ChildRebels: conquete.Rebels, conquete.ChildReptilians: conquete.Reptilians}
	for _, ev := range evs {
		s, ok := ev.(*adjudicator.Secret)
		if !ok {
			continue
		}
		p, ok := s.Event.(*adjudicator.ChildSecret)
		if !ok {
			continue
		}
		if !slices.Equal(s.To, adjudicator.To(owner[p.Side])) {
			t.Errorf("the part %+v is sealed to %v", p, s.To)
		}
		if out[p.Side] == nil {
			out[p.Side] = map[string]string{}
		}
		out[p.Side][p.Name] = p.Value
	}
	return out
}

// loggedBattle plays the rule case file through the engine and returns
// the run, the last Battle its log creates and that Battle's position.
func loggedBattle(t *testing.T, file string) (*script.Run, *adjudicator.ChildGame, *conquete.BattlePosition) {
	t.Helper()
	run := playCase(t, file)
	var child *adjudicator.ChildGame
	for _, e := range run.Log {
		if e.Type == adjudicator.TypeChildGame {
			child = &adjudicator.ChildGame{}
			if err := json.Unmarshal(e.Payload, child); err != nil {
				t.Fatal(err)
			}
		}
	}
	if child == nil {
		t.Fatal("no child game")
	}
	var pos conquete.BattlePosition
	if err := yaml.Unmarshal([]byte(child.Position), &pos); err != nil {
		t.Fatal(err)
	}
	return run, child, &pos
}

// checkForces checks a Battle position's forces against want, by unit.
func checkForces(t *testing.T, pos *conquete.BattlePosition, want map[string]conquete.BattleForce) {
	t.Helper()
	if len(pos.Forces) != len(want) {
		t.Errorf("forces %+v", pos.Forces)
	}
	for _, f := range pos.Forces {
		if f != want[f.Unit] {
			t.Errorf("force %+v, want %+v", f, want[f.Unit])
		}
	}
}

// childPosition plays the rule case file without the engine and returns
// the position of the Battle it creates.
func childPosition(t *testing.T, file string) (*adjudicator.ChildGame, *conquete.BattlePosition) {
	c, pos, _ := childGame(t, file)
	return c, pos
}

// childGame is childPosition with the sealed parts of the position.
func childGame(t *testing.T, file string) (*adjudicator.ChildGame, *conquete.BattlePosition, map[adjudicator.Side]map[string]string) {
	t.Helper()
	g, fails := playDirect(t, loadCase(t, file))
	if len(fails) > 0 {
		t.Fatalf("%s: %v", file, fails)
	}
	for _, ev := range g.events {
		if c, ok := ev.(*adjudicator.ChildGame); ok {
			var pos conquete.BattlePosition
			if err := yaml.Unmarshal([]byte(c.Position), &pos); err != nil {
				t.Fatal(err)
			}
			return c, &pos, childParts(t, g.events)
		}
	}
	t.Fatalf("%s creates no Battle", file)
	return nil, nil, nil
}

// TestBattlePositionAtNight reads the night Battle of a rule case: the
// troops on paths enter by the edge of the Region they came from, the one
// at the centre is set up there, the stealthy one is not in it
// (DN3-CAMP-BATTLE-5, -6, DN3-CAMP-STEALTH-5); each counter keeps its
// wounds, its troop's fatigue and its PE (DN3-CAMP-REST-6, -7); the night
// is said (AMB-88); the Druids, neutral with both sides here, wait off the
// map with the characters who have influence on them (DN3-CAMP-NEG-11,
// Table DN3-T5).
func TestBattlePositionAtNight(t *testing.T) {
	_, pos, parts := childGame(t, "battle/DN3-CAMP-BATTLE-5-the-battle-position.yaml")
	b := pos.Battle
	// HID-11: PE and fatigue are each side's, in its sealed sheet; the
	// markers of Step 5 the campaign drew, each side its own (HID-14).
	wantSheets := map[adjudicator.Side]string{
		conquete.ChildRebels:     "- {unit: zacharie, pe: 40, fatigue: fatigued}\n- {unit: konrad, fatigue: fatigued}\n- {unit: shaman, pe: 150}",
		conquete.ChildReptilians: "- {unit: sorcerer, pe: 150, fatigue: exhausted}\n- {unit: rept-warrior-1, fatigue: exhausted}",
	}
	for side, want := range wantSheets {
		if got := parts[side]["sheet"]; got != want {
			t.Errorf("the %s' sheet: %q, want %q", side, got, want)
		}
		if m := parts[side]["negotiation"]; m == "" {
			t.Errorf("no Negotiation marker for the %s: %v", side, parts[side])
		}
	}
	if !b.Secrets {
		t.Error("the Battle does not read its sealed parts (secrets: true)")
	}
	if b.Region != "cercle-des-druides" || b.Map != "battle-cercle-des-druides" || !b.Night || b.First != conquete.ChildRebels || b.Attacked != "" {
		t.Errorf("battle %+v", b)
	}
	if b.People == nil || b.People.ID != "druides" ||
		strings.Join(b.People.Units, " ") != "terclaugast heliogast radagast leopard stag boar" ||
		strings.Join(b.People.Influence[conquete.ChildRebels], " ") != "shaman" ||
		strings.Join(b.People.Influence[conquete.ChildReptilians], " ") != "sorcerer" {
		t.Errorf("people %+v", b.People)
	}
	want := map[string]conquete.BattleForce{
		"zacharie":       {Unit: "zacharie", Side: conquete.ChildRebels, Zone: "edge", Edge: "la-foret"},
		"konrad":         {Unit: "konrad", Side: conquete.ChildRebels, Zone: "edge", Edge: "la-foret", Wounds: 1},
		"shaman":         {Unit: "shaman", Side: conquete.ChildRebels, Zone: "edge", Edge: "courte-passe"},
		"sorcerer":       {Unit: "sorcerer", Side: conquete.ChildReptilians, Zone: "centre"},
		"rept-warrior-1": {Unit: "rept-warrior-1", Side: conquete.ChildReptilians, Zone: "centre"},
	}
	checkForces(t, pos, want)
}

// TestBattlePositionOfAPeopleAttacked: the counters of the people attacked
// are the other side's, at the centre (DN3-CAMP-BATTLE-2, AMB-60).
func TestBattlePositionOfAPeopleAttacked(t *testing.T) {
	_, pos := childPosition(t, "battle/DN3-CAMP-BATTLE-2-the-attacked-people-wins.yaml")
	if pos.Battle.Attacked != "gobelins" || pos.Battle.People != nil {
		t.Errorf("battle %+v", pos.Battle)
	}
	n := 0
	for _, f := range pos.Forces {
		switch {
		case f.Unit == "jon":
			if f.Side != conquete.ChildRebels || f.Zone != "edge" || f.Edge != "le-marais" {
				t.Errorf("force %+v", f)
			}
		case f.Side != conquete.ChildReptilians || f.Zone != "centre":
			t.Errorf("the people's %+v", f)
		default:
			n++
		}
	}
	if n != 17 {
		t.Errorf("%d Goblin counters, want 17", n)
	}
}

// TestBattlePositionsReadByDragonNoir: every Battle the rule cases create
// is a position the tactical ruleset sets up (the contract both sides
// keep). A counter the tactical module does not have yet (the valley's
// counters come with the peoples' chapter) is logged, not failed.
func TestBattlePositionsReadByDragonNoir(t *testing.T) {
	n := 0
	for _, file := range []string{
		"battle/DN3-CAMP-BATTLE-2-the-attacked-people-wins.yaml",
		"battle/DN3-CAMP-BATTLE-5-the-battle-position.yaml",
		"battle/DN3-CAMP-BATTLE-9-the-people-of-step-5-joins.yaml",
		"battle/DN3-CAMP-KANDAR-5-the-kandars-attack-the-besiegers.yaml",
		"battle/DN3-PEOPLE-DRUID-6-the-druids-animal-leaves.yaml",
		"retreat/DN3-CAMP-RETREAT-4-counters-that-left-the-map.yaml",
	} {
		c, _, parts := childGame(t, file)
		st, err := dragonnoir.Ruleset.Setup(adjudicator.Setup{Position: []byte(c.Position), Sides: []adjudicator.Side{conquete.ChildRebels, conquete.ChildReptilians}})
		switch {
		case err == nil:
			n++
			var list []adjudicator.ChildSecret
			for _, side := range []adjudicator.Side{conquete.ChildRebels, conquete.ChildReptilians} {
				for _, name := range slices.Sorted(maps.Keys(parts[side])) {
					list = append(list, adjudicator.ChildSecret{Child: c.Key, Side: side, Name: name, Value: parts[side][name]})
				}
			}
			o, err := adjudicator.ChildSecretsOrders(list)
			if err != nil {
				t.Fatal(err)
			}
			due := dragonnoir.Ruleset.Due(st)
			if len(due) != 1 || due[0].ID != adjudicator.ChildSecretsID {
				t.Errorf("%s: the Battle waits for %+v, not its sealed parts", file, due)
			} else if _, err := dragonnoir.Ruleset.ParseOrders(st, due[0], o); err != nil {
				t.Errorf("%s: the tactical ruleset refuses the Battle's sealed parts: %v\n%v", file, err, list)
			}
		case strings.Contains(err.Error(), "no counter"):
			t.Logf("%s: %v (the tactical module's counters)", file, err)
		default:
			t.Errorf("%s: the tactical ruleset refuses the Battle's position: %v\n%s", file, err, c.Position)
		}
	}
	t.Logf("%d positions set up", n)
}
