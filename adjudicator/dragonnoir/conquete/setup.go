package conquete

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// The start of the campaign (B.2 … B.4): each side's secret setup, due
// from both at once (E.3, Set-up): the Rebels' 12 counters or survivors
// (DN3-CAMP-FORCE-1 … 4), their messenger (DN3-CAMP-ALLY-2) and their
// troops on the road (DN3-CAMP-SETUP-2); the Reptilians' relations with
// the 7 peoples (DN3-CAMP-REL-1) and their troops at Fort Ekal and on Le
// Pont (DN3-CAMP-SETUP-3). Both stay sealed (HID-9, HID-10, HID-11).

// newGame is the state before the setups: the people markers on their
// Regions (DN3-CAMP-SETUP-4), Fort Ekal held by the Reptilians (AMB-55).
func newGame(d *Data, opt options) *State {
	st := &State{Phase: PhaseSetup, Step: "asked", Turn: 1, Day: d.Start.Day, Slot: d.slot(d.Start.Slot),
		LastDay: opt.lastDay, LastSlot: opt.lastSlot, Counters: map[string]*Counter{}, Peoples: map[string]*PeopleState{},
		Held: Reptilians, RefereeBattles: opt.refereeBattles, BattleModule: opt.battleModule, data: d}
	for _, id := range slices.Sorted(maps.Keys(d.Counters)) {
		k := d.Counters[id]
		if k.Side == string(Rebels) || k.Side == string(Reptilians) {
			continue // they come with the setups
		}
		st.Counters[id] = &Counter{ID: id, Kind: k.Kind, People: k.Side, PE: startPE(k)}
	}
	for _, id := range d.PeopleOrder {
		p := &PeopleState{ID: id}
		for _, m := range d.Peoples[id].Markers {
			p.Markers = append(p.Markers, m.Region)
		}
		st.Peoples[id] = p
	}
	st.Asked = 1
	st.Waits = []Wait{{Phase: ReqSetup, Side: Rebels, N: 1}, {Phase: ReqSetup, Side: Reptilians, N: 1}}
	return st
}

// SetupOrders is a side's setup.
type SetupOrders struct {
	Counters    []string          `json:"counters,omitempty" yaml:"counters,omitempty"`
	Survivors   []Survivor        `json:"survivors,omitempty" yaml:"survivors,omitempty"`
	Messenger   *Messenger        `json:"messenger,omitempty" yaml:"messenger,omitempty"`
	SertegNight int               `json:"serteg_night,omitempty" yaml:"serteg-night,omitempty"`
	Relations   map[string]string `json:"relations,omitempty" yaml:"relations,omitempty"`
	Troops      []*TroopOrder     `json:"troops" yaml:"troops"`
}

// Survivor is a character who left the Krob caves (DN3-CAMP-FORCE-4):
// wounded, or raised from the dead by magic (AMB-74: 75 PE for a caster).
type Survivor struct {
	Unit        string `json:"unit" yaml:"unit"`
	Wounded     bool   `json:"wounded,omitempty" yaml:"wounded,omitempty"`
	Resurrected bool   `json:"resurrected,omitempty" yaml:"resurrected,omitempty"`
}

var setupRequest = &requestKind{
	Kind: "setup", Title: "setup", Hidden: true, Sealed: true,
	Prompt: "Your army for the whole campaign, kept secret: the Rebels their 12 counters (counters:) or their DN2 survivors (survivors:), " +
		"their secret messenger (messenger: {ally: PEOPLE} or {traitor: CHIEF}) and their troops on the road (troops: {R1: [...], ...}); " +
		"the Reptilians their relations with the 7 peoples (relations:, 2 A, 2 E and 3 N) and their troops (troops:, at Fort Ekal, and one at Le Pont): docs/orders/la-conquete.md.",
	Parse:  parseSetup,
	Decide: decideSetup,
}

