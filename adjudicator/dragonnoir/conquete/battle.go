package conquete

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// Battles (B.11.2). A Battle is a child game of the tactical ruleset
// (dragonnoir), created from an inline position (docs: the battle
// position of the contracts): the Region's assembly, its visible troops'
// counters at the centre or on their arrival path's edge
// (DN3-CAMP-BATTLE-5, -6), their wounds, fatigue and PE. The Rebels'
// player plays its side adventurers, the Reptilians' its side krobs. The
// campaign waits for its result and applies it (applyBattle): the dead,
// the wounded, the PE spent, the counters that left the map
// (DN3-CAMP-RETREAT-4).

// Battle child sides and their players.
const (
	ChildRebels     adjudicator.Side = "adventurers"
	ChildReptilians adjudicator.Side = "krobs"
	BattleRuleset                    = "dragonnoir"
)

// childSide is the battle side of a campaign side.
func childSide(s adjudicator.Side) adjudicator.Side {
	if s == Rebels {
		return ChildRebels
	}
	return ChildReptilians
}

// BattlePosition is the position a Battle starts from (the contract with
// the tactical ruleset).
type BattlePosition struct {
	Battle BattleSection `yaml:"battle"`
	Forces []BattleForce `yaml:"forces"`
}

// BattleSection says where and how the Battle is fought.
type BattleSection struct {
	Region   string                      `yaml:"region"`
	Map      string                      `yaml:"map"`
	Night    bool                        `yaml:"night"`
	Names    map[adjudicator.Side]string `yaml:"names"`
	First    adjudicator.Side            `yaml:"first"`
	Edges    map[string]string           `yaml:"edges,omitempty"`
	People   *BattlePeople               `yaml:"people,omitempty"`
	Attacked string                      `yaml:"attacked,omitempty"`
	Secrets  bool                        `yaml:"secrets,omitempty"` // sealed parts for the battle (traitor.go, battleParts)
}

// BattlePeople is the people waiting off the map in a Step 5 Battle
// (DN3-CAMP-NEG-11): the negotiation chapter fills it.
type BattlePeople struct {
	ID        string                        `yaml:"id"`
	Units     []string                      `yaml:"units"`
	Influence map[adjudicator.Side][]string `yaml:"influence,omitempty"`
}

// BattleForce is one counter of the Battle. Fatigue and PE are given in
// the clear only for the counters of a people attacked, which are on no
// side's sheet; a side's own are in its sealed part "sheet" (HID-11,
// battleParts).
type BattleForce struct {
	Unit    string           `yaml:"unit"`
	Side    adjudicator.Side `yaml:"side"`
	Zone    string           `yaml:"zone"` // centre or edge
	Edge    string           `yaml:"edge,omitempty"`
	Wounds  int              `yaml:"wounds,omitempty"`
	Fatigue string           `yaml:"fatigue,omitempty"`
	PE      int              `yaml:"pe,omitempty"`
	People  string           `yaml:"people,omitempty"` // a people's counter: its loyalty roll is its people's (traitor.go)
	Mount   string           `yaml:"mount,omitempty"`  // riders: the steed it starts in the saddle of (battle_riders.go)
}

