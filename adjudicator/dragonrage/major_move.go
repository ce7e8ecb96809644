package dragonrage

// Movement of the major monsters (§18): one mode a turn — walk, slither,
// bound or fly (DR-DRAGON-MODE-1) — or a deliberate drop off a tower
// (DR-DRAGON-CRASH-5), with the facing given in the orders (DR-HEX-7). A
// move is checked whole when the orders arrive, on the copy of the state
// that sees the moves before it (DR-MOVE-5), and carried out step by step
// when they are resolved: an overrun attack or a gate smashed with MP is
// rolled at once, in the middle of the move (DR-OVR-6, DR-AMB-17).

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// majorKeys are the keys of a major monster's movement order.
var majorKeys = []string{"move", "mode", "path", "face", "overrun", "stop-if-held", "smash", "smash-mp", "destroy", "land", "crash", "climb"}

const majorMoveExample = `  - move: DRAGON-1
    mode: walk            # walk, slither, bound, fly or drop
    path: ["0808", "0809"]
    face: SE              # the facing at the end (optional)`

// majorMove is what checking a major monster's move worked out.
type majorMove struct {
	mode    string
	steps   []majorStep
	face    hex.Direction // the facing at the end
	flying  bool          // in the air at the end
	takeoff bool
	land    bool
	destroy bool   // spends 1 MP to destroy the VP hex it ends in (DR-VP-3a)
	gate    string // a gate in front smashed at the end: hexside key
	gateMP  int    // MP spent on it; 0 = the legless roll (DR-SMASH-5)
	crossed []string
}

// majorStep is one hex entered.
type majorStep struct {
	To      string
	Face    hex.Direction
	Door    string // a door smashed by facing it on the way (DR-SMASH-1)
	Gate    string // a gate smashed on the way (DR-SMASH-2)
	GateMP  int    // MP spent on a guarded gate: it breaks on 1d6 ≤ that (0: unguarded)
	Attack  bool   // an overrun attack on the units there (DR-OVR-6)
	Control string // a wall entrance whose control passes to the mover
	Slither bool   // a slither into an empty VP hex destroys it (DR-DRAGON-SLITHER-2)
}

// parseMajorMove checks a major monster's movement order.
func (w *world) parseMajorMove(u *Unit, item *yaml.Node, f map[string]*yaml.Node) (*Move, error) {
	m := w.st.major(u)
	s := w.st.sheet(u)
	mv := &Move{Unit: u.ID, node: item, Mode: modeWalk}
	if u.Flying {
		mv.Mode = modeFly
	}
	if x := f["mode"]; x != nil {
		v, err := scalar(x, "walk, slither, bound, fly or drop")
		if err != nil {
			return nil, err
		}
		mv.Mode = strings.ToLower(v)
		if !slices.Contains([]string{modeWalk, modeSlither, modeBound, modeFly, modeDrop}, mv.Mode) {
			return nil, adjudicator.Errorf(x, adjudicator.CodeBadValue, "%q is not a movement mode: write walk, slither, bound, fly or drop (DR-DRAGON-MODE-1)", v)
		}
		if mv.Mode != modeDrop && !m.has(mv.Mode) {
			return nil, adjudicator.Errorf(x, codeCannot, "a %s cannot %s: its modes are %s (DR-MAJOR-4)", w.st.typ(u).Name, mv.Mode, strings.Join(m.Modes, ", "))
		}
	}
	bad := func(n *yaml.Node, format string, args ...any) error {
		if n == nil {
			n = f["move"]
		}
		return adjudicator.Errorf(n, codeIllegalMove, "%s", fmt.Sprintf(format, args...))
	}
	if u.Mode != "" {
		return nil, bad(f["move"], "%s has already made its move this turn (%s): one movement mode a turn (DR-DRAGON-MODE-1)", u.ID, u.Mode)
	}
	if u.Flying && mv.Mode != modeFly {
		return nil, bad(f["mode"], "%s is flying: it may only fly on, or land with \"land: true\" (DR-DRAGON-FLY-6)", u.ID)
	}
	if x := f["path"]; x != nil {
		var err error
		if mv.Path, _, err = w.hexList(x); err != nil {
			return nil, err
		}
	}
	if x := f["face"]; x != nil {
		v, err := scalar(x, "a facing: N, NE, SE, S, SW or NW")
		if err != nil {
			return nil, err
		}
		d, err := hex.ParseDirection(v)
		if err != nil {
			return nil, adjudicator.Errorf(x, adjudicator.CodeBadValue, "%q is not a facing: write N, NE, SE, S, SW or NW (DR-HEX-7)", v)
		}
		mv.Face = d.String()
	}
	if x := f["land"]; x != nil {
		if x.Value != "true" && x.Value != "false" {
			return nil, adjudicator.Errorf(x, adjudicator.CodeBadValue, "write \"land: true\" to land at the end of the flight")
		}
		mv.Land = x.Value == "true"
	}
	if x := f["stop-if-held"]; x != nil {
		if x.Value != "true" && x.Value != "false" {
			return nil, adjudicator.Errorf(x, adjudicator.CodeBadValue, "write \"stop-if-held: true\" to stop the walk where an overrun attack fails")
		}
		mv.StopIfHeld = x.Value == "true"
		if mv.StopIfHeld && f["overrun"] == nil {
			return nil, adjudicator.Errorf(f["@stop-if-held"], codeCannot, "stop-if-held goes with an overrun attack (overrun: [HEX])")
		}
	}
	if x := f["crash"]; x != nil {
		list := []*yaml.Node{x}
		if x.Kind == yaml.SequenceNode {
			list = x.Content
		}
		for _, a := range list {
			if m.area(a.Value) == nil || slices.Contains(mv.Crash, a.Value) {
				return nil, adjudicator.Errorf(a, adjudicator.CodeBadValue, "crash: lists the areas crash damage goes to, in order, each once: %s (DR-DRAGON-CRASH-2)", strings.Join(m.AreaNames(), ", "))
			}
			mv.Crash = append(mv.Crash, a.Value)
		}
	}
	for _, k := range []string{"overrun", "stop-if-held", "smash-mp", "destroy", "smash", "climb"} {
		if f[k] != nil && !slices.Contains(modeKeys[mv.Mode], k) {
			return nil, adjudicator.Errorf(f["@"+k], codeCannot, "%q goes with %s, not with mode %s", k, keyModes(k), mv.Mode)
		}
	}
	if f["land"] != nil && mv.Mode != modeFly {
		return nil, adjudicator.Errorf(f["@land"], codeCannot, "land: ends a flight (mode: fly)")
	}
	if f["face"] != nil && (mv.Mode == modeBound || mv.Mode == modeFly || mv.Mode == modeDrop) {
		return nil, adjudicator.Errorf(f["@face"], codeCannot, "after a %s the monster faces the way it went (DR-DRAGON-BOUND-2, DR-DRAGON-FLY-3, DR-AMB-77): leave out face:", mv.Mode)
	}
	var err error
	plan := &majorMove{mode: mv.Mode, face: u.facing(), flying: u.Flying}
	switch mv.Mode {
	case modeWalk:
		err = w.planWalk(u, mv, f, plan, s)
	case modeSlither:
		err = w.planSlither(u, mv, f, plan, s)
	case modeBound:
		err = w.planBound(u, mv, f, plan, s)
	case modeFly:
		err = w.planFlight(u, mv, f, plan, s)
	case modeDrop:
		err = w.planDrop(u, mv, f, plan, s)
	}
	if err != nil {
		return nil, err
	}
	mv.major = plan
	return mv, nil
}

