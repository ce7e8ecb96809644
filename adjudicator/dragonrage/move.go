package dragonrage

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// Move is one entry of the movement orders: a unit, the hexes it enters in
// order, and what it does at the end.
type Move struct {
	Unit    string   `yaml:"move"`
	Path    []string `yaml:"path,omitempty"`
	Smash   string   `yaml:"smash,omitempty"`   // the hex beyond the entrance to smash at the end of the move
	Climb   string   `yaml:"climb,omitempty"`   // the hex beyond the wall to climb into at the end of the phase
	Destroy string   `yaml:"destroy,omitempty"` // "vp" or "bridge": destroy the hex the move ends in
	Road    bool     `yaml:"road,omitempty"`    // set by umpire: the move used road movement
	Exit    bool     `yaml:"exit,omitempty"`    // Elowyn steps off the map after the path (a trailing "exit" in the path)

	// Major monsters (major_move.go): the movement mode, the facing at the
	// end, a landing, how crash damage is spread.
	Mode  string   `yaml:"mode,omitempty"`
	Face  string   `yaml:"face,omitempty"`
	Land  bool     `yaml:"land,omitempty"`
	Crash []string `yaml:"crash,omitempty"`
	// StopIfHeld: the walk stops where an overrun attack leaves enemies
	// standing (DR-OVR-7, DR-PBEM-2), instead of going on.
	StopIfHeld bool `yaml:"stop-if-held,omitempty"`

	// worked out while checking, used when resolving
	steps     []step
	major     *majorMove
	start     string        // where a major monster began the move
	startFace hex.Direction // and its facing then
	node      *yaml.Node
}

// step is one hex entered and what entering it does.
type step struct {
	To       string
	MP       int    // MP it cost
	Smash    string // an unguarded gate or door smashed on the way (hexside key)
	Overrun  bool   // passing through enemy units (giants, T-rex)
	Destroys bool   // entering destroys the VP hex (trolls, giants, T-rex)
	Drowns   bool   // the T-rex falls from a wooden bridge (DR-TREX-2)
	Control  string // a wall entrance whose control passes to the mover (hexside key)
}

const moveExample = `  - move: INF-3
    path: [0808, 0909]`

