package glory

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
)

// Fleet movement and sea transport (DG-FLEET, DG-SEA). The mover's fleets
// move first in his step (DG-TURN-7, DG-FLEET-9), each along the path its
// order gives:
//
//	fleets:
//	  - {unit: sarnport-fleet-1, path: ["1914", "1814", "1613/1713"], embark: sarnport-inf-1, land: "1612"}
//	  - {unit: black-fleet, path: ["2405", "2406"]}
//	  - {unit: sarnport-fleet-2, path: ["0514", maelstrom]}
//
// path lists the positions the fleet enters, one step each: hexes at sea or
// on the coast, a great river's hexsides as "1613/1713", and "maelstrom" as
// the last step from a hex next to it. embark names the land army (and any
// leaders) it picks up in a port on its way (DG-SEA-1, -2, -10): they board
// at the first point of the path (its start included) where the fleet is in
// their port, or on a river hexside whose bank it is. land names the hex
// where everything it carries but wizards goes ashore: a port, after which
// the fleet may sail on (DG-SEA-4), or any coastal hex or river bank, where
// the fleet's path must end (DG-SEA-5).

// FleetOrder moves one fleet.
type FleetOrder struct {
	Unit   string   `json:"unit" yaml:"unit"`
	Path   []string `json:"path,omitempty" yaml:"path,omitempty"`
	Embark []string `json:"embark,omitempty" yaml:"embark,omitempty"`
	Land   string   `json:"land,omitempty" yaml:"land,omitempty"`
}

