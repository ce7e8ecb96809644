package conquete

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir"
)

// Magic in the campaign (B.14): the strategic spells Count, Identify and
// Locate (DN3-MAGIC-5; DN3-SPELL-MAGE-23 … 25, -SORC-19 … 21,
// -DRUID-20 … 22, -UNIC-14 … 16), cast in the Reorganisation mail or in a
// Movement answer, beside the move or the pass and before the troop moves
// (PBEM-DN3-10), one per caster per strategic turn whichever mail names it
// (AMB-85), never at Rest
// (DN3-MAGIC-11); the casting roll is Table DN-MAGIC-T1's (ROLL-10) with
// the caster's level and no magic resistance (a Region is no creature);
// the PE are spent whatever the roll; the result is the caster's side's
// only (HID-13), sealed with its roll, and it counts stealthy counters
// without showing them (AMB-84).
//
// The spells' rows (costs, sheets) are the tactical ruleset's
// (dragonnoir's spells.yaml, category strategic); a caster's sheet is its
// dragonnoir kind's spell-list; its level the campaign's forces.yaml's
// (AMB-73). The races the spells tell are magic.yaml's (assumed, GAP-18).

// Race is one row of magic.yaml: a race and its counter kinds.
type Race struct {
	Race  string   `yaml:"race"`
	Kinds []string `yaml:"kinds"`
	Prov  Prov     `yaml:",inline"`
}

type magicFile struct {
	Races []lined[Race] `yaml:"races"`
}

// magic reads magic.yaml (optional: without it every counter is of its
// side's or people's race).
func (d *Data) magic(c *checker, m adjudicator.Module) {
	const file = "magic.yaml"
	d.Races = map[string]*Race{}
	if _, ok := m.Files[file]; !ok {
		return
	}
	var f magicFile
	if err := strict(m, file, &f); err != nil {
		c.errs = append(c.errs, err)
		return
	}
	for _, l := range f.Races {
		r := l.V
		c.prov(file, l.Line, r.Prov)
		for _, k := range r.Kinds {
			switch {
			case d.Kinds[k] == nil:
				c.at(file, l.Line, "race %s: no counter kind %q in forces.yaml", r.Race, k)
			case d.Races[k] != nil:
				c.at(file, l.Line, "kind %s has two races, %s and %s", k, d.Races[k].Race, r.Race)
			default:
				d.Races[k] = &r
			}
		}
	}
}

// race is a counter's race for Count and Identify, with the row it came
// from (nil for the default: its people's, Humans, Reptilians).
func (d *Data) race(id string) (string, *Race) {
	k := d.Counters[id]
	if k == nil {
		return "unknown", nil
	}
	if r := d.Races[k.Kind]; r != nil {
		return r.Race, r
	}
	switch k.Side {
	case string(Rebels):
		return "Humans", nil
	case string(Reptilians):
		return "Reptilians", nil
	}
	if p := d.Peoples[k.Side]; p != nil && p.Name != "" {
		return p.Name, nil
	}
	return k.Side, nil
}

// The strategic spells' ids in dragonnoir's spells.yaml.
const (
	spellCount    = "count"
	spellIdentify = "identify"
	spellLocate   = "locate"
)

// SpellOrder is one strategic spell of a side's orders (PBEM-DN3-10):
// {caster: zacharie, spell: count, region: le-pont}, or
// {caster: sorcerer, spell: locate, target: konrad}.
type SpellOrder struct {
	Caster string `yaml:"caster"`
	Spell  string `yaml:"spell"`
	Region string `yaml:"region"`
	Target string `yaml:"target"`
}

// cast is a strategic spell checked: its caster, row, level.
type cast struct {
	SpellOrder
	counter *Counter
	spell   *dragonnoir.Spell
	level   int
	levelBy Prov
}

// tactical is dragonnoir's builtin module: the spells' rows and the
// casters' sheets.
func tactical() *dragonnoir.Data {
	td, err := dragonnoir.Builtin()
	if err != nil {
		panic("dragonnoir's builtin module: " + err.Error()) // its tests check it
	}
	return td
}