// modeKeys are the order keys each mode takes besides move, mode, path,
// face, land and crash.
var modeKeys = map[string][]string{
	modeWalk:    {"overrun", "stop-if-held", "smash", "smash-mp", "destroy", "climb"},
	modeSlither: {"smash"},
}

func keyModes(k string) string {
	var ms []string
	for _, m := range []string{modeWalk, modeSlither} {
		if slices.Contains(modeKeys[m], k) {
			ms = append(ms, "mode: "+m)
		}
	}
	return strings.Join(ms, " or ")
}

// turns is the number of 60° turns from a to b (DR-HEX-9).
func turns(a, b hex.Direction) int {
	d := ((int(b)-int(a))%6 + 6) % 6
	return min(d, 6-d)
}

// pathNodes returns the node of each hex of the path, for errors.
func pathNodes(f map[string]*yaml.Node) []*yaml.Node {
	p := f["path"]
	if p == nil {
		return nil
	}
	if p.Kind == yaml.SequenceNode {
		return p.Content
	}
	return []*yaml.Node{p}
}

func nodeAt(ns []*yaml.Node, i int, def *yaml.Node) *yaml.Node {
	if i >= 0 && i < len(ns) {
		return ns[i]
	}
	return def
}

// planWalk checks a walk: each hex entered is the one in front after the
// free 60° turn, extra turns cost 1 MP, each hex 1 MP, with one MP per leg
// group left (DR-DRAGON-WALK-1..5, DR-AMB-59, DR-AMB-63); doors are
// smashed by facing them and gates with MP (DR-SMASH-1, -2, DR-AMB-17);
// enemy units are overrun, or attacked by overrun for 1 MP more (DR-OVR-*).
func (w *world) planWalk(u *Unit, mv *Move, f map[string]*yaml.Node, plan *majorMove, s Sheet) error {
	t := w.st.typ(u)
	m := t.Major
	mp := s.MP()
	nodes := pathNodes(f)
	if mp == 0 && (len(mv.Path) > 0 || mv.Face != "") {
		return adjudicator.Errorf(f["move"], codeIllegalMove, "%s has no leg group left and cannot walk; it may still slither (DR-DRAGON-DEF-8, DR-DRAGON-DEF-11)", u.ID)
	}
	overrun := map[string]*yaml.Node{}
	if x := f["overrun"]; x != nil {
		hs, ns, err := w.hexList(x)
		if err != nil {
			return err
		}
		for i, h := range hs {
			if m.Overrun == 0 {
				return adjudicator.Errorf(ns[i], codeCannot, "a %s makes no overrun attacks (DR-OVR-4)", t.Name)
			}
			if !slices.Contains(mv.Path, h) {
				return adjudicator.Errorf(ns[i], codeCannot, "%s is not on the path: an overrun attack is made on a hex the walk enters (DR-OVR-6)", h)
			}
			overrun[h] = ns[i]
		}
	}
	gateMP := 0
	if x := f["smash-mp"]; x != nil {
		n, err := strconv.Atoi(x.Value)
		if err != nil || n < 1 {
			return adjudicator.Errorf(x, adjudicator.CodeBadValue, "smash-mp is the MP spent smashing a guarded gate: a whole number from 1 (DR-SMASH-2)")
		}
		gateMP = n
	}
	spent := 0
	face := u.facing()
	cur := u.Hex
	usedGateMP := false
	for i, to := range mv.Path {
		n := nodeAt(nodes, i, f["path"])
		th, _ := hex.Parse(to)
		st := majorStep{To: to}
		if cur == "" {
			// From off the map: the first hex is an entry hex, entered facing
			// the way it goes on (DR-SCEN-9).
			if !w.entryHex(u, th) {
				return adjudicator.Errorf(n, codeIllegalMove, "%s cannot enter %s: units off the map enter through %s", u.ID, to, strings.Join(w.entryNames(u), " or "))
			}
			if i+1 < len(mv.Path) {
				nh, _ := hex.Parse(mv.Path[i+1])
				if d, ok := th.DirectionTo(nh); ok {
					face = d
				}
			}
			spent++
		} else {
			ch, _ := hex.Parse(cur)
			d, ok := ch.DirectionTo(th)
			if !ok {
				return adjudicator.Errorf(n, codeIllegalMove, "%s cannot enter %s: it is not next to %s (give every hex of the path, in order)", u.ID, to, cur)
			}
			// The free turn before each hex; more turns cost 1 MP each
			// (DR-DRAGON-WALK-2, -3).
			spent += max(turns(face, d)-1, 0) + 1
			face = d
			if why := w.majorCrossing(u, ch, th, &st, gateMP, &usedGateMP); why != "" {
				return adjudicator.Errorf(n, codeIllegalMove, "%s cannot enter %s: %s", u.ID, to, why)
			}
			spent += st.GateMP
			if st.Gate != "" && st.GateMP == 0 {
				spent++ // an unguarded gate breaks as soon as 1 MP is spent (DR-SMASH-2a)
			}
		}
		st.Face = face
		if why := w.majorEnters(u, th, &st, overrun[to] != nil, i == len(mv.Path)-1); why != "" {
			return adjudicator.Errorf(n, codeIllegalMove, "%s cannot enter %s: %s", u.ID, to, why)
		}
		if st.Attack {
			spent++ // DR-OVR-6: one MP more than entering
		}
		if cur != "" {
			spent += w.whirlwindCost(cur, to, u) // DR-SPELL-WHIRL-4
		}
		if spent > mp {
			return adjudicator.Errorf(n, codeIllegalMove, "%s cannot enter %s: that makes %d MP; %s has %d, one per leg group left (DR-DRAGON-WALK-1, DR-MOVE-4)", u.ID, to, spent, u.ID, mp)
		}
		plan.steps = append(plan.steps, st)
		cur = to
	}
	for h, n := range overrun {
		found := false
		for _, st := range plan.steps {
			found = found || (st.To == h && st.Attack)
		}
		if !found {
			return adjudicator.Errorf(n, codeCannot, "no enemy unit stands in %s to attack by overrun (DR-OVR-6)", h)
		}
	}
	if gateMP > 0 && !usedGateMP && f["smash"] == nil {
		return adjudicator.Errorf(f["smash-mp"], codeCannot, "smash-mp is for a guarded gate on the path or given by smash: (DR-SMASH-2)")
	}
	if mv.Face != "" {
		d, _ := hex.ParseDirection(mv.Face)
		turnMP := turns(face, d)
		spent += turnMP
		face = d
		if spent > mp {
			return adjudicator.Errorf(f["face"], codeIllegalMove, "turning to face %s costs %d MP more (DR-DRAGON-WALK-3): that makes %d; %s has %d", mv.Face, turnMP, spent, u.ID, mp)
		}
	}
	plan.face = face
	end := cur
	if x := f["smash"]; x != nil {
		target, err := w.parseHex(x)
		if err != nil {
			return err
		}
		mv.Smash = target
		if m.Smash == "table" {
			// Wyverns smash by the Climbing & Smashing table, at the end of
			// the phase (DR-WYVERN-14, DR-AMB-18).
			eh, _ := hex.Parse(end)
			return w.checkSmash(u, eh, target, x)
		}
		used, err := w.planGateAtEnd(u, end, face, target, gateMP, x, f["smash-mp"], plan)
		if err != nil {
			return err
		}
		if spent+used > mp {
			return adjudicator.Errorf(x, codeIllegalMove, "smashing with %d MP makes %d MP; %s has %d (DR-SMASH-2)", used, spent+used, u.ID, mp)
		}
		spent += used
	}
	if x := f["climb"]; x != nil {
		target, err := w.parseHex(x)
		if err != nil {
			return err
		}
		mv.Climb = target
		eh, _ := hex.Parse(end)
		return w.checkClimb(u, eh, target, x, spent, false) // wyverns (DR-WYVERN-5, DR-CLIMB-10)
	}
	if x := f["destroy"]; x != nil {
		if v, _ := scalar(x, "vp"); v != "vp" {
			return adjudicator.Errorf(x, adjudicator.CodeBadValue, "a major monster destroys a VP hex with \"destroy: vp\" (DR-VP-3)")
		}
		mv.Destroy = "vp"
		eh, _ := hex.Parse(end)
		switch {
		case end == "":
			return adjudicator.Errorf(x, codeCannot, "%s is not on the map", u.ID)
		case w.vpHex(eh) == 0:
			return adjudicator.Errorf(x, codeCannot, "%s has no VP left to destroy", end)
		case w.doorVP(eh):
			return adjudicator.Errorf(x, codeCannot, "a Nurkott VP hex with a door falls only when its door is smashed (DR-VP-12)")
		case w.enemyOnGround(end, u):
			return adjudicator.Errorf(x, codeCannot, "enemy units are in %s: a VP hex is destroyed by walking in when it is empty (DR-VP-3a)", end)
		case spent+1 > mp:
			return adjudicator.Errorf(x, codeIllegalMove, "destroying the VP hex costs 1 MP more: that makes %d MP; %s has %d (DR-VP-3a)", spent+1, u.ID, mp)
		}
		plan.destroy = true
	}
	return nil
}

