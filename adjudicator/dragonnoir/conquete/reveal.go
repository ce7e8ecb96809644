package conquete

import (
	"fmt"
	"slices"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// Revealing stealthy troops (B.10), once all movement is over: the sides'
// voluntary reveals, both at once (DN3-CAMP-REVEAL-2, PBEM-DN3-14); then
// the forced ones, Elves out of the forest (DN3-CAMP-REVEAL-3), and the
// discovery rolls (DN3-CAMP-REVEAL-4, ROLL-14). A revealed troop goes back
// on the map on its arrival path if it moved in this phase, else at the
// centre (DN3-CAMP-REVEAL-6).

// RevealOrders are a side's voluntary reveals.
type RevealOrders struct {
	Reveal []string `json:"reveal,omitempty" yaml:"reveal,omitempty"`
}

var revealRequest = &requestKind{
	Kind: "orders", Title: "voluntary reveals", Hidden: true, Sealed: true,
	Prompt:  "The stealthy troops you reveal so that they may fight (reveal: [R4]); {} reveals none (DN3-CAMP-REVEAL-2): docs/orders/la-conquete.md.",
	Parse:   parseReveal,
	Decide:  decideReveal,
	Default: func(*State, Wait) (string, bool) { return "{}", true },
}

func parseReveal(st *State, w Wait, n *yaml.Node) (adjudicator.Orders, error) {
	o := &RevealOrders{}
	if isNull(n) {
		return o, nil
	}
	var f struct {
		Reveal yaml.Node `yaml:"reveal"`
	}
	e := &errs{}
	if !decode(e, n, &f) {
		return nil, e.err()
	}
	ids, nodes := scalars(e, &f.Reveal, "reveal")
	for i, id := range ids {
		t := ownTroop(e, st, w.Side, nodes[i], id)
		switch {
		case t == nil:
		case !t.Stealthy:
			e.add(nodes[i], codeBadTroop, "troop %s is not stealthy: it is on the map already", id)
		case slices.Contains(o.Reveal, id):
			e.add(nodes[i], codeTwice, "troop %s is named twice", id)
		default:
			o.Reveal = append(o.Reveal, id)
		}
	}
	return o, e.err()
}

func decideReveal(x *world, w Wait, o adjudicator.Orders) {
	for _, id := range o.(*RevealOrders).Reveal {
		x.revealTroop(w.Side, id, "voluntary", "DN3-CAMP-REVEAL-2")
	}
}

// revealTroop puts a stealthy troop back on the map, for everyone to see.
func (x *world) revealTroop(side adjudicator.Side, id, how, rule string) {
	st, d := x.st(), x.data()
	t := st.Troop(side, id)
	via := ""
	if t.Moved {
		via = t.Via
	}
	x.emit(&Revealed{Side: side, Troop: id, Via: via, How: how})
	where := "at the centre of " + d.regionName(t.Region)
	if via != "" {
		where = fmt.Sprintf("at %s, on the path from %s", d.regionName(t.Region), via)
	}
	x.say(nil, "%s troop %s is revealed (%s, %s): %s (DN3-CAMP-REVEAL-6).", capital(sideName(side))+"'", id, how, rule, where)
}

// forcedReveals reveals the stealthy troops of Elves that are no longer in
// a forest Region (DN3-CAMP-REVEAL-3).
func (x *world) forcedReveals() {
	st := x.st()
	for _, t := range slices.Clone(st.Troops) {
		if t.Stealthy && cannotHide(st, t) != "" {
			x.revealTroop(t.Side, t.ID, "forced", "DN3-CAMP-REVEAL-3")
		}
	}
}

// discoveryRolls rolls for every stealthy troop in a Region with an enemy
// troop not at Rest, stealthy or not (DN3-CAMP-REVEAL-4, AMB-94, ROLL-14):
// the stealth table's number, 3 more at night (AMB-40). The roll is the
// troop's owner's to see (PBEM-GEN-2): a failed search tells the other
// side nothing.
func (x *world) discoveryRolls() {
	st, d := x.st(), x.data()
	for _, t := range slices.Clone(st.Troops) {
		if !t.Stealthy {
			continue
		}
		searched := false
		for _, o := range st.TroopsIn(t.Region, Other(t.Side)) {
			searched = searched || !o.Rest
		}
		if !searched {
			continue
		}
		reg := d.Regions[t.Region]
		need, used := reg.Discovered, Provs{reg.DiscoveryProv}
		if st.Night() {
			need += d.Night.Add
			used = append(used, d.Night.Prov)
		}
		roll := x.d10(adjudicator.To(t.Side), "a discovery roll")
		if roll.Total >= need {
			roll.Outcome = mark(used, fmt.Sprintf("troop %s at %s needs %d+: discovered", t.ID, t.Region, need))
			x.revealTroop(t.Side, t.ID, "discovered", "DN3-CAMP-REVEAL-4")
		} else {
			roll.Outcome = mark(used, fmt.Sprintf("troop %s at %s needs %d+: not discovered", t.ID, t.Region, need))
		}
	}
}
