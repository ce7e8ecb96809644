package glory

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// The counters (units.csv) and the strategic events (events.yaml).

type fanUnit struct {
	line                      int
	ID                        string
	Qty                       int
	Type, Race, Land, Allegia string
	Combat, Tactical, Move    int
}

func (im *importer) readUnits() error {
	b, err := im.file("units.csv", true)
	if err != nil {
		return err
	}
	recs, err := readCSV("units.csv", b)
	if err != nil {
		return err
	}
	if len(recs) < 2 {
		return fmt.Errorf("units.csv: no counters")
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[strings.ToLower(strings.TrimSpace(h))] = i
	}
	for _, need := range []string{"id", "quantity", "type", "race", "land", "allegiance", "combat_rating", "tactical_rating", "movement"} {
		if _, ok := col[need]; !ok {
			return fmt.Errorf("units.csv: no column %q in its header line", need)
		}
	}
	for i, r := range recs[1:] {
		line := i + 2
		get := func(k string) string {
			if j := col[k]; j < len(r) {
				return strings.TrimSpace(r[j])
			}
			return ""
		}
		num := func(k string) (int, error) {
			v := get(k)
			if v == "" {
				return 0, nil
			}
			n, err := strconv.Atoi(v)
			if err != nil {
				return 0, fmt.Errorf("units.csv line %d: %s %q is not a number", line, k, v)
			}
			return n, nil
		}
		u := fanUnit{line: line, ID: get("id"), Type: strings.ToLower(get("type")), Race: strings.ToLower(get("race")), Land: strings.ToLower(get("land")), Allegia: strings.ToLower(get("allegiance"))}
		var errs [4]error
		u.Qty, errs[0] = num("quantity")
		u.Combat, errs[1] = num("combat_rating")
		u.Tactical, errs[2] = num("tactical_rating")
		u.Move, errs[3] = num("movement")
		for _, e := range errs {
			if e != nil {
				return e
			}
		}
		if u.Qty <= 0 {
			im.note("units.csv line %d: quantity %d: left out", line, u.Qty)
			continue
		}
		im.units = append(im.units, u)
	}
	return nil
}

// unitTypes maps the fan unit types onto the rules' counter types.
var unitTypes = map[string]string{
	"inf": Infantry, "cav": Cavalry, "wing": Air, "citadel": Air, "fleet": Fleet,
	"general": Leader, "admiral": Leader, "highlord": Leader, "emperor": Leader, "wizard": Wizard,
}

// unitRaces maps fan races onto the races the rules read (the others are
// kept as they are).
var unitRaces = map[string]string{"solamnic": "human", "pirate": "human", "magic": "citadel"}

type outFace struct {
	Strength int `yaml:"strength"`
	MP       int `yaml:"mp"`
}

type outKind struct {
	ID     string   `yaml:"id"`
	Title  string   `yaml:"title"`
	Nation string   `yaml:"nation,omitempty"`
	Side   string   `yaml:"side,omitempty"`
	Type   string   `yaml:"type"`
	Race   string   `yaml:"race"`
	Full   outFace  `yaml:"full,flow"`
	Half   *outFace `yaml:"half,omitempty,flow"`
	Naval  bool     `yaml:"naval,omitempty"`
	Count  int      `yaml:"count,omitempty"`
	Errata string   `yaml:"errata,omitempty"`
	Source string   `yaml:"source"`
	Rule   string   `yaml:"rule,omitempty"`
	Note   string   `yaml:"note,omitempty"`
}

// errata applies DG-ERRATA-2..4 (the backs of the Silvanesti leader, four
// fleets and five elf armies, Dragon #107) when the rulebook numbers file
// states them.
func (im *importer) errata(k *outKind, u fanUnit) []outKind {
	if !strings.Contains(im.numbers, "Errata") || u.Land != "silvanesti" {
		return nil
	}
	switch {
	case k.Type == Leader:
		k.Full, k.Errata, k.Source, k.Rule = outFace{3, 12}, "DG-ERRATA-2", "rule", "DG-ERRATA-2"
		k.Note = "the Silvanesti leader: Tactical Value 3, Whitestone, 12 MP (counter errata)"
	case k.Type == Fleet:
		k.Half, k.Errata, k.Source, k.Rule = &outFace{2, 50}, "DG-ERRATA-3", "rule", "DG-ERRATA-3"
		k.Note = "damaged face from the counter errata: combat value 2, 50 MP"
	case k.Type == Infantry && k.Race == "elf":
		k.Half, k.Errata, k.Source, k.Rule = &outFace{3, 5}, "DG-ERRATA-4", "rule", "DG-ERRATA-4"
		k.Note = "reduced face from the counter errata: strength 3, 5 MP"
		if k.Count > 5 { // the errata row holds five elf armies; the others keep an assumed face like it
			extra := *k
			extra.ID = fmt.Sprintf("%s-%d", k.ID, 6)
			extra.Count, extra.Errata, extra.Source, extra.Rule = 0, "", "assumed", ""
			extra.Half = &outFace{3, 5}
			extra.Note = "a sixth Silvanesti elf army in the fan data: the errata name five; its reduced face is assumed like theirs"
			if k.Count > 6 {
				extra.Count = k.Count - 5
				extra.ID = k.ID + "-x"
			}
			k.Count = 5
			return []outKind{extra}
		}
	}
	return nil
}