// battlePosition builds the Battle of region: every counter of the visible
// troops there (DN3-CAMP-STEALTH-5), at the centre or on the edge of its
// arrival path (DN3-CAMP-BATTLE-5, -6), with its wounds, its troop's
// fatigue (DN3-CAMP-REST-6, -7) and its PE; a night Battle in a night turn
// (AMB-88); the people attacked, whose counters fight for the other side
// (DN3-CAMP-BATTLE-2, AMB-60), or the people left neutral while both sides
// are here, which waits off the map for the Negotiation markers revealed
// at the end of turn 5 (DN3-CAMP-NEG-11, -BATTLE-9), with the influential
// characters each side has here (Table DN3-T5).
func battlePosition(st *State, region string) *BattlePosition {
	d := st.data
	p := &BattlePosition{Battle: BattleSection{Region: region, Map: d.Regions[region].Battle, Night: st.Night(),
		Names: map[adjudicator.Side]string{ChildRebels: "Rebels", ChildReptilians: "Reptilians"}, First: ChildRebels, Secrets: true}}
	for _, t := range st.TroopsIn(region, "") {
		if t.Stealthy {
			continue // DN3-CAMP-STEALTH-5: only visible troops fight
		}
		for _, id := range t.Counters {
			c := st.Counters[id]
			if c == nil || c.Dead {
				continue
			}
			f := BattleForce{Unit: id, Side: childSide(t.Side), Zone: "centre", Wounds: c.Wounds, People: c.People} // fatigue and PE: the side's sheet (battleParts)
			if t.Via != "" && !d.Regions[t.Via].Offmap {
				f.Zone, f.Edge = "edge", t.Via
			}
			p.Forces = append(p.Forces, f)
		}
	}
	p.Forces = append(p.Forces, kandarsJoin(st, region)...) // rest.go
	people := st.PeopleAt(region)
	switch r := st.Region; {
	case people == "":
	case r != nil && r.Attack != "":
		p.Battle.Attacked = people
		for _, c := range attackedCounters(st, people) { // negotiate.go
			p.Forces = append(p.Forces, BattleForce{Unit: c.ID, Side: childSide(Other(r.Attack)), Zone: "centre", Wounds: c.Wounds, PE: battlePE(st, c)})
		}
	case st.Visible(region, Rebels) && st.Visible(region, Reptilians):
		bp := &BattlePeople{ID: people, Units: peopleUnits(st, people, region)}
		for _, side := range sides {
			if who := influential(st, region, side, people); len(who) > 0 {
				if bp.Influence == nil {
					bp.Influence = map[adjudicator.Side][]string{}
				}
				bp.Influence[childSide(side)] = who
			}
		}
		p.Battle.People = bp
	}
	mountPairs(p.Forces) // riders in the saddle (battle_riders.go)
	return p
}

// peopleUnits are the living counters of people still neutral that stand
// at its marker in region (the module's markers: the Hermit at the Moulin,
// an Ent at the Conseil des Ents, AMB-49), or all of them when the module
// lists none there.
func peopleUnits(st *State, people, region string) []string {
	var ids []string
	for _, m := range st.data.Peoples[people].Markers {
		if m.Region == region {
			ids = m.Counters
		}
	}
	if ids == nil {
		ids = sortedCounters(st.data)
	}
	var out []string
	for _, id := range ids {
		if c := st.Counters[id]; c != nil && c.People == people && c.Side == "" && !c.Dead {
			out = append(out, id)
		}
	}
	return out
}

// influential are side's living counters in its visible troops in region
// that have influence on people (Table DN3-T5, DN3-CAMP-NEG-12): counters
// of the ids or kinds the module lists, when at least its minimum are
// there (two blue Goblins, AMB-99).
func influential(st *State, region string, side adjudicator.Side, people string) []string {
	inf, ok := st.data.Peoples[people].Influence[side]
	if !ok {
		return nil
	}
	var out []string
	for _, t := range st.TroopsIn(region, side) {
		if t.Stealthy {
			continue
		}
		for _, id := range t.Counters {
			if c := st.Counters[id]; c != nil && !c.Dead && (slices.Contains(inf.Of, id) || slices.Contains(inf.Of, c.Kind)) {
				out = append(out, id)
			}
		}
	}
	if len(out) < max(inf.Min, 1) {
		return nil
	}
	slices.Sort(out)
	return out
}

// battleTitle names a Battle for people.
func battleTitle(st *State, key string) string {
	for _, b := range st.Battles {
		if b.Key == key {
			return fmt.Sprintf("the Battle of %s (%s)", st.data.regionName(b.Region), key)
		}
	}
	return "the Battle " + key
}