// majorCrossing checks the hexside between a and b for a walking major
// monster: no walls and no river banks; doors break as it faces them;
// gates that are not its side's break for MP (DR-SMASH-1, -2, DR-WALL-1).
func (w *world) majorCrossing(u *Unit, a, b hex.Hex, st *majorStep, gateMP int, used *bool) string {
	f, has := w.feature(a, b)
	m := w.st.major(u)
	if !has {
		if w.m.Terrain(b) == "tower" || w.m.Terrain(a) == "tower" {
			return "towers are entered on foot only through a smashed entrance, or by landing on top (DR-TOWER-1, DR-DRAGON-TERR-4)"
		}
		return w.bridgeBanks(u, a, b)
	}
	key := f.Side.String()
	switch {
	case f.Kind == "river" || f.Kind == "breach" || w.breached(f):
		return "the river runs between the two hexes; a major monster on the ground does not cross it (DR-DRAGON-TERR-1, DR-MAP-11)"
	case w.m.IsEntrance(f.Kind):
		if w.passable(f, u.Side) {
			if !w.towerEntrance(f) && f.Inside == b {
				st.Control = key
			}
			return ""
		}
		if m.Smash == "table" {
			// A wyvern: doors automatic, unguarded gates for 1 MP during the
			// move, guarded ones only at the end (DR-AMB-18, DR-AMB-46).
			var ms step
			why := w.throughEntrance(u, f.Kind, a, b, &ms)
			st.Door, st.Gate = "", ""
			if ms.Smash != "" && f.Kind == "door" {
				st.Door = ms.Smash
			} else if ms.Smash != "" {
				st.Gate = ms.Smash
			}
			st.Control = ms.Control
			return why
		}
		if f.Kind == "door" {
			st.Door = key // smashed by facing it: no MP, no roll (DR-SMASH-1)
			return ""
		}
		st.Gate = key
		if w.st.enemyIn(b.String(), u.Side) {
			if gateMP == 0 {
				return fmt.Sprintf("the gate between %s and %s is guarded: give the MP to spend on it with \"smash-mp: N\" — it breaks on 1d6 ≤ N, and if it holds the move stops there (DR-SMASH-2b)", a, b)
			}
			if *used {
				return "smash-mp is spent on one gate a move"
			}
			*used = true
			st.GateMP = gateMP
		}
		return ""
	case w.m.IsBarrier(f.Kind):
		return fmt.Sprintf("a %s stands between %s and %s: major monsters cross walls only by flying or bounding over them (DR-WALL-1)", f.Kind, a, b)
	}
	return w.bridgeBanks(u, a, b)
}

// planGateAtEnd checks "smash: HEX" at the end of a walk or in place of a
// slither: the gate in front of the monster, smashed with MP
// (DR-SMASH-2, -3) or, with no legs left, by the roll of DR-SMASH-5
// (DR-AMB-19). It returns the MP it costs.
func (w *world) planGateAtEnd(u *Unit, end string, face hex.Direction, target string, gateMP int, n, mpNode *yaml.Node, plan *majorMove) (int, error) {
	eh, _ := hex.Parse(end)
	th, _ := hex.Parse(target)
	f, ok := w.feature(eh, th)
	switch {
	case end == "":
		return 0, adjudicator.Errorf(n, codeCannot, "%s is not on the map", u.ID)
	case !eh.Adjacent(th) || !ok || !w.m.IsEntrance(f.Kind):
		return 0, adjudicator.Errorf(n, codeCannot, "there is no door or gate between %s and %s", eh, th)
	case w.entrance(f.Side.String()).Broken:
		return 0, adjudicator.Errorf(n, codeCannot, "the %s between %s and %s is already smashed", f.Kind, eh, th)
	case w.passable(f, u.Side):
		return 0, adjudicator.Errorf(n, codeCannot, "the %s between %s and %s is yours: you pass it freely (DR-ENTR-5)", f.Kind, eh, th)
	case hex.Front(eh, face) != th:
		return 0, adjudicator.Errorf(n, codeCannot, "%s must face the %s to smash it: it faces %s at the end of its move; add \"face: %s\" (DR-SMASH-1, DR-SMASH-2)", u.ID, f.Kind, face, mustDir(eh, th))
	case f.Kind == "door":
		return 0, adjudicator.Errorf(n, codeCannot, "a door breaks as soon as %s faces it (DR-SMASH-1): walk on through it", u.ID)
	}
	plan.gate = f.Side.String()
	legless := w.st.sheet(u).MP() == 0
	switch {
	case legless && gateMP > 0:
		return 0, adjudicator.Errorf(mpNode, codeCannot, "%s has no legs left to spend MP: it tries the gate on a roll instead (6 on 1d6, 11+ on 2d6 if guarded; DR-SMASH-5) — leave out smash-mp", u.ID)
	case legless:
		plan.gateMP = 0
		return 0, nil
	case !w.st.enemyIn(target, u.Side):
		plan.gateMP = 1 // an unguarded gate breaks once 1 MP is spent (DR-SMASH-2a)
		return 1, nil
	case gateMP == 0:
		return 0, adjudicator.Errorf(n, adjudicator.CodeMissingField, "the gate is guarded: give the MP to spend on it with \"smash-mp: N\" — it breaks on 1d6 ≤ N (DR-SMASH-2b)")
	}
	plan.gateMP = gateMP
	return gateMP, nil
}

