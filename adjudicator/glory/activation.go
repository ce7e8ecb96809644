package glory

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// Step 3 and activation by invasion (DG-ACT, DG-INV). A side's attempt and
// where the forces of a nation that joins it go are said in advance in its
// step-1-to-4 mail (activate:, place:) or in a standing place: order; with
// no plan the forces go to the nation's fortresses and fortified cities
// first, then to the nearest other hexes (DG-AMB-18).

// KnightsPlaced records that the Knights of the Tower have been placed
// (DG-ACT-10): they come once, with the first Knights nation activated.
type KnightsPlaced struct{}

func (*KnightsPlaced) EventType() string { return Prefix + ".knights" }

// strategicEvents are the events of steps 1 to 4 that the core events
// cannot say.
func strategicEvents() []adjudicator.EventType {
	return []adjudicator.EventType{
		{Name: (&KnightsPlaced{}).EventType(), Schema: 1, New: func() adjudicator.Event { return &KnightsPlaced{} }},
	}
}

// evolveStrategic folds the events of strategicEvents.
func (s *State) evolveStrategic(ev adjudicator.Event) bool {
	switch ev.(type) {
	case *KnightsPlaced:
		s.Knights = true
		return true
	}
	return false
}

func init() {
	standingKeys["place"] = checkPlanStanding
	standingKeys["capital"] = checkCapitalStanding
}

// Tower is the High Clerist's Tower's hex: the map's point of kind tower,
// or "" when the map has none.
func (s *State) Tower() string {
	if ps := s.data.Map.Points("tower"); len(ps) > 0 {
		return ps[0].Hex.String()
	}
	return ""
}

// activationProblem says why side may not try to activate n now, or ""
// (DG-ACT-1, -3, DG-INV-12): a nation of the Activation Table, still
// neutral, that the scenario lets be activated.
func (s *State) activationProblem(n string, side adjudicator.Side) string {
	d := s.data.Nations[n]
	if d == nil {
		return fmt.Sprintf("no nation %q (the nations are %s)", n, strings.Join(s.data.NationIDs(), ", "))
	}
	if _, ok := d.Activation[side]; !ok {
		return fmt.Sprintf("%s has no Activation Value for %s: it cannot be activated (DG-ACT-3)", n, side)
	}
	if ns := s.Nations[n]; ns.Conquered != "" {
		return fmt.Sprintf("%s is conquered", n)
	} else if ns.Side != "" {
		return fmt.Sprintf("%s is already at war on the %s side and cannot be activated again (DG-INV-12)", n, ns.Side)
	}
	if sc, ok := s.data.Scenario(s.Scenario); ok && len(sc.Activate) > 0 && !slices.Contains(sc.Activate, n) {
		return fmt.Sprintf("the scenario lets only %s be activated", list(sc.Activate))
	}
	return ""
}

// activationValue is n's Activation Value for side now, and how it is made
// up: the table's value, this turn's event bonuses (DG-EVT-10), and for the
// Whitestone and a Knights nation one more for each nation of the
// Activation Table allied to the Highlord and each nation he has conquered,
// counted at the moment of the roll (DG-ACT-9, DG-AMB-16).
func (s *State) activationValue(n string, side adjudicator.Side) (int, string) {
	v := s.data.Nations[n].Activation[side]
	how := []string{fmt.Sprintf("%d", v)}
	if b := s.Bonus[side][""] + s.Bonus[side][n]; b != 0 {
		v += b
		how = append(how, fmt.Sprintf("%+d event", b))
	}
	if side == Whitestone && s.data.Nations[n].Knights {
		k := 0
		for _, id := range s.data.NationIDs() {
			ns := s.Nations[id]
			if ns.Conquered == Highlord || ns.Conquered == "" && ns.Side == Highlord && s.data.Nations[id].Activation != nil {
				k++
			}
		}
		if k > 0 {
			v += k
			how = append(how, fmt.Sprintf("+%d Knights", k))
		}
	}
	return v, strings.Join(how, " ")
}