func parseSetup(st *State, w Wait, n *yaml.Node) (adjudicator.Orders, error) {
	var f struct {
		Counters    yaml.Node         `yaml:"counters"`
		Survivors   []yaml.Node       `yaml:"survivors"`
		Messenger   *Messenger        `yaml:"messenger"`
		SertegNight int               `yaml:"serteg-night"`
		Relations   map[string]string `yaml:"relations"`
		Troops      yaml.Node         `yaml:"troops"`
	}
	e := &errs{}
	if !decode(e, n, &f) {
		return nil, e.err()
	}
	d := st.data
	o := &SetupOrders{Relations: f.Relations, Messenger: f.Messenger, SertegNight: f.SertegNight}
	o.Troops = troopOrders(e, &f.Troops, true)
	placed := map[string]string{} // counter → troop
	if w.Side == Rebels {
		if f.Relations != nil {
			e.add(key(n, "relations"), codeWrongSection, "relations: are the Reptilian player's (DN3-CAMP-REL-1)")
		}
		chosen := parseRebelForce(e, d, n, &f.Counters, f.Survivors, o)
		checkMessenger(e, d, n, f.Messenger)
		if f.SertegNight != 0 && !slices.Contains(d.SertegNights, f.SertegNight) {
			e.add(key(n, "serteg-night"), codeBadChoice, "serteg-night: the Sertegs arrive in the Nuit of day %s (DN3-CAMP-SERTEG-2)", joinInts(d.SertegNights, " or "))
		}
		for _, t := range o.Troops {
			if t.At != "" {
				e.add(t.node, codeBadRegion, "troop %s: every Rebel troop starts on the road (DN3-CAMP-SETUP-2): give only its counters", t.Troop)
			}
			t.At = "route"
		}
		checkSetupTroops(e, n, o.Troops, chosen, placed)
	} else {
		for _, k := range []string{"counters", "survivors", "messenger", "serteg-night"} {
			if yamlValue(n, k) != nil {
				e.add(key(n, k), codeWrongSection, "%s: is the Rebel player's: the Reptilians start with all their counters (DN3-CAMP-FORCE-6)", k)
			}
		}
		checkRelations(e, d, n, f.Relations)
		var all []string
		for _, id := range sortedCounters(d) {
			if k := d.Counters[id]; k.Side == string(Reptilians) && k.Role != "kandar" && k.Role != "kandar-officer" {
				all = append(all, id)
			}
		}
		pont := 0
		for _, t := range o.Troops {
			switch t.At {
			case "":
				t.At = "fort-ekal"
			case "fort-ekal":
			case "le-pont":
				pont++
				checkPontTroop(e, d, t)
			default:
				e.add(t.node, codeBadRegion, "troop %s: the Reptilian troops start at fort-ekal, and one at le-pont (DN3-CAMP-SETUP-3)", t.Troop)
			}
		}
		if pont != 1 {
			e.add(key(n, "troops"), codeBadCount, "one Reptilian troop starts on Le Pont (at: le-pont), not %d (DN3-CAMP-SETUP-3)", pont)
		}
		checkSetupTroops(e, n, o.Troops, all, placed)
	}
	return o, e.err()
}

// parseRebelForce reads the Rebels' counters: 12 candidates, at most 4 of
// them key characters (DN3-CAMP-FORCE-1, -2), or the survivors of a DN2
// game (DN3-CAMP-FORCE-4).
func parseRebelForce(e *errs, d *Data, n, counters *yaml.Node, survivors []yaml.Node, o *SetupOrders) []string {
	ids, nodes := scalars(e, counters, "counters")
	candidate := func(at *yaml.Node, id string) bool {
		if k := d.Counters[id]; k == nil || k.Side != string(Rebels) {
			var all []string
			for _, c := range sortedCounters(d) {
				if d.Counters[c].Side == string(Rebels) {
					all = append(all, c)
				}
			}
			e.add(at, adjudicator.CodeUnknownUnit, "%s is not a counter of Dragon Noir 2 the Rebels may take%s", id, suggest(id, all))
			return false
		}
		return true
	}
	seen := map[string]bool{}
	twice := func(at *yaml.Node, id string) {
		if seen[id] {
			e.add(at, codeTwice, "%s is named twice", id)
		}
		seen[id] = true
	}
	switch {
	case len(ids) > 0 && len(survivors) > 0:
		e.add(key(n, "survivors"), codeWrongSection, "give counters: (12 chosen, DN3-CAMP-FORCE-1) or survivors: (after a game of L'Épreuve, DN3-CAMP-FORCE-4), not both")
	case len(ids) > 0:
		key := 0
		for i, id := range ids {
			candidate(nodes[i], id)
			twice(nodes[i], id)
			if slices.Contains(d.Rebels.Key, id) {
				key++
			}
		}
		if len(ids) != d.Rebels.Pick {
			e.add(counters, codeBadCount, "the Rebels start with %d counters, not %d (DN3-CAMP-FORCE-1)", d.Rebels.Pick, len(ids))
		}
		if key > d.Rebels.KeyMax {
			e.add(counters, codeBadCount, "at most %d of %s (DN3-CAMP-FORCE-2); you chose %d", d.Rebels.KeyMax, list(d.Rebels.Key), key)
		}
		o.Counters = ids
		return ids
	case len(survivors) > 0:
		var out []string
		for i := range survivors {
			sn := &survivors[i]
			s := Survivor{}
			if sn.Kind == yaml.ScalarNode {
				s.Unit = sn.Value
			} else if !decode(e, sn, &s) {
				continue
			}
			if candidate(sn, s.Unit) {
				twice(sn, s.Unit)
				out = append(out, s.Unit)
				o.Survivors = append(o.Survivors, s)
			}
		}
		return out
	default:
		e.add(n, adjudicator.CodeMissingField, "give your %d counters (counters: [...], DN3-CAMP-FORCE-1) or your survivors (survivors: [...], DN3-CAMP-FORCE-4)", d.Rebels.Pick)
	}
	return nil
}

