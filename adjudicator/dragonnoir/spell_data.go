package dragonnoir

import (
	"maps"
	"slices"
	"strings"
)

// The spells of spells.yaml (GAP-12): each a row of data — its category,
// what it aims at, what it costs, how long it lasts and what umpire does
// when it works (Effect, one of spellEffects, each a function of
// spell_effects.go). A row with no effect is a spell the rules leave
// undefined: it stays on the sheet with its reason (note:) and orders
// naming it are refused (code spell-undefined).

// SpellCost is how many PE a spell costs (DN3-SPELL-GEN-3, -4): Fixed; or
// Each per unit of Per (mp, point: the units: ordered; hex: the hexes:
// ordered; distance: the hexes from the caster to its destination, AMB-81);
// Wounded and Heavy replace Each on a wounded target (DN3-SPELL-MAGE-1) or
// an armoured or heavy one (DN3-SPELL-MAGE-12); or by Sizes (the number of
// hexes ordered); or the sum of the target's values named by Target
// (attack, defence, move) on its current face, or its healthy face with
// Face: healthy (AMB-100).
type SpellCost struct {
	Fixed   int         `yaml:"fixed" json:"fixed,omitempty"`
	Per     string      `yaml:"per" json:"per,omitempty"`
	Each    int         `yaml:"each" json:"each,omitempty"`
	Wounded int         `yaml:"wounded" json:"wounded,omitempty"`
	Heavy   int         `yaml:"heavy" json:"heavy,omitempty"`
	Sizes   map[int]int `yaml:"sizes" json:"sizes,omitempty"`
	Target  []string    `yaml:"target" json:"target,omitempty"`
	Face    string      `yaml:"face" json:"face,omitempty"`
}

// set counts the ways the cost is given (exactly one is right).
func (c SpellCost) set() int {
	n := 0
	for _, set := range []bool{c.Fixed > 0, c.Per != "", len(c.Sizes) > 0, len(c.Target) > 0} {
		if set {
			n++
		}
	}
	return n
}

// Spell is one spell of the magician sheets (GAP-12).
type Spell struct {
	ID    string `yaml:"id"`
	Title string `yaml:"title"`
	// Name is what an order calls it when several sheets print one spell
	// with different costs or aims (the Druid sheet's invisibility costs
	// 8 PE, the Mage's 12): an order naming it casts the row of that name
	// on the caster's sheet (spellFor). Default: its ID.
	Name     string `yaml:"name"`
	Category string `yaml:"category"` // personal, others, environment, detection, pure (DN-MAGIC-3, -4); strategic (DN3-MAGIC-5)
	Aim      string `yaml:"aim"`      // self, character, hex, hexes, none
	// Cost is what it costs; OnOther, when given, what it costs aimed at
	// another character than the caster (DN3-SPELL-MAGE-1, -3).
	Cost     SpellCost  `yaml:"cost"`
	OnOther  *SpellCost `yaml:"on-other"`
	Duration string     `yaml:"duration"` // as the sheet writes it
	// Lasts is how many player-turns its effect stays, the one it is cast
	// in first (AMB-18's counting; "1 turn" is 2, AMB-78); 0 for an effect
	// that is instant or stays the whole scenario.
	Lasts int `yaml:"lasts"`
	// Effect is what umpire does when the spell works (spellEffects); ""
	// for a spell the rules leave undefined.
	Effect string `yaml:"effect"`
	// Hostile: an attack spell, which a magic circle stops (AMB-80).
	Hostile bool `yaml:"hostile"`
	// Summons, Count: a spell that calls Count spectres of kind Summons
	// (DN-MAGIC-4), for Lasts player-turns.
	Summons string `yaml:"summons"`
	Count   int    `yaml:"count"`
	// Rolls, Armoured: a fireball's result for each roll 1 to 10, and what
	// an armoured counter adds to the roll (ROLL-11).
	Rolls    []string `yaml:"rolls"`
	Armoured int      `yaml:"armoured"`
	// Terrain, On: a spell that changes the terrain of its hexes to Terrain
	// (a bridge, a gallery), which must be of one of the kinds On; for the
	// plants' attack, the kinds its target must stand in.
	Terrain string   `yaml:"terrain"`
	On      []string `yaml:"on"`
	// TerrainMod is what the terrain its target stands in adds to a roll
	// (the plants' attack: -3 in a tree hex, DN3-SPELL-DRUID-23).
	TerrainMod map[string]int `yaml:"terrain-mod"`
	// Radius: a spell aimed at a hex covers the hexes this far around it
	// too (a poison cloud's seven hexes, DN3-SPELL-DRUID-24).
	Radius int  `yaml:"radius"`
	Prov   Prov `yaml:",inline"`

	// La Conquête (DN3, spell_lists.go). Lists are the sheets it is on
	// (DN3-MAGIC-3, B.15.5: mage, sorcerer, druid, unicorn): a caster casts
	// only the spells of its kind's spell-list.
	Lists []string `yaml:"lists"`
	// ValleyRule names the printed rows of the DN3 sheets that give it
	// ("DN3-SPELL-MAGE-1, DN3-SPELL-SORC-1"): in a battle of the valley its
	// provenance is that rule, where Prov is the underground stand-in's
	// (GAP-12). ValleyLasts replaces Lasts there (the sheets' durations:
	// DN3-SPELL-MAGE-28, -29).
	ValleyRule  string `yaml:"valley-rule"`
	ValleyLasts int    `yaml:"valley-lasts"`
	// ValleyOnly: not on the underground sheet (GAP-12: plain or brush
	// only, strategic); a DN2 game knows no such spell. Underground: the
	// reason it does nothing underground, where it is refused
	// (spell-undefined; Light: AMB-76, AMB-88).
	ValleyOnly  bool   `yaml:"valley-only"`
	Underground string `yaml:"underground"`
	// Free: its hexes must hold no living character (a spring, a crevasse,
	// a house, a tower: assumed). Immune: the counter tags that make a
	// target immune to it (fearless: Terror; immobilise-immune: Immobilise;
	// charm-immune: a charm — DN3-PEOPLE-KANDAR-3, DN3-PEOPLE-UNIC-10).
	Free   bool     `yaml:"free"`
	Immune []string `yaml:"immune"`
}

