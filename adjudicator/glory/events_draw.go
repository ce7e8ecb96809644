package glory

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// Step 2: the strategic event (DG-EVT). The counters due on this turn went
// into the cup at the start of the turn (startTurn, DG-EVT-4). The draw is
// a die over the cup's counters in sorted order, labelled, so anyone can
// check which counter it gave; the counter is shown to both sides
// (DG-EVT-6) and never goes back (DG-EVT-8). Its effects are module data
// (events.yaml, DG-GAP-4): an activation bonus, counters that enter, a
// wizard, or nothing.

// drawEvent is step 2: drawer draws one counter and it happens.
func (w *world) drawEvent(drawer adjudicator.Side) {
	st := w.st()
	if len(st.Cup) == 0 {
		w.say("The strategic event cup is empty: no event this turn; %s still tries an activation first (DG-AMB-11).", drawer)
		return
	}
	cup := st.Cup // sorted (CupChanged keeps it so)
	id := cup[0]
	if len(cup) > 1 {
		r := w.roll(fmt.Sprintf("event draw %s", drawer), 1, len(cup))
		if w.r.Err() != nil {
			return
		}
		id = cup[r.Total-1]
		r.Outcome = fmt.Sprintf("counter %d of %d in the cup (%s): %s", r.Total, len(cup), strings.Join(cup, ", "), id)
	}
	e := st.data.Events[id]
	onMap := false
	for _, ef := range e.Does {
		if ef.Kind == "reinforce" || ef.Kind == "wizard" {
			onMap = true
		}
	}
	w.emit(&CupChanged{Drawn: id, OnMap: onMap})
	who := drawer
	if e.For != "drawer" {
		who = adjudicator.Side(e.For)
	}
	text := e.Text
	if text == "" {
		text = e.Title
	}
	w.say("%s draws the strategic event %s (%s), for %s: %s (DG-EVT-5, -6, -7).", drawer, id, e.Title, who, text)
	for _, ef := range e.Does {
		w.eventEffect(who, id, ef)
	}
}

// eventEffect applies one effect of event id for side.
func (w *world) eventEffect(side adjudicator.Side, id string, ef Effect) {
	switch ef.Kind {
	case "activation":
		w.emit(&BonusSet{Side: side, Nation: ef.Nation, Amount: ef.Amount})
		what := "every nation"
		if ef.Nation != "" {
			what = ef.Nation
		}
		w.say("%s's Activation Value for %s is %+d for the rest of the turn (DG-EVT-10, DG-ACT-5).", side, what, ef.Amount)
	case "reinforce", "wizard":
		for _, u := range ef.Units {
			w.eventCounter(side, id, u, ef.At)
		}
	case "nothing":
		w.say("Nothing else happens.")
	default:
		// The loader refuses any other kind; a module that slipped one in
		// is a bug of the module, said plainly rather than ignored.
		w.r.Fail(fmt.Errorf("glory: event %s has an effect of kind %q that the rules do not know", id, ef.Kind))
	}
}

// eventCounter brings counter id into play for side as event ev says: at
// the hex the event names if it may go there, else in the Dark Temple (a
// Highlord counter) or the nearest fortress or fortified city side
// controls. Stacking applies to armies; a wizard or leader goes anywhere
// without enemy armies (DG-WIZ-2).
func (w *world) eventCounter(side adjudicator.Side, ev, id, at string) {
	st := w.st()
	u := st.Units[id]
	if u.Where != InReserve && u.Where != Unused && u.Where != OnTrack {
		w.say("%s is already in play; the event does not bring it again.", id)
		return
	}
	ok := func(h string) bool {
		if st.EnemyArmiesAt(h, side) || !st.Geo().Land(h) {
			return false
		}
		return !st.Kind(id).IsArmy() || st.StackProblem(h, side, []string{id}) == ""
	}
	var cands []string
	if at != "" {
		cands = append(cands, at)
	}
	var forts []string
	if side == Highlord && st.Temple != "" && !st.TempleTaken {
		forts = append(forts, st.Temple)
	}
	for _, h := range st.Geo().Hexes() {
		if st.Geo().Fort(h) != "" && !st.capitalDismantled(h) && st.Controller(h) == side && h != st.Temple {
			forts = append(forts, h)
		}
	}
	if at != "" {
		sortByDistance(st.Geo(), at, forts)
	}
	cands = append(cands, forts...)
	for _, h := range cands {
		if !ok(h) {
			continue
		}
		w.emit(&Put{Units: []string{id}, Where: OnMap, Hex: h, Side: side, Why: "event " + ev})
		w.say("%s enters play for %s at %s.", id, side, h)
		w.entered(id, h, false)
		return
	}
	w.say("%s cannot enter: %s holds no hex it may be placed in.", id, side)
}

// sortByDistance orders hexes by their distance from h, then by name.
func sortByDistance(g *Geo, h string, hexes []string) {
	d := map[string]int{}
	for _, x := range hexes {
		d[x] = g.Distance(h, x)
	}
	slices.SortFunc(hexes, func(a, b string) int {
		if d[a] != d[b] {
			return d[a] - d[b]
		}
		return strings.Compare(a, b)
	})
}