// parseMovement checks the movement orders in order, moving the units on a
// copy of the state so that each move sees the ones before it (DR-MOVE-5).
func (w *world) parseMovement(side adjudicator.Side, n *yaml.Node) (*Orders, error) {
	list, err := items(n, moveExample)
	if err != nil {
		return nil, err
	}
	o := &Orders{}
	spent := map[string]int{}
	road := map[string]bool{}
	ended := map[string]bool{}
	majors := map[string]bool{}
	for _, item := range list {
		f, err := fields(item, majorKeys...)
		if err != nil {
			return nil, err
		}
		if f["move"] == nil {
			return nil, adjudicator.Errorf(item, adjudicator.CodeMissingField, "each movement order starts with \"move: UNIT\"")
		}
		u, err := w.ownUnit(f["move"], side)
		if err != nil {
			return nil, err
		}
		if w.st.typ(u).IsMajor() {
			if majors[u.ID] {
				return nil, adjudicator.Errorf(f["move"], codeTwice, "%s is given two movement orders: give its whole move in one (DR-DRAGON-MODE-1)", u.ID)
			}
			majors[u.ID] = true
			mv, err := w.parseMajorMove(u, item, f)
			if err != nil {
				return nil, err
			}
			mv.start, mv.startFace = u.Hex, u.facing()
			w.applyMajorMove(u, mv) // on the copy, so later moves see it
			o.Moves = append(o.Moves, mv)
			continue
		}
		for _, k := range []string{"mode", "face", "overrun", "smash-mp", "land", "crash", "stop-if-held"} {
			if f[k] != nil {
				return nil, adjudicator.Errorf(f["@"+k], adjudicator.CodeUnknownField, "%q is for major monsters (Dragons, Rocs, wyverns): %s moves by its path", k, u.ID)
			}
		}
		if ended[u.ID] {
			return nil, adjudicator.Errorf(f["move"], codeTwice, "%s already ended its move with a smash, climb or destruction", u.ID)
		}
		mv := &Move{Unit: u.ID, node: item}
		if p := f["path"]; p != nil {
			if mv.Path, _, err = w.hexList(exitStep(p, &mv.Exit)); err != nil {
				return nil, err
			}
		}
		if err := w.planMove(u, mv, f, spent, road); err != nil {
			return nil, err
		}
		for k, key := range map[string]*string{"smash": &mv.Smash, "climb": &mv.Climb} {
			if x := f[k]; x != nil {
				if *key, err = w.parseHex(x); err != nil {
					return nil, err
				}
			}
		}
		if x := f["destroy"]; x != nil {
			v, err := scalar(x, "vp or bridge")
			if err != nil || (v != "vp" && v != "bridge") {
				return nil, adjudicator.Errorf(x, adjudicator.CodeBadValue, "destroy what? write \"destroy: vp\" or \"destroy: bridge\"")
			}
			mv.Destroy = v
		}
		if err := w.checkEndOfMove(u, mv, f, spent[u.ID], road[u.ID]); err != nil {
			return nil, err
		}
		if mv.Destroy == "bridge" && len(mv.Path) == 0 {
			return nil, adjudicator.Errorf(f["destroy"], codeCannot, "a unit destroys a bridge by moving onto it (DR-BRIDGE-4): give the path that ends on the bridge")
		}
		if mv.Smash != "" || mv.Climb != "" || mv.Destroy != "" {
			ended[u.ID] = true
		}
		mv.Road = road[u.ID] && len(mv.Path) > 0
		w.applyMove(u, mv) // on the copy, so later moves see it
		o.Moves = append(o.Moves, mv)
	}
	if err := w.forcedMoves(side, o, n); err != nil {
		return nil, err // DR-TREX-4
	}
	if err := w.berserkMoves(side, o, n); err != nil {
		return nil, err // DR-DRAGON-DEF-3
	}
	return o, nil
}

// planMove checks each step of mv and records what it does.
func (w *world) planMove(u *Unit, mv *Move, f map[string]*yaml.Node, spent map[string]int, road map[string]bool) error {
	t := w.st.typ(u)
	if why := w.mayMove(u, mv); why != "" {
		return adjudicator.Errorf(f["move"], codeIllegalMove, "%s", why) // Elowyn (§16.7)
	}
	if len(mv.Path) == 0 {
		return nil
	}
	pathNodes := []*yaml.Node{f["path"]}
	if f["path"].Kind == yaml.SequenceNode {
		pathNodes = f["path"].Content
	}
	bad := func(i int, format string, args ...any) error {
		return adjudicator.Errorf(pathNodes[i], codeIllegalMove, "%s cannot enter %s: %s", u.ID, mv.Path[i], fmt.Sprintf(format, args...))
	}
	if t.MP == 0 {
		return adjudicator.Errorf(f["move"], codeIllegalMove, "%s cannot move (DR-COMP-7)", u.ID)
	}
	if u.Hex == "" && spent[u.ID] == 0 {
		// Entering from off the map (DR-SCEN-9, DR-MOVE-10).
		first, _ := hex.Parse(mv.Path[0])
		if !w.entryHex(u, first) {
			return bad(0, "units off the map enter through %s", strings.Join(w.entryNames(u), " or "))
		}
		road[u.ID] = w.onRoad(first)
	} else if spent[u.ID] == 0 {
		road[u.ID] = w.onRoad(w.st.hexOf(u))
	}
	cur := u.Hex
	for i, to := range mv.Path {
		th, _ := hex.Parse(to)
		st := step{To: to, MP: 1}
		if cur != "" {
			ch, _ := hex.Parse(cur)
			if !ch.Adjacent(th) {
				return bad(i, "it is not next to %s (give every hex of the path, in order)", cur)
			}
			if why := w.crossing(u, ch, th, &st); why != "" {
				return bad(i, "%s", why)
			}
			if road[u.ID] && !w.m.Road(ch, th) {
				road[u.ID] = false
			}
		}
		if why := w.entering(u, th, i == len(mv.Path)-1, &st); why != "" {
			return bad(i, "%s", why)
		}
		st.MP += w.whirlwindCost(cur, to, u) // DR-SPELL-WHIRL-4
		spent[u.ID] += st.MP
		allowance := t.MP
		if road[u.ID] {
			allowance = max(t.MP, t.Road)
		}
		if spent[u.ID] > allowance {
			extra := ""
			if t.Road > t.MP {
				extra = fmt.Sprintf(", or %d if the whole move follows the road from a road hex (DR-MOVE-3)", t.Road)
			}
			return bad(i, "that makes %d MP; %s has %d%s", spent[u.ID], u.ID, t.MP, extra)
		}
		mv.steps = append(mv.steps, st)
		cur = to
		// Let later steps see the unit where it is now.
	}
	return nil
}