type spellsFile struct {
	Spells []lined[Spell] `yaml:"spells"`
}

var spellCategories = []string{"personal", "others", "environment", "detection", "pure", "strategic"}
var spellAims = []string{"self", "character", "hex", "hexes", "none"}
var spellPer = []string{"mp", "point", "hex", "distance"}

// spellNeeds is what each effect needs of its row: the aim it takes.
var spellNeeds = map[string][]string{
	"summon": {"hex"}, "fireball": {"hex"}, "detect": {"hex"},
	"heal": {"character"}, "resurrect": {"character"}, "move-boost": {"character", "self"},
	"immobilise": {"character"}, "attack-boost": {"character", "self"}, "halve-attack": {"character"},
	"defence-boost": {"self"}, "improve-fire": {"character", "self"}, "levitation": {"character", "self"},
	"teleport": {"self"}, "invisible": {"self"},
	"magic-circle": {"hexes"}, "silence": {"hexes"}, "terrain": {"hexes"}, "demolish-wall": {"hexes"},
	// La Conquête (spell_valley.go)
	"light": {"hex"}, "armour": {"character", "self"}, "fanatic": {"character", "self"}, "terror": {"character"},
	// the Druid and Unicorn sheets (spell_nature.go)
	"walk-on-water": {"character", "self"}, "frost": {"hexes"}, "plant-attack": {"character"}, "poison-cloud": {"hex"},
}

// Key is the name an order gives the spell.
func (s *Spell) Key() string {
	if s.Name != "" {
		return s.Name
	}
	return s.ID
}

// spellFor is the spell an order names for caster c: the row of that name
// (or ID) on c's sheet (DN3-MAGIC-3, B.15.5), else the row of that ID
// (spellRefusal then says it is not on c's sheet); nil when none.
func (s *State) spellFor(c *Char, name string) *Spell {
	if c != nil && s.level(c) > 0 {
		list := s.Kind(c).SpellList
		if sp := s.data.Spells[name]; sp != nil && slices.Contains(sp.Lists, list) {
			return sp
		}
		for _, id := range slices.Sorted(maps.Keys(s.data.Spells)) {
			if sp := s.data.Spells[id]; sp.Name == name && slices.Contains(sp.Lists, list) {
				return sp
			}
		}
	}
	if sp := s.data.Spells[name]; sp != nil {
		return sp
	}
	for _, id := range slices.Sorted(maps.Keys(s.data.Spells)) {
		if sp := s.data.Spells[id]; sp.Name == name {
			return sp
		}
	}
	return nil
}