// startBattle creates the Battle of region as a child game of the
// tactical ruleset (DN3-CAMP-BATTLE-1, -4, -7) and waits for its result.
func (x *world) startBattle(region string) {
	st := x.st()
	key := "b" + strconv.Itoa(len(st.Battles)+1)
	pos := battlePosition(st, region)
	x.traitorParts(key, pos) // the traitor's sealed part (traitor.go)
	b, err := yaml.Marshal(pos)
	if err != nil {
		x.r.Fail(err)
		return
	}
	child := &adjudicator.ChildGame{Key: key, Title: fmt.Sprintf("the Battle of %s, turn %d", x.data().regionName(region), st.Turn),
		Ruleset: BattleRuleset, Position: string(b), Module: st.BattleModule,
		Players: []adjudicator.ChildPlayer{{Side: ChildRebels, Player: Rebels}, {Side: ChildReptilians, Player: Reptilians}}}
	if err := adjudicator.CheckChild(child); err != nil {
		x.r.Fail(err)
		return
	}
	begun := &BattleBegun{Key: key, Region: region, People: pos.Battle.Attacked}
	if pos.Battle.Attacked != "" {
		begun.Attacker = st.Region.Attack
	}
	if pos.Battle.People != nil {
		begun.Step5 = pos.Battle.People.ID
	}
	var units []string
	for _, f := range pos.Forces {
		units = append(units, f.Unit)
	}
	begun.Units = units
	x.emit(begun)
	for _, part := range x.battleParts(key, region, pos) {
		x.seal(campaignSide(part.Side), "", part)
	}
	x.emit(child)
	x.say(nil, "The Battle of %s begins (%s): %s; its counters are placed on the tactical map (DN3-CAMP-BATTLE-4 … 6): %s.",
		x.data().regionName(region), key, map[bool]string{true: "a night battle (AMB-88)", false: "by day"}[pos.Battle.Night], list(units))
	x.kandarsJoined(region, pos) // rest.go (AMB-55)
	if a := pos.Battle.Attacked; a != "" {
		x.say(nil, "%s command %s, who fight to the death and never leave the map (DN3-CAMP-BATTLE-2, AMB-60).",
			capital(sideName(Other(st.Region.Attack))), x.data().Peoples[a].Name)
	}
	if bp := pos.Battle.People; bp != nil {
		x.say(nil, "%s wait off the map: the Negotiation marker each side drew stays its secret until the end of the Battle's turn 5 (DN3-CAMP-NEG-11, -BATTLE-9).",
			x.data().Peoples[bp.ID].Name)
	}
	if st.RefereeBattles {
		x.say(nil, "The referee decides this Battle (option battles=referee): he ends game %s with its result (docs/la-conquete.md).", key)
	}
	x.await(Wait{Phase: ReqResult, Side: adjudicator.SeriesSide, Key: key})
}

// battleParts are the sealed parts of Battle key's position
// (adjudicator.ChildSecret, read by dragonnoir's battle_secrets.go), each
// sealed to its campaign side before the ChildGame:
//   - "sheet", for each side: its army sheet's share of the Battle
//     (HID-11), a YAML list of its counters' PE (every magician's, and a
//     PE-at-first-fight character's as battlePE gives it) and Fatigue
//     (its troop's, when not fresh). Every side gets one, empty or not, so
//     that the number of parts tells nothing;
//   - "negotiation", for each side, when a people waits for Step 5: the
//     marker the side drew in the campaign's Step 5 (alliance.go), which
//     the Battle reads instead of drawing (DN3-CAMP-NEG-11, HID-14). A
//     side with no marker drawn in this Region yet (a second Battle, its
//     draws cleared) draws it now, sealed, as in Step 5.
func (x *world) battleParts(key, region string, pos *BattlePosition) []*adjudicator.ChildSecret {
	st, d := x.st(), x.data()
	var out []*adjudicator.ChildSecret
	for _, side := range sides {
		var lines []string // one flow mapping a counter: {unit: ID, pe: N, fatigue: F}
		for _, f := range pos.Forces {
			c := st.Counters[f.Unit]
			if f.Side != childSide(side) || c == nil || c.Side != side {
				continue // a people attacked: its PE are in the position (on no sheet)
			}
			l := "unit: " + f.Unit
			if pe := battlePE(st, c); pe != 0 || d.Counters[c.ID] != nil && d.Counters[c.ID].Level > 0 {
				l += ", pe: " + strconv.Itoa(pe)
			}
			if t := st.TroopOf(c.ID); t != nil && t.Fatigue != Fresh {
				l += ", fatigue: " + t.Fatigue
			}
			if l != "unit: "+f.Unit {
				lines = append(lines, "- {"+l+"}")
			}
		}
		v := "[]"
		if len(lines) > 0 {
			v = strings.Join(lines, "\n")
		}
		out = append(out, &adjudicator.ChildSecret{Child: key, Side: childSide(side), Name: "sheet", Value: v})
	}
	if pos.Battle.People == nil {
		return out
	}
	for _, side := range sides {
		var m string
		if st.Region != nil {
			m = st.Region.Drawn[side]
		}
		if m == "" {
			drawn := x.draw(adjudicator.To(side), side)
			x.seal(side, fmt.Sprintf("marker-t%d-%s-%s", st.Turn, region, side), &MarkerDrawn{Side: side, Marker: string(drawn)})
			x.tell(side, d.markerProv(drawn), "You draw the Negotiation marker %s and keep it secret until the end of the Battle's turn 5 (DN3-CAMP-NEG-11).", d.markerName(drawn))
			m = string(drawn)
		}
		out = append(out, &adjudicator.ChildSecret{Child: key, Side: childSide(side), Name: "negotiation", Value: m})
	}
	return out
}