// activations is step 3: the drawer tries first, then the other side, each
// the first nation of its list that may still be activated (DG-ACT-1, -2,
// -7, DG-AMB-23).
func (w *world) activations(drawer adjudicator.Side, orders map[adjudicator.Side]*StrategicOrders) {
	for _, side := range []adjudicator.Side{drawer, Other(drawer)} {
		if w.r.Err() != nil || w.st().Over {
			return
		}
		o := orders[side]
		if len(o.Activate) == 0 {
			continue
		}
		var n string
		var skipped []string
		for _, c := range o.Activate {
			if why := w.st().activationProblem(c, side); why != "" {
				skipped = append(skipped, fmt.Sprintf("%s (%s)", c, why))
				continue
			}
			n = c
			break
		}
		if len(skipped) > 0 {
			w.say("%s passes over %s.", side, strings.Join(skipped, "; "))
		}
		if n == "" {
			w.say("%s makes no activation attempt this turn.", side)
			continue
		}
		v, how := w.st().activationValue(n, side)
		r := w.roll(fmt.Sprintf("activation %s by %s", n, side), 1, 10)
		if w.r.Err() != nil {
			return
		}
		if r.Total <= v {
			r.Outcome = fmt.Sprintf("needs %d or less (%s): %s joins %s", v, how, n, side)
			w.say("%s activates %s (DG-ACT-4).", side, n)
			w.activate(n, side, w.plan(side, o), orders[Whitestone])
		} else {
			r.Outcome = fmt.Sprintf("needs %d or less (%s): no effect", v, how)
			w.say("%s fails to activate %s (DG-ACT-4).", side, n)
		}
	}
}

// plan is where side wants an activated nation's counters: its standing
// place: order, overridden by the place: of its orders o (if any).
func (w *world) plan(side adjudicator.Side, o *StrategicOrders) map[string]string {
	out := map[string]string{}
	if s, ok := w.st().Pause.Lookup(side, "place"); ok {
		var m map[string]string
		if yaml.Unmarshal([]byte(s), &m) == nil {
			for id, h := range m {
				out[id] = normHex(h)
			}
		}
	}
	if o != nil {
		for id, h := range o.Place {
			out[id] = h
		}
	}
	return out
}

// normHex writes a hex as the map names it ("506" is "0506").
func normHex(s string) string {
	if len(s) == 3 {
		return "0" + s
	}
	return s
}

// placeProblem says why counter id of nation n may not be put at h by
// side now, or "": an army, leader or wizard on a land hex of the nation,
// a fleet in one of its ports or at sea next to its coast; never with
// enemy armies; armies within the stacking limits (DG-ACT-12, -13,
// DG-AMB-18).
func (s *State) placeProblem(n, id, h string, side adjudicator.Side) string {
	if why := s.homeProblem(n, id, h); why != "" {
		return why
	}
	if s.EnemyArmiesAt(h, side) {
		return fmt.Sprintf("%s holds enemy armies (DG-AMB-18)", h)
	}
	if s.Kind(id).IsArmy() {
		return s.StackProblem(h, side, []string{id})
	}
	return ""
}

// homeProblem says why h is not a hex of nation n for counter id, or "".
func (s *State) homeProblem(n, id, h string) string {
	g, k := s.Geo(), s.Kind(id)
	if !g.OnMap(h) {
		return fmt.Sprintf("%s is not on the map", h)
	}
	if k.Type == Fleet {
		home := g.Port(h) && g.Nation(h) == n
		if g.Sea(h) && !g.Maelstrom(h) {
			for _, x := range g.Near(h) {
				if g.Land(x) && g.Nation(x) == n {
					home = true
				}
			}
		}
		if !home {
			return fmt.Sprintf("%s is neither a port of %s nor a sea hex on its coast", h, n)
		}
	} else if !g.Land(h) || g.Nation(h) != n {
		return fmt.Sprintf("%s is not inside %s's borders (DG-ACT-12)", h, n)
	}
	return ""
}