// crossing checks the hexside between a and b for unit u and fills in what
// crossing it does; it returns why u may not cross, or "".
func (w *world) crossing(u *Unit, a, b hex.Hex, st *step) string {
	if w.st.typ(u).IsSummoned() {
		return w.elementalStep(a, b) // DR-SPELL-ELEM-9
	}
	t := w.st.typ(u)
	f, has := w.feature(a, b)
	if !has {
		if w.m.Terrain(b) == "tower" || w.m.Terrain(a) == "tower" {
			return "towers are entered and left only through their doors and gates (DR-TOWER-1)"
		}
		return w.bridgeBanks(u, a, b)
	}
	switch {
	case f.Kind == "river":
		if !t.EntersRivers() {
			return "the river runs between the two hexes; only units that may enter the river cross from bank to bank (DR-MAP-11)"
		}
	case f.Kind == "breach" || w.breached(f):
		if !t.EntersRivers() {
			return "a breached palisade is used only by units that may enter the river (DR-SERP-7)"
		}
	case w.m.IsEntrance(f.Kind):
		if why := w.throughEntrance(u, f.Kind, a, b, st); why != "" {
			return why
		}
	case w.m.IsBarrier(f.Kind):
		if u.Side == Invader {
			return fmt.Sprintf("a %s stands between %s and %s; invaders cross walls only by climbing at the end of the movement phase (DR-WALL-1, DR-CLIMB-2)", f.Kind, a, b)
		}
		return fmt.Sprintf("a %s stands between %s and %s (DR-WALL-1)", f.Kind, a, b)
	}
	return w.bridgeBanks(u, a, b)
}

// bridgeBanks enforces DR-TERR-4: a bridge or ford is entered and left only
// across the hexsides that join the banks.
func (w *world) bridgeBanks(u *Unit, a, b hex.Hex) string {
	if w.st.typ(u).EntersRivers() {
		return "" // giants and serpents go through the river anyway (DR-GIANT-4)
	}
	for _, pair := range [][2]hex.Hex{{a, b}, {b, a}} {
		br, ok := w.m.Bridge(pair[0])
		if !ok {
			continue
		}
		if pair[1] != br.Connects[0] && pair[1] != br.Connects[1] {
			return fmt.Sprintf("the bridge in %s is crossed only between %s and %s (DR-TERR-4)", pair[0], br.Connects[0], br.Connects[1])
		}
	}
	return ""
}