var resultRequest = &requestKind{
	Kind:  adjudicator.KindResult,
	Title: "result",
	Parse: func(st *State, w Wait, n *yaml.Node) (adjudicator.Orders, error) {
		return adjudicator.ParseChildResult(adjudicator.ResultRequest(w.Key, st.Turn, battleTitle(st, w.Key)), n)
	},
	Decide: func(x *world, w Wait, o adjudicator.Orders) { x.applyBattle(w.Key, o.(*adjudicator.ChildResult)) },
}

// battle is the Battle of key, nil if none.
func (st *State) battle(key string) *Battle {
	for _, b := range st.Battles {
		if b.Key == key {
			return b
		}
	}
	return nil
}

// campaignSide is the campaign side of a battle side, "" for none.
func campaignSide(s adjudicator.Side) adjudicator.Side {
	switch s {
	case ChildRebels:
		return Rebels
	case ChildReptilians:
		return Reptilians
	}
	return ""
}

// fate is what a Battle did to one counter: its final view.
type fate struct {
	id      string
	side    adjudicator.Side // the campaign side it fought for
	gone    bool
	wounds  int  // the wounds it has after the Battle
	healed  bool // no wound status: the Battle's magic healed it
	pe      int
	hasPE   bool
	left    string // the Region of the edge it left by
	entered bool   // it was on the map (a people waiting off it was not)
}

// fates reads the Battle's final view (the contract with the tactical
// ruleset): each unit once, Gone if dead; "wounded" or "wounded-2" in its
// status; "left:REGION" where it left the map; "pe:UNIT" markers for the
// PE left.
func fates(st *State, v adjudicator.View) []*fate {
	var out []*fate
	for _, u := range v.Units {
		if st.Counters[u.ID] == nil {
			continue
		}
		f := &fate{id: u.ID, side: campaignSide(u.Side), gone: u.Gone, entered: u.Gone || u.At != ""}
		switch {
		case slices.Contains(u.Status, "wounded-2"):
			f.wounds = 2
		case slices.Contains(u.Status, "wounded"):
			f.wounds = 1
		default:
			f.healed = true
		}
		if pe, ok := v.Markers["pe:"+u.ID]; ok {
			if n, err := strconv.Atoi(fmt.Sprint(pe)); err == nil {
				f.pe, f.hasPE = n, true
			}
		}
		if r, ok := strings.CutPrefix(u.At, "left:"); ok && !u.Gone {
			f.left = r
		}
		out = append(out, f)
	}
	return out
}

