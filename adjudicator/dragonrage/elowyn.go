package dragonrage

// Elowyn, the optional princess (§16.7, DR-ELOWYN-1..14, option elowyn=on).
// Her counter (ELW: defence 2, MP 3, road 4) fights only in defence, stacks
// like a hero and is wounded once (combat.go's kill). This file places her,
// keeps her story (left the citadel or cages, freed, escorted, fleeing, off
// the map) and scores what happens to her. Three stories:
//
//   - Esirien: the defender's; saved on a road exit hex or on 1516 at the
//     start of a reinforcement turn (-3 VP), dead (+2 VP); the citadel is
//     worth 4 once she has left it (DR-ELOWYN-6..9).
//   - Nurkott with human invaders: a captive in the slave cages until a
//     human invader unit comes next to her; then the invader's (DR-AMB-72),
//     and he wins if she leaves the map by a road (DR-ELOWYN-10, -11,
//     DR-AMB-30); killed after leaving the cages, -2 VP.
//   - Nurkott with no human invader: an orc stacked with her escorts her and
//     she follows it; if it dies she flees alone, moved by umpire
//     (DR-ELOWYN-12, DR-AMB-72). Escorted off the map -3 VP; killed, or off
//     the map on her own, +2 VP.

import (
	"fmt"
	"slices"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

const elowynID = "ELW-1"

// elowynState is where Elowyn stands in her story.
type elowynState struct {
	Left     bool   `json:"left,omitempty"`     // she has left the citadel or the cages
	Freed    bool   `json:"freed,omitempty"`    // Nurkott: freed by a human invader unit
	Escorted bool   `json:"escorted,omitempty"` // Nurkott: she has moved with an orc escort
	Fleeing  bool   `json:"fleeing,omitempty"`  // Nurkott: her escort died, she flees alone
	Off      string `json:"off,omitempty"`      // how she left the map: saved, escaped, escorted out, fled
}

func (e elowynState) clone() elowynState { return e }

// Elowyn's events.
type (
	// ElowynFreed hands Elowyn to the invader (DR-ELOWYN-10, DR-AMB-72).
	ElowynFreed struct {
		By string `json:"by"`
	}
	// ElowynMarked moves her story on.
	ElowynMarked struct {
		Left     bool `json:"left,omitempty"`
		Escorted bool `json:"escorted,omitempty"`
		Fleeing  bool `json:"fleeing,omitempty"`
	}
	// ElowynOff takes her off the map.
	ElowynOff struct {
		How string `json:"how"`
	}
)

func (*ElowynFreed) EventType() string  { return "dragonrage.elowyn-freed" }
func (*ElowynMarked) EventType() string { return "dragonrage.elowyn-marked" }
func (*ElowynOff) EventType() string    { return "dragonrage.elowyn-off" }

var elowynEvents = []adjudicator.EventType{
	{Name: "dragonrage.elowyn-freed", Schema: 1, New: func() adjudicator.Event { return new(ElowynFreed) }},
	{Name: "dragonrage.elowyn-marked", Schema: 1, New: func() adjudicator.Event { return new(ElowynMarked) }},
	{Name: "dragonrage.elowyn-off", Schema: 1, New: func() adjudicator.Event { return new(ElowynOff) }},
}

func evolveElowyn(st *State, ev adjudicator.Event) bool {
	e := &st.Elowyn
	switch x := ev.(type) {
	case *ElowynFreed:
		e.Freed = true
		st.unit(elowynID).Side = Invader
	case *ElowynMarked:
		e.Left = e.Left || x.Left
		e.Escorted = e.Escorted || x.Escorted
		e.Fleeing = e.Fleeing || x.Fleeing
	case *ElowynOff:
		e.Off = x.How
		st.unit(elowynID).Hex = ""
	default:
		return false
	}
	return true
}

// elowyn returns Elowyn if she is in the game (option elowyn=on).
func (st *State) elowyn() *Unit {
	if u := st.unit(elowynID); u != nil && !u.Pool {
		return u
	}
	return nil
}

// Her three stories.
const (
	storyEsirien = "esirien"
	storyRescue  = "rescue" // Nurkott, human invaders (DR-ELOWYN-10, -11)
	storyEscort  = "escort" // Nurkott, no human invader (DR-ELOWYN-12)
)

func (w *world) story() string {
	if w.st.Map != "nurkott" {
		return storyEsirien
	}
	for _, u := range w.st.Units {
		if u.Side == Invader && !isElowyn(u) && w.st.typ(u).IsHuman() {
			return storyRescue
		}
	}
	return storyEscort
}

// elowynStart is where the rules start her: the citadel 1910 at Esirien
// (DR-ELOWYN-1), the slave cages at Nurkott (DR-ELOWYN-10; the first hex
// of the map's slave-cages zone).
func (w *world) elowynStart() string {
	for _, zone := range []string{"citadel", "slave-cages"} {
		if z, ok := w.m.Zone(zone); ok && len(z.Hexes) > 0 {
			return z.Hexes[0].String()
		}
	}
	return ""
}

// startPlace reports whether h is still her starting place: the citadel,
// or any hex of the cages.
func (w *world) startPlace(h string) bool {
	hx, err := hex.Parse(h)
	return err == nil && (h == w.elowynStart() || w.m.InZone(hx, "slave-cages"))
}

// placeElowyn puts Elowyn where the rules start her, after the defender's
// setup.
func (w *world) placeElowyn() {
	e := w.st.elowyn()
	if e == nil {
		return
	}
	h := w.elowynStart()
	w.emit(&Placed{Unit: e.ID, Hex: h})
	switch w.story() {
	case storyEsirien:
		w.sayf("Elowyn starts in the citadel, %s (DR-ELOWYN-1)", h)
	case storyRescue:
		w.sayf("Elowyn is a captive in the slave cages, %s: a human invader unit frees her by coming next to her (DR-ELOWYN-10)", h)
	default:
		w.sayf("Elowyn is in the slave cages, %s: an orc stacked with her may escort her off the map (DR-ELOWYN-12)", h)
	}
}

// elowynInSetup counts Elowyn in her starting hex when the defender's
// setup is checked for stacking (DR-STACK-3, DR-STACK-5).
func (w *world) elowynInSetup(side adjudicator.Side, byHex map[string][]*Unit) {
	if e := w.st.elowyn(); e != nil && side == Defender {
		h := w.elowynStart()
		byHex[h] = append(byHex[h], e)
	}
}

// escortOf returns the orc escorting her: a defending orc stacked with her
// (DR-ELOWYN-12), or nil.
func (w *world) escortOf(e *Unit) *Unit {
	if e.Hex == "" || e.Side != Defender || w.story() != storyEscort || w.st.Elowyn.Fleeing {
		return nil
	}
	for _, x := range w.st.at(e.Hex) {
		if w.st.typ(x).Escorts() && x.Side == Defender {
			return x
		}
	}
	return nil
}

// mayMove says why unit u may not be given a move order at all, or "".
func (w *world) mayMove(u *Unit, mv *Move) string {
	if !isElowyn(u) {
		return ""
	}
	es := w.st.Elowyn
	switch {
	case es.Off != "":
		return "Elowyn has left the map"
	case es.Fleeing:
		return "Elowyn flees alone: umpire moves her toward the nearest road exit in each defender movement phase (DR-ELOWYN-12, DR-AMB-72)"
	case w.story() == storyRescue && !es.Freed:
		return "Elowyn is a captive: she leaves the slave cages only once a human invader unit has come next to her (DR-ELOWYN-10)"
	case w.story() == storyEscort && w.escortOf(u) == nil:
		return "Elowyn leaves the slave cages only escorted by an orc stacked with her (DR-ELOWYN-12)"
	case w.story() == storyEscort:
		return fmt.Sprintf("Elowyn follows her escort %s: move the orc and she goes with it; end the orc's path with \"exit\" on a road exit hex to take her off the map (DR-ELOWYN-12)", w.escortOf(u).ID)
	}
	return ""
}

// exitStep takes a trailing "exit" off a path (Elowyn leaving the map by a
// road, DR-GAP-14) and reports whether there was one.
func exitStep(n *yaml.Node, exit *bool) *yaml.Node {
	switch {
	case n.Kind == yaml.ScalarNode && n.Value == "exit":
		*exit = true
		return &yaml.Node{Kind: yaml.SequenceNode, Line: n.Line, Column: n.Column}
	case n.Kind == yaml.SequenceNode && len(n.Content) > 0 && n.Content[len(n.Content)-1].Value == "exit":
		*exit = true
		c := *n
		c.Content = n.Content[:len(n.Content)-1]
		return &c
	}
	return n
}

// exitHex reports whether h is a road exit off the map (DR-ELOWYN-8,
// DR-ELOWYN-11).
func (w *world) exitHex(h string) bool {
	for _, p := range w.m.Points("exit") {
		if p.Hex.String() == h {
			return true
		}
	}
	return false
}

func (w *world) exitNames() []string {
	var out []string
	for _, p := range w.m.Points("exit") {
		out = append(out, p.Hex.String())
	}
	return out
}

// endRules checks what the movement chapter leaves to Elowyn's and the
// T-rex's rules, once a move is planned (the unit has not moved yet).
func (w *world) endRules(u *Unit, mv *Move, f map[string]*yaml.Node, spent int, road bool) error {
	if w.st.typ(u).Grudges() {
		w.noteStart(u)
	}
	at := f["path"]
	if at == nil {
		at = f["move"]
	}
	if isElowyn(u) {
		return w.elowynPath(u, mv, at, spent, road)
	}
	if e := w.st.elowyn(); e != nil && w.escortOf(e) == u {
		return w.escortPath(u, e, mv, at, spent, road)
	}
	if mv.Exit {
		return adjudicator.Errorf(at, codeIllegalMove, "only Elowyn may leave the map (DR-GAP-14)")
	}
	return nil
}

func allowance(w *world, u *Unit, road bool) int {
	t := w.st.typ(u)
	if road {
		return max(t.MP, t.Road)
	}
	return t.MP
}

// elowynPath checks where Elowyn's own move ends.
func (w *world) elowynPath(u *Unit, mv *Move, at *yaml.Node, spent int, road bool) error {
	end := u.Hex
	if len(mv.Path) > 0 {
		end = mv.Path[len(mv.Path)-1]
	}
	if w.story() == storyEsirien {
		for _, h := range mv.Path[:max(len(mv.Path)-1, 0)] {
			if w.exitHex(h) {
				return adjudicator.Errorf(at, codeIllegalMove, "Elowyn is saved as soon as she reaches the road exit %s: end her path there (DR-ELOWYN-8)", h)
			}
		}
	}
	if !mv.Exit {
		return nil
	}
	if !w.exitHex(end) {
		return adjudicator.Errorf(at, codeIllegalMove, "Elowyn leaves the map only by a road, from one of the exit hexes %v (DR-ELOWYN-8, DR-ELOWYN-11); her path ends in %s", w.exitNames(), end)
	}
	if w.story() != storyEsirien && spent+1 > allowance(w, u, road) {
		return adjudicator.Errorf(at, codeIllegalMove, "stepping off the map costs 1 MP (DR-GAP-14) and Elowyn has used all %d of hers", allowance(w, u, road))
	}
	return nil
}

// escortPath checks the move of the orc escorting Elowyn: she goes with
// it, so the path must be one she could move herself (DR-ELOWYN-4,
// DR-ELOWYN-12).
func (w *world) escortPath(o, e *Unit, mv *Move, at *yaml.Node, spent int, road bool) error {
	if mine := allowance(w, e, road); spent > mine {
		return adjudicator.Errorf(at, codeIllegalMove, "%s escorts Elowyn, who follows it and moves only %d hexes this turn (3, or 4 all on road: DR-ELOWYN-4, DR-ELOWYN-12)", o.ID, mine)
	}
	prev := w.st.hexOf(o)
	for _, h := range mv.Path {
		hx, _ := hex.Parse(h)
		var st step
		if why := w.crossing(e, prev, hx, &st); why != "" {
			return adjudicator.Errorf(at, codeIllegalMove, "Elowyn follows %s and cannot enter %s: %s (DR-ELOWYN-12)", o.ID, h, why)
		}
		if why := w.cannotStand(e, hx); why != "" {
			return adjudicator.Errorf(at, codeIllegalMove, "Elowyn follows %s and cannot enter %s: %s (DR-ELOWYN-12)", o.ID, h, why)
		}
		for _, x := range w.st.at(h) {
			if x != o && x != e {
				return adjudicator.Errorf(at, codeStacking, "Elowyn follows %s, and %s already holds %s: at most two counters share a hex (DR-STACK-2, DR-ELOWYN-12)", o.ID, h, x.ID)
			}
		}
		prev = hx
	}
	end := o.Hex
	if len(mv.Path) > 0 {
		end = mv.Path[len(mv.Path)-1]
	}
	switch {
	case !mv.Exit:
	case !w.exitHex(end):
		return adjudicator.Errorf(at, codeIllegalMove, "Elowyn leaves the map only by a road, from one of the exit hexes %v (DR-ELOWYN-12); the path ends in %s", w.exitNames(), end)
	case spent+1 > allowance(w, e, road):
		return adjudicator.Errorf(at, codeIllegalMove, "stepping off the map costs Elowyn 1 MP (DR-GAP-14) and following %s uses all %d of hers", o.ID, allowance(w, e, road))
	}
	return nil
}

// afterMove applies what a move changes in Elowyn's story: her escort
// takes her along, a human invader frees her, she leaves the citadel or
// the cages, is saved, or escapes.
func (w *world) afterMove(u *Unit, mv *Move, from string) {
	e := w.st.elowyn()
	if e == nil || e.Gone || w.st.Elowyn.Off != "" {
		return
	}
	story := w.story()
	switch {
	case u == e:
	case story == storyEscort && w.st.typ(u).Escorts() && u.Side == Defender && e.Hex == from && from != "" && e.Side == Defender && !w.st.Elowyn.Fleeing:
		if len(mv.Path) > 0 {
			w.emit(&Moved{Unit: e.ID, From: from, Path: slices.Clone(mv.Path)})
			w.trace("move", e.ID, append([]string{from}, mv.Path...), "escorted")
		}
		if !w.st.Elowyn.Escorted {
			w.emit(&ElowynMarked{Escorted: true})
			w.sayf("Elowyn goes with her escort %s (DR-ELOWYN-12)", u.ID)
		}
	case story == storyRescue && !w.st.Elowyn.Freed && u.Side == Invader && !isElowyn(u) && w.st.typ(u).IsHuman() && e.Hex != "":
		eh := w.st.hexOf(e)
		for _, h := range mv.Path {
			if hx, _ := hex.Parse(h); hx.Adjacent(eh) {
				w.emit(&ElowynFreed{By: u.ID})
				w.sayf("%s reaches %s, next to the slave cages: Elowyn is freed and follows the invader's orders from now on (DR-ELOWYN-10, DR-AMB-72)", u.ID, h)
				break
			}
		}
		return
	default:
		return
	}
	w.elowynMoved(mv.Exit)
}

// elowynMoved applies where Elowyn now stands.
func (w *world) elowynMoved(exit bool) {
	e := w.st.elowyn()
	if !w.st.Elowyn.Left && !w.startPlace(e.Hex) {
		w.emit(&ElowynMarked{Left: true})
		if w.story() == storyEsirien {
			w.sayf("Elowyn has left the citadel: %s is now worth 4 VP (DR-ELOWYN-7)", w.elowynStart())
		}
	}
	switch story := w.story(); {
	case story == storyEsirien && w.exitHex(e.Hex):
		w.elowynSaved(fmt.Sprintf("she reaches the road exit %s", e.Hex))
	case !exit:
	case story == storyRescue:
		why := fmt.Sprintf("the invader wins: Elowyn gets off the map by the road at %s (DR-ELOWYN-11, DR-AMB-30)", e.Hex)
		w.emit(&ElowynOff{How: "escaped"})
		w.sayf("GAME OVER: %s", why) // a scenario victory: the VP title table does not grade it (DR-WIN-6)
		w.emit(&GameOver{Winner: Invader, Result: why})
	case w.st.Elowyn.Fleeing:
		w.emit(&ElowynOff{How: "fled"})
		w.emit(&Scored{Delta: 2, Reason: "Elowyn escapes on her own"})
		w.sayf("Elowyn gets off the map on her own: +2 VP, the invader has %d (DR-ELOWYN-12)", w.st.VP)
		w.checkVictory()
	default:
		w.emit(&ElowynOff{How: "escorted out"})
		w.emit(&Scored{Delta: -3, Reason: "Elowyn escorted off the map"})
		w.sayf("the defender escorts Elowyn off the map: -3 VP, the invader has %d (DR-ELOWYN-12, DR-AMB-79)", w.st.VP)
	}
}

// elowynSaved takes her off the map at Esirien: the invader loses 3 VP
// (DR-ELOWYN-9; the score may go below zero, DR-AMB-79).
func (w *world) elowynSaved(how string) {
	w.emit(&ElowynOff{How: "saved"})
	w.emit(&Scored{Delta: -3, Reason: "Elowyn saved"})
	w.sayf("Elowyn is saved: %s; -3 VP, the invader has %d (DR-ELOWYN-8, DR-ELOWYN-9)", how, w.st.VP)
}

// elowynAtTheMole saves Elowyn standing on the mole 1516 at the start of a
// turn in which reinforcements arrive (DR-ELOWYN-8, DR-AMB-32).
func (w *world) elowynAtTheMole() {
	e := w.st.elowyn()
	if e == nil || e.Gone || e.Hex == "" || w.story() != storyEsirien {
		return
	}
	for _, p := range w.m.Points("rescue") {
		if p.Hex.String() == e.Hex {
			w.elowynSaved(fmt.Sprintf("she is on %s as turn %d, a reinforcement turn, begins (DR-AMB-32)", e.Hex, w.st.Turn))
			return
		}
	}
}

// afterElimination applies what a unit's death changes besides its
// removal: a bridge it was wrecking is intact again (DR-AMB-48), Elowyn's
// death scores (DR-ELOWYN-6, DR-ELOWYN-11, DR-ELOWYN-12), and her escort's
// death sets her fleeing (DR-ELOWYN-12).
func (w *world) afterElimination(u *Unit) {
	w.bridgeSpared(u)
	e := w.st.elowyn()
	if e == nil {
		return
	}
	if u == e {
		switch w.story() {
		case storyEsirien:
			w.emit(&Scored{Delta: 2, Reason: "Elowyn dies"})
			w.sayf("Elowyn is dead: the invader gains 2 VP and has %d (DR-ELOWYN-6)", w.st.VP)
		case storyRescue:
			if w.st.Elowyn.Left {
				w.emit(&Scored{Delta: -2, Reason: "Elowyn killed after leaving the cages"})
				w.sayf("Elowyn is killed after leaving the cages: -2 VP, the invader has %d (DR-ELOWYN-11, DR-AMB-30, DR-AMB-79)", w.st.VP)
			}
		default:
			w.emit(&Scored{Delta: 2, Reason: "Elowyn dies"})
			w.sayf("Elowyn is dead: the invader gains 2 VP and has %d (DR-ELOWYN-12)", w.st.VP)
		}
		return
	}
	if w.st.typ(u).Escorts() && u.Side == Defender && !e.Gone && e.Hex == u.Hex && w.story() == storyEscort && !w.st.Elowyn.Fleeing && w.st.Elowyn.Off == "" {
		w.emit(&ElowynMarked{Fleeing: true})
		w.sayf("Elowyn's escort %s is dead: she will flee alone toward the nearest road exit (DR-ELOWYN-12, DR-AMB-72)", u.ID)
	}
}

// elowynFlees moves Elowyn when she flees alone, at the start of each
// defender movement phase: her full MP along a shortest path to the
// nearest road exit, and off the map if she has 1 MP left there
// (DR-AMB-72, DR-GAP-14).
func (w *world) elowynFlees() {
	e := w.st.elowyn()
	if e == nil || e.Gone || e.Hex == "" || !w.st.Elowyn.Fleeing {
		return
	}
	from := w.st.hexOf(e)
	var best []hex.Hex
	found := false
	for _, p := range w.m.Points("exit") {
		path := w.path(e, from, p.Hex)
		if p.Hex == from || path != nil {
			if !found || len(path) < len(best) {
				best, found = path, true
			}
		}
	}
	if !found {
		w.sayf("Elowyn flees but finds no way to a road exit from %s (DR-AMB-72)", e.Hex)
		return
	}
	mp := 3
	if w.onRoad(from) {
		road, prev := true, from
		for _, h := range best[:min(len(best), 4)] {
			road = road && w.m.Road(prev, h)
			prev = h
		}
		if road {
			mp = 4 // DR-ELOWYN-4: 4 if her whole move is on the road
		}
	}
	n := min(len(best), mp)
	if n > 0 {
		var path []string
		for _, h := range best[:n] {
			path = append(path, h.String())
		}
		w.emit(&Moved{Unit: e.ID, From: e.Hex, Path: path})
		w.trace("move", e.ID, append([]string{from.String()}, path...), "fleeing")
		w.sayf("Elowyn flees alone: %s to %s (DR-ELOWYN-12, DR-AMB-72)", from, path[len(path)-1])
	}
	w.elowynMoved(n == len(best) && n < mp && w.exitHex(w.st.unit(elowynID).Hex))
}

// unitNotes are a unit's extra status words in the view.
func (st *State) unitNotes(u *Unit) []string {
	switch {
	case st.typ(u).Grudges():
		if s := st.trexNote(u); s != "" {
			return []string{s}
		}
	case isElowyn(u):
		es := st.Elowyn
		switch {
		case es.Off != "":
			return []string{es.Off}
		case es.Fleeing:
			return []string{"fleeing"}
		case es.Freed:
			return []string{"freed"}
		case es.Escorted:
			return []string{"escorted"}
		case st.Map == "nurkott" && !es.Left:
			return []string{"in the cages"}
		}
	}
	return nil
}

// stateNotes are the view's notes: a decision the game waits on.
func (st *State) stateNotes() []string {
	if st.Pending == nil {
		return nil
	}
	r := st.decisionRequest()
	return []string{"waiting for the " + string(r.Side) + ": " + r.Prompt}
}

// citadelVP is the VP of hex h given its printed value: the citadel is
// worth only 4 once Elowyn has left it (DR-ELOWYN-7).
func (w *world) citadelVP(h hex.Hex, vp int) int {
	if w.st.Elowyn.Left && w.st.elowyn() != nil && w.story() == storyEsirien && h.String() == w.elowynStart() {
		return min(vp, 4)
	}
	return vp
}

// invadersLeft counts the invader's units still in the game, not counting
// Elowyn once she follows the invader (DR-WIN-2, DR-AMB-72).
func (w *world) invadersLeft() int {
	n := 0
	for _, u := range w.st.alive(Invader) {
		if !isElowyn(u) {
			n++
		}
	}
	return n
}
