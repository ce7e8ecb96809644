package dragonnoir

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
)

// The battle's set-up (DN3-CAMP-BATTLE-5, AMB-71, PBEM-DN3-19, HID-16):
// each side with counters at the centre of the Region sends the hexes it
// sets them up on, 4 hexes or more from every edge of the map; the two
// mails are sealed until both are in, then revealed together. Where two
// counters claim one hex, the one of the mail that came in later goes to
// the nearest hex where it may be set up (AMB-71). The counters on paths
// wait off the map by the edge of their path, as the position says
// (DN3-CAMP-BATTLE-6); they enter in their side's first player-turn.

// Error codes of the set-up (docs/orders/dragon-noir.md).
const (
	codeNotPlaced   = "not-placed"    // a counter at the centre the mail does not set up
	codeNotCentre   = "not-centre"    // a hex too near an edge, or a counter that does not set up
	codeSameHex     = "same-hex"      // two counters of the mail on one hex
	codeBadEntry    = "bad-entry"     // a counter entering off its edge (battle_turn.go)
	codeNoExit      = "no-exit"       // leaving by an edge that leads nowhere (battle_turn.go)
	codeMayNotLeave = "may-not-leave" // a counter that may not leave the map (battle_turn.go)
)

// SetupOrders is a side's set-up mail: the hex of each of its counters at
// the centre of the Region.
type SetupOrders struct {
	Place map[string]string `json:"place" yaml:"place"`
	// Spells are the side's spells affecting the terrain, cast before the
	// first turn by its casters at the centre (DN3-MAGIC-6, PBEM-DN3-19;
	// the magic chapter reads and casts them, spell_valley.go).
	Spells []SpellOrder `json:"spells,omitempty" yaml:"spells,omitempty"`
	// Order is the order the counters were given in, for the report.
	Order []string `json:"-" yaml:"-"`
}

// setupRequest is side's set-up request.
func setupRequest(st *State, side adjudicator.Side) adjudicator.Request {
	return adjudicator.Request{
		ID: "setup." + string(side), Side: side, Kind: "setup", Turn: st.Turn, Phase: StepSetup,
		Title: fmt.Sprintf("battle of %s, the %s' set-up", st.Battle.Region, st.SideName(side)),
		Prompt: fmt.Sprintf("The hex of each of your counters at the centre of the Region, 4 hexes or more from every edge of the map (DN3-CAMP-BATTLE-5): place: {%s}. Sealed until both sides' set-ups are in (AMB-71); your counters on paths wait off the map by their edge and enter in your first player-turn: docs/orders/dragon-noir.md.",
			strings.Join(placeSkeleton(st, side), ", ")),
		Hidden: true,
	}
}

// toSetUp lists side's counters still to be set up at the centre, by ID.
func (s *State) toSetUp(side adjudicator.Side) []string {
	var out []string
	if s.Step != StepSetup {
		return nil
	}
	for _, c := range s.Sorted() {
		if c.Side == side && c.At == "" && c.Edge == "" && !c.Left && c.Face != Killed && c.RiddenBy == "" { // a steed in the saddle is set up with its rider
			out = append(out, c.ID)
		}
	}
	return out
}

func placeSkeleton(st *State, side adjudicator.Side) []string {
	var out []string
	for _, id := range st.toSetUp(side) {
		out = append(out, id+": ____")
	}
	return out
}

// setupDue are the set-up requests: one for each side with counters at
// the centre.
func setupDue(st *State) []adjudicator.Request {
	var out []adjudicator.Request
	for _, side := range []adjudicator.Side{Adventurers, Krobs} {
		if len(st.toSetUp(side)) > 0 {
			out = append(out, setupRequest(st, side))
		}
	}
	return out
}

