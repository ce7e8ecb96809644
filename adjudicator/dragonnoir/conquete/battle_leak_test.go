package conquete_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir/conquete"
	"github.com/umpire-pbem/umpire/adjudicator/script/scripttest"
)

// fightHalf is a fight-or-flee choice with only the Rebels' answer in.
const fightHalf = `name: the Rebels have chosen, the Reptilians not yet
ruleset: dragonnoir-conquete
position: |
  day: 1
  slot: midi
  phase: negotiation
  troops:
    - {side: rebels, troop: R1, at: la-croisee, via: le-pont, counters: [konrad]}
    - {side: reptilians, troop: R1, at: la-croisee, counters: [chief-sarrak]}
steps:
  - side: reptilians
    orders: |
      turn: 2
      phase: region
      orders: {region: la-croisee}
  - side: rebels
    orders: |
      turn: 2
      phase: fight
      orders: {choice: flee}
expect:
  due: [rebels, reptilians]
`

// TestFightChoicesStayHidden: the Rebels' choice to flee is nowhere the
// Reptilian player can read before his own choice is in (DN3-CAMP-BATTLE-3,
// HID-15): neither in the log nor in his view; the referee's data keeps it
// sealed (so the check can fail: the choice was taken).
func TestFightChoicesStayHidden(t *testing.T) {
	run := scripttest.PlayText(t, "half.yaml", []byte(fightHalf), lookup)
	var public, private strings.Builder
	for _, e := range run.Log {
		public.WriteString(e.Type)
		public.Write(e.Payload)
		private.Write(e.Private)
	}
	if strings.Contains(public.String(), "flee") {
		t.Errorf("the Rebels' choice is readable before the Reptilians choose:\n%s", public.String())
	}
	if !strings.Contains(private.String(), "flee") {
		t.Error("the Rebels' choice is not in the referee's sealed data: was it taken?")
	}
	for _, viewer := range []adjudicator.Side{conquete.Reptilians, adjudicator.Observer} {
		v, err := json.Marshal(run.Game.View(viewer))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(v), "flee") {
			t.Errorf("the %s' view shows the Rebels' choice: %s", viewer, v)
		}
	}
}

var hiddenCounterRE = regexp.MustCompile(`a line names the hidden counter ([a-z0-9-]+):`)

// TestBattlesLeakNothing plays Battles, their people and their retreats,
// and checks that each side and an observer learn nothing E.5 keeps from
// them (leaks, leak_test.go), but what everyone saw on the tactical map
// (HID-11: the counters of a Battle, who fell, was wounded, left the map,
// and a neutral people's counters): which troop takes them, what the
// troops that fled hold, where a side's counters deserted are the
// owner's.
func TestBattlesLeakNothing(t *testing.T) {
	for _, file := range []string{
		"battle/DN3-CAMP-BATTLE-3-the-rebels-flee.yaml",
		"battle/DN3-CAMP-BATTLE-2-the-attacked-people-wins.yaml",
		"battle/DN3-CAMP-NEG-11-a-second-battle.yaml",
		"battle/DN3-CAMP-BATTLE-9-the-people-of-step-5-joins.yaml",
		"retreat/DN3-CAMP-RETREAT-3-nowhere-to-flee.yaml",
		"retreat/DN3-CAMP-RETREAT-4-counters-that-left-the-map.yaml",
		"retreat/PBEM-DN3-25-short-of-markers.yaml",
	} {
		g, fails := playDirect(t, loadCase(t, file))
		if len(fails) > 0 {
			t.Fatalf("%s: %v", file, fails)
		}
		st := g.st.(*conquete.State)
		seen := map[string]bool{}
		for _, ev := range g.events {
			c, ok := ev.(*adjudicator.ChildGame)
			if !ok {
				continue
			}
			var pos conquete.BattlePosition
			if err := yaml.Unmarshal([]byte(c.Position), &pos); err != nil {
				t.Fatal(err)
			}
			for _, f := range pos.Forces {
				seen[f.Unit] = true
			}
			if pos.Battle.People != nil {
				for _, id := range pos.Battle.People.Units {
					seen[id] = true
				}
			}
		}
		for _, viewer := range []adjudicator.Side{conquete.Rebels, conquete.Reptilians, adjudicator.Observer} {
			for _, l := range leaks(st, viewer, g.lines, g.events) {
				if m := hiddenCounterRE.FindStringSubmatch(l); m != nil && seen[m[1]] {
					continue // on the tactical map, in everyone's sight
				}
				t.Errorf("%s: %s", file, l)
			}
		}
		for _, ev := range g.events {
			if s, ok := ev.(*conquete.Sheet); ok && s.Side == "" && len(s.Troops)+len(s.Removed) > 0 {
				t.Errorf("%s: a public sheet moves troops: %+v", file, s)
			}
		}
	}
}