// placeOrder lists the hexes where a nation's counters go when nobody said
// (DG-AMB-18): its fortresses and fortified cities first, then its other
// hexes, nearest those first; for fleets its ports, then the sea along its
// coast.
func (s *State) placeOrder(n string, fleet bool) []string {
	g := s.Geo()
	var first, rest []string
	for _, h := range g.Hexes() {
		switch {
		case fleet && g.Port(h) && g.Nation(h) == n:
			first = append(first, h)
		case fleet && g.Sea(h) && !g.Maelstrom(h):
			for _, x := range g.Near(h) {
				if g.Land(x) && g.Nation(x) == n {
					rest = append(rest, h)
					break
				}
			}
		case !fleet && g.Land(h) && g.Nation(h) == n && g.Fort(h) != "" && !s.capitalDismantled(h):
			first = append(first, h)
		case !fleet && g.Land(h) && g.Nation(h) == n:
			rest = append(rest, h)
		}
	}
	if len(first) > 0 {
		dist := map[string]int{}
		for _, h := range rest {
			dist[h] = -1
			for _, f := range first {
				if d := g.Distance(h, f); d >= 0 && (dist[h] < 0 || d < dist[h]) {
					dist[h] = d
				}
			}
		}
		slices.SortFunc(rest, func(a, b string) int {
			if dist[a] != dist[b] {
				return dist[a] - dist[b]
			}
			return strings.Compare(a, b)
		})
	}
	return append(first, rest...)
}

// activate brings neutral nation n into the war on side's side and places
// its forces: each counter where plan says if it may go there, else by
// DG-AMB-18 (DG-ACT-12, -13, DG-INV-8). The first Knights nation brings the
// Knights of the Tower (DG-ACT-10), placed by ws's plan.
func (w *world) activate(n string, side adjudicator.Side, plan map[string]string, ws *StrategicOrders) {
	w.emit(&NationChanged{Nation: n, Side: side})
	st := w.st()
	var forces []string
	for _, u := range st.Sorted() {
		if st.Kind(u.ID).Nation != n {
			continue
		}
		switch u.Where {
		case InReserve:
			forces = append(forces, u.ID)
		case OnTrack:
			w.emit(&Put{Units: []string{u.ID}, Where: OnTrack, Hex: u.Hex, Turn: u.Turn, Side: side, Why: "activation"})
		}
	}
	// Armies first, so that leaders and fleets do not take the room an
	// army's plan counts on; then the others.
	slices.SortStableFunc(forces, func(a, b string) int {
		ra, rb := st.Kind(a).IsArmy(), st.Kind(b).IsArmy()
		switch {
		case ra && !rb:
			return -1
		case rb && !ra:
			return 1
		}
		return 0
	})
	placed := map[string][]string{}
	var hexes, stuck []string
	for _, id := range forces {
		st := w.st()
		h := ""
		if p, ok := plan[id]; ok {
			if why := st.placeProblem(n, id, p, side); why != "" {
				w.tell(adjudicator.To(side), "%s cannot go to %s as planned: %s; it is placed by the default.", id, p, why)
			} else {
				h = p
			}
		}
		if h == "" {
			for _, c := range st.placeOrder(n, st.Kind(id).Type == Fleet) {
				if st.placeProblem(n, id, c, side) == "" {
					h = c
					break
				}
			}
		}
		if h == "" {
			stuck = append(stuck, id)
			continue
		}
		w.emit(&Put{Units: []string{id}, Where: OnMap, Hex: h, Side: side, Why: "activation"})
		if placed[h] == nil {
			hexes = append(hexes, h)
		}
		placed[h] = append(placed[h], id)
	}
	slices.Sort(hexes)
	var parts []string
	for _, h := range hexes {
		parts = append(parts, fmt.Sprintf("%s at %s", list(placed[h]), h))
	}
	if len(parts) > 0 {
		w.say("%s joins the war on the %s side; %s places its forces (DG-ACT-12).", n, side, side)
		w.sayHidden(side, "%s's forces: %s.", n, strings.Join(parts, "; "))
	} else {
		w.say("%s joins the war on the %s side; it has no forces to place.", n, side)
	}
	if len(stuck) > 0 {
		w.say("%s cannot be placed inside %s's borders and stay off the map until there is room: %s.", list(stuck), n, list(stuck))
	}
	for _, h := range hexes {
		for _, id := range placed[h] {
			w.entered(id, h, false)
		}
	}
	if st := w.st(); st.data.Nations[n].Knights && !st.Knights {
		w.placeKnights(w.plan(Whitestone, ws))
	}
	w.tryConquer(n) // an enemy may hold all its fortifications already (DG-AMB-62)
}

