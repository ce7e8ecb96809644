package glory

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/pause"
)

// showTo reports what side's counters did: everyone reads full, unless
// hidden stacks keep where they went from the enemy (DG-HIDE-3); then the
// enemy reads pub and side reads full.
func (w *world) showTo(side adjudicator.Side, pub, full string) {
	if !w.st().Options.Hidden {
		w.say("%s", full)
		return
	}
	w.tell(adjudicator.To(Other(side)), "%s", pub)
	w.tell(adjudicator.To(side), "%s", full)
}

// question is a combat question to side, with the turn's ID.
func (w *world) question(side adjudicator.Side, key, title, prompt, def string) pause.Question {
	st := w.st()
	return pause.Question{Side: side, Key: key, Title: fmt.Sprintf("turn %d, %s", st.Turn, title), Prompt: prompt, Default: def}
}

// --- Losses (DG-CRT-2, -3, -11, -13, -17) ---

// allocate says which armies take n reductions, one entry per reduction,
// by plan: the armies it lists first, one reduction per entry in its order
// (an army listed twice takes two), then by its rule
// (strongest-first: full-strength armies first, the strongest first;
// weakest-first: the weakest first); ties by counter ID. Reductions the
// armies cannot absorb are dropped (DG-AMB-51).
func (s *State) allocate(ids []string, n int, plan lossPlan) []string {
	steps := map[string]int{}
	reduced := map[string]bool{}
	for _, id := range ids {
		u, k := s.Units[id], s.Kind(id)
		steps[id] = 1
		if !u.Reduced && k.Half != nil {
			steps[id] = 2
		}
		reduced[id] = u.Reduced
	}
	strength := func(id string) int {
		k := s.Kind(id)
		if reduced[id] && k.Half != nil {
			return k.Half.Strength
		}
		return k.Full.Strength
	}
	var out []string
	next := 0 // the next entry of plan.List
	for range n {
		pick := ""
		for ; next < len(plan.List) && pick == ""; next++ {
			if id := plan.List[next]; steps[id] > 0 {
				pick = id
			}
		}
		if pick == "" {
			var cands []string
			for _, id := range ids {
				if steps[id] > 0 {
					cands = append(cands, id)
				}
			}
			slices.SortFunc(cands, func(a, b string) int {
				if plan.Mode == "weakest-first" {
					return cmp.Or(cmp.Compare(strength(a), strength(b)), cmp.Compare(b2i(!reduced[a]), b2i(!reduced[b])), cmp.Compare(a, b))
				}
				return cmp.Or(cmp.Compare(b2i(reduced[a]), b2i(reduced[b])), cmp.Compare(strength(b), strength(a)), cmp.Compare(a, b))
			})
			if len(cands) == 0 {
				break
			}
			pick = cands[0]
		}
		out = append(out, pick)
		steps[pick]--
		reduced[pick] = true
	}
	return out
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// reductions applies n numbered reductions to side's armies ids, asking
// their owner which take them unless only one way is possible.
func (w *world) reductions(p *program, c *combat, ans **Answer, side adjudicator.Side, n int, ids []string, why string) bool {
	st := w.st()
	if n == 0 || len(ids) == 0 {
		return false
	}
	capacity := 0
	for _, id := range ids {
		capacity++
		if !st.Units[id].Reduced && st.Kind(id).Half != nil {
			capacity++
		}
	}
	plan := lossPlan{Mode: "strongest-first"}
	if len(ids) > 1 && n < capacity {
		text, ok := take(ans)
		if !ok {
			var paused bool
			q := w.question(side, "losses", fmt.Sprintf("%d reduction(s) %s", n, why),
				fmt.Sprintf("Your armies %s take %d reduction(s) (DG-CRT-2, -3): %s. Which take them? Answer strongest-first (full-strength armies first, the strongest first), weakest-first, or a list of your armies in the order they take them, e.g. \"answer: [%s]\". An army named twice takes two reductions.",
					why, n, list(ids), strings.Join(ids, ", ")), "strongest-first")
			if text, paused = w.askIn(p, c, q); paused {
				return true
			}
		}
		plan = readLossPlan(text)
	}
	for _, id := range st.allocate(ids, n, plan) {
		w.reduce(id, why)
	}
	return false
}

// --- Retreats (DG-CRT-5 to -9, -18) ---

// retreatHexes lists the hexes army id may retreat into from from: one it
// could enter by movement, without enemy armies, within stacking, and not
// next to an enemy army unless an army of its side is there already.
func (s *State) retreatHexes(id, from string) []string {
	var out []string
	for _, n := range s.Geo().Near(from) {
		if s.retreatProblem(id, from, n) == "" {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// retreatProblem says why army id may not retreat from from into n, or "".
func (s *State) retreatProblem(id, from, n string) string {
	side := s.Units[id].Side
	if why := s.cannotEnter(id, from, n); why != "" {
		return why
	}
	if why := s.StackProblem(n, side, []string{id}); why != "" {
		return why
	}
	if s.EnemyNear(n, side, false) && len(s.Armies(n, side)) == 0 {
		return fmt.Sprintf("%s is next to an enemy army (DG-CRT-6)", n)
	}
	return ""
}

// retreatScore orders retreat hexes for the default choice: fewest enemy
// armies next to it, then nearest a fortification side holds, then hex ID.
func (s *State) retreatScore(h string, side adjudicator.Side) (int, int) {
	enemies := 0
	for _, n := range s.Geo().Near(h) {
		if s.Touching(h, n) {
			enemies += len(s.Armies(n, Other(side)))
		}
	}
	best := 1 << 20
	for _, f := range s.Geo().Hexes() {
		if s.fortified(f) != "" && s.Controller(f) == side {
			if d := s.Geo().Distance(h, f); d >= 0 && d < best {
				best = d
			}
		}
	}
	return enemies, best
}

// pickRetreat chooses among opts by plan, then by the default.
func (s *State) pickRetreat(id string, opts []string, plan retreatPlan) string {
	if len(opts) == 0 {
		return ""
	}
	if h, ok := plan.Each[id]; ok && slices.Contains(opts, h) {
		return h
	}
	for _, h := range plan.Prefer {
		if slices.Contains(opts, h) {
			return h
		}
	}
	side := s.Units[id].Side
	sorted := slices.Clone(opts)
	slices.SortFunc(sorted, func(a, b string) int {
		if plan.Toward != "" {
			if c := cmp.Compare(s.Geo().Distance(a, plan.Toward), s.Geo().Distance(b, plan.Toward)); c != 0 {
				return c
			}
		}
		ea, fa := s.retreatScore(a, side)
		eb, fb := s.retreatScore(b, side)
		return cmp.Or(cmp.Compare(ea, eb), cmp.Compare(fa, fb), cmp.Compare(a, b))
	})
	return sorted[0]
}

// combatRetreat retreats side's armies ids one hex each, asking their owner
// where unless each has at most one hex to go to. An army with nowhere to
// go is eliminated (DG-CRT-9). Leaders and wizards left alone in a hex the
// armies all left go with the first army that left it (DG-LDR-5).
func (w *world) combatRetreat(p *program, c *combat, ans **Answer, side adjudicator.Side, ids []string) bool {
	st := w.st()
	plan := retreatPlan{}
	var lines []string
	choice := false
	for _, id := range ids {
		opts := st.retreatHexes(id, st.Units[id].Hex)
		if len(opts) > 1 {
			choice = true
		}
		switch len(opts) {
		case 0:
			lines = append(lines, fmt.Sprintf("%s (at %s) has nowhere to go", id, st.Units[id].Hex))
		default:
			lines = append(lines, fmt.Sprintf("%s (at %s) may go to %s", id, st.Units[id].Hex, strings.Join(opts, " or ")))
		}
	}
	if choice {
		text, ok := take(ans)
		if !ok {
			var paused bool
			q := w.question(side, "retreat", fmt.Sprintf("retreat after %s", c),
				fmt.Sprintf("Your armies must retreat one hex (DG-CRT-5): %s. Where does each go? Answer a hex for each army, e.g. \"answer: {%s: \\\"%s\\\"}\", or {prefer: [HEX, ...]} (the first of those hexes each army may enter), or {toward: HEX}, or default (the hex with the fewest enemy armies next to it, then nearest one of your fortifications, then the lowest hex number).",
					strings.Join(lines, "; "), ids[0], firstOr(st.retreatHexes(ids[0], st.Units[ids[0]].Hex), "1104")), "default")
			if text, paused = w.askIn(p, c, q); paused {
				return true
			}
		}
		plan = readRetreatPlan(text)
	}
	st = w.st()
	first := map[string]string{} // hex left → where its first army went
	for _, id := range ids {
		from := st.Units[id].Hex
		to := st.pickRetreat(id, st.retreatHexes(id, from), plan)
		if to == "" {
			w.eliminate(id, fmt.Sprintf("it cannot retreat from %s (DG-CRT-9)", from))
			continue
		}
		w.emit(&Moved{Unit: id, Path: []string{from, to}, Kind: "retreat"})
		w.showTo(side, fmt.Sprintf("%s retreats from %s.", id, from), fmt.Sprintf("%s retreats from %s to %s.", id, from, to))
		w.entered(id, to, false)
		if _, ok := first[from]; !ok {
			first[from] = to
		}
	}
	w.follow(side, first)
	return false
}

func firstOr(l []string, d string) string {
	if len(l) > 0 {
		return l[0]
	}
	return d
}

// follow moves side's leaders and wizards left in a hex without armies of
// their side to where the first army that left it went (DG-LDR-5,
// DG-AMB-57).
func (w *world) follow(side adjudicator.Side, first map[string]string) {
	for _, from := range slices.Sorted(maps.Keys(first)) {
		st := w.st()
		if len(st.Armies(from, side)) > 0 {
			continue
		}
		to := first[from]
		for _, id := range st.support([]string{from}, side) {
			w.emit(&Moved{Unit: id, Path: []string{from, to}, Kind: "retreat"})
			w.showTo(side, fmt.Sprintf("%s goes with the armies that left %s.", id, from), fmt.Sprintf("%s goes with the armies that left %s, to %s.", id, from, to))
			w.entered(id, to, false)
		}
	}
}

// fortress asks the defender which of his armies in a fortress, fortified
// city or dwarven fortress ignore the retreat (DG-CRT-15, DG-AMB-53).
func (w *world) fortress(p *program, c *combat, ans **Answer) bool {
	st := w.st()
	ids := w.living(c.Defenders)
	canGo := false
	for _, id := range ids {
		if len(st.retreatHexes(id, c.Target)) > 0 {
			canGo = true
		}
	}
	plan := fortressPlan{All: "stay"}
	if canGo {
		text, ok := take(ans)
		if !ok {
			var paused bool
			q := w.question(c.enemy(), "fortress", fmt.Sprintf("retreat from the fortification at %s?", c.Target),
				fmt.Sprintf("Your armies in %s (%s) must retreat, but armies defending a fortification may ignore that (DG-CRT-15). Answer stay (all stay), retreat (all retreat), or the list of those that retreat, e.g. \"answer: [%s]\".",
					c.Target, list(ids), ids[0]), "stay")
			if text, paused = w.askIn(p, c, q); paused {
				return true
			}
		}
		plan = readFortressPlan(text)
	}
	for _, id := range ids {
		if plan.All == "stay" || plan.All == "" && !slices.Contains(plan.Retreat, id) {
			c.Stay = append(c.Stay, id)
			w.say("%s stays in %s, ignoring the retreat (DG-CRT-15).", id, c.Target)
		}
	}
	return false
}

// --- Pre-combat retreats (DG-PRE) ---

// preEligible lists the defenders that may withdraw before the roll, and how
// far: air armies attacked by no air army, 1 or 2 hexes; cavalry attacked by
// neither cavalry nor air, 1 hex (DG-PRE-1, -4).
func (s *State) preEligible(c *combat) map[string]int {
	air, cav := false, false
	for _, id := range s.attackersLeft(c) {
		k := s.Kind(id)
		air = air || k.Flyer()
		cav = cav || k.Type == Cavalry
	}
	out := map[string]int{}
	for _, id := range c.Defenders {
		k := s.Kind(id)
		switch {
		case k.Flyer() && !air:
			out[id] = 2
		case k.Type == Cavalry && !air && !cav:
			out[id] = 1
		}
	}
	return out
}

// preRetreat offers the defender's air and cavalry their withdrawal before
// the roll (DG-PRE), asking unless none of them has anywhere to go.
func (w *world) preRetreat(p *program, c *combat, ans **Answer) bool {
	st := w.st()
	elig := st.preEligible(c)
	var ids []string
	for _, id := range slices.Sorted(maps.Keys(elig)) {
		if len(st.retreatHexes(id, c.Target)) > 0 {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return false
	}
	text, ok := take(ans)
	if !ok {
		var paused bool
		var what []string
		for _, id := range ids {
			what = append(what, fmt.Sprintf("%s up to %d hex(es)", id, elig[id]))
		}
		q := w.question(c.enemy(), "pre-retreat", fmt.Sprintf("withdraw before %s?", c),
			fmt.Sprintf("%s is attacked and these armies may withdraw before the roll (DG-PRE-1, -4): %s. Answer none, all (each withdraws one hex, where a retreat would go by default), or a list, e.g. \"answer: [{unit: %s, path: [\\\"%s\\\"]}]\"; a griffon or pegasus army may add carry: INFANTRY to take an infantry army of its nation with it.",
				c.Target, strings.Join(what, ", "), ids[0], firstOr(st.retreatHexes(ids[0], c.Target), "1104")), "none")
		if text, paused = w.askIn(p, c, q); paused {
			return true
		}
	}
	plan := readPrePlan(text)
	if plan.None {
		return false
	}
	moves := plan.Each
	if plan.All {
		moves = nil
		for _, id := range ids {
			moves = append(moves, preMove{Unit: id})
		}
	}
	first := map[string]string{}
	for _, m := range moves {
		st = w.st()
		max, ok := elig[m.Unit]
		if !ok || !slices.Contains(c.Defenders, m.Unit) || st.Units[m.Unit].Hex != c.Target {
			w.say("%s cannot withdraw before the roll: only air armies attacked by no air army and cavalry attacked by neither cavalry nor air may (DG-PRE-1, -4).", m.Unit)
			continue
		}
		path := m.Path
		if len(path) == 0 {
			path = []string{st.pickRetreat(m.Unit, st.retreatHexes(m.Unit, c.Target), retreatPlan{})}
		}
		if why := st.prePathProblem(m.Unit, path, max); why != "" {
			w.say("%s does not withdraw: %s.", m.Unit, why)
			continue
		}
		var carry string
		if m.Carry != "" {
			if why := st.preCarryProblem(m.Unit, m.Carry, c, path[len(path)-1]); why != "" {
				w.say("%s does not carry %s: %s.", m.Unit, m.Carry, why)
			} else {
				carry = m.Carry
			}
		}
		full := append([]string{c.Target}, path...)
		for _, id := range []string{m.Unit, carry} {
			if id == "" {
				continue
			}
			w.emit(&Moved{Unit: id, Path: full, Kind: "retreat"})
			c.Defenders = slices.DeleteFunc(c.Defenders, func(x string) bool { return x == id })
			w.showTo(c.enemy(), fmt.Sprintf("%s withdraws from %s before the roll (DG-PRE).", id, c.Target), fmt.Sprintf("%s withdraws from %s to %s before the roll (DG-PRE).", id, c.Target, strings.Join(path, ", ")))
			for i, h := range path {
				w.entered(id, h, i < len(path)-1)
			}
		}
		if _, ok := first[c.Target]; !ok {
			first[c.Target] = path[len(path)-1]
		}
	}
	w.follow(c.enemy(), first)
	return false
}

// prePathProblem says why army id may not withdraw along path from its hex,
// or "": one hex (cavalry) or up to two (air), each next to the last,
// each obeying the retreat restrictions, stacking where it ends (DG-PRE-6).
func (s *State) prePathProblem(id string, path []string, max int) string {
	if len(path) == 0 || len(path) > max {
		return fmt.Sprintf("it may withdraw 1 to %d hexes", max)
	}
	side := s.Units[id].Side
	from := s.Units[id].Hex
	for i, h := range path {
		if !s.Geo().Adjacent(from, h) {
			return fmt.Sprintf("%s is not next to %s", h, from)
		}
		if i == len(path)-1 {
			if why := s.retreatProblem(id, from, h); why != "" {
				return why
			}
		} else {
			if s.Geo().Terrain(h) == "desert" {
				return "air armies do not fly over a desert (DG-TERR-10)"
			}
			if s.EnemyArmiesAt(h, side) {
				return fmt.Sprintf("%s holds enemy armies", h)
			}
			if s.EnemyNear(h, side, false) && len(s.Armies(h, side)) == 0 {
				return fmt.Sprintf("%s is next to an enemy army (DG-CRT-6)", h)
			}
		}
		from = h
	}
	return ""
}

// preCarryProblem says why air army id may not take land army x with it to
// to, or "" (DG-PRE-3, DG-AIRT-1, -2, -6).
func (s *State) preCarryProblem(id, x string, c *combat, to string) string {
	k, kx := s.Kind(id), s.Kind(x)
	switch {
	case k.Race != "griffon" && k.Race != "pegasus":
		return "only griffon and pegasus armies carry land armies (DG-AIRT-6)"
	case kx == nil || !slices.Contains(c.Defenders, x) || s.Units[x].Hex != c.Target:
		return "it carries a land army of its own hex"
	case kx.Type != Infantry:
		return "it carries infantry only (DG-AIRT-1, DG-AMB-41)"
	case kx.Nation != k.Nation:
		return "the infantry must be of its nation (DG-AIRT-2)"
	}
	if why := s.cannotEnter(x, c.Target, to); why != "" && s.Geo().Adjacent(c.Target, to) {
		return why
	}
	if why := s.StackProblem(to, s.Units[id].Side, []string{id, x}); why != "" {
		return why
	}
	return ""
}

// --- Leader loss (DG-LOSS) ---

// strandedLeaders lists the leaders and wizards of the combat's hexes left
// with no army of their side: their stack was wiped out.
func (w *world) strandedLeaders(c *combat) []string {
	st := w.st()
	out := []string{}
	check := func(h string, side adjudicator.Side) {
		if len(st.Armies(h, side)) == 0 {
			out = append(out, st.support([]string{h}, side)...)
		}
	}
	for _, h := range c.From {
		check(h, c.Side)
	}
	check(c.Target, c.enemy())
	return out
}

// leaderWork is a leader-loss roll waiting for its owner's choice of hex.
type leaderWork struct {
	ID      string   `json:"id"`
	Options []string `json:"options"`
}

// combatLeaderLoss resolves the fate of leader (or wizard) id whose stack was
// eliminated (DG-LOSS): a leader rolls 1d6, on 1-3 he is out of the game,
// on 4-6 he joins the nearest friendly army; a wizard joins the nearest
// friendly army or fleet with no roll (DG-LOSS-4). Distances are counted in
// hexes, ignoring terrain; with nobody to join, the counter is out
// (DG-LOSS-3). When several hexes are equally near, the owner is asked
// (key "leader"; default the lowest hex number). It returns true when it
// waits for that answer: call it again with the answer and the same p,
// whose Work["leader"] holds the roll's outcome.
func (w *world) combatLeaderLoss(p *program, id, why string, ans *Answer) bool {
	st := w.st()
	u, k := st.Units[id], st.Kind(id)
	var lw leaderWork
	if s, ok := p.Work["leader"].(string); ok && json.Unmarshal([]byte(s), &lw) == nil && lw.ID == id && ans != nil {
		delete(p.Work, "leader")
		w.placeLeader(id, lw.Options, readHexList(ans.Text))
		return false
	}
	if u.Where != OnMap {
		return false
	}
	if k.Type == Leader {
		r := w.roll(fmt.Sprintf("leader loss: %s", id), 1, 6)
		if r.Total <= 3 {
			r.Outcome = "1-3: out of the game (DG-LOSS-1)"
			w.eliminate(id, why+"; the leader-loss roll is "+fmt.Sprint(r.Total))
			return false
		}
		r.Outcome = "4-6: joins the nearest friendly army (DG-LOSS-1)"
	}
	opts := st.nearestFriends(u.Hex, u.Side, k.Type == Wizard)
	switch len(opts) {
	case 0:
		w.eliminate(id, why+"; no friendly army is left on the map to join (DG-LOSS-3)")
		return false
	case 1:
		w.placeLeader(id, opts, nil)
		return false
	}
	b, _ := json.Marshal(leaderWork{ID: id, Options: opts})
	if p.Work == nil {
		p.Work = map[string]any{}
	}
	p.Work["leader"] = string(b)
	q := w.question(u.Side, "leader", fmt.Sprintf("where does %s go?", id),
		fmt.Sprintf("%s's stack was eliminated; the nearest friendly armies are equally near at %s (DG-LOSS-1, -3). Which does %s join? Answer a hex, e.g. \"answer: \\\"%s\\\"\", or a list of hexes in order of preference.", id, strings.Join(opts, ", "), id, opts[0]), opts[0])
	q.Choice = nil
	text, paused := w.pauseFor(p, q)
	if paused {
		return true
	}
	delete(p.Work, "leader")
	w.placeLeader(id, opts, readHexList(text))
	return false
}

// placeLeader puts id with the friendly army at the first of prefer that is
// among opts, or at opts[0].
func (w *world) placeLeader(id string, opts, prefer []string) {
	to := opts[0]
	for _, h := range prefer {
		if slices.Contains(opts, h) {
			to = h
			break
		}
	}
	u := w.st().Units[id]
	w.emit(&Put{Units: []string{id}, Where: OnMap, Hex: to, Why: "leader-loss"})
	w.showTo(u.Side, fmt.Sprintf("%s joins the nearest friendly army.", id), fmt.Sprintf("%s joins the nearest friendly army, at %s.", id, to))
	w.entered(id, to, false)
}

// nearestFriends lists the hexes of side's armies (and fleets, withFleets)
// nearest h, in hex order.
func (s *State) nearestFriends(h string, side adjudicator.Side, withFleets bool) []string {
	best := -1
	var out []string
	for _, u := range s.Sorted() {
		k := s.Kind(u.ID)
		if u.Side != side || u.Where != OnMap || !(k.IsArmy() || withFleets && k.Type == Fleet) || !s.Geo().OnMap(u.Hex) || u.Hex == h {
			continue
		}
		d := s.Geo().Distance(h, u.Hex)
		if d < 0 {
			continue
		}
		switch {
		case best < 0 || d < best:
			best, out = d, []string{u.Hex}
		case d == best && !slices.Contains(out, u.Hex):
			out = append(out, u.Hex)
		}
	}
	slices.Sort(out)
	return out
}

// --- Advance after combat (DG-ADV) ---

// advance moves the armies the attacker named into the emptied hex, then
// his air and cavalry one hex further where he said (DG-ADV-1 to -5).
func (w *world) advance(c *combat) {
	st := w.st()
	if len(c.Advance) == 0 {
		return
	}
	if st.EnemyArmiesAt(c.Target, c.Side) {
		w.say("No advance into %s: its defenders hold it (DG-ADV-1, -5).", c.Target)
		return
	}
	moved := map[string]string{}
	for _, id := range c.Advance {
		st = w.st()
		u, k := st.Units[id], st.Kind(id)
		if !k.IsArmy() {
			continue
		}
		why := ""
		switch {
		case u.Where != OnMap || !slices.Contains(c.Attackers, id):
			why = "it is no longer on the map"
		case !slices.Contains(c.From, u.Hex):
			why = "it retreated (DG-ADV-4)"
		default:
			why = st.cannotEnter(id, u.Hex, c.Target)
			if why == "" {
				why = st.StackProblem(c.Target, c.Side, []string{id})
			}
		}
		if why != "" {
			w.say("%s does not advance into %s: %s.", id, c.Target, why)
			continue
		}
		from := u.Hex
		moved[id] = from
		w.emit(&Moved{Unit: id, Path: []string{from, c.Target}, Kind: "advance"})
		w.say("%s advances from %s into %s (DG-ADV-2).", id, from, c.Target)
		w.entered(id, c.Target, false)
	}
	for _, id := range c.Advance {
		st = w.st()
		u, k := st.Units[id], st.Kind(id)
		if k.IsArmy() || u.Where != OnMap {
			continue
		}
		from := u.Hex
		went := false
		for _, h := range moved {
			went = went || h == from
		}
		if !went {
			w.say("%s does not advance: no army of its hex advanced (DG-LDR-5).", id)
			continue
		}
		w.emit(&Moved{Unit: id, Path: []string{from, c.Target}, Kind: "advance"})
		w.say("%s advances with them into %s.", id, c.Target)
		w.entered(id, c.Target, false)
	}
	for _, id := range slices.Sorted(maps.Keys(c.Beyond)) {
		h := c.Beyond[id]
		if _, ok := moved[id]; !ok {
			continue
		}
		st = w.st()
		why := ""
		switch {
		case !st.Geo().Adjacent(c.Target, h):
			why = fmt.Sprintf("%s is not next to %s", h, c.Target)
		default:
			why = st.cannotEnter(id, c.Target, h)
			if why == "" {
				why = st.StackProblem(h, c.Side, []string{id})
			}
		}
		if why != "" {
			w.say("%s does not go on to %s: %s.", id, h, why)
			continue
		}
		w.emit(&Moved{Unit: id, Path: []string{c.Target, h}, Kind: "advance"})
		w.showTo(c.Side, fmt.Sprintf("%s goes one hex beyond %s (DG-ADV-3).", id, c.Target), fmt.Sprintf("%s goes on from %s to %s (DG-ADV-3).", id, c.Target, h))
		w.entered(id, h, false)
	}
}