func mustDir(a, b hex.Hex) string {
	d, _ := a.DirectionTo(b)
	return d.String()
}

// enemyOnGround reports whether h holds an enemy of u not in the air.
func (w *world) enemyOnGround(h string, u *Unit) bool {
	for _, x := range w.st.at(h) {
		if x.Side != u.Side && !x.Flying {
			return true
		}
	}
	return false
}

// majorEnters checks the hex a major monster walks into.
func (w *world) majorEnters(u *Unit, h hex.Hex, st *majorStep, attack, last bool) string {
	t := w.st.typ(u)
	if why := w.majorGround(u, h); why != "" {
		return why
	}
	var friends, enemies []*Unit
	for _, x := range w.st.at(h.String()) {
		switch {
		case x.ID == u.ID || x.Flying:
		case x.Side == u.Side:
			friends = append(friends, x)
		default:
			enemies = append(enemies, x)
		}
	}
	if len(friends) > 0 {
		return "friendly units are there (DR-STACK-1)"
	}
	if len(enemies) == 0 {
		if attack {
			return "no enemy unit is there to attack by overrun (DR-OVR-6)"
		}
		return ""
	}
	for _, x := range enemies {
		if w.st.typ(x).IsMajor() {
			return x.ID + " is there: major monsters do not share a hex or overrun each other"
		}
	}
	switch {
	case !t.Overruns():
		return fmt.Sprintf("enemy units are there; a %s makes no overrun moves (DR-OVR-4)", t.Name)
	case w.m.Terrain(h) == "tower":
		return "no overrun, move or attack, inside a tower (DR-OVR-3)"
	case attack && (w.inFog(h) || w.inFog(w.st.hexOf(u))):
		return "no overrun attack into, out of or inside fog (DR-AMB-45)"
	case last && !attack:
		return "an overrun move may not end among enemy units unless it attacks them there: add the hex to \"overrun:\" (DR-OVR-2, DR-OVR-6)"
	}
	st.Attack = attack
	return ""
}

// majorGround says why a major monster may not stand on h, or "": water,
// fords and the sea (DR-DRAGON-TERR-1, -2, -4), a collapsed monster's hex
// (DR-DRAGON-DEAD-3).
func (w *world) majorGround(u *Unit, h hex.Hex) string {
	switch {
	case w.st.collapsedHex(h.String()):
		return "a major monster died there: the hex is impassable (DR-DRAGON-DEAD-3, DR-TERR-8)"
	case w.m.Terrain(h) == "ford":
		return "a major monster may not enter a ford (DR-DRAGON-TERR-2)"
	case w.m.Terrain(h) == "sea":
		return "the sea is closed to major monsters (DR-DRAGON-TERR-4)"
	case w.water(h):
		return "a major monster on the ground does not enter the river; it flies or bounds over it (DR-DRAGON-TERR-1, DR-DRAGON-TERR-2)"
	}
	return ""
}

// planSlither checks a slither: one hex straight ahead into an empty hex,
// or one 60° turn on the spot, or (with no legs) a try at the gate in
// front (DR-DRAGON-SLITHER-1..4, DR-AMB-62, DR-SMASH-5).
func (w *world) planSlither(u *Unit, mv *Move, f map[string]*yaml.Node, plan *majorMove, s Sheet) error {
	here := w.st.hexOf(u)
	if u.Hex == "" {
		return adjudicator.Errorf(f["move"], codeIllegalMove, "%s enters the map walking or flying, not slithering", u.ID)
	}
	n := 0
	for _, set := range []bool{len(mv.Path) > 0, mv.Face != "", f["smash"] != nil} {
		if set {
			n++
		}
	}
	if n != 1 {
		return adjudicator.Errorf(f["move"], codeIllegalMove, "a slither is ONE of: one hex straight ahead (path: [HEX]), one 60° turn (face: DIR), or, with no legs left, a try at the gate in front (smash: HEX) (DR-DRAGON-SLITHER-1, DR-SMASH-5)")
	}
	switch {
	case len(mv.Path) > 0:
		ahead := hex.Front(here, u.facing())
		if len(mv.Path) != 1 || mv.Path[0] != ahead.String() {
			return adjudicator.Errorf(f["path"], codeIllegalMove, "a slither goes 1 hex straight ahead: %s, the hex %s faces (DR-DRAGON-SLITHER-1)", ahead, u.ID)
		}
		if why := w.majorGround(u, ahead); why != "" {
			return adjudicator.Errorf(f["path"], codeIllegalMove, "%s cannot slither into %s: %s", u.ID, ahead, why)
		}
		if len(w.st.at(ahead.String())) > 0 && slices.ContainsFunc(w.st.at(ahead.String()), func(x *Unit) bool { return !x.Flying }) {
			return adjudicator.Errorf(f["path"], codeIllegalMove, "%s is occupied: a slither enters only an empty hex (DR-DRAGON-SLITHER-3, DR-AMB-62)", ahead)
		}
		st := majorStep{To: ahead.String(), Face: u.facing()}
		var used bool
		if why := w.majorCrossing(u, here, ahead, &st, 0, &used); why != "" || st.Gate != "" {
			if why == "" {
				why = "the gate is closed: a slithering monster tries it with smash: (DR-SMASH-5)"
			}
			return adjudicator.Errorf(f["path"], codeIllegalMove, "%s cannot slither into %s: %s", u.ID, ahead, why)
		}
		st.Slither = w.vpHex(ahead) > 0 && !w.doorVP(ahead) && u.Side == Invader
		plan.steps = []majorStep{st}
	case mv.Face != "":
		d, _ := hex.ParseDirection(mv.Face)
		if turns(u.facing(), d) != 1 {
			return adjudicator.Errorf(f["face"], codeIllegalMove, "a slither turns 60° once: from %s to %s or %s (DR-DRAGON-SLITHER-1)", u.facing(), u.facing().Left(), u.facing().Right())
		}
		plan.face = d
	default:
		target, err := w.parseHex(f["smash"])
		if err != nil {
			return err
		}
		if s.MP() > 0 {
			return adjudicator.Errorf(f["smash"], codeCannot, "%s still has legs: it smashes a gate while walking, spending MP (DR-SMASH-2; the roll of DR-SMASH-5 is for a monster with no legs, DR-AMB-19)", u.ID)
		}
		mv.Smash = target
		if _, err := w.planGateAtEnd(u, u.Hex, u.facing(), target, 0, f["smash"], nil, plan); err != nil {
			return err
		}
	}
	return nil
}