// ownMagician is the caster a spell order names (n, its caster: id): a
// counter of side's, and a magician, with its campaign and tactical kinds;
// nil, with the refusal added to e, otherwise.
func ownMagician(e *errs, st *State, side adjudicator.Side, n *yaml.Node, id string) (*Counter, *CounterKind, *dragonnoir.Kind) {
	c := ownCounter(e, st, side, key(n, "caster"), id)
	if c == nil {
		return nil, nil, nil
	}
	k, tk := st.data.Counters[id], tactical().Kinds[c.Kind]
	if tk == nil || tk.SpellList == "" || k.Level == 0 {
		e.add(key(n, "caster"), codeNoCaster, "%s is no magician: only Mages, Sorcerers, Druids and Unicorns cast spells (DN3-MAGIC-3)", id)
		return nil, nil, nil
	}
	return c, k, tk
}

// readSpells checks a side's strategic spells against troops, its army
// sheet after the reorganisation; bad ones are added to e.
func readSpells(e *errs, st *State, side adjudicator.Side, troops []*Troop, nodes []yaml.Node) []*cast {
	d, td := st.data, tactical()
	var out []*cast
	seen := map[string]bool{}
	for i := range nodes {
		n := &nodes[i]
		var o SpellOrder
		if !decode(e, n, &o) {
			continue
		}
		c, k, tk := ownMagician(e, st, side, n, o.Caster)
		if c == nil {
			continue
		}
		sp := sheetSpell(td, tk.SpellList, o.Spell)
		switch {
		case sp == nil:
			e.add(key(n, "spell"), codeNotStrategic, "spell %q: outside Battles only the strategic spells are cast in this mail: count, identify or locate (DN3-MAGIC-5, -6)", o.Spell)
			continue
		case len(sp.Lists) > 0 && !slices.Contains(sp.Lists, tk.SpellList):
			// a spell of another sheet: each magician casts from its own
			// (DN3-MAGIC-3); a druid from the Druid list (DN3-PEOPLE-DRUID-2)
			e.add(key(n, "spell"), codeNotStrategic, "%s is on the %s sheet, not on the %s sheet of %s: a magician casts the spells of its own sheet (DN3-MAGIC-3%s)",
				sp.Title, strings.Join(sp.Lists, " and "), tk.SpellList, o.Caster, map[bool]string{true: ", DN3-PEOPLE-DRUID-2"}[tk.SpellList == "druid"])
			continue
		case sp.Category != "strategic" || len(sp.Lists) == 0:
			e.add(key(n, "spell"), codeNotStrategic, "%s: outside Battles only the strategic spells are cast in this mail: count, identify or locate (DN3-MAGIC-5, -6)", sp.Title)
			continue
		}
		t := troopWith(troops, o.Caster)
		switch {
		case seen[o.Caster] || c.Cast == st.Turn:
			e.add(key(n, "caster"), codeTwice, "%s casts one strategic spell a strategic turn, and has one already this turn (AMB-85)", o.Caster)
			continue
		case t == nil:
			e.add(key(n, "caster"), adjudicator.CodeUnknownUnit, "%s is in none of your troops", o.Caster)
			continue
		case t.Rest:
			e.add(key(n, "caster"), codeAtRest, "%s is in troop %s, at Rest: magicians at Rest cast no spell (DN3-MAGIC-11, DN3-CAMP-REST-4)", o.Caster, t.ID)
			continue
		case sp.Cost.Fixed > c.PE:
			e.add(key(n, "spell"), codeNoPE, "%s costs %d PE and %s has %d (AMB-20)", sp.Title, sp.Cost.Fixed, o.Caster, c.PE)
			continue
		}
		seen[o.Caster] = true
		switch o.Spell {
		case spellCount, spellIdentify:
			if o.Target != "" {
				e.add(key(n, "target"), adjudicator.CodeBadValue, "%s takes a region: (an adjacent Region), no target:", sp.Title)
			}
			if o.Region == "" {
				e.add(n, codeBadRegion, "%s: name the adjacent Region (region: …) (DN3-SPELL-MAGE-23, -24)", sp.Title)
				continue
			}
			if regionOf(e, d, key(n, "region"), o.Region) == nil {
				continue
			}
			if d.PathBetween(t.Region, o.Region) == nil {
				var near []string
				for _, p := range d.Adjacent(t.Region) {
					near = append(near, p.Other(t.Region))
				}
				e.add(key(n, "region"), codeBadRegion, "%s reaches a Region adjacent to %s's, %s: %s (DN3-SPELL-MAGE-23, -24)", sp.Title, o.Caster, d.regionName(t.Region), strings.Join(near, ", "))
				continue
			}
		case spellLocate:
			if o.Region != "" {
				e.add(key(n, "region"), adjudicator.CodeBadValue, "Locate takes a target: (a character, or orb), no region:")
			}
			if o.Target != "orb" && d.Counters[o.Target] == nil {
				ids := []string{"orb"}
				for id := range d.Counters {
					ids = append(ids, id)
				}
				sort.Strings(ids)
				e.add(key(n, "target"), adjudicator.CodeUnknownUnit, "Locate: no character %q (a counter id, or orb)%s", o.Target, suggest(o.Target, ids))
				continue
			}
		}
		out = append(out, &cast{SpellOrder: o, counter: c, spell: sp, level: k.Level, levelBy: k.Prov})
	}
	return out
}

