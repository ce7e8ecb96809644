package conquete

import (
	"fmt"
	"slices"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// The Movement phase (B.9): the sides take turns, the Rebels first, each
// moving one troop or passing (DN3-CAMP-MOVE-1, -10); a troop moves once
// (DN3-CAMP-MOVE-8, -9) along paths, as far as its slowest counter allows
// (Table DN3-T3), stopping where the rules say (DN3-CAMP-MOVE-4, -6); two
// passes in a row end the phase. A stealthy troop's move is told only to
// its side; the other hears that a hidden move was made (PBEM-DN3-12).

// MoveOrders is one action of the alternation.
type MoveOrders struct {
	Move string   `json:"move,omitempty" yaml:"move,omitempty"`
	Path []string `json:"path,omitempty" yaml:"path,omitempty"`
	Pass bool     `json:"pass,omitempty" yaml:"pass,omitempty"`
	// Traitor: the Rebels announce the traitor (DN3-CAMP-TRAITOR-1), before
	// their move (traitor.go).
	Traitor bool `json:"traitor,omitempty" yaml:"traitor,omitempty"`
	// Spells are strategic spells cast beside the move or the pass
	// (DN3-MAGIC-5, PBEM-DN3-10), read and cast by the magic chapter
	// (magic.go) before the troop moves.
	Spells []yaml.Node `json:"-" yaml:"spells,omitempty"`
}

var moveRequest = &requestKind{
	Kind: "orders", Title: "move", Hidden: true, Sealed: true,
	Prompt: "Move one troop (move: R2, path: [la-croisee, le-pont], the Regions entered in order) or pass (pass: true); " +
		"two passes in a row end the Movement phase (DN3-CAMP-MOVE-10); spells: [...] beside either casts strategic spells (DN3-MAGIC-5): docs/orders/la-conquete.md.",
	Parse:   parseMove,
	Decide:  decideMove,
	Default: defaultMove,
}

func parseMove(st *State, w Wait, n *yaml.Node) (adjudicator.Orders, error) {
	var f struct {
		Move    string      `yaml:"move"`
		Path    yaml.Node   `yaml:"path"`
		Pass    bool        `yaml:"pass"`
		Traitor bool        `yaml:"traitor"`
		Spells  []yaml.Node `yaml:"spells"`
	}
	e := &errs{}
	if isNull(n) {
		e.add(n, adjudicator.CodeEmpty, "move a troop (move: R2 with path: [...]) or pass (pass: true)")
		return nil, e.err()
	}
	if !decode(e, n, &f) {
		return nil, e.err()
	}
	o := &MoveOrders{Move: f.Move, Pass: f.Pass, Traitor: f.Traitor, Spells: f.Spells}
	if f.Traitor {
		checkTraitor(e, st, w.Side, key(n, "traitor"))
	}
	switch {
	case f.Pass && f.Move != "":
		e.add(key(n, "pass"), codeWrongSection, "move a troop or pass, not both")
	case f.Pass:
		if road := onRoad(st, w.Side); len(road) > 0 {
			e.add(key(n, "pass"), codeMustLeaveRoad, "you may not pass while %s %s on the road: every Rebel troop leaves it in the first Movement phase (AMB-89)", list(road), map[bool]string{true: "is", false: "are"}[len(road) == 1])
		}
	case f.Move == "":
		e.add(n, adjudicator.CodeMissingField, "move a troop (move: R2 with path: [...]) or pass (pass: true), with or without spells: [...]")
	default:
		o.Path, _ = scalars(e, &f.Path, "path")
		if t := ownTroop(e, st, w.Side, key(n, "move"), f.Move); t != nil {
			checkMove(e, st, t, o.Path, yamlValue(n, "path"))
		}
	}
	if len(f.Spells) > 0 {
		parseMoveSpells(e, st, w.Side, f.Spells)
	}
	return o, e.err()
}

// onRoad are side's troops still on the starting road that can move.
func onRoad(st *State, side adjudicator.Side) []string {
	var out []string
	for _, t := range st.SideTroops(side) {
		if t.Region == "route" && !t.Moved && !t.Rest {
			out = append(out, t.ID)
		}
	}
	return out
}

// Capacity is how many Regions t may enter (Table DN3-T3): its slowest
// counter's, a wounded one's 1; and the provenance of the class it used.
func Capacity(st *State, t *Troop) (int, Prov) {
	d := st.data
	best, prov := 3, Prov{Rule: "DN3-CAMP-MOVE-3"}
	for _, id := range t.Counters {
		k, c := d.Counters[id], st.Counters[id]
		n := 2
		switch {
		case c != nil && c.Wounds > 0 || k.Class == ClassDwarf:
			n = 1
		case k.Class == ClassRider || k.Class == ClassUnicorn:
			n = 3
		}
		if n < best || n == best && k.Prov.Assumed {
			best, prov = n, k.Prov
		}
	}
	return best, prov
}

// mustStop says why t must stop on entering region, "" if it need not
// (DN3-CAMP-MOVE-4, -6, AMB-94): a people's marker not yet allied, or a
// visible enemy troop; a stealthy troop goes on, unless it is stealthy in
// forest only and region is no forest.
func mustStop(st *State, t *Troop, region string) string {
	d := st.data
	reason := ""
	if p := st.PeopleAt(region); p != "" {
		reason = "the marker of " + d.Peoples[p].Name + " stands there"
	} else if st.Visible(region, Other(t.Side)) {
		reason = sideName(Other(t.Side)) + " have a troop there"
	}
	if reason == "" || !t.Stealthy {
		return reason
	}
	if cannotHide(st, &Troop{Counters: t.Counters, Region: region}) != "" {
		return reason + ", and Elves are stealthy in forest Regions only"
	}
	return ""
}

// checkMove checks a move of t along path: not yet moved, not at Rest,
// Regions joined by paths (the Dwarf passage with a Grey Dwarf only), no
// further than its capacity, no further than a Region where it must stop.
func checkMove(e *errs, st *State, t *Troop, path []string, pn *yaml.Node) {
	d := st.data
	if pn == nil {
		e.add(nil, adjudicator.CodeMissingField, "move: %s: give its path, the Regions it enters in order (path: [...])", t.ID)
		return
	}
	switch {
	case t.ID == KandarTroop && t.Region == "sortie":
		e.add(pn, codeKandarWaits, "troop K waits at the valley exit while the Rebels hold Fort Ekal: the referee plays it (DN3-CAMP-KANDAR-4, AMB-55, PBEM-DN3-28)")
		return
	case t.ID == KandarTroop && kandarOfficerDead(st):
		e.add(pn, codeKandarWaits, "troop K runs for the exit since its Officer died: the referee plays it (DN3-CAMP-KANDAR-8, AMB-56)")
		return
	case t.Moved:
		e.add(pn, codeMoved, "troop %s has moved in this phase already (DN3-CAMP-MOVE-9)", t.ID)
		return
	case t.Rest:
		e.add(pn, codeAtRest, "troop %s is at Rest and cannot move (DN3-CAMP-MOVE-11)", t.ID)
		return
	case len(path) == 0:
		e.add(pn, adjudicator.CodeMissingField, "the path of %s is empty: name the Regions it enters in order", t.ID)
		return
	}
	capacity, _ := Capacity(st, t)
	if len(path) > capacity {
		e.add(pn, codeTooFar, "troop %s enters %d Regions, but it moves %d at most (Table DN3-T3: its slowest counter)", t.ID, len(path), capacity)
	}
	at := t.Region
	for i, r := range path {
		node := pn
		if i < len(pn.Content) {
			node = pn.Content[i]
		}
		reg := regionOf(e, d, node, r)
		if reg == nil {
			return
		}
		p := d.PathBetween(at, r)
		switch {
		case p == nil:
			var next []string
			for _, q := range d.Adjacent(at) {
				next = append(next, q.Other(at))
			}
			e.add(node, codeBadPath, "no path joins %s to %s (from %s: %s)", at, r, at, list(next))
			return
		case reg.Offmap:
			e.add(node, codeBadRegion, "%s is off the map: troops do not go there (AMB-89)", r)
			return
		case p.Kind == PathDwarf && !hasGreyDwarf(st, t):
			e.add(node, codeBadPath, "the Dwarf passage is open only to troops with a Grey Dwarf (DN3-CAMP-MAP-7)")
			return
		}
		if why := mustStop(st, t, r); why != "" && i < len(path)-1 {
			e.add(node, codeMustStop, "troop %s must stop at %s: %s (DN3-CAMP-MOVE-4)", t.ID, r, why)
			return
		}
		at = r
	}
}

// hasGreyDwarf reports whether t holds a Grey Dwarf (DN3-CAMP-MAP-7).
func hasGreyDwarf(st *State, t *Troop) bool {
	return slices.ContainsFunc(t.Counters, func(id string) bool { return st.data.Counters[id].Side == "nains-gris" })
}

func decideMove(x *world, w Wait, o adjudicator.Orders) {
	mo := o.(*MoveOrders)
	if mo.Traitor {
		x.announceTraitor()
	}
	if len(mo.Spells) > 0 {
		x.moveSpells(w.Side, mo.Spells)
	}
	st, d := x.st(), x.data()
	if mo.Pass {
		x.emit(&Acted{Side: w.Side, Pass: true})
		x.say(nil, "%s pass.", capital(sideName(w.Side)))
		return
	}
	t := st.Troop(w.Side, mo.Move)
	if t == nil || t.Moved { // the traitor's announcement may have changed the sheet
		x.emit(&Acted{Side: w.Side, Pass: true})
		x.say(nil, "%s pass: troop %s can no longer move.", capital(sideName(w.Side)), mo.Move)
		return
	}
	var used Provs
	at := t.Region
	for _, r := range mo.Path {
		used = append(used, d.PathBetween(at, r).Prov)
		at = r
	}
	last := mo.Path[len(mo.Path)-1]
	from := t.Region
	if len(mo.Path) > 1 {
		from = mo.Path[len(mo.Path)-2]
	}
	ev := &TroopMoved{Side: w.Side, Troop: t.ID, Path: slices.Clone(mo.Path)}
	why := mustStop(st, t, last)
	if why != "" || t.Stealthy {
		// on the path it arrived by (DN3-CAMP-MOVE-5); a stealthy troop's,
		// sealed with its move, is where it is put back on the map if it is
		// revealed in this phase (DN3-CAMP-REVEAL-6)
		ev.Via = from
	}
	route := fmt.Sprintf("%s → %s", t.Region, joinArrow(mo.Path))
	capacity, cprov := Capacity(st, t)
	if t.Stealthy {
		x.seal(w.Side, "", ev)
		x.emit(&Acted{Side: w.Side})
		x.tell(w.Side, append(used, cprov), "Your stealthy troop %s moves %s (%d of %d Regions).", t.ID, route, len(mo.Path), capacity)
		x.say(nil, "%s made a hidden move (PBEM-DN3-12).", capital(sideName(w.Side)))
		return
	}
	if why != "" {
		for _, o := range st.TroopsIn(last, "") {
			if o != t && !o.Stealthy && o.Via != "" {
				ev.Centred = append(ev.Centred, o.Key())
			}
		}
	}
	x.emit(ev)
	x.emit(&Acted{Side: w.Side})
	stop := ""
	if why != "" {
		stop = fmt.Sprintf("; it stops on the path from %s: %s (DN3-CAMP-MOVE-4, -5)", from, why)
	}
	x.say(used, "%s move troop %s %s%s.", capital(sideName(w.Side)), t.ID, route, stop)
	x.tell(w.Side, Provs{cprov}, "Troop %s moved %d of its %d Regions (Table DN3-T3).", t.ID, len(mo.Path), capacity)
}

func joinArrow(rs []string) string {
	s := ""
	for i, r := range rs {
		if i > 0 {
			s += " → "
		}
		s += r
	}
	return s
}

// defaultMove is a pass; a Rebel troop still on the road goes down to the
// Moulin instead (AMB-89).
func defaultMove(st *State, w Wait) (string, bool) {
	if road := onRoad(st, w.Side); len(road) > 0 {
		return fmt.Sprintf("{move: %s, path: [le-moulin]}", road[0]), true
	}
	return "{pass: true}", true
}