// planBound checks a bound: an optional 60° turn, then 1 to 3 hexes (a Roc
// 4) in a straight line over anything, landing on an empty hex or on
// enemy heroes and wizards only (DR-DRAGON-BOUND-1..7, DR-ROC-5,
// DR-OVR-9, DR-AMB-7).
func (w *world) planBound(u *Unit, mv *Move, f map[string]*yaml.Node, plan *majorMove, s Sheet) error {
	m := w.st.major(u)
	here := w.st.hexOf(u)
	fromTower := w.m.Terrain(here) == "tower"
	switch {
	case u.Hex == "":
		return adjudicator.Errorf(f["move"], codeIllegalMove, "%s enters the map walking or flying, not bounding", u.ID)
	case !s.MayBound(fromTower):
		return adjudicator.Errorf(f["move"], codeIllegalMove, "%s cannot bound: a bound needs less than half the wing points lost and, except from a tower, less than half the leg points (DR-DRAGON-BOUND-1, DR-AMB-10): %s", u.ID, s)
	case len(mv.Path) == 0:
		return adjudicator.Errorf(f["move"], adjudicator.CodeMissingField, "give the hex it lands in: path: [HEX] (DR-DRAGON-BOUND-2)")
	case w.inFog(here):
		return adjudicator.Errorf(f["move"], codeIllegalMove, "no bound starts in fog (DR-SPELL-FOG-5, DR-AMB-7)")
	}
	land, _ := hex.Parse(mv.Path[len(mv.Path)-1])
	d, ok := boundDirection(here, land, u.facing(), m.Bound)
	if !ok {
		return adjudicator.Errorf(f["path"], codeIllegalMove, "%s cannot bound to %s: a bound goes 1 to %d hexes in a straight line ahead, after at most one 60° turn — from %s facing %s it may land in %s (DR-DRAGON-BOUND-2, DR-DRAGON-BOUND-3)", u.ID, land, m.Bound, here, u.facing(), strings.Join(boundHexes(w, here, u.facing(), m.Bound), ", "))
	}
	line := hex.Line(here, d, hex.Distance(here, land))
	if len(mv.Path) > 1 {
		var want []string
		for _, h := range line {
			want = append(want, h.String())
		}
		if !slices.Equal(mv.Path, want) {
			return adjudicator.Errorf(f["path"], codeIllegalMove, "the hexes of the bound are %s: give them all or only the landing hex", strings.Join(want, ", "))
		}
	}
	if err := w.landingProblem(u, land, f["path"], "bound"); err != nil {
		return err
	}
	plan.crossed = append(plan.crossed, u.Hex)
	for _, h := range line {
		plan.crossed = append(plan.crossed, h.String())
		plan.steps = append(plan.steps, majorStep{To: h.String(), Face: d})
	}
	plan.face = d
	return nil
}

// boundDirection finds the direction of a bound from h to land: facing f
// or one turn from it, 1 to max hexes (DR-HEX-10).
func boundDirection(h, land hex.Hex, f hex.Direction, maxLen int) (hex.Direction, bool) {
	for _, d := range []hex.Direction{f, f.Left(), f.Right()} {
		if n, ok := hex.InLine(h, d, land); ok && n >= 1 && n <= maxLen {
			return d, true
		}
	}
	return f, false
}

// boundHexes lists the landing hexes of a bound on the map (DR-HEX-10).
func boundHexes(w *world, h hex.Hex, f hex.Direction, maxLen int) []string {
	var out []string
	for _, d := range []hex.Direction{f.Left(), f, f.Right()} {
		for _, x := range hex.Line(h, d, maxLen) {
			if w.m.OnMap(x) {
				out = append(out, x.String())
			}
		}
	}
	return out
}

// landingProblem checks the hex a bound or flight comes down in: not on
// units other than enemy heroes and wizards, not in water, a ford, a
// collapsed monster's hex or fog (DR-DRAGON-BOUND-5, DR-DRAGON-FLY-9,
// -10, DR-OVR-9, DR-SPELL-FOG-5).
func (w *world) landingProblem(u *Unit, h hex.Hex, n *yaml.Node, how string) error {
	if why := w.majorGround(u, h); why != "" {
		return adjudicator.Errorf(n, codeIllegalMove, "%s cannot land in %s: %s", u.ID, h, why)
	}
	if w.inFog(h) {
		return adjudicator.Errorf(n, codeIllegalMove, "%s cannot land in %s: it is in fog (DR-SPELL-FOG-5, DR-AMB-7)", u.ID, h)
	}
	for _, x := range w.st.at(h.String()) {
		if x.ID == u.ID || x.Flying {
			continue
		}
		if x.Side == u.Side || !(w.st.typ(x).Leads() || w.st.typ(x).Casts()) || w.st.isKind(x, "troop") {
			return adjudicator.Errorf(n, codeIllegalMove, "%s cannot land in %s: %s is there; a %s comes down only on an empty hex or on enemy heroes and wizards (DR-DRAGON-BOUND-5, DR-DRAGON-FLY-9, DR-OVR-9)", u.ID, h, x.ID, how)
		}
	}
	return nil
}

// planFlight checks a flight: segments of at least 2 hexes straight, a 60°
// turn between them, at most 6 hexes (Young Dragon 4, Roc 8); take-off
// or landing, not both (DR-DRAGON-FLY-1..10, DR-AMB-60, DR-AMB-61).
func (w *world) planFlight(u *Unit, mv *Move, f map[string]*yaml.Node, plan *majorMove, s Sheet) error {
	m := w.st.major(u)
	here := w.st.hexOf(u)
	fromTower := u.Hex != "" && w.m.Terrain(here) == "tower"
	takeoff := !u.Flying && u.Hex != ""
	switch {
	case !s.MayFly():
		return adjudicator.Errorf(f["move"], codeIllegalMove, "%s cannot fly: flying needs less than half the wing points lost (DR-DRAGON-FLY-1, DR-DRAGON-DEF-6, DR-AMB-10): %s", u.ID, s)
	case takeoff && !s.MayTakeOff(fromTower):
		return adjudicator.Errorf(f["move"], codeIllegalMove, "%s cannot take off from the ground: at least half its leg points are lost; it takes off only by jumping from a tower (DR-DRAGON-FLY-1, DR-DRAGON-DEF-8)", u.ID)
	case takeoff && mv.Land:
		return adjudicator.Errorf(f["land"], codeIllegalMove, "a monster may take off or land in one movement phase, not both (DR-DRAGON-FLY-2)")
	case takeoff && len(mv.Path) == 0:
		return adjudicator.Errorf(f["move"], codeIllegalMove, "give the path of the flight: path: [HEX, HEX, ...] (DR-DRAGON-FLY-3)")
	case u.Hex == "" && mv.Land:
		return adjudicator.Errorf(f["land"], codeIllegalMove, "a monster entering the map may not land in the same move (DR-DRAGON-FLY-2)")
	}
	nodes := pathNodes(f)
	face := u.facing()
	cur := here
	seg := 0 // hexes flown in the current segment
	for i, to := range mv.Path {
		n := nodeAt(nodes, i, f["path"])
		th, _ := hex.Parse(to)
		if i == 0 && u.Hex == "" {
			if !w.entryHex(u, th) {
				return adjudicator.Errorf(n, codeIllegalMove, "%s cannot enter %s: units off the map enter through %s", u.ID, to, strings.Join(w.entryNames(u), " or "))
			}
			if i+1 < len(mv.Path) {
				nh, _ := hex.Parse(mv.Path[i+1])
				face, _ = th.DirectionTo(nh)
			}
			cur, seg = th, 1
			plan.crossed = append(plan.crossed, to)
			continue
		}
		d, ok := cur.DirectionTo(th)
		if !ok {
			return adjudicator.Errorf(n, codeIllegalMove, "%s is not next to %s: give every hex of the flight, in order", to, cur)
		}
		switch {
		case d == face:
			seg++
		case turns(face, d) == 1 && seg >= 2:
			face, seg = d, 1
		case turns(face, d) == 1:
			return adjudicator.Errorf(n, codeIllegalMove, "a flight goes at least 2 hexes straight before each 60° turn (DR-DRAGON-FLY-3, DR-AMB-60): %s turns after %d", u.ID, seg)
		default:
			return adjudicator.Errorf(n, codeIllegalMove, "in flight the only turns are of 60°, after 2 hexes straight (DR-DRAGON-FLY-3)")
		}
		if i+1 > m.Fly {
			return adjudicator.Errorf(n, codeIllegalMove, "a %s flies at most %d hexes a turn (DR-DRAGON-FLY-4, DR-YDRAGON-5c, DR-ROC-4)", w.st.typ(u).Name, m.Fly)
		}
		if !w.m.OnMap(th) {
			return adjudicator.Errorf(n, codeBadHex, "%s is off the map", to)
		}
		plan.crossed = append(plan.crossed, to)
		cur = th
	}
	if len(mv.Path) > 0 && seg < 2 && !(len(mv.Path) == 1 && u.Hex == "") {
		return adjudicator.Errorf(f["path"], codeIllegalMove, "every stretch of a flight is at least 2 hexes straight; the last one here is %d (DR-DRAGON-FLY-3, DR-AMB-60)", seg)
	}
	if u.Hex != "" && len(plan.crossed) > 0 {
		plan.crossed = append([]string{u.Hex}, plan.crossed...)
	}
	plan.takeoff, plan.land = takeoff, mv.Land
	plan.flying = !mv.Land
	plan.face = face
	if mv.Land {
		if err := w.landingProblem(u, cur, nodeAt(nodes, len(nodes)-1, f["land"]), "flight"); err != nil {
			return err
		}
	}
	for i, h := range mv.Path {
		d := face
		if i > 0 {
			p, _ := hex.Parse(mv.Path[i-1])
			x, _ := hex.Parse(h)
			d, _ = p.DirectionTo(x)
		}
		plan.steps = append(plan.steps, majorStep{To: h, Face: d})
	}
	return nil
}