// sheetSpell is the spell an order names for a caster of sheet list: the
// row of that id or name on its sheet, else the row of that id or name on
// another sheet (refused then), nil when none.
func sheetSpell(td *dragonnoir.Data, list, name string) *dragonnoir.Spell {
	var other *dragonnoir.Spell
	for _, id := range slices.Sorted(maps.Keys(td.Spells)) {
		sp := td.Spells[id]
		if sp.ID != name && sp.Name != name {
			continue
		}
		if slices.Contains(sp.Lists, list) {
			return sp
		}
		if other == nil || sp.ID == name {
			other = sp
		}
	}
	return other
}

func troopWith(ts []*Troop, id string) *Troop {
	for _, t := range ts {
		if slices.Contains(t.Counters, id) {
			return t
		}
	}
	return nil
}

// parseStrategicSpells reads strategic spells (PBEM-DN3-10, AMB-84,
// AMB-85) of a reorganisation whose army sheet after is troops.
func parseStrategicSpells(e *errs, st *State, side adjudicator.Side, troops []*Troop, spells []yaml.Node) {
	readSpells(e, st, side, troops, spells)
}

// parseMoveSpells reads the strategic spells of a Movement answer
// (DN3-MAGIC-5, AMB-85): cast from where the casters stand before the move.
func parseMoveSpells(e *errs, st *State, side adjudicator.Side, spells []yaml.Node) {
	readSpells(e, st, side, st.SideTroops(side), spells)
}

// moveSpells casts the strategic spells of a Movement answer, before its
// move or pass, each sealed or told to the side only (HID-13).
func (x *world) moveSpells(side adjudicator.Side, spells []yaml.Node) {
	x.strategicSpells(side, spells)
}

// strategicSpells casts the strategic spells of a side's orders, once its
// new army sheet is in the state: every line, roll and change sealed or
// told to the side only (HID-13).
func (x *world) strategicSpells(side adjudicator.Side, spells []yaml.Node) {
	st := x.st()
	e := &errs{}
	for _, c := range readSpells(e, st, side, st.SideTroops(side), spells) {
		x.castStrategic(side, c)
	}
}