// applyBattle applies a Battle's result (its final view, as the contract
// says; with option battles=referee, the referee's words, referee.go):
//   - the dead are dead, the wounded keep their wounds, a wound healed in
//     the Battle is gone, casters keep the PE they have left;
//   - the counters that left the map leave their troops until the
//     retreats place them where they went (DN3-CAMP-RETREAT-4);
//   - a people attacked that won joins the side that commanded it, in a
//     new troop if a marker is free, the Black Dragon excepted
//     (DN3-CAMP-BATTLE-2, AMB-51); one destroyed loses its marker here;
//   - the people of Step 5 joins the side the Negotiation markers gave it
//     (the "negotiation" marker, DN3-CAMP-NEG-11, AMB-57, AMB-58);
//   - the goblins' wolves and hyenas whose masters were killed and the
//     animals of druids killed leave the game (DN3-PEOPLE-GOB-9,
//     DN3-PEOPLE-DRUID-6).
//
// Which counters fought, fell, were wounded or left was seen by everyone
// on the tactical map: the lines say it; the army sheets' changes are
// sealed to their sides (HID-11).
func (x *world) applyBattle(key string, res *adjudicator.ChildResult) {
	st, d := x.st(), x.data()
	b := st.battle(key)
	if b == nil {
		x.r.Fail(fmt.Errorf("conquete: a result for %s, which is no Battle of the campaign", key))
		return
	}
	region := b.Region
	winner := campaignSide(res.Winner)
	fs := fates(st, res.View)
	neg := fmt.Sprint(res.View.Markers["negotiation"])
	var ignored []string
	if st.RefereeBattles {
		var said string
		if fs, said, ignored = x.refereeFates(res, fs); said != "" {
			neg = said
		}
	}
	a := &aftermath{st: st, eds: map[adjudicator.Side]*armyEdit{Rebels: newArmyEdit(st, Rebels), Reptilians: newArmyEdit(st, Reptilians)},
		neutral: map[string]*Counter{}}
	var dead, wounded []string
	leftTo := map[string]string{}
	for _, f := range fs {
		c := a.counter(f.id)
		switch {
		case f.gone:
			c.Dead = true
			dead = append(dead, f.id)
		case f.wounds > 0:
			c.Wounds = f.wounds
			wounded = append(wounded, f.id)
		case f.healed && f.entered:
			c.Wounds = 0
		}
		if f.hasPE {
			c.PE = f.pe
		}
		if f.left != "" {
			leftTo[f.id] = f.left
		}
	}
	for _, side := range sides {
		var out []string
		for _, id := range append(slices.Clone(dead), slices.Sorted(maps.Keys(leftTo))...) {
			if st.Counters[id].Side == side {
				out = append(out, id)
			}
		}
		a.eds[side].take(out...)
	}
	x.say(nil, "%s ends: %s.", capital(battleTitle(st, key)), res.Result)
	if len(ignored) > 0 {
		x.say(nil, "The referee's result names %s, which are no counters of this Battle (or no Region): ignored.", list(ignored))
	}
	if len(dead) > 0 {
		x.say(nil, "Killed in the Battle: %s.", list(dead))
	}
	if len(wounded) > 0 {
		x.say(nil, "Wounded: %s.", list(wounded))
	}
	x.animalsLeave(a, fs)
	// The people of the Battle.
	joins, people := adjudicator.Side(""), ""
	switch {
	case b.People != "":
		people = b.People
		controller := Other(b.Attacker)
		switch {
		case winner != controller:
		case people == "dragon":
			x.say(nil, "The Black Dragon won: it joins nobody and stays in its Region, a neutral people, its wounds kept (DN3-PEOPLE-DRAGON-8, AMB-51).")
		default:
			joins = controller
		}
	case b.Step5 != "":
		people = b.Step5
		for _, side := range sides { // the Battle revealed both at the end of its turn 5, or at its end
			x.reveal(fmt.Sprintf("marker-t%d-%s-%s", st.Turn, region, side))
		}
		switch neg {
		case string(Rebels), string(Reptilians):
			joins = adjudicator.Side(neg)
		default:
			x.say(nil, "The Negotiation markers leave %s neutral (DN3-CAMP-NEG-11, AMB-57, AMB-58).", d.Peoples[people].Name)
		}
	}
	if people != "" {
		units := battlePeople(st, b, people)
		if len(units) > 0 && !slices.ContainsFunc(units, func(id string) bool { return !a.counter(id).Dead }) {
			x.emit(peopleAfter(st, a, people, region, ""))
			x.say(nil, "%s fought to the death: none is left, and %s counts as Empty (DN3-CAMP-BATTLE-2).", capital(d.Peoples[people].Name), d.regionName(region))
		} else if joins != "" {
			why := "at the end of the Battle's turn 5 (DN3-CAMP-BATTLE-9, AMB-57)"
			if b.People != "" {
				why = "who commanded them in their victory (DN3-CAMP-BATTLE-2)"
			}
			x.peopleJoins(a, a.eds[joins], b, people, region, leftTo, why)
		}
	}
	left := map[string]Exit{}
	for _, id := range slices.Sorted(maps.Keys(leftTo)) {
		c := a.counter(id)
		if c.Side == "" || c.Dead {
			continue
		}
		fatigue := ""
		if t := st.TroopOf(id); t != nil {
			fatigue = t.Fatigue
		}
		left[id] = Exit{To: leftTo[id], Fatigue: fatigue}
	}
	x.applyTurned(a, b, res.View, leftTo) // who changed side in the Battle (traitor.go)
	x.emit(&BattleEnded{Key: key, Winner: winner, Result: res.Result, Left: left, Dead: dead})
	for _, side := range sides {
		a.eds[side].emit(x)
	}
	s := &Sheet{}
	for _, id := range slices.Sorted(maps.Keys(a.neutral)) {
		if *a.neutral[id] != *st.Counters[id] {
			s.Counters = append(s.Counters, a.neutral[id])
		}
	}
	if len(s.Counters) > 0 {
		x.emit(s) // a neutral people's counters: on no side's sheet, seen by all
	}
	byRegion := map[string][]string{}
	for _, id := range slices.Sorted(maps.Keys(left)) {
		byRegion[left[id].To] = append(byRegion[left[id].To], id)
	}
	for _, r := range slices.Sorted(maps.Keys(byRegion)) {
		x.say(nil, "%s left the map toward %s (DN3-CAMP-BATTLE-8): they are placed after the Battle (DN3-CAMP-RETREAT-4).", list(byRegion[r]), d.regionName(r))
	}
}