// throughEntrance decides whether u may pass the door or gate between a and
// b, smashing it on the way if it is unguarded and u may smash it.
func (w *world) throughEntrance(u *Unit, kind string, a, b hex.Hex, st *step) string {
	f, _ := w.feature(a, b)
	key := f.Side.String()
	if w.passable(f, u.Side) {
		if !w.towerEntrance(f) && f.Inside == b {
			st.Control = key // DR-ENTR-5: entering the inside hex takes control
		}
		return ""
	}
	t := w.st.typ(u)
	guarded := w.st.enemyIn(b.String(), u.Side)
	switch {
	case kind == "door" && w.smashesDoorsOnTheWay(u):
		st.Smash = key // "automatic", as Dragons do it (DR-CST-5, DR-AMB-46)
		return ""
	case kind == "gate" && !guarded && w.canSmash(u, "gate"):
		st.Smash, st.MP = key, st.MP+1 // DR-SMASH-7: unguarded gate, +1 MP during the move
		return ""
	case kind == "gate" && !guarded:
		return fmt.Sprintf("the %s gate between %s and %s is closed, and %s cannot smash gates (DR-TABLE-CST, DR-AMB-33)", w.entrance(key).Controller, a, b, t.Name)
	case kind == "door" && !guarded && w.canSmash(u, "door") && w.st.ruling("unguarded-doors") == "during-move":
		st.Smash, st.MP = key, st.MP+1 // the other reading of DR-AMB-49, chosen for this game
		return ""
	case kind == "door":
		return fmt.Sprintf("the door between %s and %s is closed: end the move next to it and order \"smash: %s\" (DR-SMASH-6, DR-AMB-49)", a, b, b)
	}
	return fmt.Sprintf("the gate between %s and %s is closed and guarded: end the move next to it and order \"smash: %s\" (DR-SMASH-7)", a, b, b)
}

// entering checks the hex itself: terrain and who is in it.
func (w *world) entering(u *Unit, h hex.Hex, last bool, st *step) string {
	if w.st.typ(u).IsSummoned() {
		return w.elementalEnters(u, h, last, st) // DR-SPELL-ELEM-5, -6, -11
	}
	t := w.st.typ(u)
	terr := w.m.Terrain(h)
	if why := w.cannotStand(u, h); why != "" && !(!t.MayEndInTower() && !last && terr == "tower") {
		return why
	}
	if under, why := w.swimsUnder(u, h, last); under {
		return why // DR-SERP-2
	}
	if t.BreaksBridges() && w.bridgeState(h) != "" && mustBurn(w, h) {
		st.Drowns = true // DR-TREX-2: legal, and fatal
	}
	if w.st.collapsedHex(h.String()) {
		return "a major monster died there: the hex is impassable (DR-DRAGON-DEAD-3, DR-TERR-8)"
	}
	var friends, enemies []*Unit
	for _, x := range w.st.at(h.String()) {
		switch {
		case x.ID == u.ID || x.Flying: // a flyer is above the hex (DR-DRAGON-FLY-7)
		case w.st.typ(x).IsMajor() && x.Side != u.Side:
			// A hero may walk in under an enemy major monster, which ends his
			// move; nobody else may (DR-STACK-4, DR-WZD-4).
			switch {
			case !t.Leads():
				return fmt.Sprintf("%s stands there; only a hero walks into a major monster's hex (DR-STACK-4, DR-WZD-4)", x.ID)
			case !last:
				return fmt.Sprintf("entering %s's hex ends the hero's move (DR-STACK-4)", x.ID)
			}
		case w.st.typ(x).IsMajor():
			return fmt.Sprintf("%s stands there: no unit shares a hex with a friendly major monster (DR-STACK-1)", x.ID)
		case x.Side == u.Side:
			friends = append(friends, x)
		default:
			enemies = append(enemies, x)
		}
	}
	if len(enemies) > 0 {
		overrun := t.Overruns()
		switch {
		case !overrun:
			return "enemy units are there; only some monsters pass through enemies (DR-STACK-1, DR-OVR-4)"
		case last:
			return "a giant or T-rex may pass through enemies but not end its move among them (DR-OVR-2, DR-OVR-4)"
		case terr == "tower":
			return "no overrun inside a tower (DR-OVR-3)"
		}
		st.Overrun = true
	}
	if len(friends) > 0 {
		if why := w.stackProblem(append(friends, u)); why != "" {
			return why + " (DR-STACK-1, DR-STACK-2)"
		}
	}
	if len(enemies) == 0 && w.vpHex(h) > 0 && !w.doorVP(h) && t.DestroysByEntering() && u.Side == Invader {
		st.Destroys = true // DR-VP-4, DR-TRL-2: entering an undefended VP hex destroys it
	}
	return ""
}