// checkMessenger: an ally people (not the Black Dragon) or a traitor war
// chief (DN3-CAMP-ALLY-2 … 5).
func checkMessenger(e *errs, d *Data, n *yaml.Node, m *Messenger) {
	at := key(n, "messenger")
	var allies, chiefs []string
	for _, id := range d.PeopleOrder {
		if d.Peoples[id].Relations {
			allies = append(allies, id)
		}
	}
	for _, id := range sortedCounters(d) {
		if d.Counters[id].Role == "chief" {
			chiefs = append(chiefs, id)
		}
	}
	switch {
	case m == nil || m.Ally == "" && m.Traitor == "":
		e.add(at, adjudicator.CodeMissingField, "choose your secret messenger's news (DN3-CAMP-ALLY-2): messenger: {ally: PEOPLE} (one of %s) or messenger: {traitor: CHIEF} (one of %s)", list(allies), list(chiefs))
	case m.Ally != "" && m.Traitor != "":
		e.add(at, codeBadChoice, "the messenger brings one news: an ally or a traitor, not both (DN3-CAMP-ALLY-2)")
	case m.Announced:
		e.add(at, codeWrongSection, "messenger: give ally: or traitor: only")
	case m.Ally == "dragon":
		e.add(at, codeBadChoice, "the Black Dragon cannot be chosen as the ally (DN3-CAMP-ALLY-3)")
	case m.Ally != "" && !slices.Contains(allies, m.Ally):
		e.add(at, codeBadChoice, "ally %q: choose one of %s (DN3-CAMP-ALLY-3)", m.Ally, list(allies))
	case m.Traitor != "" && !slices.Contains(chiefs, m.Traitor):
		e.add(at, codeBadChoice, "traitor %q: choose one of the war chiefs, %s (DN3-CAMP-ALLY-5)", m.Traitor, list(chiefs))
	}
}

// checkRelations: A, N or E for each of the 7 peoples, 2 A, 2 E and 3 N
// (DN3-CAMP-REL-1, AMB-48).
func checkRelations(e *errs, d *Data, n *yaml.Node, rel map[string]string) {
	at := key(n, "relations")
	var seven []string
	for _, id := range d.PeopleOrder {
		if d.Peoples[id].Relations {
			seven = append(seven, id)
		}
	}
	count := map[string]int{}
	for _, id := range slices.Sorted(maps.Keys(rel)) {
		v := rel[id]
		switch {
		case !slices.Contains(seven, id):
			e.add(at, codeBadChoice, "relations: %q is not one of the 7 peoples (%s)%s", id, list(seven), suggest(id, seven))
		case v != "A" && v != "N" && v != "E":
			e.add(at, codeBadChoice, "relations: %s: write A (Allié), N (Neutre) or E (Ennemi)", id)
		}
		count[v]++
	}
	for _, id := range seven {
		if _, ok := rel[id]; !ok {
			e.add(at, adjudicator.CodeMissingField, "relations: give %s its A, N or E (DN3-CAMP-REL-1)", id)
		}
	}
	if len(rel) == len(seven) && (count["A"] != 2 || count["E"] != 2 || count["N"] != 3) {
		e.add(at, codeBadCount, "relations: 2 Allies (A), 2 Enemies (E) and 3 Neutrals (N), not %d, %d and %d (DN3-CAMP-REL-1)", count["A"], count["E"], count["N"])
	}
}