// planDrop checks a deliberate drop off a tower into an adjacent hex, in
// place of the move: at least 1 wing point left, crash damage where it
// lands, facing away from the tower (DR-DRAGON-CRASH-5, DR-AMB-77).
func (w *world) planDrop(u *Unit, mv *Move, f map[string]*yaml.Node, plan *majorMove, s Sheet) error {
	here := w.st.hexOf(u)
	switch {
	case u.Hex == "" || w.m.Terrain(here) != "tower":
		return adjudicator.Errorf(f["move"], codeIllegalMove, "%s is not on a tower: only a monster on a tower drops off it (DR-DRAGON-CRASH-5)", u.ID)
	case s.def.area("wings") == nil || s.Lost("wings") >= s.Total("wings"):
		return adjudicator.Errorf(f["move"], codeIllegalMove, "%s has no wing point left to drop with (DR-DRAGON-CRASH-5)", u.ID)
	case len(mv.Path) != 1:
		return adjudicator.Errorf(f["move"], adjudicator.CodeMissingField, "give the hex it drops into: path: [HEX], next to the tower (DR-DRAGON-CRASH-5)")
	}
	to, _ := hex.Parse(mv.Path[0])
	d, ok := here.DirectionTo(to)
	if !ok {
		return adjudicator.Errorf(f["path"], codeIllegalMove, "%s is not next to the tower %s (DR-DRAGON-CRASH-5)", to, here)
	}
	if w.st.collapsedHex(to.String()) {
		return adjudicator.Errorf(f["path"], codeIllegalMove, "a major monster died in %s: the hex is impassable (DR-DRAGON-DEAD-3)", to)
	}
	for _, x := range w.st.at(to.String()) {
		if w.st.typ(x).IsMajor() && !x.Flying {
			return adjudicator.Errorf(f["path"], codeIllegalMove, "%s is in %s", x.ID, to)
		}
	}
	plan.steps = []majorStep{{To: to.String(), Face: d}}
	plan.face = d
	return nil
}

// applyMajorMove carries out a checked move. Rolls (overrun attacks,
// gates, crashes) happen only when resolving; the copy that checks later
// orders takes the move as planned.
func (w *world) applyMajorMove(u *Unit, mv *Move) {
	plan := mv.major
	if mv.Crash != nil && !slices.Equal(mv.Crash, u.Spread) {
		// "crash:" is also the owner's standing order for damage spread in
		// the other side's turn (DR-PBEM-25, -32, -40).
		w.emit(&SpreadSet{Unit: u.ID, Areas: mv.Crash})
	}
	from := u.Hex
	checking := w.r == nil
	var path []string
	stopped := false
	// A bound or flight through a Whirlwind may crash there, before it goes
	// further (DR-SPELL-WHIRL-6, DR-AMB-6).
	crashAt := ""
	if !checking && (plan.mode == modeBound || plan.mode == modeFly) {
		crashAt = w.whirlwindCrashHex(u, plan)
	}
	for _, st := range plan.steps {
		if crashAt != "" && crashAt == from {
			break
		}
		if st.Door != "" {
			w.smashedBy(st.Door, u, fmt.Sprintf("smashed by %s as it faces it (DR-SMASH-1)", u.ID), checking)
		}
		if st.Gate != "" {
			if !w.gateOnTheWay(u, st, checking) {
				stopped = true
				break
			}
		}
		if st.Attack && !checking {
			path = append(path, st.To)
			w.placeMajor(u, from, path, st.Face, false, plan.mode)
			from, path = u.Hex, nil
			cleared := w.overrunAttack(u, st.To)
			if u.Gone || w.st.Over {
				return
			}
			if !cleared && mv.StopIfHeld {
				w.sayf("%s stops on the units it failed to overrun in %s, as ordered (DR-OVR-7)", u.ID, st.To)
				stopped = true
				break
			}
			continue
		}
		if st.Control != "" && w.entrance(st.Control).Controller != u.Side {
			e := w.entrance(st.Control)
			w.emit(&EntranceChanged{Side: st.Control, Broken: e.Broken, Controller: u.Side, OpenUntil: e.OpenUntil})
		}
		path = append(path, st.To)
		if st.To == crashAt {
			break
		}
	}
	face := plan.face
	if crashAt != "" && len(path) > 0 {
		face = plan.steps[len(path)-1].Face
	} else if crashAt != "" {
		face = u.facing()
	}
	if stopped && len(path) > 0 {
		face = plan.steps[len(path)-1].Face
	} else if stopped {
		face = u.facing()
	}
	flying := plan.flying
	w.placeMajorOff(u, from, path, face, flying || crashAt != "", plan.mode, plan.takeoff)
	if checking {
		return
	}
	if crashAt != "" {
		w.crash(u, "caught in the Whirlwind in "+crashAt+" (DR-SPELL-WHIRL-6, DR-DRAGON-CRASH-1)", mv.Crash)
		return
	}
	start := mv.start
	if start != "" && start != u.Hex {
		if b := w.st.Bridges[start]; b == "destroyed:"+u.ID {
			w.emit(&BridgeChanged{Hex: start, State: "burned"}) // DR-BRIDGE-6: it left in time
			w.sayf("the bridge in %s burns behind %s (DR-BRIDGE-6)", start, u.ID)
		}
	}
	w.afterMajorMove(u, mv, stopped)
}

// placeMajor emits the move along path (if any) and the new facing.
func (w *world) placeMajor(u *Unit, from string, path []string, face hex.Direction, flying bool, mode string) {
	w.placeMajorOff(u, from, path, face, flying, mode, false)
}