// placeKnights puts the Knights of the Tower in the High Clerist's Tower
// for the Whitestone, whoever activated the Knights nation; those the Tower
// cannot take go to the nearest hexes they may occupy, the Whitestone's
// plan choosing among equally near ones, else the first in hex order
// (DG-ACT-10, DG-AMB-17).
func (w *world) placeKnights(plan map[string]string) {
	w.emit(&KnightsPlaced{})
	st := w.st()
	tower := st.Tower()
	var knights []string
	for _, u := range st.Sorted() {
		if st.Kind(u.ID).Tower && u.Where == InReserve {
			knights = append(knights, u.ID)
		}
	}
	if len(knights) == 0 {
		return
	}
	if tower == "" {
		w.say("The Knights of the Tower cannot be placed: the map has no High Clerist's Tower.")
		return
	}
	legal := func(id, h string) bool {
		return st.Geo().Land(h) && !st.EnemyArmiesAt(h, Whitestone) && st.StackProblem(h, Whitestone, []string{id}) == ""
	}
	var lines []string
	for _, id := range knights {
		st = w.st()
		h := ""
		if legal(id, tower) {
			h = tower
		} else {
			best := -1
			var near []string
			for _, x := range st.Geo().Hexes() {
				if !legal(id, x) {
					continue
				}
				d := st.Geo().Distance(tower, x)
				if d < 0 {
					continue
				}
				if best < 0 || d < best {
					best, near = d, nil
				}
				if d == best {
					near = append(near, x)
				}
			}
			if len(near) == 0 {
				w.say("%s cannot be placed: no hex may take it.", id)
				continue
			}
			h = near[0]
			if p, ok := plan[id]; ok && slices.Contains(near, p) {
				h = p
			}
		}
		w.emit(&Put{Units: []string{id}, Where: OnMap, Hex: h, Side: Whitestone, Why: "knights of the tower"})
		lines = append(lines, fmt.Sprintf("%s at %s", id, h))
		w.entered(id, h, false)
	}
	w.say("The first Knights nation is at war: the Knights of the Tower take the field for the Whitestone at the High Clerist's Tower (%s) (DG-ACT-10).", tower)
	w.sayHidden(Whitestone, "Knights of the Tower: %s.", strings.Join(lines, "; "))
}

// invade resolves the activation by invasion of neutral nation n, entered
// by side's counter id at h (DG-INV): the side that did not invade rolls
// first, at +2 on every roll, then the two sides roll in turn until one
// activates it (DG-INV-5 to -7, DG-AMB-19); when neither can ever succeed
// it joins the side that did not invade without a roll (DG-INV-11). The
// gaining side's standing place: plan places its forces (DG-INV-8).
func (w *world) invade(n string, side adjudicator.Side, id, h string) {
	non := Other(side)
	w.sayHidden(side, "%s enters %s at %s.", id, n, h)
	w.say("%s forces enter %s at %s: the neutral nation is invaded and %s's movement stops while it chooses a side (DG-INV-1, -4).", side, n, h, side)
	var winner adjudicator.Side
	roller := non
	for i := 0; winner == ""; i++ {
		st := w.st()
		vn, hn := st.activationValue(n, non)
		vi, hi := st.activationValue(n, side)
		vn += 2
		hn += " +2 invaded"
		if vn <= 0 && vi <= 0 {
			winner = non
			w.say("Neither side can roll low enough (%s needs %d, %s %d): %s joins %s without a roll (DG-INV-11, DG-AMB-22).", non, vn, side, vi, n, non)
			break
		}
		if i >= 200 {
			w.r.Fail(fmt.Errorf("glory: the invasion roll-off for %s did not end in 200 rolls", n))
			return
		}
		v, how := vi, hi
		if roller == non {
			v, how = vn, hn
		}
		r := w.roll(fmt.Sprintf("invasion of %s: %s", n, roller), 1, 10)
		if w.r.Err() != nil {
			return
		}
		if r.Total <= v {
			winner = roller
			r.Outcome = fmt.Sprintf("needs %d or less (%s): %s joins %s", v, how, n, roller)
		} else {
			r.Outcome = fmt.Sprintf("needs %d or less (%s): no effect", v, how)
		}
		roller = Other(roller)
	}
	var ws *StrategicOrders
	w.activate(n, winner, w.plan(winner, nil), ws)
}