func parseFleets(st *State, side adjudicator.Side, v *yaml.Node) ([]FleetOrder, error) {
	if v.Kind != yaml.SequenceNode {
		return nil, adjudicator.Errorf(v, adjudicator.CodeBadValue, "fleets: is a list of fleet moves, e.g. - {unit: black-fleet, path: [\"2405\", \"2406\"]}")
	}
	var errs adjudicator.OrderErrors
	var out []FleetOrder
	seen := map[string]bool{}
	boarding := map[string]bool{}
	for _, n := range v.Content {
		o, err := parseFleet(st, side, n, seen, boarding)
		if err != nil {
			errs = append(errs, asOrderErrors(n, err)...)
			continue
		}
		out = append(out, o)
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return out, nil
}

// asOrderErrors turns an error into the order errors it holds.
func asOrderErrors(n *yaml.Node, err error) adjudicator.OrderErrors {
	switch e := err.(type) {
	case adjudicator.OrderErrors:
		return e
	case *adjudicator.OrderError:
		return adjudicator.OrderErrors{e}
	}
	return adjudicator.OrderErrors{adjudicator.Errorf(n, adjudicator.CodeBadValue, "%v", err)}
}

// oneOrList reads a node that gives one value or a list of them ("activate:
// kern" or "activate: [kern, lemish]") as its items; false for anything
// else.
func oneOrList(v *yaml.Node) ([]*yaml.Node, bool) {
	switch v.Kind {
	case yaml.ScalarNode:
		return []*yaml.Node{v}, true
	case yaml.SequenceNode:
		return v.Content, true
	}
	return nil, false
}

// strs reads a scalar or a list of scalars.
func strs(v *yaml.Node) ([]*yaml.Node, error) {
	items, ok := oneOrList(v)
	if !ok {
		return nil, adjudicator.Errorf(v, adjudicator.CodeBadValue, "write a name or a list of names")
	}
	for _, c := range items {
		if c.Kind != yaml.ScalarNode {
			return nil, adjudicator.Errorf(c, adjudicator.CodeBadValue, "write a name here, not a list or mapping")
		}
	}
	return items, nil
}

// posOf reads a fleet position: a hex of the map, a hexside "CCRR/CCRR"
// between two neighbours, or (with mael) the Maelstrom.
func posOf(st *State, v *yaml.Node, mael bool) (string, error) {
	if mael && strings.EqualFold(v.Value, maelStep) {
		return maelStep, nil
	}
	a, b, ok := strings.Cut(v.Value, "/")
	if !ok {
		return hexOf(st, v)
	}
	var hs []string
	for _, s := range []string{a, b} {
		h, err := hex.ParseLenient(strings.TrimSpace(s))
		if err != nil {
			return "", adjudicator.Errorf(v, codeBadHex, "%q: a river hexside is written as its two hexes, e.g. \"1613/1713\": %v", v.Value, err)
		}
		if !st.data.Map.OnMap(h) {
			return "", adjudicator.Errorf(v, codeBadHex, "%s is not on the map", h)
		}
		hs = append(hs, h.String())
	}
	if !st.Geo().Adjacent(hs[0], hs[1]) {
		return "", adjudicator.Errorf(v, codeBadHex, "%s and %s are not neighbours: a hexside is written as the two hexes it separates", hs[0], hs[1])
	}
	return hexsideName(hs[0], hs[1]), nil
}

// fleetPlan is a fleet order worked out against the state: where the fleet
// is after each step, the point where its cargo boards and where it lands
// (an index into the positions, 0 the start; -1 for none).
type fleetPlan struct {
	pos    []string // the start, then each position entered ("maelstrom" last, if entered)
	embark int
	land   int
}

func parseFleet(st *State, side adjudicator.Side, n *yaml.Node, seen, boarding map[string]bool) (FleetOrder, error) {
	var o FleetOrder
	if n.Kind != yaml.MappingNode {
		return o, adjudicator.Errorf(n, adjudicator.CodeBadValue, "a fleet move is a mapping: {unit: FLEET, path: [positions], embark: ARMY, land: HEX}")
	}
	var unitN, pathN, embarkN, landN *yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		switch k.Value {
		case "unit":
			unitN = val
		case "path":
			pathN = val
		case "embark":
			embarkN = val
		case "land":
			landN = val
		default:
			return o, yamlx.UnknownField(k, k.Value, []string{"unit", "path", "embark", "land"})
		}
	}
	if unitN == nil {
		return o, adjudicator.Errorf(n, adjudicator.CodeMissingField, "say which fleet moves: unit: FLEET")
	}
	u, err := ownUnit(st, side, unitN)
	if err != nil {
		return o, err
	}
	o.Unit = u.ID
	if st.Kind(u.ID).Type != Fleet {
		return o, adjudicator.Errorf(unitN, codeCannot, "%s is not a fleet: land and air armies move under moves:", u.ID)
	}
	if seen[u.ID] {
		return o, adjudicator.Errorf(unitN, codeTwice, "%s is given two fleet moves; a fleet moves once in a step", u.ID)
	}
	seen[u.ID] = true
	if u.Where == InMael {
		return o, adjudicator.Errorf(unitN, codeNotInPlay, "%s is caught in the Maelstrom and cannot move this step (DG-MAEL-4)", u.ID)
	}
	if u.Where != OnMap {
		return o, adjudicator.Errorf(unitN, codeNotInPlay, "%s is not on the map", u.ID)
	}
	if pathN != nil {
		if pathN.Kind != yaml.SequenceNode {
			return o, adjudicator.Errorf(pathN, adjudicator.CodeBadValue, "path: is a list of the positions the fleet enters, e.g. [\"1914\", \"1613/1713\"]")
		}
		for _, c := range pathN.Content {
			p, err := posOf(st, c, true)
			if err != nil {
				return o, err
			}
			o.Path = append(o.Path, p)
		}
	}
	plan := fleetPlan{pos: append([]string{u.Hex}, o.Path...), embark: -1, land: -1}
	if err := checkFleetPath(st, side, u, plan.pos, pathN); err != nil {
		return o, err
	}
	if embarkN != nil {
		ns, err := strs(embarkN)
		if err != nil {
			return o, err
		}
		armies := 0
		if st.armyAboard(u.ID) != nil {
			armies++
		}
		for _, c := range ns {
			e, err := ownUnit(st, side, c)
			if err != nil {
				return o, err
			}
			k := st.Kind(e.ID)
			switch {
			case k.IsLand():
				armies++
			case k.Type == Leader:
			case k.Type == Wizard:
				return o, adjudicator.Errorf(c, codeCannot, "%s is a wizard: wizards go aboard a fleet by their own move (DG-NAVAL-WIZ-1), not by embarking", e.ID)
			default:
				return o, adjudicator.Errorf(c, codeCannot, "%s cannot go aboard: a fleet carries one land army and any leaders (DG-SEA-1)", e.ID)
			}
			if armies > 1 {
				return o, adjudicator.Errorf(c, codeCannot, "%s would be a second land army aboard %s: a fleet carries one (DG-SEA-1, DG-SEA-10)", e.ID, u.ID)
			}
			if boarding[e.ID] {
				return o, adjudicator.Errorf(c, codeTwice, "%s is already embarked by another fleet's order", e.ID)
			}
			boarding[e.ID] = true
			if e.Where != OnMap {
				return o, adjudicator.Errorf(c, codeNotInPlay, "%s is not on the map", e.ID)
			}
			at := embarkPoint(st, plan.pos, e.Hex)
			if at < 0 {
				return o, adjudicator.Errorf(c, codeNotAdjacent, "%s is in %s, which the fleet's path never reaches as a port: a fleet picks up its army in a port (DG-SEA-2)", e.ID, e.Hex)
			}
			if plan.embark < 0 || at > plan.embark {
				plan.embark = at // every boarding happens by the last one's point
			}
			o.Embark = append(o.Embark, e.ID)
		}
	}
	if landN != nil {
		h, err := hexOf(st, landN)
		if err != nil {
			return o, err
		}
		o.Land = h
		if len(o.Embark) == 0 && !hasLandable(st, u.ID) {
			return o, adjudicator.Errorf(landN, codeCannot, "%s carries no army or leader to land", u.ID)
		}
		from := max(plan.embark, 0)
		at := -1
		for i := from; i < len(plan.pos); i++ {
			if plan.pos[i] != maelStep && slices.Contains(banks(plan.pos[i]), h) {
				at = i
				break
			}
		}
		g := st.Geo()
		switch {
		case at < 0:
			return o, adjudicator.Errorf(landN, codeNotAdjacent, "the fleet's path does not reach %s after its cargo is aboard: it lands its cargo in the hex it is in, or on a bank of its river hexside", h)
		case !g.Land(h):
			return o, adjudicator.Errorf(landN, codeCannot, "%s is at sea: land the cargo in a port or a coastal hex (DG-SEA-4, -5)", h)
		case !g.Port(h) && at != len(plan.pos)-1:
			return o, adjudicator.Errorf(landN, codeIllegalMove, "%s is not a port: a fleet that lands its cargo outside a port moves no further that turn (DG-SEA-5), so end its path there", h)
		}
		plan.land = at
	}
	return o, nil
}