// placeMajorOff is placeMajor for a flight that may have begun on the
// ground this turn.
func (w *world) placeMajorOff(u *Unit, from string, path []string, face hex.Direction, flying bool, mode string, tookOff bool) {
	if len(path) > 0 {
		w.emit(&Moved{Unit: u.ID, From: from, Path: path})
		kind := "move"
		if mode == modeFly || mode == modeBound {
			kind = mode
		}
		w.trace(kind, u.ID, append(nonEmpty(from), path...), "")
		if mode == modeWalk || mode == modeSlither {
			for _, h := range path {
				w.claimEntrances(u, h) // DR-ENTR-5, on foot only
			}
		}
	}
	w.emit(&MajorPlaced{Unit: u.ID, Facing: face.String(), Flying: flying, Mode: mode, TookOff: tookOff})
}

// smashedBy breaks an entrance, on the checking copy too (later orders see
// it broken).
func (w *world) smashedBy(key string, u *Unit, how string, checking bool) {
	if w.entrance(key).Broken {
		return
	}
	if checking {
		e := w.entrance(key)
		w.emit(&EntranceChanged{Side: key, Broken: true, Controller: e.Controller, OpenUntil: e.OpenUntil})
		return
	}
	w.smashed(key, u, how)
}

// gateOnTheWay smashes a gate on the path: unguarded, it breaks once 1 MP
// is spent (DR-SMASH-2a); guarded, on 1d6 ≤ the MP spent (DR-SMASH-2b).
// It reports whether the monster goes on.
func (w *world) gateOnTheWay(u *Unit, st majorStep, checking bool) bool {
	if w.entrance(st.Gate).Broken {
		return true
	}
	a, b := sideHexes(st.Gate)
	beyond := b
	if w.st.hexOf(u) == b {
		beyond = a
	}
	guarded := w.st.enemyIn(beyond.String(), u.Side)
	if checking || !guarded || st.GateMP == 0 {
		w.smashedBy(st.Gate, u, fmt.Sprintf("smashed by %s: unguarded, it breaks as soon as 1 MP is spent (DR-SMASH-2a)", u.ID), checking)
		return true
	}
	return w.rollGate(u, st.Gate, st.GateMP)
}

// rollGate rolls for a guarded gate: it breaks on 1d6 ≤ the MP spent
// (DR-SMASH-2b, DR-SMASH-3).
func (w *world) rollGate(u *Unit, key string, mp int) bool {
	roll := w.roll(fmt.Sprintf("%s smashes the gate %s with %d MP", u.ID, key, mp), 1)
	ok := roll.Total <= mp
	roll.Outcome = fmt.Sprintf("breaks on %d or less (DR-SMASH-2b): %s", mp, map[bool]string{true: "smashed", false: "it holds"}[ok])
	w.sayf("%s: %s", roll.Label, roll.Outcome)
	w.trace("smash", u.ID, []string{u.Hex}, map[bool]string{true: "smashed", false: "held"}[ok])
	if ok {
		w.smashed(key, u, "smashed by "+u.ID)
	} else {
		w.sayf("%s stops in front of the gate", u.ID)
	}
	return ok
}

// leglessGate is the try of a monster with no legs at the gate in front:
// 6 on 1d6 if unguarded, 11+ on 2d6 if guarded (DR-SMASH-5, DR-AMB-19).
func (w *world) leglessGate(u *Unit, key string, target string) {
	guarded := w.st.enemyIn(target, u.Side)
	dice, need := 1, 6
	if guarded {
		dice, need = 2, 11
	}
	roll := w.roll(fmt.Sprintf("%s, with no legs, tries the gate %s", u.ID, key), dice)
	ok := roll.Total >= need
	roll.Outcome = fmt.Sprintf("needs %d+ on %dd6 (DR-SMASH-5): %s", need, dice, map[bool]string{true: "smashed", false: "it holds"}[ok])
	w.sayf("%s: %s", roll.Label, roll.Outcome)
	if ok {
		w.smashed(key, u, "smashed by "+u.ID)
	}
}

// overrunAttack attacks the units in h at the monster's overrun strength,
// at once, on the CRT against their total defence (DR-OVR-6, DR-OVR-7,
// DR-DRAGON-OVR-1, DR-WYVERN-6); against Killers a Dragon's strength is
// tripled (DR-DRAGON-ATK-10).
func (w *world) overrunAttack(u *Unit, h string) (cleared bool) {
	m := w.st.major(u)
	var defenders []*Unit
	for _, x := range w.st.at(h) {
		if x.Side != u.Side && !x.Flying && !w.st.typ(x).IsMajor() {
			defenders = append(defenders, x)
		}
	}
	if len(defenders) == 0 {
		w.sayf("%s enters %s: nobody is left there to attack by overrun", u.ID, h)
		return true
	}
	att, note := m.Overrun, ""
	if m.Enraged && slices.ContainsFunc(defenders, func(x *Unit) bool { return x.Killer }) {
		att, note = 3*att, " (tripled against Killers, DR-DRAGON-ATK-10)"
	}
	def := w.defence(defenders)
	w.wizardAttacked(defenders...)
	label := fmt.Sprintf("overrun attack by %s on %s", u.ID, h)
	hit, how := w.resolveCRT(label, att, def, 0)
	w.sayf("%s: strength %d%s v %d, %s", label, att, note, def, how)
	w.trace("overrun", u.ID, []string{h}, map[bool]string{true: "destroyed", false: "failed"}[hit])
	if hit {
		for _, d := range defenders {
			w.kill(d, label)
		}
	}
	return !w.enemyOnGround(h, u)
}

// afterMajorMove does what the end of the move does: VP and bridges under
// a landing, crashes, a smash or climb at the end, a deliberate drop.
func (w *world) afterMajorMove(u *Unit, mv *Move, stopped bool) {
	plan := mv.major
	h := w.st.hexOf(u)
	landed := plan.mode == modeBound || (plan.mode == modeFly && plan.land)
	for _, st := range plan.steps {
		if st.Slither && !stopped {
			w.destroyVP(h, u, u.ID+" slithered into it (DR-DRAGON-SLITHER-2)")
		}
	}
	if plan.mode == modeDrop {
		w.crash(u, "it drops off the tower on purpose (DR-DRAGON-CRASH-5)", mv.Crash)
		return
	}
	if landed && !u.Gone {
		if !w.enemyOnGround(u.Hex, u) {
			w.destroyVP(h, u, fmt.Sprintf("%s landed on it (DR-VP-3c)", u.ID))
		}
		if b, ok := w.m.Bridge(h); ok && b.Kind == "wooden" && w.bridgeState(h) == "intact" {
			w.emit(&BridgeChanged{Hex: u.Hex, State: "destroyed:" + u.ID})
			w.sayf("the wooden bridge in %s gives way under %s: it must leave by the end of its next move or fall into the river (DR-BRIDGE-6)", u.Hex, u.ID)
		}
	}
	if plan.destroy && !stopped {
		w.destroyVP(h, u, u.ID+" spent 1 MP in it (DR-VP-3a)")
	}
	if plan.gate != "" && !stopped {
		if plan.gateMP == 0 {
			w.leglessGate(u, plan.gate, mv.Smash)
		} else if w.st.enemyIn(mv.Smash, u.Side) {
			w.rollGate(u, plan.gate, plan.gateMP)
		} else {
			w.smashed(plan.gate, u, fmt.Sprintf("smashed by %s: unguarded, it breaks as soon as 1 MP is spent (DR-SMASH-2a)", u.ID))
		}
	}
}