func mustBurn(w *world, h hex.Hex) bool {
	b, _ := w.m.Bridge(h)
	return b.Kind == "wooden" && w.bridgeState(h) != "burned"
}

// entryHex reports whether an off-map unit may enter at h.
func (w *world) entryHex(u *Unit, h hex.Hex) bool {
	for _, name := range w.entryNames(u) {
		if name == h.String() {
			return true
		}
	}
	return false
}

func (w *world) entryNames(u *Unit) []string {
	kind := "entry"
	if w.st.typ(u).Swims() {
		kind = "serpent-entry"
	}
	var out []string
	for _, p := range w.m.Points(kind) {
		out = append(out, p.Hex.String())
	}
	return out
}

// onRoad reports whether a road runs through h.
func (w *world) onRoad(h hex.Hex) bool {
	for _, n := range h.Neighbours() {
		if w.m.Road(h, n) {
			return true
		}
	}
	return false
}

// applyMove moves the unit along its planned steps, emitting the events.
func (w *world) applyMove(u *Unit, mv *Move) {
	if len(mv.steps) == 0 {
		w.afterMove(u, mv, u.Hex) // Elowyn stepping off the map (§16.7)
		return
	}
	from := u.Hex
	var path []string
	for _, s := range mv.steps {
		path = append(path, s.To)
		if s.Smash != "" {
			w.smashed(s.Smash, u, "smashed on the way (unguarded)")
		}
		if s.Control != "" && w.entrance(s.Control).Controller != u.Side {
			e := w.entrance(s.Control)
			w.emit(&EntranceChanged{Side: s.Control, Broken: e.Broken, Controller: u.Side, OpenUntil: e.OpenUntil})
		}
	}
	w.emit(&Moved{Unit: u.ID, From: from, Path: path, Road: mv.Road})
	w.trace("move", u.ID, append(nonEmpty(from), path...), "")
	for _, h := range path {
		w.claimEntrances(u, h) // DR-ENTR-5
	}
	if from != "" {
		if b := w.st.Bridges[from]; b == "destroyed:"+u.ID {
			w.emit(&BridgeChanged{Hex: from, State: "burned"}) // DR-BRIDGE-5
			w.sayf("the bridge in %s burns behind %s (DR-BRIDGE-5)", from, u.ID)
		}
	}
	for _, s := range mv.steps {
		h, _ := hex.Parse(s.To)
		if s.Destroys {
			w.destroyVP(h, u, "entered by "+u.ID)
		}
		if s.Drowns {
			w.emit(&BridgeChanged{Hex: s.To, State: "burned"})
			w.eliminate(u, "fell through the wooden bridge in "+s.To+" and drowned (DR-TREX-2)")
			return
		}
	}
	w.afterMove(u, mv, from) // Elowyn (§16.7)
}

// claimEntrances gives u's side the wall entrances whose inside hex u has
// entered: the last side to have had a unit there controls them
// (DR-ENTR-5). A monster passing through the other side's units (overrun)
// takes nothing: they are still there.
func (w *world) claimEntrances(u *Unit, h string) {
	if w.enemyOnGround(h, u) {
		return // passing through by overrun: the other side is still there
	}
	hx, _ := hex.Parse(h)
	for _, sd := range hx.Sides() {
		f, ok := w.m.Feature(sd)
		if !ok || !w.m.IsEntrance(f.Kind) || f.Inside != hx || w.towerEntrance(f) {
			continue
		}
		if e := w.entrance(sd.String()); e.Controller != u.Side {
			w.emit(&EntranceChanged{Side: sd.String(), Broken: e.Broken, Controller: u.Side, OpenUntil: e.OpenUntil})
		}
	}
}

func nonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}

// checkEndOfMove checks what the move ends with.
func (w *world) checkEndOfMove(u *Unit, mv *Move, f map[string]*yaml.Node, spent int, road bool) error {
	if err := w.endRules(u, mv, f, spent, road); err != nil {
		return err // Elowyn (§16.7), the T-rex (DR-TREX-4)
	}
	end := u.Hex
	if len(mv.Path) > 0 {
		end = mv.Path[len(mv.Path)-1]
	}
	if end == "" && (mv.Smash != "" || mv.Climb != "" || mv.Destroy != "") {
		return adjudicator.Errorf(f["move"], codeIllegalMove, "%s is not on the map yet", u.ID)
	}
	eh, _ := hex.Parse(end)
	if mv.Smash != "" && mv.Climb != "" {
		return adjudicator.Errorf(f["climb"], codeCannot, "a unit may not both smash and climb in one turn (DR-SMASH-8, DR-CLIMB-1)")
	}
	if mv.Smash != "" {
		if err := w.checkSmash(u, eh, mv.Smash, f["smash"]); err != nil {
			return err
		}
	}
	if mv.Climb != "" {
		if err := w.checkClimb(u, eh, mv.Climb, f["climb"], spent, road); err != nil {
			return err
		}
	}
	switch mv.Destroy {
	case "vp":
		return w.checkDestroyVP(u, eh, f["destroy"])
	case "bridge":
		return w.checkDestroyBridge(u, eh, f["destroy"])
	}
	return nil
}

// resolveMovement carries out the moves, then the smashing and climbing
// that happen at the end of the phase (DR-SMASH-6, DR-CLIMB-2).
func (w *world) resolveMovement(o *Orders) {
	for _, mv := range o.Moves {
		u := w.st.unit(mv.Unit)
		if u.Gone {
			w.sayf("%s does not move: it was eliminated earlier this phase", u.ID)
			continue
		}
		if mv.major != nil {
			w.applyMajorMove(u, mv)
			w.checkVictory()
			if w.st.Over {
				return
			}
			continue
		}
		w.applyMove(u, mv)
		if u.Gone {
			continue
		}
		switch mv.Destroy {
		case "vp":
			w.destroyVP(w.st.hexOf(u), u, u.ID+" occupies it and makes no attack this turn")
			w.emit(&Flagged{Unit: u.ID, NoAttack: true})
		case "bridge":
			w.emit(&BridgeChanged{Hex: u.Hex, State: "destroyed:" + u.ID})
			w.emit(&Flagged{Unit: u.ID, NoAttack: true})
			w.sayf("%s wrecks the bridge in %s: it burns when %s moves off (DR-BRIDGE-4, DR-BRIDGE-5)", u.ID, u.Hex, u.ID)
		}
		w.checkVictory()
		if w.st.Over {
			return
		}
	}
	w.bridgeFalls(phases[w.st.Phase].side) // DR-BRIDGE-6
	w.endOfMovement(endActions(o.Moves))
}

// destroyVP destroys a VP hex and scores it (DR-VP-1, DR-VP-2).
func (w *world) destroyVP(h hex.Hex, by *Unit, how string) {
	vp := w.vpHex(h)
	if vp == 0 {
		return
	}
	w.emit(&VPDestroyed{Hex: h.String(), VP: vp, By: by.ID})
	w.sayf("VP hex %s destroyed (%s): +%d VP, the invader has %d", h, how, vp, w.st.VP)
	w.checkVictory()
}

// eliminate removes a unit, or wounds a hero or Elowyn who is not yet
// wounded (DR-HERO-5, DR-ELOWYN-5).
func (w *world) eliminate(u *Unit, cause string) {
	w.emit(&Eliminated{Unit: u.ID, Cause: cause})
	w.sayf("%s is eliminated: %s", u.ID, cause)
	w.afterElimination(u)
	w.checkVictory()
}
