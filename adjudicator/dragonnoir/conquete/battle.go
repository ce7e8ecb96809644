package conquete

import (
	"fmt"
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
}

// BattlePeople is the people waiting off the map in a Step 5 Battle
// (DN3-CAMP-NEG-11): the negotiation chapter fills it.
type BattlePeople struct {
	ID        string                        `yaml:"id"`
	Units     []string                      `yaml:"units"`
	Influence map[adjudicator.Side][]string `yaml:"influence,omitempty"`
}

// BattleForce is one counter of the Battle.
type BattleForce struct {
	Unit    string           `yaml:"unit"`
	Side    adjudicator.Side `yaml:"side"`
	Zone    string           `yaml:"zone"` // centre or edge
	Edge    string           `yaml:"edge,omitempty"`
	Wounds  int              `yaml:"wounds,omitempty"`
	Fatigue string           `yaml:"fatigue,omitempty"`
	PE      int              `yaml:"pe,omitempty"`
}

// battlePosition builds the Battle of region: every counter of the visible
// troops there, and a people attacked (DN3-CAMP-BATTLE-2: its counters
// fight for the other side).
func battlePosition(st *State, region string) *BattlePosition {
	d := st.data
	p := &BattlePosition{Battle: BattleSection{Region: region, Map: d.Regions[region].Battle, Night: st.Night(),
		Names: map[adjudicator.Side]string{ChildRebels: "Rebels", ChildReptilians: "Reptilians"}, First: ChildRebels}}
	for _, t := range st.TroopsIn(region, "") {
		if t.Stealthy {
			continue // DN3-CAMP-STEALTH-5: only visible troops fight
		}
		for _, id := range t.Counters {
			c := st.Counters[id]
			if c == nil || c.Dead {
				continue
			}
			f := BattleForce{Unit: id, Side: childSide(t.Side), Zone: "centre", Wounds: c.Wounds, Fatigue: t.Fatigue, PE: c.PE}
			if t.Via != "" {
				f.Zone, f.Edge = "edge", t.Via
			}
			p.Forces = append(p.Forces, f)
		}
	}
	if r := st.Region; r != nil && r.Attack != "" {
		people := st.PeopleAt(region)
		p.Battle.Attacked = people
		for _, c := range attackedCounters(st, people) { // negotiate.go
			p.Forces = append(p.Forces, BattleForce{Unit: c.ID, Side: childSide(Other(r.Attack)), Zone: "centre", Wounds: c.Wounds, PE: battlePE(st, c)})
		}
	}
	return p
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

// startBattle creates the Battle of region as a child game and waits for
// its result.
func (x *world) startBattle(region string) {
	st := x.st()
	key := "b" + strconv.Itoa(len(st.Battles)+1)
	pos := battlePosition(st, region)
	b, err := yaml.Marshal(pos)
	if err != nil {
		x.r.Fail(err)
		return
	}
	child := &adjudicator.ChildGame{Key: key, Title: fmt.Sprintf("the Battle of %s, turn %d", x.data().regionName(region), st.Turn),
		Ruleset: BattleRuleset, Position: string(b),
		Players: []adjudicator.ChildPlayer{{Side: ChildRebels, Player: Rebels}, {Side: ChildReptilians, Player: Reptilians}}}
	if err := adjudicator.CheckChild(child); err != nil {
		x.r.Fail(err)
		return
	}
	x.emit(&BattleBegun{Key: key, Region: region, People: pos.Battle.Attacked})
	x.emit(child)
	var units []string
	for _, f := range pos.Forces {
		units = append(units, f.Unit)
	}
	x.say(nil, "The Battle of %s begins (%s): %s; its counters are placed on the tactical map (DN3-CAMP-BATTLE-4 … 6): %s.",
		x.data().regionName(region), key, map[bool]string{true: "a night battle (AMB-88)", false: "by day"}[pos.Battle.Night], list(units))
	x.await(Wait{Phase: ReqResult, Side: adjudicator.SeriesSide, Key: key})
}

var resultRequest = &requestKind{
	Kind:  adjudicator.KindResult,
	Title: "result",
	Parse: func(st *State, w Wait, n *yaml.Node) (adjudicator.Orders, error) {
		return adjudicator.ParseChildResult(adjudicator.ResultRequest(w.Key, st.Turn, battleTitle(st, w.Key)), n)
	},
	Decide: func(x *world, w Wait, o adjudicator.Orders) { x.applyBattle(w.Key, o.(*adjudicator.ChildResult)) },
}

// applyBattle applies a Battle's result (its final view, as the contract
// says): each counter gone is dead, wounded keeps its wounds, "pe:UNIT"
// markers are PE left, and "left:REGION" counters left by the edge leading
// there (placeLeft, DN3-CAMP-RETREAT-4). The Battle's counters were seen
// by everyone on the tactical map: these changes are public (HID-11).
func (x *world) applyBattle(key string, res *adjudicator.ChildResult) {
	st := x.st()
	var winner adjudicator.Side
	switch res.Winner {
	case ChildRebels:
		winner = Rebels
	case ChildReptilians:
		winner = Reptilians
	}
	x.emit(&BattleEnded{Key: key, Winner: winner, Result: res.Result})
	left := map[string]string{}
	var dead []string
	changed := map[adjudicator.Side]*Sheet{Rebels: {Side: Rebels}, Reptilians: {Side: Reptilians}}
	for _, u := range res.View.Units {
		c := st.Counters[u.ID]
		if c == nil {
			continue
		}
		n := *c
		switch {
		case u.Gone:
			n.Dead = true
			dead = append(dead, u.ID)
		case slices.Contains(u.Status, "wounded-2"):
			n.Wounds = 2
		case slices.Contains(u.Status, "wounded"):
			n.Wounds = max(n.Wounds, 1)
		default:
			n.Wounds = 0 // healed in the Battle
		}
		if pe, ok := res.View.Markers["pe:"+u.ID]; ok {
			if v, err := strconv.Atoi(fmt.Sprint(pe)); err == nil {
				n.PE = v
			}
		}
		if r, ok := strings.CutPrefix(u.At, "left:"); ok && !u.Gone {
			left[u.ID] = r
		}
		side := c.Side
		if side == "" {
			side = Other(x.st().Region.Attack) // a people attacked fought for the other side
		}
		if n != *c && changed[side] != nil {
			changed[side].Counters = append(changed[side].Counters, &n)
		}
	}
	// The dead leave their troops; emptied troops are removed (DN3-CAMP-TROOP-2).
	for _, side := range sides {
		s := changed[side]
		for _, t := range st.SideTroops(side) {
			kept := slices.DeleteFunc(slices.Clone(t.Counters), func(id string) bool { return slices.Contains(dead, id) })
			switch {
			case len(kept) == 0:
				s.Removed = append(s.Removed, t.ID)
			case len(kept) != len(t.Counters):
				c := *t
				c.Counters = kept
				s.Troops = append(s.Troops, &c)
			}
		}
		if len(s.Counters)+len(s.Troops)+len(s.Removed) > 0 {
			x.emit(s)
		}
	}
	x.say(nil, "%s ends: %s.", capital(battleTitle(x.st(), key)), res.Result)
	if len(dead) > 0 {
		x.say(nil, "Killed in the Battle: %s.", list(dead))
	}
	if len(left) > 0 {
		x.placeLeft(left)
	}
	x.victory(false)
}