// whirlwindCrashHex rolls for a bound or flight that starts in, passes
// over or ends in a Whirlwind hex: on 4+ it crashes there, once a move
// (DR-SPELL-WHIRL-6, DR-DRAGON-CRASH-1, DR-AMB-6). It returns the hex it
// crashes in, or "".
func (w *world) whirlwindCrashHex(u *Unit, plan *majorMove) string {
	for i, h := range plan.crossed {
		hx, _ := hex.Parse(h)
		if !w.whirlwindIn(hx) {
			continue
		}
		if i == 0 && h == u.Hex && u.Flying {
			// A flyer in a Whirlwind's hex rolled when the Whirlwind came onto
			// it (DR-SPELL-WHIRL-7, spell_whirlwind.go): it leaves freely
			// (DR-AMB-6's exception).
			continue
		}
		roll := w.roll(fmt.Sprintf("%s %s through the Whirlwind in %s", u.ID, map[bool]string{true: "flies", false: "bounds"}[plan.mode == modeFly], h), 1)
		crash := roll.Total >= 4
		roll.Outcome = fmt.Sprintf("crashes on 4+ (DR-SPELL-WHIRL-6, DR-AMB-6): %s", map[bool]string{true: "it crashes", false: "it gets through"}[crash])
		w.sayf("%s: %s", roll.Label, roll.Outcome)
		if crash {
			return h
		}
		return ""
	}
	return ""
}

// bridgeFalls drops into the river every major monster of side still on
// the wooden bridge it broke on an earlier turn, at the end of its side's
// movement (DR-BRIDGE-6: it must leave by the end of its next move).
func (w *world) bridgeFalls(side adjudicator.Side) {
	for _, u := range w.st.alive(side) {
		if !w.st.typ(u).IsMajor() || u.Hex == "" || u.Flying {
			continue
		}
		if w.st.Bridges[u.Hex] != "destroyed:"+u.ID || u.Mode == modeBound || u.Mode == modeFly {
			continue
		}
		w.emit(&BridgeChanged{Hex: u.Hex, State: "burned"})
		w.majorDies(u, "it stayed on the broken wooden bridge in "+u.Hex+" and fell into the river (DR-BRIDGE-6)")
	}
}

// berserkMoves checks, at the end of the movement orders, every berserk
// monster of side: facing an enemy, it may not move; otherwise it must
// turn to face the nearest enemy or go towards it (DR-DRAGON-DEF-3,
// DR-AMB-58). The owner does not steer it elsewhere.
func (w *world) berserkMoves(side adjudicator.Side, o *Orders, n *yaml.Node) error {
	for _, u := range w.st.alive(side) {
		if !w.st.typ(u).IsMajor() || u.Hex == "" || !w.st.sheet(u).Berserk() {
			continue
		}
		var mv *Move
		for _, x := range o.Moves {
			if x.Unit == u.ID {
				mv = x
			}
		}
		start := u.Hex
		startFace := u.facing()
		if mv != nil {
			start = mv.start
			startFace = mv.startFace
		}
		sh, _ := hex.Parse(start)
		facingEnemy := w.enemyOnGround(hex.Front(sh, startFace).String(), u)
		near, dist := w.nearestEnemy(u, sh)
		if near == nil {
			continue
		}
		node := n
		if mv != nil {
			node = mv.node
		}
		switch {
		case facingEnemy && mv != nil && (u.Hex != start || u.facing() != startFace):
			return adjudicator.Errorf(node, codeIllegalMove, "%s is berserk and faces an enemy: it does not move (DR-DRAGON-DEF-3)", u.ID)
		case facingEnemy:
		case w.enemyOnGround(hex.Front(w.st.hexOf(u), u.facing()).String(), u):
		case u.Hex != start && w.nearestDistance(u, w.st.hexOf(u)) < dist:
		case u.Hex == start && turns(u.facing(), w.towards(sh, near)) < turns(startFace, w.towards(sh, near)):
			// Turned towards it as far as its MP went.
		case w.mayMoveAtAll(u):
			return adjudicator.Errorf(node, codeIllegalMove, "%s is berserk: it must turn to face the nearest enemy, %s in %s, or go towards it (DR-DRAGON-DEF-3, DR-AMB-58)", u.ID, near.ID, near.Hex)
		}
	}
	return nil
}

// nearestEnemy returns an enemy unit nearest to h and its distance; when
// several are as near, going towards any of them is accepted (the die of
// DR-AMB-58 breaks ties for the monster's attack, not for its move).
func (w *world) nearestEnemy(u *Unit, h hex.Hex) (*Unit, int) {
	var best *Unit
	bd := 0
	for _, x := range w.st.Units {
		if x.Gone || x.Pool || x.Hex == "" || x.Side == u.Side || x.Side == "" {
			continue
		}
		d := hex.Distance(h, w.st.hexOf(x))
		if best == nil || d < bd {
			best, bd = x, d
		}
	}
	return best, bd
}

func (w *world) nearestDistance(u *Unit, h hex.Hex) int {
	_, d := w.nearestEnemy(u, h)
	return d
}

// mayMoveAtAll reports whether a berserk monster has any move: MP to walk
// or a turn to slither.
func (w *world) mayMoveAtAll(u *Unit) bool {
	m := w.st.major(u)
	return w.st.sheet(u).MP() > 0 || m.has(modeSlither)
}

// towards is the direction of the first step from h on a shortest way to
// the unit x.
func (w *world) towards(h hex.Hex, x *Unit) hex.Direction {
	t := w.st.hexOf(x)
	best, bd := hex.N, -1
	for _, d := range hex.Directions {
		if n := hex.Distance(h.Neighbour(d), t); bd < 0 || n < bd {
			best, bd = d, n
		}
	}
	return best
}

// berserkDefaults are the movement orders a side's berserk monsters get
// when the side sends none (a deadline's default, DefaultOrders): each
// turns towards the nearest enemy as far as its MP allow, or by one
// slither turn with no legs (DR-DRAGON-DEF-3, DR-AMB-58).
func (w *world) berserkDefaults(side adjudicator.Side) []string {
	var out []string
	for _, u := range w.st.alive(side) {
		if !w.st.typ(u).IsMajor() || u.Hex == "" || u.Mode != "" || !w.st.sheet(u).Berserk() {
			continue
		}
		h := w.st.hexOf(u)
		if w.enemyOnGround(hex.Front(h, u.facing()).String(), u) {
			continue
		}
		near, _ := w.nearestEnemy(u, h)
		if near == nil {
			continue
		}
		want := w.towards(h, near)
		f := u.facing()
		mp := w.st.sheet(u).MP()
		mode := modeWalk
		if mp == 0 {
			if !w.st.major(u).has(modeSlither) {
				continue
			}
			mode, mp = modeSlither, 1
		}
		for mp > 0 && f != want {
			if ((int(want)-int(f))%6+6)%6 <= 3 {
				f = f.Right()
			} else {
				f = f.Left()
			}
			mp--
		}
		if f != u.facing() {
			out = append(out, fmt.Sprintf("- {move: %s, mode: %s, face: %s}", u.ID, mode, f))
		}
	}
	return out
}
