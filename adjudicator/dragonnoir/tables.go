package dragonnoir

import (
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// Table lookups. Every lookup returns its value with the provenance of the
// entry it came from, so that the line reporting the result can say when
// it rests on an assumed table (world.say). Chapters look values up here,
// never in the module's maps directly.

// Column is the Combat Table column for odds n-1 after shifts, and whether
// there is one: odds left of 1-1 cannot be resolved (AMB-4), odds right of
// the last column use the last (AMB-5).
func (d *Data) Column(n int) (*CombatColumn, bool) {
	if n < d.Columns[0].n {
		return nil, false
	}
	i := min(n-d.Columns[0].n, len(d.Columns)-1)
	return d.Columns[i], true
}

// Combat is the result of the column for a modified roll (AMB-3: read
// within 1 to 10).
func (col *CombatColumn) Combat(roll int) (string, []Effect, Prov) {
	r := modified(roll)
	return col.Rows[r-1], col.cells[r-1], col.Prov
}

// Shift is the terrain shift of attackers on att against a defender on
// def (GAP-2).
func (d *Data) Shift(att, def string) (int, Prov) {
	s := d.Shifts[att+"/"+def]
	return s.Shift, s.Prov
}

// Fire is the fire table's letter for weapon, cover and a modified roll,
// and what it does to the target (GAP-4).
func (d *Data) FireResult(weapon, cover string, roll int) (string, []Effect, Provs) {
	col := d.Fire[weapon]
	code := col.Cover[cover][modified(roll)-1]
	used := Provs{col.Prov}
	if code == "-" {
		return code, nil, used
	}
	k := d.FireKey[code]
	es, _ := parseEffects(k.Result)
	return code, es, append(used, k.Prov)
}

// Infiltration is the infiltration result when crossing next to enemy
// (GAP-6): the row for one of its tags if the table has one, else "any".
func (d *Data) Infiltration(enemy *Kind, roll int) (string, Prov) {
	row := d.Infil[0]
	for _, r := range d.Infil {
		if r.Enemy == "any" && row.Enemy != "any" {
			row = r
		}
	}
	for _, r := range d.Infil {
		if r.Enemy != "any" && enemy.Has(r.Enemy) {
			row = r
			break
		}
	}
	return row.Rolls[modified(roll)-1], row.Prov
}

// Values are c's printed numbers now (DN-RES-2, -3, AMB-12): the berserk
// face once berserk, the wounded face once wounded, the stunned face when
// stunned (or the wounded one when the counter prints none).
func (s *State) Values(c *Char) (Face, Prov) {
	k := s.Kind(c)
	f := k.Faces["healthy"]
	switch {
	case c.Berserk && k.Faces["berserk"] != (Face{}):
		f = k.Faces["berserk"]
	case c.Face == Stunned && k.Faces["stunned"] != (Face{}):
		f = k.Faces["stunned"]
	case (c.Face == Stunned || c.Wounds > 0) && k.Faces["wounded"] != (Face{}):
		f = k.Faces["wounded"]
	}
	f = s.charmed(c, f)  // magic chapter: boosts, halving, immobilised
	f = s.pairFace(c, f) // a rider in the saddle (move_rider.go)
	return f, k.Prov
}

// TerrainAt is the combat effect (+, 0, -) of location l for a character
// of kind k (DN-TERRAIN-1): the row's by-tag value when k carries the tag
// (Elves on trees, Gharvs in water), else its own.
func (s *State) TerrainAt(k *Kind, l hex.Loc) (string, Prov) {
	if e, p, ok := s.frostTerrain(l); ok { // magic chapter: a Frost (DN3-SPELL-DRUID-12)
		return e, p
	}
	t := s.Terrain(l)
	if slices.Contains(k.Favourable, t.Kind) { // DN3: trees and brush for an Ent (DN3-PEOPLE-ENT-7)
		return "+", k.Prov
	}
	for _, tag := range k.Tags {
		if v, ok := t.CombatBy[tag]; ok {
			return v, t.Prov
		}
	}
	return t.Combat, t.Prov
}

// rank orders combat effects from the least advantageous.
func rank(e string) int { return slices.Index([]string{"-", "0", "+"}, e) }

// CombatTerrain is the terrain c fights on (DN-TERRAIN-3, AMB-7): its
// hex's, or for a counter of several hexes the majority of its hexes, the
// least advantageous on a tie.
func (s *State) CombatTerrain(c *Char) (string, Provs) {
	if e, p, ok := s.carriedTerrain(c); ok { // DN3: an Ent carrying, a character carried (special_ent.go)
		return e, p
	}
	k := s.Kind(c)
	count := map[string]int{}
	var used Provs
	for _, l := range s.Locs(c) {
		e, p := s.TerrainAt(k, l)
		if _, _, frozen := s.frostTerrain(l); !frozen && s.waterWalker(c) && s.Terrain(l).Has(TerrWater) {
			e = "0" // magic chapter: walking on water (DN3-SPELL-DRUID-11)
		}
		count[e]++
		used = append(used, p)
	}
	best := ""
	for _, e := range []string{"-", "0", "+"} {
		if best == "" || count[e] > count[best] {
			best = e
		}
	}
	return best, used
}

// MPCost is what entering l costs a character of kind k (GAP-3): the
// row's by-tag cost when k carries the tag (Goblins in water), the
// cheapest when it carries several (a Reptilian on a Raptor in marsh),
// else its own; false when k may not enter l at all.
func (s *State) MPCost(k *Kind, l hex.Loc) (int, Prov, bool) {
	t := s.Terrain(l)
	if t == nil {
		return 0, Prov{}, false // off the map
	}
	if !s.CanEnter(k, l) {
		return 0, t.Prov, false
	}
	if n, p, ok := s.swimCost(k, t); ok { // chapter: the valley's peoples (Magna Carta's swimming, DN3-MC-7)
		return s.frosted(l, n), p, true
	}
	return s.frosted(l, byTagMP(k, t)), t.Prov, true // move_rider.go: a rider's costs; a Frost doubles it (spell_nature.go)
}