// checkPlanStanding checks a standing place: order: counter → hex.
func checkPlanStanding(st *State, side adjudicator.Side, v *yaml.Node) error {
	c := newChecker(st, side)
	var errs adjudicator.OrderErrors
	c.planEntries(v, func(err error) {
		if e, ok := err.(*adjudicator.OrderError); ok {
			errs = append(errs, e)
		}
	}, false)
	if len(errs) > 0 {
		return errs
	}
	return nil
}

func (c *checker) place(v *yaml.Node, add func(error)) map[string]string {
	return c.planEntries(v, add, true)
}

// planEntries reads a placement plan, counter → hex: a counter of a
// nation (or a Knight of the Tower) and a hex of the map; with now set,
// the nation must still be neutral and the hex inside its borders (a plan
// in standing orders may look further ahead).
func (c *checker) planEntries(v *yaml.Node, add func(error), now bool) map[string]string {
	if v.Kind != yaml.MappingNode {
		add(adjudicator.Errorf(v, adjudicator.CodeBadValue, "place: is a mapping of counter: hex, e.g. {sarnport-inf-1: \"1913\"}"))
		return nil
	}
	out := map[string]string{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		kn, hn := v.Content[i], v.Content[i+1]
		k := c.st.data.Counters[kn.Value]
		if k == nil {
			_, err := ownUnit(c.st, c.side, kn) // says "no counter", with a suggestion
			add(err)
			continue
		}
		h, err := hexOf(c.st, hn)
		if err != nil {
			add(err)
			continue
		}
		if _, dup := out[kn.Value]; dup {
			add(adjudicator.Errorf(kn, codeTwice, "%s is placed twice", kn.Value))
			continue
		}
		switch {
		case k.Tower:
		case k.Nation == "":
			add(adjudicator.Errorf(kn, codeNoHome, "%s belongs to no nation: place: is for the forces of a nation that joins you (DG-ACT-12)", kn.Value))
			continue
		case now && c.st.Nations[k.Nation].Side != "":
			add(adjudicator.Errorf(kn, codeNotNeutral, "%s's nation %s is not neutral: its forces are already placed", kn.Value, k.Nation))
			continue
		case now:
			if why := c.st.homeProblem(k.Nation, kn.Value, h); why != "" {
				add(adjudicator.Errorf(hn, codeNoHome, "%s", why))
				continue
			}
		}
		out[kn.Value] = h
	}
	return out
}

func (c *checker) activate(v *yaml.Node, add func(error)) []string {
	items, ok := oneOrList(v)
	if !ok {
		add(adjudicator.Errorf(v, adjudicator.CodeBadValue, "activate: is a nation, or a list of nations to try in order, e.g. [sarnport, karthay]"))
		return nil
	}
	var out []string
	for _, e := range items {
		if why := c.st.activationProblem(e.Value, c.side); why != "" {
			add(adjudicator.Errorf(e, codeNotNeutral, "%s", why))
			continue
		}
		if slices.Contains(out, e.Value) {
			add(adjudicator.Errorf(e, codeTwice, "%s is named twice", e.Value))
			continue
		}
		out = append(out, e.Value)
	}
	return out
}
