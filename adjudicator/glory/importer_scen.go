package glory

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// The scenarios: the fan data's scenarios/*.yaml, with the turns, the
// initiative, the nations that may be activated and the victory conditions
// the rulebook states (the numbers file) taking precedence.

type fanSide struct {
	Countries map[string]yaml.Node `yaml:"countries"`
	Deploy    []struct {
		Unit     string `yaml:"unit_id"`
		Position []int  `yaml:"position"`
	} `yaml:"canonical_deployment"`
	Victory map[string]yaml.Node `yaml:"victory_conditions"`
}

type fanScenario struct {
	Scenario struct {
		ID         string         `yaml:"id"`
		Desc       string         `yaml:"description"`
		Start      int            `yaml:"start_turn"`
		End        int            `yaml:"end_turn"`
		Initiative string         `yaml:"initiative_start"`
		Active     map[string]any `yaml:"active_events"`
		Possible   any            `yaml:"possible_events"`
		Setup      struct {
			HL *fanSide `yaml:"highlord"`
			WS *fanSide `yaml:"whitestone"`
		} `yaml:"initial_setup"`
		Notes string `yaml:"notes"`
	} `yaml:"scenario"`
}

type outPlacement struct {
	Units []string `yaml:"units,flow"`
	At    string   `yaml:"at"`
	Side  string   `yaml:"side,omitempty"`
}

type outVictory struct {
	Kind      string   `yaml:"kind"`
	Side      string   `yaml:"side"`
	Hexes     []string `yaml:"hexes,omitempty,flow"`
	Nations   []string `yaml:"nations,omitempty,flow"`
	By        int      `yaml:"by,omitempty"`
	Percent   int      `yaml:"percent,omitempty"`
	Otherwise string   `yaml:"otherwise,omitempty"`
	Text      string   `yaml:"text,omitempty"`
}

type outScenario struct {
	ID         string            `yaml:"id"`
	Title      string            `yaml:"title"`
	Doc        string            `yaml:"doc,omitempty"`
	Start      int               `yaml:"start"`
	End        int               `yaml:"end"`
	Initiative string            `yaml:"initiative,omitempty"`
	Allies     map[string]string `yaml:"allies,omitempty"`
	Activate   []string          `yaml:"activate,omitempty,flow"`
	Units      []outPlacement    `yaml:"units"`
	Cup        *[]string         `yaml:"cup,omitempty,flow"`
	Temple     string            `yaml:"temple,omitempty"`
	Victory    []outVictory      `yaml:"victory"`
	Source     string            `yaml:"source"`
	Rule       string            `yaml:"rule,omitempty"`
	Note       string            `yaml:"note,omitempty"`
}

// rulebook facts about a scenario, read from the numbers file.
type bookScenario struct {
	label      string // how the file names it
	start, end int
	initiative string
	victory    []outVictory
	activate   []string
}

// scenarioID names a fan scenario file's scenario: "scenario_3_kender_strike"
// is "kender-strike", "campaign_0_war_of_the_lance" "war-of-the-lance".
var fanScenarioRE = regexp.MustCompile(`^(scenario|campaign)_(\d+)_(.+)$`)