// checkPontTroop: at most 1 war chief and 3 Warriors, not the Sorcerer
// (DN3-CAMP-SETUP-3, AMB-47).
func checkPontTroop(e *errs, d *Data, t *TroopOrder) {
	chiefs, warriors := 0, 0
	for i, id := range t.Counters {
		k := d.Counters[id]
		if k == nil {
			continue
		}
		switch k.Role {
		case "chief":
			chiefs++
		case "warrior":
			warriors++
		default:
			e.add(t.nodes[i], codeBadTroop, "%s may not start on Le Pont: that troop holds at most 1 war chief and 3 Warriors, and not the Sorcerer (DN3-CAMP-SETUP-3, AMB-47)", id)
		}
	}
	if chiefs > 1 || warriors > 3 {
		e.add(t.node, codeBadCount, "troop %s on Le Pont: at most 1 war chief and 3 Warriors, not %d and %d (DN3-CAMP-SETUP-3)", t.Troop, chiefs, warriors)
	}
}

// checkSetupTroops: every counter of all in exactly one troop, at most 8
// troops, each of a valid id and not empty (DN3-CAMP-SETUP-1,
// DN3-CAMP-TROOP-2, -3).
func checkSetupTroops(e *errs, n *yaml.Node, troops []*TroopOrder, all []string, placed map[string]string) {
	if len(troops) == 0 {
		e.add(key(n, "troops"), adjudicator.CodeMissingField, "troops: divide your counters into troops, e.g. \"R1: [konrad, godiva]\" (DN3-CAMP-SETUP-1)")
		return
	}
	if len(troops) > MaxTroops {
		e.add(key(n, "troops"), codeBadTroop, "%d troops: a side has %d Troop markers (DN3-CAMP-TROOP-3)", len(troops), MaxTroops)
	}
	for _, t := range troops {
		if !validTroopID(t.Troop) {
			e.add(t.node, codeBadTroop, "troop %q: your Troop markers are R1 to R%d", t.Troop, MaxTroops)
		}
		if len(t.Counters) == 0 {
			e.add(t.node, codeBadTroop, "troop %s is empty: a troop holds at least one counter (DN3-CAMP-TROOP-2)", t.Troop)
		}
		for i, id := range t.Counters {
			switch {
			case !slices.Contains(all, id):
				e.add(t.nodes[i], adjudicator.CodeUnknownUnit, "%s is not one of your counters%s", id, suggest(id, all))
			case placed[id] != "":
				e.add(t.nodes[i], codeTwice, "%s is in troops %s and %s", id, placed[id], t.Troop)
			default:
				placed[id] = t.Troop
			}
		}
	}
	var missing []string
	for _, id := range all {
		if placed[id] == "" {
			missing = append(missing, id)
		}
	}
	if len(missing) > 0 {
		e.add(key(n, "troops"), adjudicator.CodeMissingField, "put every counter in a troop: %s %s in none", list(missing), map[bool]string{true: "is", false: "are"}[len(missing) == 1])
	}
}

