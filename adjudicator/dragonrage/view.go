package dragonrage

import (
	"sort"
	"strconv"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// View is the state as a side sees it. Dragon Rage hides nothing outside
// point-buy army selection (DR-PBEM-5), which umpire does not run yet, so
// every viewer sees the whole board.
func (ruleset) View(s adjudicator.State, viewer adjudicator.Side) adjudicator.View {
	st := s.(*State)
	v := adjudicator.View{
		Map: st.Map, Turn: st.Turn, Phase: phases[st.Phase].title,
		Score: map[adjudicator.Side]int{Invader: st.VP},
		Over:  st.Over, Winner: st.Winner, Result: st.Result,
		Markers: map[string]any{
			"goal":        st.Goal,
			"last-damage": st.LastDamage,
			"last-inside": st.LastInside,
		},
		Traces: st.Traces,
		Notes:  st.stateNotes(), // a decision the game waits on
	}
	if st.Waiting > 0 {
		v.Markers["reinforcements-waiting"] = st.Waiting
	}
	ready := readyUnits(st)
	for _, u := range st.Units {
		if u.Pool {
			continue
		}
		t := st.typ(u)
		uv := adjudicator.UnitView{ID: u.ID, Side: u.Side, Type: u.Type, At: u.Hex, Gone: u.Gone, Values: t.Values(), Ready: ready[u.ID]}
		if u.Hex == "" && !u.Gone {
			uv.At = "off-map"
		}
		if u.Wounded {
			uv.Status = append(uv.Status, "wounded")
		}
		uv.Status = append(uv.Status, st.unitNotes(u)...) // Elowyn, the T-rex
		if st.typ(u).Casts() {
			uv.Status = append(uv.Status, "SP "+strconv.Itoa(u.SP))
		}
		if u.Ladder {
			uv.Status = append(uv.Status, "ladder used")
		}
		if t.HP > 0 && t.Kind == "minor" {
			uv.Damage = []adjudicator.Damage{{Area: "body", Left: max(t.HP-u.Damage, 0), Of: t.HP}}
		}
		if t.IsMajor() {
			majorView(st, u, &uv)
		}
		if u.Killer {
			uv.Status = append(uv.Status, "Killer")
		}
		v.Units = append(v.Units, uv)
	}
	for _, h := range st.Major.Collapsed {
		v.Hexes = append(v.Hexes, adjudicator.HexMark{Kind: "collapsed", At: h}) // DR-DRAGON-DEAD-3
	}
	for h, vp := range st.Destroyed {
		v.Hexes = append(v.Hexes, adjudicator.HexMark{Kind: "vp-destroyed", At: h, Label: strconv.Itoa(vp)})
	}
	for k, e := range st.Entrances {
		switch {
		case e.Broken:
			v.Hexes = append(v.Hexes, adjudicator.HexMark{Kind: "broken", At: k})
		case e.OpenUntil >= st.Turn && e.OpenUntil > 0:
			v.Hexes = append(v.Hexes, adjudicator.HexMark{Kind: "open", At: k})
		case e.Controller == Invader:
			v.Hexes = append(v.Hexes, adjudicator.HexMark{Kind: "controlled-by-invader", At: k})
		}
	}
	for h, b := range st.Bridges {
		kind := "bridge-burned"
		if b != "burned" {
			kind = "bridge-destroyed"
		}
		v.Hexes = append(v.Hexes, adjudicator.HexMark{Kind: kind, At: h})
	}
	magicView(st, &v)
	sort.Slice(v.Hexes, func(i, j int) bool {
		if v.Hexes[i].At != v.Hexes[j].At {
			return v.Hexes[i].At < v.Hexes[j].At
		}
		return v.Hexes[i].Kind < v.Hexes[j].Kind
	})
	return v
}

// readyUnits are the units that may still act in the phase the game waits
// on (UnitView.Ready), by the rules the orders of that phase are checked
// with:
//
//   - a decision (DR-PBEM-38): the hero and wizard the deciding side moves
//     out of the climber's way;
//   - magic: a wizard on the map with spell points left or an Elemental
//     under its control (what offers the phase, canCast);
//   - movement: a unit with movement points that the rules let move
//     (Elowyn only when free and not fleeing), on the map or off it with an
//     entry hex to come in by;
//   - fire: a firer on the map that has neither attacked nor been barred
//     from it this turn and has an enemy it may shoot at now: in reach, in
//     sight, not shielded by magic (checkShot, as its fire order would be
//     checked);
//   - melee: a unit that may attack an enemy next to it (checkAttacker,
//     the defender opening its entrances), a sea serpent an empty VP hex
//     beside it, or a firer that may add its fire to a melee on an enemy in
//     reach (DR-FIRE-4).
//
// Setup and the reinforcements (units coming from the box) mark none, nor
// does a game over.
func readyUnits(st *State) map[string]bool {
	if st.Over || st.board == nil {
		return nil
	}
	w := newWorld(st, nil)
	out := map[string]bool{}
	if d := st.Pending; d != nil {
		for _, id := range d.Units {
			if u := st.unit(id); u != nil && !u.Gone && u.Hex != "" {
				out[id] = true
			}
		}
		return out
	}
	side := phases[st.Phase].side
	for _, u := range st.alive(side) {
		var ok bool
		switch st.Phase {
		case phInvMagic, phDefMagic:
			ok = st.typ(u).Casts() && u.Hex != "" && (u.SP > 0 || len(w.controlledBy(u)) > 0)
		case phInvMovement, phDefMovement:
			ok = st.typ(u).MP > 0 && w.mayMove(u, nil) == "" && (u.Hex != "" || len(w.entryNames(u)) > 0)
		case phInvFire, phDefFire:
			ok = w.mayShootSomeone(u, false) || w.mayBreathe(u)
		case phInvMelee, phDefMelee:
			ok = w.mayMeleeSomeone(u) || w.mayShootSomeone(u, true)
		}
		if ok {
			out[u.ID] = true
		}
	}
	return out
}

// mayShootSomeone reports whether u may fire now at a hex holding an
// enemy: in the fire phase, or adding its fire to a melee (inMelee).
func (w *world) mayShootSomeone(u *Unit, inMelee bool) bool {
	if !w.st.firer(u) || u.Hex == "" || u.Attacked || u.NoAttack {
		return false
	}
	for _, h := range w.enemyHexes(u.Side) {
		if _, why := w.checkShot(u, h, inMelee); why == "" {
			return true
		}
	}
	return false
}

// mayMeleeSomeone reports whether u may attack a hex next to it: one
// holding an enemy, or, for a sea serpent, an empty VP hex (DR-SERP-8).
func (w *world) mayMeleeSomeone(u *Unit) bool {
	if u.Hex == "" || u.Attacked || u.NoAttack {
		return false
	}
	for _, n := range w.m.Neighbours(w.st.hexOf(u)) {
		switch {
		case w.st.enemyIn(n.String(), u.Side):
		case w.st.typ(u).Swims() && len(w.st.at(n.String())) == 0 && w.vpHex(n) > 0 && !w.doorVP(n):
		default:
			continue
		}
		if _, why := w.checkAttacker(u, n, u.Side == Defender); why == "" {
			return true
		}
	}
	return false
}

// enemyHexes are the map hexes holding units of the side opposed to side,
// each once, in unit order.
func (w *world) enemyHexes(side adjudicator.Side) []hex.Hex {
	var out []hex.Hex
	seen := map[string]bool{}
	for _, e := range w.st.alive(other(side)) {
		if e.Hex != "" && !seen[e.Hex] {
			seen[e.Hex] = true
			out = append(out, w.st.hexOf(e))
		}
	}
	return out
}