func (x *world) castStrategic(side adjudicator.Side, c *cast) {
	st, d := x.st(), x.data()
	sp := c.spell
	used := Provs{sp.Prov, c.levelBy}
	pe := sp.Cost.Fixed
	spent := *c.counter
	spent.PE -= pe
	spent.Cast = st.Turn
	x.seal(side, "", &Sheet{Side: side, Counters: []*Counter{&spent}})
	x.tell(side, used, "%s spends %d PE on %s, whether it works or not: %d left (DN-MAGIC-10).", c.Caster, pe, sp.Title, spent.PE)
	r := x.d10(adjudicator.To(side), "a strategic spell")
	need := (pe + 9) / 10 // Table DN-MAGIC-T1
	total := r.Total + c.level
	worked := total > need
	word := map[bool]string{true: "works", false: "fails"}[worked]
	aim := ""
	if c.Region != "" {
		aim = " on " + d.regionName(c.Region)
	} else {
		aim = " for " + c.Target
	}
	r.Outcome = mark(used, fmt.Sprintf("%s casts %s%s, +%d level makes %d, needs more than %d: %s (Table DN-MAGIC-T1)",
		c.Caster, sp.ID, aim, c.level, total, need, word))
	x.tell(side, used, "%s casts %s%s: it %s (ROLL-10).", c.Caster, sp.Title, aim, word)
	if !worked {
		return
	}
	switch c.Spell {
	case spellCount, spellIdentify:
		ids := countersIn(st, c.Region)
		per := map[string]int{}
		races := []string{}
		provs := Provs{}
		for _, id := range ids {
			race, row := d.race(id)
			if row != nil {
				provs = append(provs, row.Prov)
			}
			if per[race] == 0 {
				races = append(races, race)
			}
			per[race]++
		}
		sort.Strings(races)
		if len(ids) == 0 {
			x.tell(side, used, "%s at %s: no counter there.", sp.Title, d.regionName(c.Region))
			return
		}
		used = append(used, provs...)
		if c.Spell == spellCount { // DN3-SPELL-MAGE-23: how many, which races
			x.tell(side, used, "%s at %s: %d counters; races: %s (AMB-84).", sp.Title, d.regionName(c.Region), len(ids), strings.Join(races, ", "))
			return
		}
		var parts []string // DN3-SPELL-MAGE-24: how many of each race
		for _, r := range races {
			parts = append(parts, fmt.Sprintf("%d %s", per[r], r))
		}
		x.tell(side, used, "%s at %s: %s (AMB-84).", sp.Title, d.regionName(c.Region), strings.Join(parts, ", "))
	case spellLocate:
		who := c.Target
		if who == "orb" {
			who = d.Rebels.Orb
		}
		if at := whereIs(st, who); at != "" {
			x.tell(side, used, "%s: %s is at %s (AMB-84).", sp.Title, c.Target, d.regionName(at))
		} else {
			x.tell(side, used, "%s: %s is in no Region of the valley.", sp.Title, c.Target)
		}
	}
}

// countersIn are the living counters in a Region: both sides' troops,
// stealthy ones too (AMB-84), and the neutral peoples' whose marker stands
// there.
func countersIn(st *State, region string) []string {
	var ids []string
	for _, t := range st.Troops {
		if t.Region != region {
			continue
		}
		for _, id := range t.Counters {
			if c := st.Counters[id]; c != nil && !c.Dead {
				ids = append(ids, id)
			}
		}
	}
	for _, p := range st.data.PeopleOrder {
		ps := st.Peoples[p]
		if ps == nil || ps.Allied != "" || !slices.Contains(ps.Markers, region) {
			continue
		}
		for _, m := range st.data.Peoples[p].Markers {
			if m.Region != region {
				continue
			}
			for _, id := range m.Counters {
				if c := st.Counters[id]; c != nil && !c.Dead && c.Side == "" {
					ids = append(ids, id)
				}
			}
		}
	}
	return ids
}

// whereIs is the Region holding a living counter, "" if none (dead, or off
// the map).
func whereIs(st *State, id string) string {
	c := st.Counters[id]
	if c == nil || c.Dead {
		return ""
	}
	if t := st.TroopOf(id); t != nil {
		return t.Region
	}
	if c.Side == "" && c.People != "" {
		if ps := st.Peoples[c.People]; ps != nil {
			for _, m := range st.data.Peoples[c.People].Markers {
				if slices.Contains(m.Counters, id) && slices.Contains(ps.Markers, m.Region) {
					return m.Region
				}
			}
		}
	}
	return ""
}