// countersFile writes counters.yaml.
func (im *importer) countersFile() ([]byte, error) {
	seen := map[string]int{}
	halfAssumed := 0
	for _, u := range im.units {
		typ, ok := unitTypes[u.Type]
		if !ok {
			im.note("units.csv line %d: type %q is not a counter type the rules know: left out", u.line, u.Type)
			continue
		}
		race := u.Race
		if r, ok := unitRaces[race]; ok {
			race = r
		}
		id := ident(u.ID)
		if id == "" {
			parts := []string{u.Land, u.Race, u.Type}
			if u.Land == "" {
				parts = parts[1:]
			}
			id = ident(strings.Join(parts, "_"))
		}
		if seen[id] > 0 {
			im.note("units.csv line %d: a second row for %s (line %d): left out", u.line, id, seen[id])
			continue
		}
		seen[id] = u.line
		k := outKind{ID: id, Type: typ, Race: race, Source: "user"}
		if u.Qty > 1 {
			k.Count = u.Qty
		}
		switch {
		case u.Land == "dtemple":
			k.Side, k.Note = "highlord", "the Highlord's draconians (DG-DRAC)"
		case im.nationSet[ident(u.Land)]:
			k.Nation = ident(u.Land)
		case u.Allegia == "highlord" || u.Allegia == "whitestone":
			k.Side = u.Allegia
		default:
			im.note("units.csv line %d: %s belongs to %q, which is no nation, and to no side: left out", u.line, id, u.Land)
			continue
		}
		switch typ {
		case Leader:
			k.Full = outFace{u.Tactical, u.Move}
			k.Naval = u.Type == "admiral"
		case Wizard:
			k.Full = outFace{u.Tactical, 0} // wizards have no MP (DG-COMP-14); their strength is the ±3 they give
		default:
			k.Full = outFace{u.Combat, u.Move}
			k.Half = &outFace{max(u.Combat/2, 1), u.Move}
		}
		k.Title = counterTitle(u, id)
		extra := im.errata(&k, u)
		if k.Half != nil && k.Errata == "" {
			halfAssumed++
		}
		if typ == Air && race == "citadel" {
			k.Note = "a flying citadel: moves as an air army (DG-AIR-9)"
		}
		for _, kk := range append([]outKind{k}, extra...) {
			im.kinds = append(im.kinds, kk)
			kind := &CounterKind{ID: kk.ID, Count: kk.Count}
			for _, c := range kind.counterNames() {
				im.counters[c] = true
				im.kindOf[c] = kk.ID
				land := u.Land
				if land == "" {
					land = u.Race
				}
				im.byLand[land] = append(im.byLand[land], c)
			}
		}
	}
	im.note("the fan data gives no reduced (half-strength or damaged) faces: %d kinds of army and fleet get a face of half their strength, rounded down (at least 1), with the same MP (assumed), except the counter errata's (rule)", halfAssumed)
	im.note("races: solamnic knights and pirates are human, the flying citadels' race is citadel (the rules read race only for dwarves, ogres, elves and kender)")
	return marshal("# The counters of Ansalon, imported. Full and half faces: strength (a leader's\n# Tactical Value) and Movement Points.\n", im.kinds)
}

func counterTitle(u fanUnit, id string) string {
	if u.ID != "" {
		return titleOf(u.ID)
	}
	what := map[string]string{"inf": "infantry", "cav": "cavalry", "wing": "flight", "fleet": "fleet", "citadel": "flying citadel"}[u.Type]
	return strings.TrimSpace(titleOf(u.Land) + " " + u.Race + " " + what)
}

// fanEvent is an entry of events.yaml.
type fanEvent struct {
	Type    string         `yaml:"type"`
	Turn    int            `yaml:"turn"`
	Side    string         `yaml:"allegiance"`
	Effects map[string]any `yaml:"effects"`
	Max     int            `yaml:"max_occurrences"`
	Req     []any          `yaml:"requirements"`
}

func (im *importer) readEvents() error {
	b, err := im.file("events.yaml", false)
	if err != nil {
		return err
	}
	if b == nil {
		im.note("events.yaml is absent: the module has no strategic event counters")
		return nil
	}
	var raw map[string]yaml.Node
	if err := yaml.Unmarshal(b, &raw); err != nil {
		return fmt.Errorf("events.yaml: %v", err)
	}
	im.events = map[string]*fanEvent{}
	for k, n := range raw {
		var e fanEvent
		if n.Kind != yaml.MappingNode || n.Decode(&e) != nil {
			im.note("events.yaml: %s has no type, turn or effects: left out", k)
			continue
		}
		im.events[k] = &e
	}
	return nil
}

type outEffect struct {
	Kind   string   `yaml:"kind"`
	Amount int      `yaml:"amount,omitempty"`
	Units  []string `yaml:"units,omitempty,flow"`
	At     string   `yaml:"at,omitempty"`
}