// hasLandable reports whether fleet id carries an army or leader.
func hasLandable(st *State, id string) bool {
	for _, c := range st.cargo(id) {
		if st.Kind(c.ID).Type != Wizard {
			return true
		}
	}
	return false
}

// embarkPoint is the first point of a fleet's positions where it may pick
// up a counter in hex h: h is a port and the fleet is in it or on a river
// hexside along it; -1 when there is none.
func embarkPoint(st *State, pos []string, h string) int {
	if !st.Geo().Port(h) {
		return -1
	}
	for i, p := range pos {
		if p != maelStep && slices.Contains(banks(p), h) {
			return i
		}
	}
	return -1
}

// checkFleetPath checks a fleet's positions (its start first) against the
// rules: each step next to the one before, enterable, within its MP, and
// the Maelstrom only as the last step, from a hex next to it.
func checkFleetPath(st *State, side adjudicator.Side, u *Unit, pos []string, pathN *yaml.Node) error {
	g := st.Geo()
	mp := st.Face(u).MP
	for i := 1; i < len(pos); i++ {
		node := pathN.Content[i-1]
		prev, p := pos[i-1], pos[i]
		if i > mp {
			return adjudicator.Errorf(node, codeIllegalMove, "%s has %d MP and this is step %d of its path (DG-FLEET-1)", u.ID, mp, i)
		}
		if p == maelStep {
			if i != len(pos)-1 {
				return adjudicator.Errorf(node, codeIllegalMove, "entering the Maelstrom ends a fleet's path: nothing may follow it (DG-MAEL-3)")
			}
			if !g.nextToMael(prev) {
				return adjudicator.Errorf(node, codeIllegalMove, "%s is not next to the Maelstrom: a fleet enters it from a hex next to it (DG-MAEL-2)", prev)
			}
			continue
		}
		if !slices.Contains(g.fleetNear(prev), p) {
			if g.fleetPos(p) && slices.Contains(g.posNear(prev), p) {
				return adjudicator.Errorf(node, codeIllegalMove, "from %s to %s crosses land: between two coastal hexes a fleet sails along the coast", prev, p)
			}
			return adjudicator.Errorf(node, codeIllegalMove, "a fleet cannot sail from %s to %s: %s", prev, p, whyNotNear(st, prev, p))
		}
		if why := st.fleetBlocked(p, side, u.ID); why != "" {
			return adjudicator.Errorf(node, codeIllegalMove, "%s cannot enter %s: %s", u.ID, p, why)
		}
	}
	return nil
}

func whyNotNear(st *State, prev, p string) string {
	g := st.Geo()
	if !g.fleetPos(p) {
		return st.fleetBlocked(p, "")
	}
	return fmt.Sprintf("they do not touch (the positions next to %s are %s)", prev, strings.Join(g.fleetNear(prev), ", "))
}

