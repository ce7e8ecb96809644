package glory

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/pause"
)

// Displaced fleets (DG-FLEET-6, DG-AMB-25). An army may enter a hex holding
// an enemy fleet; the fleet is not destroyed but moves, with whatever it
// carries, to the nearest position it could legally enter (no enemy army,
// no enemy fleet, room on a river hexside). A fleet on a river hexside is
// displaced when an enemy army enters either bank. "Nearest" counts the
// fleet's own steps (DG-FLEET-3: hexes at sea, hexsides on a river). When
// several positions are equally near, the fleet's owner chooses (question
// key displace, standing order: positions in order of preference); with no
// answer, the lowest position ID.

type displaceRun struct {
	Hex   string           `json:"hex"`
	Side  adjudicator.Side `json:"side"`
	Done  []string         `json:"done,omitempty"`
	Fleet string           `json:"fleet,omitempty"` // the fleet whose owner is asked
	Cands []string         `json:"cands,omitempty"`
}

// displaceFleets moves side's enemy fleets out of hex h, which one of side's
// armies has just entered (DG-FLEET-6). It may ask their owner where they
// go, and reports a pause: the caller then stops, and when the game
// resumes, its order is called again with the answer; it must then call
// displaceFleets(p, h, side) again, first, which takes that answer (the
// world's answer, w.answer) and goes on. It keeps its own progress in
// p.Work["displace"], which the caller must leave alone.
func (w *world) displaceFleets(p *program, h string, side adjudicator.Side) bool {
	var d displaceRun
	if loadWork(p, "displace", &d) && d.Hex == h && d.Side == side {
		ans := w.answer
		w.answer = nil
		return w.displace(p, ans)
	}
	saveWork(p, "displace", &displaceRun{Hex: h, Side: side})
	return w.displace(p, nil)
}

// displacing reports whether p waits on a displacement's question.
func (w *world) displacing(p *program) bool {
	_, ok := p.Work["displace"]
	return ok
}

// displace goes on with the displacement p.Work holds; ans answers its
// question.
func (w *world) displace(p *program, ans *Answer) bool {
	var d displaceRun
	loadWork(p, "displace", &d)
	defer w.saving(func() {
		if _, ok := p.Work["displace"]; ok {
			saveWork(p, "displace", &d)
		}
	})()
	if d.Fleet != "" {
		dest := d.Cands[0]
		if ans != nil {
			if x := pickPos(ans.Text, d.Cands); x != "" {
				dest = x
			}
		}
		w.moveDisplaced(d.Fleet, dest)
		d.Done, d.Fleet, d.Cands = append(d.Done, d.Fleet), "", nil
	}
	for {
		st := w.st()
		var f *Unit
		for _, u := range st.Sorted() {
			if u.Where == OnMap && u.Side == Other(d.Side) && st.Kind(u.ID).Type == Fleet && slices.Contains(banks(u.Hex), d.Hex) && !slices.Contains(d.Done, u.ID) {
				f = u
				break
			}
		}
		if f == nil {
			delete(p.Work, "displace")
			return false
		}
		cands := st.displaceTargets(f)
		switch len(cands) {
		case 0:
			w.say("%s has no position it could enter anywhere and is lost (DG-FLEET-6).", f.ID)
			w.sink(f.ID, "displaced with nowhere to go")
		case 1:
			w.moveDisplaced(f.ID, cands[0])
		default:
			q := pause.Question{
				Side: f.Side, Key: keyDisplace,
				Title:   fmt.Sprintf("turn %d: where %s goes, displaced from %s", st.Turn, f.ID, f.Hex),
				Prompt:  fmt.Sprintf("An enemy army has entered %s: %s moves to the nearest position free of enemies (DG-FLEET-6). Choose one of %s; e.g. answer: %q", d.Hex, f.ID, strings.Join(cands, ", "), cands[0]),
				Choice:  cands,
				Default: cands[0],
			}
			d.Fleet, d.Cands = f.ID, cands
			text, paused := w.pauseFor(p, q)
			if paused {
				return true
			}
			d.Fleet, d.Cands = "", nil
			dest := pickPos(text, cands)
			if dest == "" {
				dest = cands[0]
			}
			w.moveDisplaced(f.ID, dest)
		}
		d.Done = append(d.Done, f.ID)
	}
}

// displaceTargets lists the nearest positions fleet f could enter, counted
// in its own steps from where it is, in order.
func (s *State) displaceTargets(f *Unit) []string {
	g := s.Geo()
	seen := map[string]bool{f.Hex: true}
	front := []string{f.Hex}
	for len(front) > 0 {
		var next, legal []string
		for _, x := range front {
			for _, n := range g.fleetNear(x) {
				if seen[n] {
					continue
				}
				seen[n] = true
				next = append(next, n)
				if s.fleetBlocked(n, f.Side, f.ID) == "" {
					legal = append(legal, n)
				}
			}
		}
		if len(legal) > 0 {
			slices.Sort(legal)
			return legal
		}
		front = next
	}
	return nil
}

func (w *world) moveDisplaced(id, dest string) {
	st := w.st()
	from := st.Units[id].Hex
	w.emit(&Put{Units: []string{id}, Where: OnMap, Hex: dest, Why: "displaced"})
	w.emit(&Flagged{Flag: flagFleetMoved, IDs: []string{id}})
	w.emit(&Traced{Trace: drawable(adjudicator.Trace{Kind: "displace", Unit: id, Path: []string{from, dest}})})
	if c := st.cargo(id); len(c) > 0 {
		w.fleetSay(st.Units[id].Side, "%s is displaced from %s to %s with %s aboard (DG-FLEET-6).", id, from, dest, list(unitIDs(c)))
		return
	}
	w.fleetSay(st.Units[id].Side, "%s is displaced from %s to %s (DG-FLEET-6).", id, from, dest)
}

func unitIDs(us []*Unit) []string {
	out := make([]string, len(us))
	for i, u := range us {
		out[i] = u.ID
	}
	return out
}