type outEvent struct {
	ID     string      `yaml:"id"`
	Title  string      `yaml:"title"`
	Enter  int         `yaml:"enter"`
	For    string      `yaml:"for"`
	Does   []outEffect `yaml:"does"`
	Text   string      `yaml:"text"`
	Source string      `yaml:"source"`
	Note   string      `yaml:"note,omitempty"`
}

// eventsFile writes events.yaml: one counter per occurrence the data allows.
func (im *importer) eventsFile() ([]byte, error) {
	nothing := []string{}
	wizards := map[string][]string{}
	for _, c := range slices.Sorted(maps.Keys(im.counters)) {
		for _, k := range im.kinds {
			if k.ID == im.kindOf[c] && k.Type == Wizard {
				wizards[k.Side] = append(wizards[k.Side], c)
			}
		}
	}
	used := map[string]bool{}
	for _, key := range slices.Sorted(maps.Keys(im.events)) {
		e := im.events[key]
		n := max(e.Max, 1)
		for i := 1; i <= n; i++ {
			id := ident(key)
			if n > 1 {
				id = fmt.Sprintf("%s-%d", id, i)
			}
			ev := outEvent{ID: id, Title: titleOf(key), For: "drawer", Source: "user"}
			if e.Side == "highlord" || e.Side == "whitestone" {
				ev.For = e.Side
			}
			switch {
			case e.Turn >= 20:
				ev.Enter = 20
			case e.Turn >= 10:
				ev.Enter = 10
			default:
				ev.Enter = 1
			}
			ef, text := im.effect(key, e, ev.For, wizards, used)
			ev.Does, ev.Text = []outEffect{ef}, text
			if ef.Kind == "nothing" {
				ev.Note = "its effect is not one the module format can give: it does nothing (assumed)"
				if i == 1 {
					nothing = append(nothing, key)
				}
			}
			if len(e.Req) > 0 {
				ev.Note = strings.TrimSpace(ev.Note + " it has requirements in the fan data, which are not kept")
			}
			im.outEvents = append(im.outEvents, ev)
			im.eventIDs[key] = append(im.eventIDs[key], id)
		}
	}
	if len(nothing) > 0 {
		im.note("strategic events with effects the module cannot give (artifacts, combat bonuses) are counters that do nothing (assumed): %s", strings.Join(nothing, ", "))
	}
	im.note("strategic events: the fan data gives each the turn it may first happen; a counter goes into the cup as E1 (turns 1-9), E10 (10-19) or E20 (20 on), and one counter is made for each occurrence it allows")
	return marshal("# The strategic event counters, imported from the user's data.\n", im.outEvents)
}

// effect converts a fan event's effects.
func (im *importer) effect(key string, e *fanEvent, side string, wizards map[string][]string, used map[string]bool) (outEffect, string) {
	if v, ok := e.Effects["activation_bonus"]; ok {
		if n, ok := v.(int); ok {
			return outEffect{Kind: "activation", Amount: n}, fmt.Sprintf("The beneficiary's activation rolls this turn are made with %+d.", n)
		}
	}
	pick := func(ids []string) []string {
		var out []string
		for _, c := range ids {
			if !used[c] {
				out = append(out, c)
			}
		}
		return out
	}
	if v, ok := e.Effects["add_units"].(string); ok {
		switch v {
		case "wizard":
			for _, c := range wizards[side] {
				if !used[c] {
					used[c] = true
					return outEffect{Kind: "wizard", Units: []string{c}}, fmt.Sprintf("The wizard %s joins the %s.", c, side)
				}
			}
		case "golden_general":
			if im.counters["laurana"] {
				return outEffect{Kind: "reinforce", Units: []string{"laurana"}}, "Laurana, the Golden General, joins the Whitestone."
			}
		case "good_dragons":
			var ds []string
			for _, k := range im.kinds {
				if k.Race == "dragon" && k.Side == "whitestone" {
					for _, c := range (&CounterKind{ID: k.ID, Count: k.Count}).counterNames() {
						ds = append(ds, c)
					}
				}
			}
			if ds = pick(ds); len(ds) > 0 {
				return outEffect{Kind: "reinforce", Units: ds}, "The good dragons arrive: " + list(ds) + " join the Whitestone."
			}
		case "citadel":
			if cs := pick(im.byLand["magic"]); len(cs) > 0 {
				return outEffect{Kind: "reinforce", Units: cs}, "The flying citadels rise: " + list(cs) + " join the Highlord."
			}
		}
	}
	if v, ok := e.Effects["alliance"].(string); ok {
		if us := pick(im.byLand[v]); len(us) > 0 {
			for _, c := range us {
				used[c] = true
			}
			at := ""
			if c := im.countries[v]; c != nil {
				if l, ok := c.Locations[c.Capital]; ok && len(l.Coords) == 2 {
					at = hexOfXY(l.Coords[0], l.Coords[1])
				}
			}
			return outEffect{Kind: "reinforce", Units: us, At: at}, fmt.Sprintf("%s's forces join the %s: %s.", titleOf(v), side, list(us))
		}
	}
	return outEffect{Kind: "nothing"}, titleOf(key) + ": no effect in this module."
}
