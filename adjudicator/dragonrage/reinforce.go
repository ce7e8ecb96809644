package dragonrage

import (
	"slices"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// reinforcementTypes are the counters a wave is drawn from, in order of
// preference: infantry, else militia at Esirien (DR-REINF-6); orcs, else
// goblins at Nurkott (DR-REINF-8).
func reinforcementTypes(mapName string) []string {
	if mapName == "nurkott" {
		return []string{"ORC", "GOB"}
	}
	return []string{"INF", "MIL"}
}

// waveTurn reports whether reinforcements arrive in turn t: turn 10 and
// every fourth turn after (DR-REINF-1; Nurkott the same, DR-GAP-9).
func waveTurn(t int) bool { return t >= 10 && (t-10)%4 == 0 }

// reinforcementsDue is how many units may land this phase: a wave of four
// on a wave turn, plus any delayed from earlier turns (DR-REINF-2,
// DR-REINF-5, DR-REINF-7), limited by the free counters (DR-REINF-6).
func (w *world) reinforcementsDue() int {
	if w.st.Pre {
		return 0
	}
	n := w.st.Waiting
	if waveTurn(w.st.Turn) {
		n += 4
	}
	return min(n, len(w.freeCounters()))
}

// freeCounters are the counters of the reinforcement types not in play:
// never used, then eliminated (DR-REINF-6 [Inference]), in that order.
func (w *world) freeCounters() []*Unit {
	var fresh, dead []*Unit
	for _, code := range reinforcementTypes(w.st.Map) {
		for _, u := range w.st.Units {
			if u.Side != Defender || u.Type != code {
				continue
			}
			switch {
			case u.Pool:
				fresh = append(fresh, u)
			case u.Gone:
				dead = append(dead, u)
			}
		}
	}
	return append(fresh, dead...)
}

// landingHexes are the empty hexes reinforcements may land in: the docks
// and the bridge 1413 unless burned at Esirien (DR-REINF-3, -4), the road
// hexes at Nurkott (DR-REINF-8); never a hex holding a Whirlwind
// (DR-SPELL-WHIRL-8).
func (w *world) landingHexes() []string {
	var out []string
	for _, p := range w.m.Points("reinforcement") {
		h := p.Hex
		if len(w.st.at(h.String())) > 0 || w.bridgeState(h) == "burned" || w.whirlwindIn(h) {
			continue
		}
		out = append(out, h.String())
	}
	sort.Strings(out)
	return out
}

// beginReinforcements runs what happens automatically as phase 6 begins.
func (w *world) beginReinforcements() {
	if due := w.reinforcementsDue(); due > 0 && len(w.landingHexes()) == 0 {
		w.emit(&Delayed{Waiting: due})
		w.sayf("%d reinforcements find no free landing hex and wait for the next turn (DR-REINF-5)", due)
	}
}

func (w *world) parseReinforcements(side adjudicator.Side, n *yaml.Node) (*Orders, error) {
	f, err := fields(n, "arrive")
	if err != nil {
		return nil, err
	}
	due := w.reinforcementsDue()
	free := w.landingHexes()
	want := min(due, len(free))
	if f["arrive"] == nil {
		return nil, adjudicator.Errorf(n, adjudicator.CodeMissingField, "say where the reinforcements land: \"arrive: [%s]\"", strings.Join(free[:want], ", "))
	}
	hexes, nodes, err := w.hexList(f["arrive"])
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for i, h := range hexes {
		if !slices.Contains(free, h) {
			return nil, adjudicator.Errorf(nodes[i], codeIllegalMove, "reinforcements cannot land in %s; the free landing hexes are %s (DR-REINF-4, DR-REINF-5)", h, strings.Join(free, ", "))
		}
		if seen[h] {
			return nil, adjudicator.Errorf(nodes[i], codeTwice, "%s is given twice", h)
		}
		seen[h] = true
	}
	if len(hexes) != want {
		return nil, adjudicator.Errorf(f["arrive"], codeIllegalMove, "%d units arrive and %d landing hexes are free: name %d hexes (those that cannot land wait for the next turn, DR-REINF-5)", due, len(free), want)
	}
	return &Orders{Arrive: hexes}, nil
}

func (w *world) resolveReinforcements(o *Orders) {
	due := w.reinforcementsDue()
	free := w.freeCounters()
	for i, h := range o.Arrive {
		u := free[i]
		w.emit(&Reinforced{Unit: u.ID, Hex: h})
		w.sayf("reinforcement %s lands in %s", u.ID, h)
	}
	waiting := due - len(o.Arrive)
	if waiting != w.st.Waiting {
		w.emit(&Delayed{Waiting: waiting})
	}
	if waiting > 0 {
		w.sayf("%d reinforcements find no free landing hex and wait for the next turn (DR-REINF-5)", waiting)
	}
}
