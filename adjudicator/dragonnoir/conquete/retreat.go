package conquete

import (
	"fmt"
	"maps"
	"slices"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// Retreats (B.11.3). After a flight or a Battle (DN3-CAMP-RETREAT-1):
//   - a side that fled: its troops on paths go back where they came from;
//     then its troops at the centre leave by a path a troop of theirs fled
//     by, or else one the enemy did not come by (DN3-CAMP-RETREAT-2), the
//     owner choosing among them (PBEM-DN3-24); into a Region an enemy
//     troop holds, or with no path left, they desert (DN3-CAMP-RETREAT-3,
//     AMB-91);
//   - the counters that left a Battle's map go into troops of their side in
//     the Region of the edge they left by: a troop there or a new one, as
//     the owner says (PBEM-DN3-25); short of markers, or where an enemy
//     troop stands, they desert (DN3-CAMP-RETREAT-4); by an edge out of
//     the valley, they leave the campaign.
//
// Both sides retreat at once: what each may do is worked out on the map as
// it stood after the Battle or the choices, then both retreats are made
// (place). Afterwards no Region holds troops of both sides
// (DN3-CAMP-RETREAT-5); a people left neutral stays (a new negotiation
// next turn). The troops that fled lose their Rest marker (AMB-90); those
// that stay lose it when the Region is done (regionDone, DN3-CAMP-RETREAT-6).

const codeBadRetreat = "bad-retreat" // a flight path the rules do not allow, a counter that did not leave the map

// retreat asks the sides that have a choice in their retreat
// (PBEM-DN3-24, -25), both at once.
func (x *world) retreat(region string) {
	st := x.st()
	var ws []Wait
	for _, side := range sides {
		if needsRetreatPlan(st, region, side) {
			ws = append(ws, Wait{Phase: ReqRetreat, Side: side})
		}
	}
	if len(ws) > 0 {
		x.await(ws...)
	}
}

// needsRetreatPlan reports whether side has a choice to make in its
// retreat from region: a troop at the centre with two paths or more to
// flee by, or counters that left the Battle's map to place.
func needsRetreatPlan(st *State, region string, side adjudicator.Side) bool {
	r := st.Region
	if r.Battle == "" && r.Fight[side] == "flee" {
		_, choice, _ := flightPlan(st, region, side, nil, enemyAtNow(st, side))
		return choice
	}
	for id, ex := range r.Left {
		if role := st.data.Counters[id].Role; st.Counters[id].Side == side && placeable(st, ex.To, enemyAtNow(st, side)) &&
			role != "kandar" && role != "kandar-officer" { // the Kandärs have one place: their troop K
			return true
		}
	}
	return false
}

// enemyAtNow reports where side's enemy has a visible troop now.
func enemyAtNow(st *State, side adjudicator.Side) func(string) bool {
	at := map[string]bool{}
	for _, t := range st.SideTroops(Other(side)) {
		if !t.Stealthy {
			at[t.Region] = true
		}
	}
	return func(r string) bool { return at[r] }
}

// placeable reports whether a counter may be placed in Region to: one of
// the valley, where no enemy troop stands (DN3-CAMP-RETREAT-4).
func placeable(st *State, to string, enemyAt func(string) bool) bool {
	r := st.data.Regions[to]
	return r != nil && !r.Offmap && !enemyAt(to)
}

// place makes both sides' retreats, worked out on the map as it stands
// before either is made.
func (x *world) place(region string) {
	st := x.st()
	r := st.Region
	at := map[adjudicator.Side]func(string) bool{Rebels: enemyAtNow(st, Rebels), Reptilians: enemyAtNow(st, Reptilians)}
	var flights [][]fled
	var exits []*armyEdit
	var lines [][]exitLine
	for _, side := range sides {
		plan := r.Plans[side]
		if plan == nil {
			plan = &RetreatPlan{}
		}
		if r.Battle == "" && r.Fight[side] == "flee" {
			moves, _, _ := flightPlan(st, region, side, plan.Paths, at[side])
			flights = append(flights, moves)
		}
		if len(r.Left) > 0 {
			ed, ls, _ := exitPlan(st, region, side, plan, at[side])
			exits = append(exits, ed)
			lines = append(lines, ls)
		}
	}
	for _, moves := range flights {
		x.flee(region, moves)
	}
	for i, ed := range exits {
		ed.emit(x)
		for _, l := range lines[i] {
			if l.public != "" {
				x.say(nil, "%s", l.public)
			}
			if l.private != "" {
				x.tell(ed.side, nil, "%s", l.private)
			}
		}
	}
	x.emit(&Placed{})
	x.victory(false) // a side may be gone: dead, deserted (DN3-CAMP-SIDE-2)
}

// fled is where one troop flees: to a Region, arriving on the path from
// the Region it fled (Via), or nowhere: it deserts (why).
type fled struct {
	t       *Troop
	to, via string
	why     string
}

// flightPlan works out side's flight from region (DN3-CAMP-RETREAT-2, -3,
// AMB-91): where each of its visible troops goes, in order (the troops on
// paths first); whether a troop at the centre had a choice of paths; and,
// for the paths asked for that the rules do not allow, the troop's
// allowed paths.
func flightPlan(st *State, region string, side adjudicator.Side, paths map[string]string, enemyAt func(string) bool) (moves []fled, choice bool, bad map[string][]string) {
	d := st.data
	enemyCame := map[string]bool{}
	for _, t := range st.TroopsIn(region, Other(side)) {
		if !t.Stealthy && t.Via != "" {
			enemyCame[t.Via] = true
		}
	}
	arrive := func(t *Troop, to string) fled {
		f := fled{t: t, to: to}
		if st.PeopleAt(to) != "" {
			f.via = region // it stops on the path it arrived by (DN3-CAMP-MOVE-4, -5)
		}
		return f
	}
	var fledBy []string
	var centre []*Troop
	for _, t := range st.TroopsIn(region, side) {
		switch {
		case t.Stealthy:
		case t.Via == "" || d.Regions[t.Via].Offmap:
			centre = append(centre, t)
		case enemyAt(t.Via):
			moves = append(moves, fled{t: t, why: fmt.Sprintf("the enemy holds %s, where it came from", d.regionName(t.Via))})
		default:
			moves = append(moves, arrive(t, t.Via))
			if !slices.Contains(fledBy, t.Via) {
				fledBy = append(fledBy, t.Via)
			}
		}
	}
	for _, t := range centre {
		var usable []string
		for _, p := range d.Adjacent(region) {
			o := p.Other(region)
			if !d.Regions[o].Offmap && (p.Kind != PathDwarf || hasGreyDwarf(st, t)) {
				usable = append(usable, o)
			}
		}
		allowed := slices.DeleteFunc(slices.Clone(usable), func(r string) bool { return !slices.Contains(fledBy, r) })
		if len(allowed) == 0 {
			allowed = slices.DeleteFunc(slices.Clone(usable), func(r string) bool { return enemyCame[r] })
		}
		allowed = slices.DeleteFunc(allowed, enemyAt)
		if len(allowed) > 1 {
			choice = true
		}
		to := ""
		if len(allowed) > 0 {
			to = allowed[0]
		}
		if want, ok := paths[t.ID]; ok {
			if slices.Contains(allowed, want) {
				to = want
			} else {
				if bad == nil {
					bad = map[string][]string{}
				}
				bad[t.ID] = allowed
			}
		}
		if to == "" {
			moves = append(moves, fled{t: t, why: "every path out is the enemy's, or leads where the enemy stands"})
			continue
		}
		moves = append(moves, arrive(t, to))
		if !slices.Contains(fledBy, to) {
			fledBy = append(fledBy, to)
		}
	}
	return moves, choice, bad
}

// flee makes one side's flight: troops move, or desert; those that move
// lose their Rest marker (AMB-90). Where a troop stops on its arrival path
// the troops already there on paths go to the centre (DN3-CAMP-MOVE-5).
func (x *world) flee(region string, moves []fled) {
	if len(moves) == 0 {
		return
	}
	st, d := x.st(), x.data()
	side := moves[0].t.Side
	ed := newArmyEdit(st, side)
	var centred []string
	for _, m := range moves {
		if m.to == "" {
			ed.kill(m.t.Counters...)
			x.say(nil, "%s troop %s cannot flee: %s; its counters desert (DN3-CAMP-RETREAT-3, AMB-91).", capital(sideName(side))+"'", m.t.ID, m.why)
			continue
		}
		t := ed.troop(m.t.ID)
		t.Region, t.Via, t.Rest, t.RestSince = m.to, m.via, false, 0
		x.say(nil, "%s troop %s flees from %s to %s (DN3-CAMP-RETREAT-2).", capital(sideName(side))+"'", m.t.ID, d.regionName(region), d.regionName(m.to))
		if m.via != "" {
			for _, o := range st.TroopsIn(m.to, "") {
				if !o.Stealthy && o.Via != "" && !slices.Contains(centred, o.Key()) {
					centred = append(centred, o.Key())
				}
			}
		}
	}
	ed.emit(x)
	if len(centred) > 0 {
		x.emit(&TroopMoved{Side: side, Centred: centred})
	}
}

// exitLine is what the sides are told of one placement: the public part
// (which counters, where; a new marker on the map) and the owner's (which
// troop, HID-11).
type exitLine struct {
	public, private string
	troop           string   // the troop that took them in,
	ids             []string // the counters,
	isNew           bool     // a new troop
}

// planProblem is what is wrong with a troop of a retreat plan.
type planProblem struct {
	troop, counter string
	code, msg      string
}

// exitPlan works out where side's counters that left the Battle's map go
// (DN3-CAMP-RETREAT-4, PBEM-DN3-25): first into the troops plan names, then
// the others by default: the Kandärs to their troop K (AMB-53), the
// Sertegs to their troop S there, the others into the side's first troop
// there, or a new troop under the first free marker; short of markers,
// where an enemy troop stands, or by an edge out of the valley, they
// desert. It returns the army sheet after, the lines, and what is wrong
// with plan.
func exitPlan(st *State, region string, side adjudicator.Side, plan *RetreatPlan, enemyAt func(string) bool) (*armyEdit, []exitLine, []planProblem) {
	d := st.data
	ed := newArmyEdit(st, side)
	var lines []exitLine
	var bad []planProblem
	left := map[string]Exit{}
	for id, ex := range st.Region.Left {
		if st.Counters[id].Side == side {
			left[id] = ex
		}
	}
	kandar := func(id string) bool { r := d.Counters[id].Role; return r == "kandar" || r == "kandar-officer" }
	serteg := func(id string) bool { return d.Counters[id].Side == "serteg" }
	via := func(to string) string {
		if st.PeopleAt(to) != "" {
			return region
		}
		return ""
	}
	fatigue := func(ids []string) string {
		f := Fresh
		for _, id := range ids {
			f = worse(f, left[id].Fatigue)
		}
		return f
	}
	put := func(tid, to string, ids []string) {
		isNew := ed.troop(tid) == nil
		t := ed.put(tid, to, via(to), fatigue(ids), ids...)
		if n := len(lines) - 1; !isNew && n >= 0 && lines[n].troop == tid {
			ids = append(lines[n].ids, ids...) // one line for the counters a troop takes in
			isNew, lines = lines[n].isNew, lines[:n]
		}
		l := exitLine{troop: tid, ids: ids, isNew: isNew}
		l.private = fmt.Sprintf("Your troop %s at %s takes in %s.", t.ID, d.regionName(to), list(ids))
		if isNew {
			l.public = fmt.Sprintf("%s place a new troop %s at %s (DN3-CAMP-RETREAT-4).", capital(sideName(side)), t.ID, d.regionName(to))
			l.private = fmt.Sprintf("Your new troop %s at %s: %s.", t.ID, d.regionName(to), list(ids))
		} else {
			l.public = fmt.Sprintf("A troop of %s at %s takes in %s, who left the Battle's map that way (DN3-CAMP-RETREAT-4).", sideName(side), d.regionName(to), list(ids))
		}
		lines = append(lines, l)
	}
	done := map[string]bool{}
	for _, tid := range plan.Order {
		ids := plan.Troops[tid]
		ok := true
		problem := func(counter, code, format string, args ...any) {
			bad = append(bad, planProblem{troop: tid, counter: counter, code: code, msg: fmt.Sprintf(format, args...)})
			ok = false
		}
		to := ""
		for _, id := range ids {
			ex, isLeft := left[id]
			switch {
			case !isLeft:
				problem(id, codeBadRetreat, "%s did not leave the Battle's map: only those who did are placed now (%s)", id, list(slices.Sorted(maps.Keys(left))))
			case done[id]:
				problem(id, codeTwice, "%s is placed twice", id)
			case !placeable(st, ex.To, enemyAt):
				problem(id, codeBadRetreat, "%s left toward %s, where it cannot be placed (the enemy stands there, or it is out of the valley): it deserts (DN3-CAMP-RETREAT-4)", id, ex.To)
			case kandar(id) != (tid == KandarTroop):
				problem(id, codeBadTroop, "the Kandärs go to their troop K, and no one else does (DN3-CAMP-KANDAR-2, AMB-53)")
			case tid == SertegTroop && !serteg(id):
				problem(id, codeBadTroop, "the Serteg troop S holds the Sertegs only (AMB-53)")
			case to != "" && ex.To != to:
				problem(id, codeBadRegion, "%s left toward %s, the others of troop %s toward %s: a troop stands in one Region", id, ex.To, tid, to)
			default:
				to = ex.To
			}
			done[id] = true
		}
		if t := ed.troop(tid); ok && t != nil {
			switch {
			case t.Region != to:
				problem("", codeBadRegion, "your troop %s is at %s, not at %s where these counters went", tid, t.Region, to)
			case t.Stealthy:
				problem("", codeBadTroop, "your troop %s is stealthy: counters seen leaving a Battle cannot join it unseen", tid)
			}
		} else if ok && t == nil && !validTroopID(tid) && tid != KandarTroop && tid != SertegTroop {
			problem("", codeBadTroop, "troop %q: your Troop markers are R1 to R%d", tid, MaxTroops)
		}
		if ok && len(ids) > 0 {
			put(tid, to, ids)
		}
	}
	// The others, by default.
	for _, id := range slices.Sorted(maps.Keys(left)) {
		if done[id] {
			continue
		}
		to := left[id].To
		r := d.Regions[to]
		if r == nil || r.Offmap {
			ed.kill(id)
			lines = append(lines, exitLine{public: fmt.Sprintf("%s left the Battle's map out of the valley, toward %s: out of the campaign (DN3-CAMP-RETREAT-4).", id, d.regionName(to))})
			continue
		}
		if enemyAt(to) {
			ed.kill(id)
			lines = append(lines, exitLine{public: fmt.Sprintf("%s left the Battle's map toward %s, where %s stand: it deserts (DN3-CAMP-RETREAT-4).", id, d.regionName(to), sideName(Other(side)))})
			continue
		}
		dest := ""
		switch {
		case kandar(id):
			if k := ed.troop(KandarTroop); k == nil || k.Region == to {
				dest = KandarTroop
			}
		default:
			for _, t := range ed.visibleIn(to) {
				if t.ID == SertegTroop && !serteg(id) {
					continue
				}
				if dest == "" || t.ID == SertegTroop {
					dest = t.ID
				}
			}
			if dest == "" && serteg(id) && ed.troop(SertegTroop) == nil {
				dest = SertegTroop // their own marker, outside the 8 (AMB-53)
			}
			if dest == "" {
				dest = ed.free()
			}
		}
		if dest == "" {
			ed.kill(id)
			lines = append(lines, exitLine{public: fmt.Sprintf("%s left the Battle's map toward %s, but %s have no Troop marker for it: it deserts (DN3-CAMP-RETREAT-4).", id, d.regionName(to), sideName(side))})
			continue
		}
		put(dest, to, []string{id})
	}
	return ed, lines, bad
}

// ReqRetreat is the request of a side's retreat choices.
const ReqRetreat = "retreat"

var retreatRequest = &requestKind{
	Kind: "decision", Title: "retreat", Hidden: true, Sealed: true,
	Prompt: "Your retreat (DN3-CAMP-RETREAT-2, -4): after a flight, the path each troop at the centre flees by (paths: le-pont, or paths: {R1: le-pont, R3: le-gue}); " +
		"after a Battle, the troops the counters that left its map join where they went (troops: {R2: [zed], R5: [jon]}, a troop of yours there or a free marker); " +
		"{} takes the defaults: docs/orders/la-conquete.md.",
	Parse:   parseRetreat,
	Decide:  decideRetreat,
	Default: func(*State, Wait) (string, bool) { return "{}", true },
}

func parseRetreat(st *State, w Wait, n *yaml.Node) (adjudicator.Orders, error) {
	plan := &RetreatPlan{}
	if isNull(n) {
		return plan, nil
	}
	var f struct {
		Paths  yaml.Node `yaml:"paths"`
		Troops yaml.Node `yaml:"troops"`
	}
	e := &errs{}
	if !decode(e, n, &f) {
		return nil, e.err()
	}
	region := st.Region.Region
	fled := st.Region.Battle == "" && st.Region.Fight[w.Side] == "flee"
	switch {
	case !isNull(&f.Paths) && !fled:
		e.add(key(n, "paths"), codeWrongSection, "paths: are for troops that fled; yours did not")
	case !isNull(&f.Troops) && len(st.Region.Left) == 0:
		e.add(key(n, "troops"), codeWrongSection, "troops: are for the counters that left a Battle's map; none did")
	}
	if len(e.list) > 0 {
		return nil, e.err()
	}
	enemyAt := enemyAtNow(st, w.Side)
	if fled && !isNull(&f.Paths) {
		plan.Paths = map[string]string{}
		nodes := map[string]*yaml.Node{}
		moves, _, _ := flightPlan(st, region, w.Side, nil, enemyAt)
		var centre []string
		for _, m := range moves {
			if m.t.Via == "" || st.data.Regions[m.t.Via].Offmap {
				centre = append(centre, m.t.ID)
			}
		}
		switch f.Paths.Kind {
		case yaml.ScalarNode:
			for _, id := range centre {
				plan.Paths[id], nodes[id] = f.Paths.Value, &f.Paths
			}
		case yaml.MappingNode:
			for i := 0; i+1 < len(f.Paths.Content); i += 2 {
				k, v := f.Paths.Content[i], f.Paths.Content[i+1]
				switch {
				case !slices.Contains(centre, k.Value):
					e.add(k, codeBadTroop, "troop %s is not one of your troops at the centre of %s, which choose their path (yours: %s)", k.Value, region, list(centre))
				case v.Kind != yaml.ScalarNode:
					e.add(v, adjudicator.CodeBadValue, "troop %s: name the Region it flees to", k.Value)
				default:
					plan.Paths[k.Value], nodes[k.Value] = v.Value, v
				}
			}
		default:
			e.add(&f.Paths, adjudicator.CodeBadValue, "paths: a Region for all your troops at the centre (paths: le-pont), or one for each (paths: {R1: le-pont})")
		}
		if len(e.list) == 0 {
			_, _, bad := flightPlan(st, region, w.Side, plan.Paths, enemyAt)
			for _, id := range slices.Sorted(maps.Keys(bad)) {
				e.add(nodes[id], codeBadRetreat, "troop %s may flee to %s only: a path a troop of yours fled by, or else one the enemy did not come by, and not where the enemy stands (DN3-CAMP-RETREAT-2, -3)",
					id, list(bad[id]))
			}
		}
	}
	if !isNull(&f.Troops) {
		plan.Troops = map[string][]string{}
		tos := troopOrders(e, &f.Troops, false)
		for _, to := range tos {
			if _, twice := plan.Troops[to.Troop]; twice {
				e.add(to.node, codeTwice, "troop %s is named twice", to.Troop)
				continue
			}
			plan.Troops[to.Troop] = slices.Clone(to.Counters)
			plan.Order = append(plan.Order, to.Troop)
		}
		if len(e.list) == 0 {
			_, _, bad := exitPlan(st, region, w.Side, plan, enemyAt)
			for _, p := range bad {
				at := &f.Troops
				for _, to := range tos {
					if to.Troop != p.troop {
						continue
					}
					at = to.node
					for i, id := range to.Counters {
						if id == p.counter && i < len(to.nodes) {
							at = to.nodes[i]
						}
					}
				}
				e.add(at, p.code, "%s", p.msg)
			}
		}
	}
	return plan, e.err()
}

func decideRetreat(x *world, w Wait, o adjudicator.Orders) {
	x.seal(w.Side, "", &RetreatPlanned{Side: w.Side, Plan: o.(*RetreatPlan)})
}