// aftermath is a Battle's changes being made: each side's sheet, and the
// counters of peoples still neutral.
type aftermath struct {
	st      *State
	eds     map[adjudicator.Side]*armyEdit
	neutral map[string]*Counter
}

// counter is id's state as the aftermath changes it, on its side's sheet.
func (a *aftermath) counter(id string) *Counter {
	if c := a.neutral[id]; c != nil {
		return c
	}
	for _, ed := range a.eds {
		if c := ed.counters[id]; c != nil {
			return c
		}
	}
	if c := a.st.Counters[id]; c.Side != "" {
		return a.eds[c.Side].counter(id)
	}
	c := *a.st.Counters[id]
	a.neutral[id] = &c
	return &c
}

// battlePeople are the counters of people in Battle b: those of a people
// attacked, every one still in play on its markers (AMB-60, AMB-49,
// attackedCounters), or those of Step 5 at its marker in the Region.
func battlePeople(st *State, b *Battle, people string) []string {
	if b.People == "" {
		return peopleUnits(st, people, b.Region)
	}
	var out []string
	for _, c := range attackedCounters(st, people) {
		out = append(out, c.ID)
	}
	return out
}

// peopleAfter is people's change after a Battle: allied to side (or as it
// was, for ""); its marker in region removed (DN3-CAMP-MAP-4), and every
// other marker of it whose counters are all gone from it (dead, or allied).
func peopleAfter(st *State, a *aftermath, people, region string, side adjudicator.Side) *PeopleChanged {
	p := st.Peoples[people]
	markers := slices.DeleteFunc(slices.Clone(p.Markers), func(r string) bool {
		if r == region {
			return true
		}
		for _, m := range st.data.Peoples[people].Markers {
			if m.Region != r {
				continue
			}
			for _, id := range m.Counters {
				if c := st.Counters[id]; c != nil && c.Side == "" && !a.counter(id).Dead && a.counter(id).Side == "" {
					return false
				}
			}
		}
		return true
	})
	allied := p.Allied
	if side != "" {
		allied = side
	}
	return &PeopleChanged{People: people, Markers: markers, Allied: allied, Announced: p.Announced}
}

// peopleJoins makes the Battle's people the ally of ed's side: its living
// counters on the map or waiting off it join that side's troop in region,
// or a new one; those that left the map are placed as the side's
// (DN3-CAMP-RETREAT-4). With no troop there and no marker free it stays
// neutral (DN3-CAMP-BATTLE-2, AMB-57). Its marker there is removed: the
// Region is Empty (DN3-CAMP-MAP-4).
func (x *world) peopleJoins(a *aftermath, ed *armyEdit, b *Battle, people, region string, leftTo map[string]string, why string) {
	st, d := x.st(), x.data()
	var stay, all, fell []string
	for _, id := range battlePeople(st, b, people) {
		if a.counter(id).Dead {
			fell = append(fell, id) // fought for ed's side, or left the game
			continue
		}
		all = append(all, id)
		if leftTo[id] == "" {
			stay = append(stay, id)
		}
	}
	dest := ed.free()
	if ts := ed.visibleIn(region); len(ts) > 0 {
		dest = ts[0].ID
	}
	name := d.Peoples[people].Name
	if dest == "" && len(stay) > 0 {
		x.say(nil, "%s won, but %s have no Troop marker free: they stay neutral (DN3-CAMP-BATTLE-2, AMB-57).", capital(name), sideName(ed.side))
		return
	}
	for _, id := range append(slices.Clone(all), fell...) {
		c := ed.counter(id)
		*c = *a.neutral[id]
		c.Side = ed.side
		delete(a.neutral, id)
	}
	x.emit(peopleAfter(st, a, people, region, ed.side))
	if len(stay) > 0 {
		t := ed.put(dest, region, "", "", stay...)
		x.say(nil, "%s ally with %s, %s: %s join their troop %s; %s counts as Empty (DN3-CAMP-MAP-4).", capital(name), sideName(ed.side), why, list(stay), t.ID, d.regionName(region))
	} else {
		x.say(nil, "%s ally with %s, %s; %s counts as Empty (DN3-CAMP-MAP-4).", capital(name), sideName(ed.side), why, d.regionName(region))
	}
}
