package conquete

import (
	"maps"
	"slices"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// The Reorganisation phase (B.7, DN3-CAMP-TURN-2): both sides at once, in
// secret (PBEM-DN3-7 … 10). Counters move between troops in the same
// Region, troops are made or removed (at most 8 markers, DN3-CAMP-TROOP-3),
// all-stealth troops become stealthy (DN3-CAMP-STEALTH-1), Rest markers
// are placed or removed (DN3-CAMP-REST-2, AMB-96); the Rebels may name
// the Sertegs' night (PBEM-DN3-6); strategic spells are the magic
// chapter's (strategicSpells).

// ReorgOrders is a side's reorganisation.
type ReorgOrders struct {
	// Troops are the troops whose counters change: each with all its
	// counters after; an empty list removes it. Troops not named keep theirs.
	Troops []*TroopOrder `json:"troops,omitempty" yaml:"troops,omitempty"`
	// Stealthy and Rest, when given, are every troop that is stealthy /
	// at Rest after the reorganisation; nil leaves them as they are.
	Stealthy    []string `json:"stealthy,omitempty" yaml:"stealthy,omitempty"`
	Rest        []string `json:"rest,omitempty" yaml:"rest,omitempty"`
	SetStealthy bool     `json:"set_stealthy,omitempty" yaml:"-"`
	SetRest     bool     `json:"set_rest,omitempty" yaml:"-"`
	SertegNight int      `json:"serteg_night,omitempty" yaml:"serteg-night,omitempty"`
	// Spells are strategic spells (PBEM-DN3-10), read by the magic chapter.
	Spells []yaml.Node `json:"-" yaml:"spells,omitempty"`
	// after is the army sheet the orders make, computed when read.
	after []*Troop
}

var reorgRequest = &requestKind{
	Kind: "orders", Title: "reorganisation", Hidden: true, Sealed: true,
	Prompt: "Your reorganisation, kept secret (DN3-CAMP-TROOP-5): the troops whose counters change (troops: {R1: [...], R4: [...]}, " +
		"an empty list removes one), the troops stealthy after it (stealthy: [...]) and at Rest (rest: [...]); {} changes nothing: docs/orders/la-conquete.md.",
	Parse:   parseReorg,
	Decide:  decideReorg,
	Default: func(*State, Wait) (string, bool) { return "{}", true },
}

func parseReorg(st *State, w Wait, n *yaml.Node) (adjudicator.Orders, error) {
	o := &ReorgOrders{}
	if isNull(n) {
		o.after = cloneTroops(st.SideTroops(w.Side))
		return o, nil
	}
	var f struct {
		Troops      yaml.Node   `yaml:"troops"`
		Stealthy    yaml.Node   `yaml:"stealthy"`
		Rest        yaml.Node   `yaml:"rest"`
		SertegNight int         `yaml:"serteg-night"`
		Spells      []yaml.Node `yaml:"spells"`
	}
	e := &errs{}
	if !decode(e, n, &f) {
		return nil, e.err()
	}
	d := st.data
	o.Troops = troopOrders(e, &f.Troops, false)
	o.SertegNight, o.Spells = f.SertegNight, f.Spells
	if f.SertegNight != 0 {
		switch {
		case w.Side != Rebels:
			e.add(key(n, "serteg-night"), codeWrongSection, "serteg-night: is the Rebel player's (DN3-CAMP-SERTEG-2)")
		case !slices.Contains(d.SertegNights, f.SertegNight):
			e.add(key(n, "serteg-night"), codeBadChoice, "serteg-night: the Sertegs arrive in the Nuit of day %s (DN3-CAMP-SERTEG-2)", joinInts(d.SertegNights, " or "))
		case st.SertegTurn > 0 || st.Day > d.SertegNights[0] || st.Day == d.SertegNights[0] && st.Night():
			e.add(key(n, "serteg-night"), codeNotNow, "serteg-night: the night is declared at the latest in the Reorganisation before the first night's (PBEM-DN3-6)")
		}
	}
	// The new sheet: the troops named replace theirs.
	before := st.SideTroops(w.Side)
	after := cloneTroops(before)
	from := map[string]*Troop{} // counter → its troop before
	for _, t := range before {
		for _, id := range t.Counters {
			from[id] = t
		}
	}
	named := map[string]bool{}
	for _, to := range o.Troops {
		if named[to.Troop] {
			e.add(to.node, codeTwice, "troop %s is named twice", to.Troop)
			continue
		}
		named[to.Troop] = true
		old := st.Troop(w.Side, to.Troop)
		switch {
		case old == nil && (to.Troop == SertegTroop || to.Troop == KandarTroop):
			e.add(to.node, codeBadTroop, "troop %s is a special marker: it is never made (AMB-53)", to.Troop)
			continue
		case old == nil && !validTroopID(to.Troop):
			e.add(to.node, codeBadTroop, "troop %q: your Troop markers are R1 to R%d", to.Troop, MaxTroops)
			continue
		case old != nil && old.ID == KandarTroop:
			e.add(to.node, codeBadTroop, "the Kandär troop holds the Kandärs and no one else, ever (DN3-CAMP-KANDAR-2)")
			continue
		}
		region := ""
		if old != nil {
			region = old.Region
		}
		for i, id := range to.Counters {
			c := ownCounter(e, st, w.Side, to.nodes[i], id)
			if c == nil {
				continue
			}
			src := from[id]
			switch {
			case region == "":
				region = src.Region
			case src.Region != region:
				e.add(to.nodes[i], codeBadRegion, "%s is at %s, troop %s at %s: counters change troops within a Region only (DN3-CAMP-TROOP-5)", id, src.Region, to.Troop, region)
			}
			if to.Troop == SertegTroop && d.Counters[id].Side != "serteg" {
				e.add(to.nodes[i], codeBadTroop, "the Serteg troop S holds the Sertegs only (AMB-53)")
			}
		}
		i := slices.IndexFunc(after, func(t *Troop) bool { return t.ID == to.Troop })
		switch {
		case len(to.Counters) == 0 && i >= 0:
			after = slices.Delete(after, i, i+1) // DN3-CAMP-TROOP-2
		case len(to.Counters) == 0:
			e.add(to.node, codeBadTroop, "troop %s: you have no such troop to remove", to.Troop)
		case i >= 0:
			after[i].Counters = slices.Clone(to.Counters)
		default:
			t := &Troop{ID: to.Troop, Side: w.Side, Region: region, Counters: slices.Clone(to.Counters)}
			if src := from[to.Counters[0]]; src != nil {
				t.Via, t.Stealthy, t.Fatigue = src.Via, src.Stealthy, src.Fatigue
			}
			after = append(after, t)
		}
	}
	// Take the counters that moved out of the troops not named.
	for _, t := range after {
		if named[t.ID] {
			continue
		}
		t.Counters = slices.DeleteFunc(t.Counters, func(id string) bool {
			for _, to := range o.Troops {
				if slices.Contains(to.Counters, id) {
					return true
				}
			}
			return false
		})
	}
	seen := map[string]string{}
	for _, t := range after {
		if len(t.Counters) == 0 && !named[t.ID] {
			e.add(key(n, "troops"), codeBadTroop, "troop %s would be left empty: give it counters, or remove it with \"%s: []\" (DN3-CAMP-TROOP-2)", t.ID, t.ID)
		}
		for _, id := range t.Counters {
			if seen[id] != "" {
				e.add(key(n, "troops"), codeTwice, "%s is in troops %s and %s", id, seen[id], t.ID)
			}
			seen[id] = t.ID
		}
	}
	for _, druid := range slices.Sorted(maps.Keys(druidAnimals)) {
		animal := druidAnimals[druid]
		if a, b := seen[druid], seen[animal]; a != "" && b != "" && a != b {
			e.add(key(n, "troops"), codeDruidAnimal, "%s and %s, its animal, must stay in the same troop (now %s and %s) (DN3-PEOPLE-DRUID-7)", druid, animal, a, b)
		}
	}
	if used := markersUsed(after); used > MaxTroops {
		e.add(key(n, "troops"), codeBadTroop, "%d troops: you have %d Troop markers; merge troops to free some (DN3-CAMP-TROOP-3)", used, MaxTroops)
	}
	if f.Stealthy.Kind != 0 {
		o.SetStealthy = true
		ids, nodes := scalars(e, &f.Stealthy, "stealthy")
		o.Stealthy = ids
		for i, id := range ids {
			t := findTroop(after, id)
			if t == nil {
				e.add(nodes[i], codeBadTroop, "stealthy: you have no troop %s after this reorganisation", id)
				continue
			}
			if why := cannotHide(st, t); why != "" {
				e.add(nodes[i], codeCannotHide, "troop %s cannot be stealthy: %s (DN3-CAMP-STEALTH-1, -2)", id, why)
			}
		}
		for _, t := range after {
			hidden := slices.Contains(ids, t.ID)
			if t.Stealthy && !hidden {
				t.Via = "" // back on the map at the centre
			}
			t.Stealthy = hidden
		}
	}
	if f.Rest.Kind != 0 {
		o.SetRest = true
		ids, nodes := scalars(e, &f.Rest, "rest")
		o.Rest = ids
		for i, id := range ids {
			t := findTroop(after, id)
			if t == nil {
				e.add(nodes[i], codeBadTroop, "rest: you have no troop %s after this reorganisation", id)
				continue
			}
			if t.ID == KandarTroop && kandarOfficerDead(st) {
				e.add(nodes[i], codeKandarWaits, "rest: troop K runs for the exit since its Officer died and cannot rest (AMB-56)")
			}
			if p := st.PeopleAt(t.Region); p != "" {
				e.add(nodes[i], codeNoRest, "troop %s cannot rest at %s: the marker of %s stands there (DN3-CAMP-REST-2)", id, d.regionName(t.Region), d.Peoples[p].Name)
			}
		}
		for _, t := range after {
			rest := slices.Contains(ids, t.ID)
			if rest && !t.Rest {
				t.RestSince = st.Turn
			}
			if !rest {
				t.RestSince = 0
			}
			t.Rest = rest
		}
	}
	if len(f.Spells) > 0 {
		parseStrategicSpells(e, st, w.Side, after, f.Spells)
	}
	o.after = after
	return o, e.err()
}

// cannotHide says why a troop cannot be stealthy, "" if it can: only
// counters that move stealthily, Elves in forest Regions only
// (DN3-CAMP-STEALTH-2, AMB-66, AMB-68).
func cannotHide(st *State, t *Troop) string {
	d := st.data
	for _, id := range t.Counters {
		switch d.Counters[id].Stealth {
		case StealthAlways:
		case StealthForest:
			if !d.Regions[t.Region].Forest {
				return id + " is stealthy in forest Regions only, and " + d.regionName(t.Region) + " is none"
			}
		default:
			return id + " cannot move stealthily"
		}
	}
	return ""
}

func findTroop(ts []*Troop, id string) *Troop {
	for _, t := range ts {
		if t.ID == id {
			return t
		}
	}
	return nil
}

func cloneTroops(ts []*Troop) []*Troop {
	out := make([]*Troop, len(ts))
	for i, t := range ts {
		x := *t
		x.Counters = slices.Clone(t.Counters)
		out[i] = &x
	}
	return out
}

func markersUsed(ts []*Troop) int {
	n := 0
	for _, t := range ts {
		if t.ID != SertegTroop && t.ID != KandarTroop {
			n++
		}
	}
	return n
}

// decideReorg applies a side's reorganisation: its new sheet sealed to it,
// and for everyone what shows on the map (markers placed, removed, at
// Rest).
func decideReorg(x *world, w Wait, o adjudicator.Orders) {
	ro := o.(*ReorgOrders)
	st, d := x.st(), x.data()
	before := cloneTroops(st.SideTroops(w.Side))
	sheet := &Sheet{Side: w.Side, Troops: ro.after}
	for _, t := range before {
		if findTroop(ro.after, t.ID) == nil {
			sheet.Removed = append(sheet.Removed, t.ID)
		}
	}
	changed := len(sheet.Removed) > 0 || len(before) != len(ro.after)
	for _, t := range ro.after {
		if b := findTroop(before, t.ID); b == nil || !sameTroop(b, t) {
			changed = true
		}
	}
	if changed {
		x.seal(w.Side, "", sheet)
		for _, t := range ro.after {
			if b := findTroop(before, t.ID); b == nil || !sameTroop(b, t) {
				x.tell(w.Side, nil, "Your troop %s at %s: %s%s.", t.ID, d.regionName(t.Region), list(t.Counters), troopMarks(t))
			}
		}
		for _, id := range sheet.Removed {
			x.tell(w.Side, nil, "Your troop %s is removed (DN3-CAMP-TROOP-2).", id)
		}
	}
	// What the other side sees: visible markers appearing, leaving, resting.
	for _, t := range ro.after {
		b := findTroop(before, t.ID)
		switch {
		case !t.Stealthy && (b == nil || b.Stealthy):
			x.say(nil, "%s place troop %s at %s.", capital(sideName(w.Side)), t.ID, d.regionName(t.Region))
		case t.Stealthy && b != nil && !b.Stealthy:
			x.say(nil, "%s take troop %s off the map.", capital(sideName(w.Side)), t.ID)
		}
		if !t.Stealthy && t.Rest != (b != nil && b.Rest) {
			x.say(nil, "%s troop %s %s.", capital(sideName(w.Side))+"'", t.ID, map[bool]string{true: "is put at Rest (DN3-CAMP-REST-2)", false: "leaves its Rest"}[t.Rest])
		}
	}
	for _, id := range sheet.Removed {
		if b := findTroop(before, id); !b.Stealthy {
			x.say(nil, "%s take troop %s off the map.", capital(sideName(w.Side)), id)
		}
	}
	if ro.SertegNight != 0 {
		x.seal(Rebels, "", &SertegNightSet{Night: ro.SertegNight})
		x.tell(Rebels, Provs{d.SertegProv}, "The Sertegs will arrive in the Nuit of day %d (DN3-CAMP-SERTEG-2).", ro.SertegNight)
	}
	if len(ro.Spells) > 0 {
		x.strategicSpells(w.Side, ro.Spells)
	}
}

func sameTroop(a, b *Troop) bool {
	return a.Region == b.Region && a.Via == b.Via && slices.Equal(a.Counters, b.Counters) && a.Stealthy == b.Stealthy &&
		a.Rest == b.Rest && a.RestSince == b.RestSince && a.Fatigue == b.Fatigue && a.Moved == b.Moved
}

// troopMarks are a troop's markers for its owner: ", stealthy, at Rest".
func troopMarks(t *Troop) string {
	s := ""
	if t.Stealthy {
		s += ", stealthy"
	}
	if t.Rest {
		s += ", at Rest"
	}
	if t.Fatigue != "" {
		s += ", " + t.Fatigue
	}
	return s
}

// druidAnimals pairs each druid with its animal (DN3-PEOPLE-DRUID-3): on
// the strategic map they are always in the same troop (DN3-PEOPLE-DRUID-7).
var druidAnimals = map[string]string{"terclaugast": "leopard", "heliogast": "stag", "radagast": "boar"}

// codeDruidAnimal refuses a reorganisation parting a druid from its animal.
const codeDruidAnimal = "druid-animal"