// fleetRun is a fleet order's progress, kept in the program's Work while a
// question is asked during it.
type fleetRun struct {
	Next     int      `json:"next"`               // steps of the path taken
	Started  bool     `json:"started,omitempty"`  // the order has been checked again and begun
	Embarked bool     `json:"embarked,omitempty"` // its cargo has boarded
	Landed   bool     `json:"landed,omitempty"`
	Declined []string `json:"declined,omitempty"` // fleets that declined to escape at this step
	Wait     string   `json:"wait,omitempty"`     // what the question asked: escape, escape-exit, exit, displace
	Offer    string   `json:"offer,omitempty"`    // the fleet offered an escape
	Mael     *maelRun `json:"mael,omitempty"`     // a Maelstrom roll waiting for its exit hex
	Stop     bool     `json:"stop,omitempty"`     // the fleet moves no further
}

func loadWork[T any](p *program, key string, v *T) bool {
	s, ok := p.Work[key].(string)
	if !ok {
		return false
	}
	return json.Unmarshal([]byte(s), v) == nil
}

func saveWork(p *program, key string, v any) {
	b, _ := json.Marshal(v)
	if p.Work == nil {
		p.Work = map[string]any{}
	}
	p.Work[key] = string(b)
}

// fleetOrder resolves one fleet's move; it reports a pause.
func (w *world) fleetOrder(p *program, o *FleetOrder, ans *Answer) bool {
	st := w.st()
	var run fleetRun
	loadWork(p, "fleet", &run)
	defer w.saving(func() { saveWork(p, "fleet", &run) })()
	u := st.Units[o.Unit]
	if !run.Started {
		switch {
		case u.Side != p.Side || u.Where != OnMap:
			w.fleetSay(p.Side, "%s does not move: it is no longer on the map under %s's orders.", o.Unit, p.Side)
			return false
		}
		run.Started = true
	}
	var seg []string // positions entered since the last Moved
	flush := func() {
		if len(seg) == 0 {
			return
		}
		cur := w.st().Units[o.Unit]
		w.emit(&Moved{Unit: o.Unit, Path: append([]string{cur.Hex}, seg...), Kind: "sail"})
		seg = nil
	}
	pause := func() bool {
		flush()
		saveWork(p, "fleet", &run)
		return true
	}
	// Resume the question asked, if any.
	switch run.Wait {
	case "escape", "escape-exit":
		if w.escapeOffers(p, o.Unit, &run, ans) {
			return pause()
		}
		ans = nil
	case "exit":
		if w.maelstromFate(p, run.Mael, ans) {
			return pause()
		}
		run.Mael, run.Wait = nil, ""
		return false
	case "displace":
		if w.displace(p, ans) {
			return pause()
		}
		ans, run.Wait = nil, ""
	}
	for {
		cur := w.st().Units[o.Unit]
		if cur.Where != OnMap || cur.Side != p.Side {
			return false // sunk, or lost in an escape's aftermath
		}
		pos := cur.Hex
		if len(seg) > 0 {
			pos = seg[len(seg)-1]
		}
		if !run.Embarked && len(o.Embark) > 0 && embarkHere(w.st(), o, pos) {
			flush()
			w.embark(p, o)
			run.Embarked = true
		}
		if !run.Landed && o.Land != "" && (run.Embarked || len(o.Embark) == 0) && slices.Contains(banks(pos), o.Land) {
			flush()
			run.Landed = true
			stops := !w.st().Geo().Port(o.Land)
			run.Stop, run.Wait = stops, "displace"
			if w.land(p, o.Unit, o.Land) {
				return pause()
			}
			run.Wait = ""
			if stops {
				break
			}
		}
		if run.Stop || run.Next >= len(o.Path) {
			break
		}
		next := o.Path[run.Next]
		if next == maelStep {
			flush()
			run.Next++
			w.emit(&Flagged{Flag: flagFleetMoved, IDs: []string{o.Unit}})
			w.emit(&Put{Units: []string{o.Unit}, Where: InMael, Why: "maelstrom"})
			w.fleetSay(p.Side, "%s sails into the Maelstrom (DG-MAEL-2).", o.Unit)
			run.Mael, run.Wait = &maelRun{Fleet: o.Unit, Entered: true}, "exit"
			if w.maelstromFate(p, run.Mael, nil) {
				return pause()
			}
			return false
		}
		if why := w.st().fleetBlocked(next, p.Side, o.Unit); why != "" || !slices.Contains(w.st().Geo().fleetNear(pos), next) {
			if why == "" {
				why = "it does not touch " + pos
			}
			flush()
			w.fleetSay(p.Side, "%s stops at %s: it cannot enter %s now (%s).", o.Unit, pos, next, why)
			break
		}
		seg = append(seg, next)
		run.Next++
		run.Declined = nil
		if !isHexside(next) {
			w.entered(o.Unit, next, false)
		}
		if len(w.st().escapeCandidates(p.Side, next, nil)) > 0 {
			flush()
			if w.escapeOffers(p, o.Unit, &run, nil) {
				return pause()
			}
		}
	}
	flush()
	if run.Next > 0 || run.Landed || run.Embarked {
		w.emit(&Flagged{Flag: flagFleetMoved, IDs: []string{o.Unit}})
		if run.Next > 0 {
			w.fleetSay(p.Side, "%s sails to %s.", o.Unit, w.st().Units[o.Unit].Hex)
		}
	}
	return false
}