func (im *importer) scenariosFile() ([]byte, error) {
	files, err := im.scenarioFiles()
	if err != nil {
		return nil, err
	}
	var out []outScenario
	for _, f := range files {
		b, err := im.file(f, true)
		if err != nil {
			return nil, err
		}
		var fs fanScenario
		if err := yaml.Unmarshal(b, &fs); err != nil {
			im.note("%s: %v: this scenario is left out", f, err)
			continue
		}
		sc, ok := im.scenario(f, &fs)
		if ok {
			out = append(out, sc)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("scenarios/: no scenario could be imported")
	}
	// The DL11 campaign first: a game that names no scenario plays it.
	slices.SortStableFunc(out, func(a, b outScenario) int {
		return strings.Compare(scenarioOrder(a.ID), scenarioOrder(b.ID))
	})
	return marshal("# The scenarios, imported from the user's data. Turns, initiative, activations\n# and victory are the rulebook's (source: rule) where its numbers file states them.\n", out)
}

func scenarioOrder(id string) string {
	if id == "war-of-the-lance" {
		return "0"
	}
	return "1" + id
}

func (im *importer) scenario(file string, fs *fanScenario) (outScenario, bool) {
	s := fs.Scenario
	base := strings.TrimSuffix(strings.TrimPrefix(file, "scenarios/"), ".yaml")
	id, num, kind := ident(base), "", ""
	if m := fanScenarioRE.FindStringSubmatch(base); m != nil {
		kind, num, id = m[1], m[2], ident(m[3])
	}
	sc := outScenario{ID: id, Title: titleOf(id), Start: s.Start, End: s.End, Source: "user", Allies: map[string]string{}}
	if kind == "scenario" {
		sc.Title += fmt.Sprintf(" (fan scenario %s)", num)
	}
	sc.Doc = strings.TrimSpace(s.Desc)
	if s.Initiative == "highlord" || s.Initiative == "whitestone" {
		sc.Initiative = s.Initiative
	}
	sides := []struct {
		side string
		fs   *fanSide
	}{{"highlord", s.Setup.HL}, {"whitestone", s.Setup.WS}}
	placed := map[string]bool{}
	byHex := map[string]*outPlacement{}
	var order []string
	missing, twice, unplaced := 0, 0, 0
	for _, sd := range sides {
		if sd.fs == nil {
			continue
		}
		for _, c := range slices.Sorted(maps.Keys(sd.fs.Countries)) {
			if c == "dtemple" {
				sc.Temple = im.temple
				continue
			}
			if im.nationSet[ident(c)] {
				sc.Allies[ident(c)] = sd.side
			}
		}
		for _, d := range sd.fs.Deploy {
			u := ident(d.Unit)
			if !im.counters[u] {
				missing++
				im.note("%s: %s deploys %q, which is no counter of units.csv: left out", file, sd.side, d.Unit)
				continue
			}
			if placed[u] {
				twice++
				continue
			}
			if len(d.Position) != 2 || !im.onMap(d.Position[0], d.Position[1]) {
				im.note("%s: %s at %v is not a hex of the map: left out", file, u, d.Position)
				continue
			}
			placed[u] = true
			h := hexOfXY(d.Position[0], d.Position[1])
			key := h + "/" + sd.side
			if byHex[key] == nil {
				byHex[key] = &outPlacement{At: h, Side: sd.side}
				order = append(order, key)
			}
			byHex[key].Units = append(byHex[key].Units, u)
		}
		// Counters a side's countries bring that the data gives no hex for.
		for _, c := range slices.Sorted(maps.Keys(sd.fs.Countries)) {
			for _, u := range im.byLand[c] {
				if !placed[u] && (sc.Allies[ident(c)] != "" || c == "dtemple") {
					unplaced++
				}
			}
		}
	}
	if twice > 0 {
		im.note("%s: %d counters are deployed twice; the first placement is kept", file, twice)
	}
	if unplaced > 0 {
		im.note("%s: %d counters of the sides' countries have no set-up hex in the data (the fan game lets players deploy them): they are not on the map at the start", file, unplaced)
	}
	slices.Sort(order)
	for _, k := range order {
		p := byHex[k]
		slices.Sort(p.Units)
		sc.Units = append(sc.Units, *p)
	}
	if sc.Temple != "" && sc.Allies[im.hexNation[sc.Temple]] != "highlord" {
		im.note("%s: the Dark Temple's hex is not in a land the Highlord holds at the start: he places it later (DG-SETUP-5)", id)
		sc.Temple = ""
	}
	if len(sc.Allies) == 0 {
		sc.Allies = nil
	}
	im.cup(file, fs, &sc)
	im.victory(file, fs, &sc)
	if b, ok := im.book(id); ok {
		sc.Source, sc.Rule = "rule", "DL11 scenario book: "+b.label
		if b.start > 0 {
			if b.start != sc.Start {
				im.note("%s: the rulebook starts it on turn %d, the fan data on %d: turn %d (rule)", id, b.start, sc.Start, b.start)
			}
			sc.Start = b.start
		}
		if b.end > 0 {
			if b.end != sc.End {
				im.note("%s: the rulebook ends it on turn %d, the fan data on %d: turn %d (rule)", id, b.end, sc.End, b.end)
			}
			sc.End = b.end
		}
		if b.initiative != "" {
			sc.Initiative = b.initiative
		}
		if b.activate != nil {
			sc.Activate = b.activate
		}
		if b.victory != nil {
			sc.Victory = b.victory
		}
	}
	if sc.Start < 1 || sc.End < sc.Start {
		im.note("%s: turns %d to %d: left out", file, sc.Start, sc.End)
		return sc, false
	}
	if len(sc.Victory) == 0 {
		sc.Victory = []outVictory{{Kind: "strength", Side: "highlord", Percent: 50, Text: "the Whitestone has lost more than half its strength (assumed)"},
			{Kind: "strength", Side: "whitestone", Percent: 50, Text: "the Highlord has lost more than half its strength (assumed)"}}
		im.note("%s: no victory condition the module can express: the side whose enemy lost more than half its starting strength wins at the end, otherwise a draw (assumed)", id)
	}
	return sc, true
}

// cup puts the scenario's active events in the cup.
func (im *importer) cup(file string, fs *fanScenario, sc *outScenario) {
	s := fs.Scenario
	if strings.Contains(strings.ToLower(s.Notes), "no strategic event") {
		empty := []string{}
		sc.Cup = &empty
		return
	}
	if s.Active == nil {
		return // every counter due by the first turn (DG-AMB-12)
	}
	cup := []string{}
	for _, k := range slices.Sorted(maps.Keys(s.Active)) {
		ids := im.eventIDs[k]
		if len(ids) == 0 {
			im.note("%s: active event %q is not in events.yaml: left out", file, k)
			continue
		}
		if n, ok := s.Active[k].(int); ok && n < len(ids) {
			ids = ids[:n]
		}
		cup = append(cup, ids...)
	}
	sc.Cup = &cup
}

// victory converts the fan victory conditions (each side's "major" one;
// "minor" ones are a lesser grade the module has no place for).
func (im *importer) victory(file string, fs *fanScenario, sc *outScenario) {
	for _, sd := range []struct {
		side string
		fs   *fanSide
	}{{"highlord", fs.Scenario.Setup.HL}, {"whitestone", fs.Scenario.Setup.WS}} {
		if sd.fs == nil {
			continue
		}
		n, ok := sd.fs.Victory["major"]
		if !ok {
			n, ok = sd.fs.Victory["minor"]
		}
		if !ok {
			continue
		}
		var v struct {
			Type     string           `yaml:"type"`
			Location string           `yaml:"location"`
			Country  string           `yaml:"country"`
			By       int              `yaml:"by_turn"`
			All      []map[string]any `yaml:"all"`
			Min      int              `yaml:"min_points"`
		}
		if n.Decode(&v) != nil {
			continue
		}
		conds := []map[string]any{{"type": v.Type, "location": v.Location, "country": v.Country}}
		if len(v.All) > 0 {
			conds = v.All
		}
		var hexes, nations []string
		kind := ""
		for _, c := range conds {
			t, _ := c["type"].(string)
			loc, _ := c["location"].(string)
			cty, _ := c["country"].(string)
			switch t {
			case "capture_location", "prevent_location_captured":
				if l, ok := im.locs[loc]; ok && len(l.Coords) == 2 {
					hexes = append(hexes, hexOfXY(l.Coords[0], l.Coords[1]))
				}
			case "conquer_country", "prevent_country_conquered":
				if im.nationSet[ident(cty)] {
					nations = append(nations, ident(cty))
				}
			case "destroy_unit_score":
				kind = "strength"
			default:
				im.note("%s: %s's victory %q is not one the module can express", file, sd.side, t)
			}
			if strings.HasPrefix(t, "prevent") {
				kind = "hold"
			} else if kind == "" {
				kind = "capture"
			}
		}
		switch {
		case kind == "strength":
			sc.Victory = append(sc.Victory, outVictory{Kind: "strength", Side: sd.side, Percent: 50, Text: "the enemy lost more than half its starting strength (assumed: the data counts points destroyed)"})
		case len(hexes)+len(nations) > 0:
			by := v.By
			if kind == "hold" {
				by = 0
			}
			sc.Victory = append(sc.Victory, outVictory{Kind: kind, Side: sd.side, Hexes: hexes, Nations: nations, By: by})
		}
	}
	// A capture is checked first; a hold is judged at the end.
	slices.SortStableFunc(sc.Victory, func(a, b outVictory) int {
		return strings.Compare(victoryOrder(a.Kind), victoryOrder(b.Kind))
	})
}

func victoryOrder(k string) string {
	return map[string]string{"capture": "0", "hold": "1", "strength": "2"}[k]
}

// book reads what the rulebook numbers file states about scenario id.
func (im *importer) book(id string) (bookScenario, bool) {
	t := im.numbers
	if t == "" {
		return bookScenario{}, false
	}
	nation := func(name string) string {
		if n, ok := im.ruleNames[strings.TrimSpace(name)]; ok {
			return ident(n)
		}
		return ""
	}
	loc := func(name string) string {
		for _, id := range im.cnames {
			c := im.countries[id]
			for lid, l := range c.Locations {
				if (squash(lid) == squash(name) || squash(lid) == squash(name)+"city") && len(l.Coords) == 2 {
					return hexOfXY(l.Coords[0], l.Coords[1])
				}
			}
		}
		return ""
	}
	atoi := func(s string) int { n, _ := strconv.Atoi(s); return n }
	switch id {
	case "war-of-the-lance":
		if m := regexp.MustCompile(`Campaign \(turn (\d+)-(\d+)\)`).FindStringSubmatch(t); m != nil {
			im.note("war-of-the-lance: the rulebook's campaign victory counts the countries each side holds at the end of turn 30 on a table; the module's victory kinds cannot count countries, so the campaign is judged on strength lost (assumed)")
			return bookScenario{label: "Campaign", start: atoi(m[1]), end: atoi(m[2])}, true
		}
	case "fall-of-silvanesti":
		if m := regexp.MustCompile(`1 Fall of Silvanesti \(turn (\d+), ends turn (\d+)\)`).FindStringSubmatch(t); m != nil {
			return bookScenario{label: "1 Fall of Silvanesti", start: atoi(m[1]), end: atoi(m[2])}, true
		}
	case "solamnic-plain":
		m := regexp.MustCompile(`2 Solamnic Plain \(turn (\d+), HL must hold ([^;]+?) by end of turn (\d+); only ([^)]+?) may be activated\)`).FindStringSubmatch(t)
		if m == nil {
			break
		}
		b := bookScenario{label: "2 Solamnic Plain", start: atoi(m[1]), activate: []string{}}
		var ns []string
		for _, n := range splitNames(m[2]) {
			if id := nation(n); id != "" {
				ns = append(ns, id)
			}
		}
		for _, n := range splitNames(m[4]) {
			if id := nation(n); id != "" {
				b.activate = append(b.activate, id)
			}
		}
		slices.Sort(ns)
		slices.Sort(b.activate)
		b.victory = []outVictory{{Kind: "hold", Side: "highlord", Nations: ns, Otherwise: "whitestone", Text: "the Highlord holds " + m[2] + " at the end of turn " + m[3]}}
		im.note("solamnic-plain: the Whitestone wins when the Highlord fails; the module has no such condition yet (victory reads no \"otherwise\"), so the game ends drawn then")
		return b, true
	case "kender-strike":
		m := regexp.MustCompile(`3 Kender Strike \(turn (\d+), WS initiative, HL must capture (\w+) by turn (\d+); WS wins if HL loses >(\d+)% of initial combat strength\)`).FindStringSubmatch(t)
		if m == nil || nation(m[2]) == "" {
			break
		}
		return bookScenario{label: "3 Kender Strike", start: atoi(m[1]), initiative: "whitestone", victory: []outVictory{
			{Kind: "capture", Side: "highlord", Nations: []string{nation(m[2])}, By: atoi(m[3]), Text: "the Highlord captures " + m[2]},
			{Kind: "strength", Side: "whitestone", Percent: atoi(m[4]), Text: "the Highlord lost more than " + m[4] + "% of its strength"},
		}}, true
	case "siege-of-kalaman":
		m := regexp.MustCompile(`4 Siege of Kalaman \(.*?HL wins if captures (\w+) by end of turn (\d+)\)`).FindStringSubmatch(t)
		if m == nil || loc(m[1]) == "" {
			break
		}
		return bookScenario{label: "4 Siege of Kalaman", end: atoi(m[2]), victory: []outVictory{
			{Kind: "capture", Side: "highlord", Hexes: []string{loc(m[1])}, By: atoi(m[2]), Text: "the Highlord captures " + m[1]},
			{Kind: "hold", Side: "whitestone", Hexes: []string{loc(m[1])}, Text: m[1] + " holds (assumed: the rulebook says only what the Highlord must do)"},
		}}, true
	case "battle-for-neraka":
		m := regexp.MustCompile(`Battle for Neraka \(WS must conquer (\w+) by turn (\d+)\)`).FindStringSubmatch(t)
		if m == nil {
			break
		}
		h := loc(m[1])
		if h == "" {
			h = loc("neraka")
		}
		if h == "" {
			break
		}
		return bookScenario{label: "Battle for Neraka (Dragon #107)", end: atoi(m[2]), victory: []outVictory{
			{Kind: "capture", Side: "whitestone", Hexes: []string{h}, By: atoi(m[2]), Text: "the Whitestone conquers " + m[1]},
			{Kind: "hold", Side: "highlord", Hexes: []string{h}, Text: "Neraka holds (assumed)"},
		}}, true
	}
	return bookScenario{}, false
}

func splitNames(s string) []string {
	s = strings.ReplaceAll(s, " and ", ",")
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