// parseSetup reads side's set-up mail: every counter it has at the centre
// once, on a hex of the centre it may stand on, two never on one hex.
func parseSetup(st *State, side adjudicator.Side, n *yaml.Node) (*SetupOrders, error) {
	var f struct {
		Place  yaml.Node `yaml:"place"`
		Spells yaml.Node `yaml:"spells"` // KeyPreBattleSpells
	}
	if err := yamlx.Decode(n, &f); err != nil {
		return nil, err
	}
	if f.Place.Kind != yaml.MappingNode {
		return nil, adjudicator.Errorf(n, adjudicator.CodeMissingField, "place: {UNIT: HEX, …}: the hex of each of your counters at the centre (%s)", strings.Join(st.toSetUp(side), ", "))
	}
	o := &SetupOrders{Place: map[string]string{}}
	var errs adjudicator.OrderErrors
	due := st.toSetUp(side)
	taken := map[string]string{}
	given := map[string]bool{}
	for i := 0; i+1 < len(f.Place.Content); i += 2 {
		kn, vn := f.Place.Content[i], f.Place.Content[i+1]
		id := kn.Value
		c := st.Chars[id]
		given[id] = true
		switch {
		case c == nil:
			errs = append(errs, adjudicator.Errorf(kn, adjudicator.CodeUnknownUnit, "no counter %q in this battle%s", id, suggest(id, due)))
			continue
		case c.Side != side:
			errs = append(errs, adjudicator.Errorf(kn, codeNotYours, "%s fights for the %s: you set up the %s", id, st.SideName(c.Side), st.SideName(side)))
			continue
		case c.RiddenBy != "": // riders (move_rider.go)
			errs = append(errs, adjudicator.Errorf(kn, codeNotCentre, "%s carries %s: the pair is set up together, on %s's hex; leave %s out", id, c.RiddenBy, c.RiddenBy, id))
			continue
		case !slices.Contains(due, id):
			errs = append(errs, adjudicator.Errorf(kn, codeNotCentre, "%s is not at the centre of the Region: it waits off the map by the edge to %s and enters in your first player-turn (DN3-CAMP-BATTLE-6)", id, c.Edge))
			continue
		case o.Place[id] != "":
			errs = append(errs, adjudicator.Errorf(kn, codeTwice, "%s is set up twice", id))
			continue
		}
		l, err := locOn(st.board, vn.Value)
		if err != nil {
			errs = append(errs, adjudicator.Errorf(vn, codeBadLocation, "%s: %v", id, err))
			continue
		}
		if why := st.setupWhy(c, l.Hex); why != "" {
			errs = append(errs, adjudicator.Errorf(vn, codeNotCentre, "%s: %s", id, why))
			continue
		}
		at := l.Hex.String()
		if other, ok := taken[at]; ok {
			errs = append(errs, adjudicator.Errorf(vn, codeSameHex, "%s and %s are both on %s: one counter a hex (DN-STACK-2)", other, id, at))
			continue
		}
		taken[at] = id
		o.Place[id] = at
		o.Order = append(o.Order, id)
	}
	for _, id := range due {
		if !given[id] {
			errs = append(errs, adjudicator.Errorf(&f.Place, codeNotPlaced, "%s is at the centre of the Region: give its hex (%s: HEX)", id, id))
		}
	}
	if f.Spells.Kind != 0 { // magic chapter: DN3-MAGIC-6 (spell_valley.go)
		sp, err := parsePreBattleSpells(st, side, &f.Spells)
		switch e := err.(type) {
		case nil:
			o.Spells = sp
		case adjudicator.OrderErrors:
			errs = append(errs, e...)
		case *adjudicator.OrderError:
			errs = append(errs, e)
		default:
			return nil, err
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return o, nil
}

// setupWhy says why c may not be set up on h, "" when it may: a hex of
// the centre (DN3-CAMP-BATTLE-5) it may stand on — a rider in the saddle
// where the pair may (move_rider.go).
func (s *State) setupWhy(c *Char, h hex.Hex) string {
	if why := s.centreOK(h); why != "" {
		return why
	}
	k := s.mover(c)
	if err := placeable(s.board, k, Placement{Unit: c.ID, At: h.String(), Facing: c.Facing}); err != nil {
		return err.Error()
	}
	l := s.board.FloorLoc(h)
	if !s.CanEnter(k, l) {
		return fmt.Sprintf("a %s may not stand on %s (%s)", k.Title, h, s.Terrain(l).Title)
	}
	return ""
}

// setUp reveals the set-ups together and puts the counters on the map
// (AMB-71): the earlier mail's first; a counter of a later mail whose hex
// is taken goes to the nearest free hex of the centre it may stand on (the
// first in hex order among the nearest). Then the first player-turn
// begins.
func (w *world) setUp(subs []adjudicator.Submission) {
	st := w.st()
	taken := map[hex.Hex]string{}
	for _, sub := range subs {
		o, ok := sub.Orders.(*SetupOrders)
		if !ok {
			w.r.Fail(fmt.Errorf("dragonnoir: the battle's set-up got %T", sub.Orders))
			return
		}
		var placed []string
		for _, id := range o.Order {
			c := st.Chars[id]
			h := hex.MustParse(o.Place[id])
			if by, clash := taken[h]; clash {
				nh, ok := w.nearestCentre(c, h, taken)
				if !ok {
					w.say(nil, "%s claims %s, where %s is set up, and no hex of the centre is left for it: it stays off the map (AMB-71).", id, h, by)
					continue
				}
				w.say(nil, "%s and %s both claim %s: the %s' set-up came in later, so %s goes to the nearest free hex, %s (AMB-71).", by, id, h, st.SideName(sub.Side), id, nh)
				h = nh
			}
			taken[h] = id
			w.emit(&Placed{Unit: id, At: locString(st.board, st.board.FloorLoc(h)), Facing: c.Facing, Why: "set-up"})
			placed = append(placed, fmt.Sprintf("%s on %s", id, h))
		}
		w.say(nil, "The %s set up at the centre of %s: %s (DN3-CAMP-BATTLE-5).", st.SideName(sub.Side), st.Battle.Region, strings.Join(placed, ", "))
	}
	for _, side := range []adjudicator.Side{Adventurers, Krobs} {
		byEdge := map[string][]string{}
		for _, c := range st.Sorted() {
			if c.Side == side && c.waiting() {
				byEdge[c.Edge] = append(byEdge[c.Edge], c.ID)
			}
		}
		for _, e := range slices.Sorted(maps.Keys(byEdge)) {
			w.say(nil, "The %s' %s wait off the map by the edge to %s: they enter in their first player-turn (DN3-CAMP-BATTLE-6).", st.SideName(side), list(byEdge[e]), e)
		}
	}
	for _, side := range []adjudicator.Side{Adventurers, Krobs} { // the Rebels' first (DN3-MAGIC-6, magic chapter)
		for _, sub := range subs {
			if o := sub.Orders.(*SetupOrders); sub.Side == side && len(o.Spells) > 0 {
				w.castPreBattle(o.Spells)
			}
		}
	}
	first := st.Battle.First
	w.emit(&Stepped{Turn: st.Turn, Step: string(first)})
	w.say(nil, "Battle turn %d: the %s' player-turn begins (AMB-69).", st.Turn, st.SideName(first))
}

// nearestCentre is the free hex of the centre nearest h where c may be set
// up, the first in hex order among the nearest.
func (w *world) nearestCentre(c *Char, h hex.Hex, taken map[hex.Hex]string) (hex.Hex, bool) {
	st := w.st()
	var best hex.Hex
	bestD := -1
	for _, x := range st.CentreHexes() {
		if _, ok := taken[x]; ok || st.setupWhy(c, x) != "" {
			continue
		}
		if d := st.board.Layout.Distance(h, x); bestD < 0 || d < bestD {
			best, bestD = x, d
		}
	}
	return best, bestD >= 0
}

// setupPlaceholder stands for a hex still to choose in the set-up
// skeleton.
const setupPlaceholder = "____"

var _ adjudicator.SetupHelper = ruleset{}

// SetupHelp is the help a side gets with its battle set-up
// (adjudicator.SetupHelper): the centre of the Region, shaded on its
// picture, and a skeleton of its mail with a placeholder for each hex.
func (ruleset) SetupHelp(s adjudicator.State, req adjudicator.Request) ([]adjudicator.Zone, string, bool) {
	st, ok := s.(*State)
	if !ok || st.Battle == nil || st.Step != StepSetup || req.Kind != "setup" || len(st.toSetUp(req.Side)) == 0 {
		return nil, "", false
	}
	z := adjudicator.Zone{Name: "centre", Title: fmt.Sprintf("the centre of %s, 4 hexes or more from every edge (DN3-CAMP-BATTLE-5)", st.Battle.Region),
		Units: st.toSetUp(req.Side)}
	for _, h := range st.CentreHexes() {
		if !slices.ContainsFunc(z.Units, func(id string) bool { return st.setupWhy(st.Chars[id], h) != "" }) {
			z.Hexes = append(z.Hexes, h.String())
		}
	}
	slices.Sort(z.Hexes)
	z.Compact = fmt.Sprintf("columns %02d to %02d, rows %02d to %02d", st.board.Bounds.MinCol+centreDepth, st.board.Bounds.MaxCol-centreDepth,
		st.board.Bounds.MinRow+centreDepth, st.board.Bounds.MaxRow-centreDepth)
	var b strings.Builder
	fmt.Fprintf(&b, "turn: %d\nphase: %s\norders:\n  place:\n", req.Turn, req.Phase)
	for _, id := range z.Units {
		fmt.Fprintf(&b, "    %s: %s\n", id, setupPlaceholder)
	}
	return []adjudicator.Zone{z}, b.String(), true
}

// defaultSetUp is the set-up of side's counters at the centre when its
// player sends none by the deadline (PBEM-GEN-3): each, in ID order, on
// the free hex of the centre nearest its side's end of the map (the
// adventurers' west, the krobs' east) where it may stand.
func defaultSetUp(st *State, side adjudicator.Side) map[string]string {
	hs := st.CentreHexes()
	slices.SortStableFunc(hs, func(a, b hex.Hex) int {
		if side == Krobs {
			return b.Col - a.Col
		}
		return a.Col - b.Col
	})
	out := map[string]string{}
	used := map[hex.Hex]bool{}
	for _, id := range st.toSetUp(side) {
		for _, h := range hs {
			if !used[h] && st.setupWhy(st.Chars[id], h) == "" {
				used[h], out[id] = true, h.String()
				break
			}
		}
	}
	return out
}

// defaultSetUpOrders is defaultSetUp as the YAML of a set-up's orders.
func defaultSetUpOrders(st *State, side adjudicator.Side) (string, bool) {
	place := defaultSetUp(st, side)
	if len(place) < len(st.toSetUp(side)) {
		return "", false
	}
	var parts []string
	for _, id := range slices.Sorted(maps.Keys(place)) {
		parts = append(parts, fmt.Sprintf("%s: %q", id, place[id]))
	}
	return "{place: {" + strings.Join(parts, ", ") + "}}", true
}