// decideSetup records a side's setup, sealed to it; when both are in,
// setupDone starts the first turn.
func decideSetup(x *world, w Wait, o adjudicator.Orders) {
	so := o.(*SetupOrders)
	st, d := x.st(), x.data()
	sheet := &Sheet{Side: w.Side}
	newCounter := func(id string, wounded, raised bool) *Counter {
		k := d.Counters[id]
		c := &Counter{ID: id, Kind: k.Kind, Side: w.Side, PE: k.PE}
		if wounded {
			c.Wounds = 1
		}
		if (wounded || raised) && k.PEWounded > 0 {
			c.PE = k.PEWounded // DN3-CAMP-FORCE-5, AMB-74
		}
		return c
	}
	inTroop := map[string]bool{}
	for _, t := range so.Troops {
		sheet.Troops = append(sheet.Troops, &Troop{ID: t.Troop, Side: w.Side, Region: t.At, Counters: slices.Clone(t.Counters)})
		for _, id := range t.Counters {
			inTroop[id] = true
		}
	}
	switch {
	case len(so.Survivors) > 0:
		for _, s := range so.Survivors {
			sheet.Counters = append(sheet.Counters, newCounter(s.Unit, s.Wounded, s.Resurrected))
		}
	default:
		for _, id := range sortedCounters(d) {
			if inTroop[id] {
				sheet.Counters = append(sheet.Counters, newCounter(id, false, false))
			}
		}
	}
	if w.Side == Reptilians { // the Kandärs wait off the map (DN3-CAMP-KANDAR-1)
		for _, id := range sortedCounters(d) {
			if k := d.Counters[id]; k.Side == string(Reptilians) && !inTroop[id] {
				sheet.Counters = append(sheet.Counters, newCounter(id, false, false))
			}
		}
	}
	x.seal(w.Side, "", sheet)
	for _, t := range so.Troops {
		x.tell(w.Side, nil, "Your troop %s at %s: %s.", t.Troop, d.regionName(t.At), list(t.Counters))
	}
	if w.Side == Rebels {
		x.seal(Rebels, "messenger", &MessengerSet{Messenger: *so.Messenger})
		if so.Messenger.Ally != "" {
			x.tell(Rebels, nil, "Your secret messenger names your ally: %s (DN3-CAMP-ALLY-3).", d.Peoples[so.Messenger.Ally].Name)
		} else {
			x.tell(Rebels, nil, "Your secret messenger names the traitor: %s (DN3-CAMP-ALLY-5).", so.Messenger.Traitor)
		}
		if so.SertegNight != 0 {
			x.seal(Rebels, "", &SertegNightSet{Night: so.SertegNight})
			x.tell(Rebels, Provs{d.SertegProv}, "The Sertegs will arrive in the Nuit of day %d (DN3-CAMP-SERTEG-2).", so.SertegNight)
		}
		if !slices.Contains(inTroopList(so), d.Rebels.Orb) {
			x.tell(Rebels, nil, "Without %s you have no Orb (DN3-CAMP-FORCE-3).", d.Rebels.Orb)
		}
	} else {
		for _, id := range slices.Sorted(maps.Keys(so.Relations)) {
			x.seal(Reptilians, "relation-"+id, &RelationSet{People: id, Value: so.Relations[id]})
		}
		x.tell(Reptilians, nil, "Your relations with the peoples (DN3-CAMP-REL-1): %s.", relationsText(d, so.Relations))
	}
	var ids []string
	for _, t := range so.Troops {
		ids = append(ids, t.Troop)
	}
	where := map[adjudicator.Side]string{Rebels: "on the road down the mountain (DN3-CAMP-SETUP-2)", Reptilians: "at Fort Ekal and Le Pont (DN3-CAMP-SETUP-3)"}[w.Side]
	x.say(nil, "%s set up %d troops %s.", capital(sideName(w.Side)), len(so.Troops), where)
	_ = st
}

func inTroopList(so *SetupOrders) []string {
	var out []string
	for _, t := range so.Troops {
		out = append(out, t.Counters...)
	}
	return out
}

// relationsText writes relations for people: "Barbarians (Barbares): A, …".
func relationsText(d *Data, rel map[string]string) string {
	var parts []string
	for _, id := range d.PeopleOrder {
		if v, ok := rel[id]; ok {
			parts = append(parts, id+": "+v)
		}
	}
	return list(parts)
}

// setupDone: both setups are in; the campaign's first turn begins.
func (x *world) setupDone() {
	st := x.st()
	x.say(nil, "The campaign begins: %s, the Matin after the night of the secret messenger (DN3-CAMP-ALLY-2).", st.when())
	x.beginTurn(1, st.Day, st.Slot)
}

// sortedCounters are the module's counter ids, sorted.
func sortedCounters(d *Data) []string { return slices.Sorted(maps.Keys(d.Counters)) }

func yamlValue(n *yaml.Node, k string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == k {
			return n.Content[i+1]
		}
	}
	return nil
}

func joinInts(ns []int, last string) string {
	var s []string
	for _, n := range ns {
		s = append(s, fmt.Sprint(n))
	}
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " " + last + " " + s[len(s)-1]
}

// capital is s with its first letter in upper case.
func capital(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