// embarkHere reports whether the fleet, at pos, is where its cargo waits.
func embarkHere(st *State, o *FleetOrder, pos string) bool {
	for _, id := range o.Embark {
		if u := st.Units[id]; u.Where == OnMap && st.Geo().Port(u.Hex) && slices.Contains(banks(pos), u.Hex) {
			return true
		}
	}
	return false
}

// embark puts the order's cargo aboard, each counter checked again: still
// in a port the fleet is at, and at most one land army aboard.
func (w *world) embark(p *program, o *FleetOrder) {
	st := w.st()
	pos := st.Units[o.Unit].Hex
	var ok []string
	var army string
	for _, id := range o.Embark {
		u, k := st.Units[id], st.Kind(id)
		switch {
		case u.Side != p.Side || u.Where != OnMap:
			w.fleetSay(p.Side, "%s does not go aboard %s: it is no longer on the map.", id, o.Unit)
		case !st.Geo().Port(u.Hex) || !slices.Contains(banks(pos), u.Hex):
			w.fleetSay(p.Side, "%s does not go aboard %s: it is not in the port %s is at.", id, o.Unit, o.Unit)
		case k.IsLand() && (st.armyAboard(o.Unit) != nil || army != ""):
			w.fleetSay(p.Side, "%s does not go aboard %s: it already carries a land army (DG-SEA-1).", id, o.Unit)
		default:
			if k.IsLand() {
				army = id
			}
			ok = append(ok, id)
		}
	}
	if len(ok) == 0 {
		return
	}
	w.emit(&Put{Units: ok, Where: Aboard, Carrier: o.Unit, Why: "embarked"})
	if army != "" {
		w.emit(&Flagged{Flag: flagTransported, IDs: []string{army}})
	}
	verb := "goes"
	if len(ok) > 1 {
		verb = "go"
	}
	w.fleetSay(p.Side, "%s %s aboard %s at %s (DG-SEA-2).", list(ok), verb, o.Unit, pos)
}

// land puts fleet id's army and leaders ashore at h, if stacking allows
// (DG-SEA-4, -5). The army's arrival may displace enemy fleets in h
// (DG-FLEET-6): land reports a pause for that question.
func (w *world) land(p *program, id, h string) bool {
	st := w.st()
	var ids, armies []string
	for _, c := range st.cargo(id) {
		k := st.Kind(c.ID)
		if k.Type == Wizard {
			continue
		}
		ids = append(ids, c.ID)
		if k.IsArmy() {
			armies = append(armies, c.ID)
		}
	}
	if len(ids) == 0 {
		return false
	}
	if why := st.StackProblem(h, p.Side, armies); why != "" {
		w.fleetSay(p.Side, "%s cannot land at %s: %s; it stays aboard %s.", list(ids), h, why, id)
		return false
	}
	w.emit(&Put{Units: ids, Where: OnMap, Hex: h, Why: "landed"})
	if len(armies) > 0 {
		w.emit(&Flagged{Flag: flagTransported, IDs: armies})
	}
	if st.Geo().Port(h) {
		w.fleetSay(p.Side, "%s lands %s in the port of %s (DG-SEA-4).", id, list(ids), h)
	} else {
		w.fleetSay(p.Side, "%s lands %s at %s and moves no further this turn (DG-SEA-5).", id, list(ids), h)
	}
	for _, c := range ids {
		w.entered(c, h, false)
	}
	if len(armies) > 0 {
		return w.displaceFleets(p, h, p.Side)
	}
	return false
}