func (d *Data) spells(c *checker, f spellsFile) {
	const file = "spells.yaml"
	names := map[string]string{} // "list/name": the spell's ID
	for _, l := range f.Spells {
		s := l.V
		c.prov(file, l.Line, s.Prov)
		bad := func(format string, args ...any) { c.at(file, l.Line, "spell "+s.ID+": "+format, args...) }
		if s.ID == "" || d.Spells[s.ID] != nil {
			c.at(file, l.Line, "spell %q: give each spell its own id", s.ID)
			continue
		}
		if !slices.Contains(spellCategories, s.Category) {
			bad("category %q is one of %s (DN-MAGIC-3, -4)", s.Category, strings.Join(spellCategories, ", "))
		}
		if !slices.Contains(spellAims, s.Aim) {
			bad("aim %q is one of %s", s.Aim, strings.Join(spellAims, ", "))
		}
		for _, cost := range []*SpellCost{&s.Cost, s.OnOther} {
			switch {
			case cost == nil:
			case s.Effect == "" && cost.set() == 0:
				// an undefined spell may have no cost either (AMB-76)
			case cost.set() != 1:
				bad("give its cost one way: fixed, per and each, sizes, or target")
			case cost.Per != "" && !slices.Contains(spellPer, cost.Per):
				bad("cost per %q is one of %s", cost.Per, strings.Join(spellPer, ", "))
			case cost.Face != "" && cost.Face != "healthy":
				bad("cost face %q: write healthy, or leave it out for the current face (AMB-100)", cost.Face)
			}
		}
		if s.Effect == "" && s.Prov.Note == "" && s.Category != "strategic" {
			bad("a spell umpire refuses (no effect:) says why in note:")
		}
		d.checkLists(&s, bad) // spell_lists.go
		for _, list := range s.Lists {
			for _, n := range slices.Compact([]string{s.ID, s.Key()}) {
				if other, ok := names[list+"/"+n]; ok {
					bad("the %s sheet has two spells an order calls %s: %s and this one; give one another name:", list, n, other)
				}
				names[list+"/"+n] = s.ID
			}
		}
		if need, ok := spellNeeds[s.Effect]; s.Effect != "" && !ok {
			bad("effect %q is one of %s (or none: umpire refuses the spell)", s.Effect, strings.Join(slices.Sorted(maps.Keys(spellNeeds)), ", "))
		} else if ok && !slices.Contains(need, s.Aim) {
			bad("effect %s aims at %s, not %s", s.Effect, strings.Join(need, " or "), s.Aim)
		}
		for _, r := range s.Rolls {
			if _, err := parseEffects(r); err != nil {
				bad("%v", err)
			}
		}
		switch s.Effect {
		case "fireball", "plant-attack", "poison-cloud":
			if len(s.Rolls) != 10 {
				bad("a %s gives the result of each roll 1 to 10 (rolls:)", s.Effect)
			}
		case "summon":
			if k := d.Kinds[s.Summons]; k == nil || !k.Has(TagSpectre) {
				bad("summons %q: name a kind of counters.yaml tagged spectre", s.Summons)
			}
			if s.Count < 1 || s.Lasts < 1 {
				bad("a summoning gives count: (how many) and lasts: (player-turns, AMB-18)")
			}
		case "terrain":
			if d.Terrain[s.Terrain] == nil || len(s.On) == 0 {
				bad("a spell that changes terrain names its terrain: (of terrain.yaml) and the kinds it works on (on:)")
			}
		}
		if s.Effect == "plant-attack" && len(s.On) == 0 {
			bad("the plants attack a character standing in the terrain kinds on: names")
		}
		for _, t := range append(slices.Clone(s.On), slices.Sorted(maps.Keys(s.TerrainMod))...) {
			if d.Terrain[t] == nil {
				bad("on: or terrain-mod: %q is no terrain of terrain.yaml", t)
			}
		}
		if s.Radius < 0 || s.Radius > 0 && s.Aim != "hex" {
			bad("radius: is how many hexes around the hex it aims at (aim: hex) it covers too")
		}
		d.Spells[s.ID] = &s
	}
}
