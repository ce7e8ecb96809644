package glory

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator/hexmap"
)

// The map: ansalon_map.csv (terrain, a "c_" prefix for coastal hexes),
// map_config.yaml (size, hexsides as [col, row, DIR], special locations)
// and countries.yaml (territories, locations, capitals, Activation values).

type fanLoc struct {
	Type   string `yaml:"loc_type"`
	Coords []int  `yaml:"coords"`
}

type fanCountry struct {
	Capital     string            `yaml:"capital_id"`
	Color       string            `yaml:"color"`
	Allegiance  string            `yaml:"allegiance"`
	Alignment   []int             `yaml:"alignment"`
	Strength    int               `yaml:"strength"`
	Tags        []string          `yaml:"tags"`
	Locations   map[string]fanLoc `yaml:"locations"`
	Territories [][]int           `yaml:"territories"`
}

type fanMapConfig struct {
	Master struct {
		Name     string                      `yaml:"name"`
		Width    int                         `yaml:"width"`
		Height   int                         `yaml:"height"`
		Hexsides map[string][][]any          `yaml:"hexsides"`
		Barriers [][]any                     `yaml:"fleet_barriers"`
		Special  map[string][]map[string]any `yaml:"special_locations"`
		Rest     map[string]any              `yaml:",inline"`
	} `yaml:"master_map"`
}

// terrainKinds maps the fan terrain names onto the rules' kinds; merged
// says which were merged and why (assumed).
var terrainKinds = map[string]string{
	"ocean": "sea", "maelstrom": "maelstrom", "mountain": "mountain", "forest": "forest", "swamp": "swamp", "desert": "desert",
	"grassland": "clear", "steppe": "clear", "jungle": "forest", "glacier": "clear",
}

var terrainMerged = map[string]string{
	"grassland": "the rules know no grassland: clear terrain",
	"steppe":    "the rules know no steppe: clear terrain",
	"jungle":    "the rules know no jungle: forest (what slows armies and shelters elves and kender there)",
	"glacier":   "the rules know no glacier: clear terrain (Icereach's own armies live and fight there)",
}

// sideKinds maps the fan hexside kinds onto the rules' hexside features, in
// the order of precedence when one hexside is given two (a bridge or ford
// over a river is the bridge or the ford; a pass through a mountain side
// is the pass).
var sideKinds = []struct{ fan, kind, why string }{
	{"bridge", "bridge", ""},
	{"ford", "ford", ""},
	{"pass", "pass", ""},
	{"tunnel", "pass", "the rules know no tunnel: a dwarven or gnomish tunnel through a mountain hexside is read as a pass"},
	{"deep_river", "deep-river", ""},
	{"mountain", "mountain", ""},
	{"river", "river", ""},
}

func (im *importer) readMap() error {
	b, err := im.file("ansalon_map.csv", true)
	if err != nil {
		return err
	}
	recs, err := readCSV("ansalon_map.csv", b)
	if err != nil {
		return err
	}
	if len(recs) < 2 {
		return fmt.Errorf("ansalon_map.csv: no rows of terrain")
	}
	im.cols = len(recs[0]) - 1
	unknown := map[string]int{}
	for i, r := range recs[1:] {
		if len(r) != im.cols+1 {
			return fmt.Errorf("ansalon_map.csv line %d: %d cells, the header gives %d columns", i+2, len(r)-1, im.cols)
		}
		if n, err := strconv.Atoi(strings.TrimSpace(r[0])); err != nil || n != i {
			return fmt.Errorf("ansalon_map.csv line %d: row %q, expected %d", i+2, r[0], i)
		}
		row := make([]string, im.cols)
		for c, cell := range r[1:] {
			t := strings.ToLower(strings.TrimSpace(cell))
			if rest, ok := strings.CutPrefix(t, "c_"); ok {
				t = rest
				im.coastal[[2]int{c, i}] = true
			}
			if _, ok := terrainKinds[t]; !ok {
				unknown[t]++
				t = "grassland"
			}
			row[c] = t
		}
		im.terrain = append(im.terrain, row)
	}
	im.rows = len(im.terrain)
	for _, t := range slices.Sorted(maps.Keys(unknown)) {
		im.note("ansalon_map.csv: terrain %q (%d hexes) is not known: read as clear (assumed)", t, unknown[t])
	}
	if im.cols > 100 || im.rows > 100 {
		return fmt.Errorf("ansalon_map.csv: %d x %d hexes: umpire names hexes with two digits of column and row, so at most 100 x 100", im.cols, im.rows)
	}
	return nil
}

func (im *importer) readCountries() error {
	b, err := im.file("countries.yaml", true)
	if err != nil {
		return err
	}
	if err := yaml.Unmarshal(b, &im.countries); err != nil {
		return fmt.Errorf("countries.yaml: %v", err)
	}
	for id, c := range im.countries {
		if c == nil {
			delete(im.countries, id)
			continue
		}
		im.cnames = append(im.cnames, id)
		for lid, l := range c.Locations {
			im.locs[lid] = l
		}
	}
	sort.Strings(im.cnames)
	return nil
}

// neighbourXY is the fan map's neighbour of [c, r] in direction d: the map
// is pointy-topped with the odd rows half a hex to the right (pointy-odd,
// as adjudicator/hex works out from the same data).
func neighbourXY(c, r int, d string) (int, int, bool) {
	odd := r%2 == 1
	switch strings.ToUpper(strings.TrimSpace(d)) {
	case "E":
		return c + 1, r, true
	case "W":
		return c - 1, r, true
	case "NE":
		if odd {
			return c + 1, r - 1, true
		}
		return c, r - 1, true
	case "NW":
		if odd {
			return c, r - 1, true
		}
		return c - 1, r - 1, true
	case "SE":
		if odd {
			return c + 1, r + 1, true
		}
		return c, r + 1, true
	case "SW":
		if odd {
			return c, r + 1, true
		}
		return c - 1, r + 1, true
	}
	return 0, 0, false
}

// layoutKnown reports whether this build's hexmap reads the layout: key.
// While it does not, the map is written without it and read with the
// default (flat) grid, and the hexsides whose hexes are not neighbours on
// that grid are left out (a note says how many).
var layoutKnown = sync.OnceValue(func() bool {
	_, err := hexmap.Parse("probe.yaml", []byte("name: probe\nlayout: pointy-odd\nbounds: {cols: [0, 1], rows: [0, 1]}\ndefault: clear\n"), &vocabulary)
	return err == nil
})

// flatAdjacent reports whether two hexes are neighbours on the flat grid
// (columns of flat-topped hexes, even columns half a hex lower).
func flatAdjacent(c1, r1, c2, r2 int) bool {
	dc := c2 - c1
	if dc == 0 {
		return r2-r1 == 1 || r1-r2 == 1
	}
	if dc != 1 && dc != -1 {
		return false
	}
	if c1%2 == 0 { // even column: lower
		return r2 == r1 || r2 == r1+1
	}
	return r2 == r1 || r2 == r1-1
}

type outTerrain struct {
	Kind     string   `yaml:"kind"`
	Hexes    []string `yaml:"hexes,flow"`
	Override bool     `yaml:"override,omitempty"`
	Assumed  bool     `yaml:"assumed,omitempty"`
	Note     string   `yaml:"note,omitempty"`
}

type outSide struct {
	Kind    string   `yaml:"kind"`
	Hexes   []string `yaml:"hexes,flow"`
	Assumed bool     `yaml:"assumed,omitempty"`
	Note    string   `yaml:"note,omitempty"`
}

type outZone struct {
	Name  string   `yaml:"name"`
	Title string   `yaml:"title,omitempty"`
	Hexes []string `yaml:"hexes,flow"`
}

type outPoint struct {
	Name    string   `yaml:"name"`
	Kind    string   `yaml:"kind"`
	Hex     string   `yaml:"hex"`
	Tags    []string `yaml:"tags,omitempty,flow"`
	Assumed bool     `yaml:"assumed,omitempty"`
	Note    string   `yaml:"note,omitempty"`
}

// runs writes a set of hexes as row runs: "0005-0905", "1203".
func runs(set map[[2]int]bool) []string {
	keys := make([][2]int, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i][1] != keys[j][1] {
			return keys[i][1] < keys[j][1]
		}
		return keys[i][0] < keys[j][0]
	})
	var out []string
	for i := 0; i < len(keys); {
		j := i
		for j+1 < len(keys) && keys[j+1][1] == keys[i][1] && keys[j+1][0] == keys[j][0]+1 {
			j++
		}
		if j == i {
			out = append(out, hexOfXY(keys[i][0], keys[i][1]))
		} else {
			out = append(out, hexOfXY(keys[i][0], keys[i][1])+"-"+hexOfXY(keys[j][0], keys[j][1]))
		}
		i = j + 1
	}
	return out
}

func (im *importer) mapFile(name string) ([]byte, error) {
	b, err := im.file("map_config.yaml", true)
	if err != nil {
		return nil, err
	}
	var cfg fanMapConfig
	if err := yaml.Unmarshal(b, &cfg); err != nil {
		return nil, fmt.Errorf("map_config.yaml: %v", err)
	}
	if cfg.Master.Width != 0 && (cfg.Master.Width != im.cols || cfg.Master.Height != im.rows) {
		return nil, fmt.Errorf("map_config.yaml gives a map of %d x %d hexes, ansalon_map.csv has %d x %d", cfg.Master.Width, cfg.Master.Height, im.cols, im.rows)
	}
	// Terrain: one entry per rules kind, sea as the default.
	byKind := map[string]map[[2]int]bool{}
	mergedSeen := map[string]int{}
	for r, row := range im.terrain {
		for c, t := range row {
			k := terrainKinds[t]
			if _, ok := terrainMerged[t]; ok {
				mergedSeen[t]++
				k += "*" // merged: written in an entry of its own, marked assumed
			}
			if byKind[k] == nil {
				byKind[k] = map[[2]int]bool{}
			}
			byKind[k][[2]int{c, r}] = true
		}
	}
	var terrain []outTerrain
	for _, k := range slices.Sorted(maps.Keys(byKind)) {
		if k == "sea" {
			continue
		}
		e := outTerrain{Kind: strings.TrimSuffix(k, "*"), Hexes: runs(byKind[k])}
		if strings.HasSuffix(k, "*") {
			e.Assumed = true
			e.Note = "merged from the fan terrain the rules do not know (see the module notes)"
		}
		terrain = append(terrain, e)
	}
	for _, t := range slices.Sorted(maps.Keys(mergedSeen)) {
		im.note("terrain %s (%d hexes): %s (assumed)", t, mergedSeen[t], terrainMerged[t])
	}
	im.note("coastal hexes are not data of the module: the rules read a land hex next to a sea hex as coastal (DG-FLEET-1); the fan data marks %d", len(im.coastal))

	// Hexsides.
	pointy := layoutKnown()
	type sideAt struct{ a, b [2]int }
	chosen := map[sideAt]int{} // → index in sideKinds
	dropped, conflicts, offMap, flatDrop := 0, 0, 0, 0
	for i, sk := range sideKinds {
		list := cfg.Master.Hexsides[sk.fan]
		for _, e := range list {
			c, r, d, ok := sideEntry(e)
			if !ok {
				return nil, fmt.Errorf("map_config.yaml: hexside %s %v: write [col, row, DIRECTION]", sk.fan, e)
			}
			c2, r2, ok := neighbourXY(c, r, d)
			if !ok {
				return nil, fmt.Errorf("map_config.yaml: hexside %s %v: direction %q is not E, W, NE, NW, SE or SW", sk.fan, e, d)
			}
			if !im.onMap(c, r) || !im.onMap(c2, r2) {
				offMap++
				continue
			}
			if !pointy && !flatAdjacent(c, r, c2, r2) {
				flatDrop++
				continue
			}
			a, bb := [2]int{c, r}, [2]int{c2, r2}
			if bb[0] < a[0] || (bb[0] == a[0] && bb[1] < a[1]) {
				a, bb = bb, a
			}
			key := sideAt{a, bb}
			if j, ok := chosen[key]; ok {
				if j != i {
					conflicts++
				}
				continue
			}
			chosen[key] = i
		}
		if sk.why != "" && len(list) > 0 {
			im.note("hexsides %s (%d): %s (assumed)", sk.fan, len(list), sk.why)
		}
	}
	for k, list := range cfg.Master.Hexsides {
		known := false
		for _, sk := range sideKinds {
			known = known || sk.fan == k
		}
		if !known {
			dropped += len(list)
			im.note("hexsides %s (%d): the rules have no such hexside; left out", k, len(list))
		}
	}
	_ = dropped
	if conflicts > 0 {
		im.note("%d hexsides are given two features: the bridge, ford or pass is kept over the river or mountain side, a deep river over a mountain side", conflicts)
	}
	if offMap > 0 {
		im.note("%d hexsides lie on the map's edge: left out", offMap)
	}
	if !pointy {
		im.note("this build's map reader does not know layouts yet: the map is written without its layout line (pointy-odd) and is read flat-topped, and %d hexsides whose hexes are not neighbours on that grid are left out; import again once umpire reads layouts", flatDrop)
	}
	if n := len(cfg.Master.Barriers); n > 0 {
		im.note("fleet_barriers (%d isthmuses): the rules move fleets hex by hex and have no such barrier; left out", n)
	}
	im.note("great rivers: the data does not say which rivers fleets may sail (DG-FLEET-2), so no river is a great river; tag a river hexside `great-river` in map.yaml (tags: [great-river]) to open it")
	keys := make([]sideAt, 0, len(chosen))
	for k := range chosen {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		x, y := keys[i], keys[j]
		if x.a != y.a {
			return x.a[1] < y.a[1] || (x.a[1] == y.a[1] && x.a[0] < y.a[0])
		}
		return x.b[1] < y.b[1] || (x.b[1] == y.b[1] && x.b[0] < y.b[0])
	})
	var sides []outSide
	for _, k := range keys {
		sk := sideKinds[chosen[k]]
		s := outSide{Kind: sk.kind, Hexes: []string{hexOfXY(k.a[0], k.a[1]), hexOfXY(k.b[0], k.b[1])}}
		if sk.why != "" {
			s.Assumed, s.Note = true, "a tunnel"
		}
		sides = append(sides, s)
	}

	// Zones (nations) and points.
	zones, points := im.zonesAndPoints(cfg)

	out := struct {
		Name    string       `yaml:"name"`
		Title   string       `yaml:"title"`
		Status  string       `yaml:"status"`
		Notes   string       `yaml:"notes"`
		Layout  string       `yaml:"layout,omitempty"`
		Bounds  any          `yaml:"bounds"`
		Default string       `yaml:"default"`
		Terrain []outTerrain `yaml:"terrain"`
		Sides   []outSide    `yaml:"hexsides"`
		Zones   []outZone    `yaml:"zones"`
		Points  []outPoint   `yaml:"points"`
	}{Name: name, Title: "Ansalon (imported from the user's copy of the fan data)", Status: "user",
		Notes:   "hexes are named by the fan data's own column and row, both from 0: 4441 is column 44, row 41",
		Bounds:  map[string][]int{"cols": {0, im.cols - 1}, "rows": {0, im.rows - 1}},
		Default: "sea", Terrain: terrain, Sides: sides, Zones: zones, Points: points}
	header := "# Ansalon, imported from the user's own copy of the Dragons of Glory fan data.\n"
	if pointy {
		out.Layout = "pointy-odd"
	} else {
		header += "# layout: pointy-odd   (the data's grid; written once umpire's map reader knows layouts)\n"
	}
	return marshal(header, out)
}

func sideEntry(e []any) (c, r int, d string, ok bool) {
	if len(e) != 3 {
		return 0, 0, "", false
	}
	c, ok1 := e[0].(int)
	r, ok2 := e[1].(int)
	d, ok3 := e[2].(string)
	return c, r, d, ok1 && ok2 && ok3
}

// pointKinds maps the fan location types onto the rules' named points.
var pointKinds = map[string]string{
	"city":      "fortified-city",
	"port":      "fortified-city",
	"fortress":  "fortress",
	"undercity": "dwarven-fortress",
	"temple":    "fortress",
}

func (im *importer) zonesAndPoints(cfg fanMapConfig) ([]outZone, []outPoint) {
	var zones []outZone
	var points []outPoint
	pointNames := map[string]bool{}
	addPoint := func(p outPoint) {
		for pointNames[p.Name] {
			p.Name += "-2"
		}
		pointNames[p.Name] = true
		points = append(points, p)
	}
	overlap := 0
	for _, id := range im.cnames {
		c := im.countries[id]
		if id == "dtemple" {
			continue // the Dark Temple is a marker (DG-DRAC-2), not a nation
		}
		set := map[[2]int]bool{}
		if id == "taman" && im.countries["dtemple"] != nil {
			// The Dark Temple's hex lies in Taman Busuk, by Neraka, so that
			// it stands in a fortification the Highlord holds (assumed).
			for _, xy := range im.countries["dtemple"].Territories {
				if len(xy) == 2 && im.onMap(xy[0], xy[1]) {
					im.hexNation[hexOfXY(xy[0], xy[1])] = "taman"
					set[[2]int{xy[0], xy[1]}] = true
				}
			}
			im.note("the Dark Temple's own hex is part of Taman Busuk (assumed), the Highlord's land around Neraka")
		}
		for _, xy := range c.Territories {
			if len(xy) != 2 || !im.onMap(xy[0], xy[1]) {
				im.note("countries.yaml: %s: territory %v is not a hex of the map; left out", id, xy)
				continue
			}
			h := hexOfXY(xy[0], xy[1])
			if o, ok := im.hexNation[h]; ok && o != ident(id) {
				overlap++
				continue
			}
			im.hexNation[h] = ident(id)
			set[[2]int{xy[0], xy[1]}] = true
		}
		if len(set) == 0 {
			im.note("countries.yaml: %s has no territory: not a nation of the module", id)
			continue
		}
		im.nationSet[ident(id)] = true
		zones = append(zones, outZone{Name: ident(id), Hexes: runs(set)})
	}
	if overlap > 0 {
		im.note("%d hexes are in two countries' territories: each is given to the first country in alphabetical order", overlap)
	}
	cityAssumed := 0
	for _, id := range im.cnames {
		c := im.countries[id]
		for _, lid := range slices.Sorted(maps.Keys(c.Locations)) {
			l := c.Locations[lid]
			if len(l.Coords) != 2 || !im.onMap(l.Coords[0], l.Coords[1]) {
				im.note("countries.yaml: %s: location %s at %v is not on the map; left out", id, lid, l.Coords)
				continue
			}
			h := hexOfXY(l.Coords[0], l.Coords[1])
			kind, ok := pointKinds[l.Type]
			if !ok {
				im.note("countries.yaml: %s: location %s has type %q; read as a fortified city (assumed)", id, lid, l.Type)
				kind = "fortified-city"
			}
			p := outPoint{Name: ident(lid), Kind: kind, Hex: h}
			switch l.Type {
			case "city", "port":
				p.Assumed, p.Note = true, "the data does not say which cities are fortified: every city and port is a fortified city"
				cityAssumed++
			case "undercity":
				p.Assumed, p.Note = true, "an underground city: a dwarven fortress"
			case "temple":
				im.temple = h
				p.Assumed, p.Note = true, "the Dark Temple's site: a fortress, as the temple must stand in one (DG-DRAC-2)"
			}
			if l.Type == "port" {
				p.Tags = append(p.Tags, "port")
			}
			if lid == c.Capital && im.nationSet[ident(id)] {
				p.Tags = append(p.Tags, "capital")
			}
			if lid == "high_clerist_tower" {
				p.Tags = append(p.Tags, "tower")
			}
			addPoint(p)
		}
	}
	im.note("cities and ports (%d): the data does not say which are fortified; every one is a fortified city (assumed), fortresses stay fortresses, underground cities are dwarven fortresses (assumed)", cityAssumed)
	for _, kind := range slices.Sorted(maps.Keys(cfg.Master.Special)) {
		for _, e := range cfg.Master.Special[kind] {
			id, _ := e["id"].(string)
			xy, _ := e["coords"].([]any)
			if id == "" || len(xy) != 2 {
				continue
			}
			c, ok1 := xy[0].(int)
			r, ok2 := xy[1].(int)
			if !ok1 || !ok2 || !im.onMap(c, r) {
				continue
			}
			k := pointKinds[kind]
			if k == "" {
				k = "fortified-city"
			}
			p := outPoint{Name: ident(id), Kind: k, Hex: hexOfXY(c, r)}
			if kind == "city" {
				p.Assumed, p.Note = true, "a city of no nation: a fortified city"
			}
			addPoint(p)
		}
	}
	return zones, points
}

// outNation is a line of nations.yaml.
type outNation struct {
	ID         string         `yaml:"id"`
	Title      string         `yaml:"title"`
	Activation map[string]int `yaml:"activation,omitempty,flow"`
	Knights    bool           `yaml:"knights,omitempty"`
	SemiHuman  bool           `yaml:"semi-human,omitempty"`
	Capital    string         `yaml:"capital,omitempty"`
	NoConquest bool           `yaml:"no-conquest,omitempty"`
	Colour     string         `yaml:"colour,omitempty"`
	Source     string         `yaml:"source"`
	Rule       string         `yaml:"rule,omitempty"`
	Note       string         `yaml:"note,omitempty"`
}

// nationsFile writes nations.yaml: the countries with a territory, their
// Activation values from the rulebook's Activation Table where it lists
// them (rule), from the fan data otherwise (user).
func (im *importer) nationsFile() ([]byte, error) {
	table, err := im.activationTable()
	if err != nil {
		return nil, err
	}
	for _, id := range im.cnames {
		nid := ident(id)
		if !im.nationSet[nid] {
			continue
		}
		c := im.countries[id]
		n := outNation{ID: nid, Title: titleOf(id), Colour: c.Color, Source: "user"}
		if l, ok := c.Locations[c.Capital]; ok && len(l.Coords) == 2 {
			n.Capital = hexOfXY(l.Coords[0], l.Coords[1])
		}
		if row, ok := table[nid]; ok {
			n.Activation = map[string]int{"whitestone": row.ws, "highlord": row.hl}
			n.Knights = row.knights
			n.Source, n.Rule = "rule", "DG-ACT-3"
			n.Title = row.name + " (" + titleOf(id) + ")"
			n.Note = "the Activation Table's " + row.name
			if len(c.Alignment) == 2 && (c.Alignment[0] != row.ws || c.Alignment[1] != row.hl) {
				im.note("%s: the fan data gives activation %d/%d, the rulebook's Activation Table %d/%d for %s: the table's values are used (rule)", nid, c.Alignment[0], c.Alignment[1], row.ws, row.hl, row.name)
			}
		} else {
			switch {
			case slices.Contains(c.Tags, "event_invasion_only"):
				n.Note = "enters the war only by a strategic event: it cannot be activated"
				n.NoConquest = nid == "dargaard"
			case len(c.Alignment) == 2 && c.Alignment[0] > -10 && (c.Alignment[0] != 0 || c.Alignment[1] != 0):
				n.Activation = map[string]int{"whitestone": c.Alignment[0], "highlord": c.Alignment[1]}
				n.Note = "not in the rulebook's Activation Table: the fan data's activation values"
			default:
				n.Note = "not in the rulebook's Activation Table and no activation values in the data: it cannot be activated"
			}
		}
		if slices.Contains(c.Tags, "knight_countries") && !n.Knights {
			im.note("%s: the fan data tags it a Knights of Solamnia country, the rulebook's Activation Table does not (only Caergoth, Gunthar, N. Ergoth and Solanthus, DG-ACT-8): not a Knights nation", nid)
		}
		switch nid {
		case "qualinesti", "silvanesti", "hylo", "goodlund":
			n.SemiHuman = true // the four semi-human capitals the rules name (DG-CAP, DG-GAP-2)
		}
		im.nations = append(im.nations, n)
	}
	for name, id := range im.ruleNames {
		if id == "" {
			im.note("the Activation Table's %s matches no country of the fan data: it is not in the module", name)
		}
	}
	return marshal("# The nations of Ansalon, imported. Activation values: the rulebook's Activation\n# Table (source: rule) where it lists the nation, the user's data otherwise.\n", im.nations)
}

func titleOf(id string) string {
	words := strings.FieldsFunc(id, func(r rune) bool { return r == '_' || r == '-' })
	for i, w := range words {
		words[i] = strings.ToUpper(w[:1]) + w[1:]
	}
	return strings.Join(words, " ")
}

type actRow struct {
	name    string
	ws, hl  int
	knights bool
}

// activationTable reads activation_table_dl11.csv and matches each of its
// nations (the rulebook's names) to a country of the fan data: the same
// name, a country whose capital has that name, a country whose leader has
// it, a name one or two letters apart, or the first version of the fan
// counter list, which used the rulebook's names.
func (im *importer) activationTable() (map[string]actRow, error) {
	b, err := im.file("activation_table_dl11.csv", false)
	if err != nil {
		return nil, err
	}
	out := map[string]actRow{}
	if b == nil {
		im.note("activation_table_dl11.csv is absent: every activation value comes from the fan data (user)")
		return out, nil
	}
	recs, err := readCSV("activation_table_dl11.csv", b)
	if err != nil {
		return nil, err
	}
	for i, r := range recs {
		if i == 0 || len(r) < 3 {
			continue
		}
		ws, err1 := strconv.Atoi(strings.TrimSpace(r[1]))
		hl, err2 := strconv.Atoi(strings.TrimSpace(r[2]))
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("activation_table_dl11.csv line %d: %q and %q are not numbers", i+1, r[1], r[2])
		}
		name := strings.TrimSpace(r[0])
		id := im.matchNation(name)
		im.ruleNames[name] = id
		if id != "" {
			out[id] = actRow{name: name, ws: ws, hl: hl, knights: len(r) > 3 && strings.TrimSpace(r[3]) == "yes"}
		}
	}
	return out, nil
}

func squash(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func (im *importer) matchNation(name string) string {
	n := squash(name)
	for _, id := range im.cnames {
		if squash(id) == n {
			return id
		}
	}
	for _, id := range im.cnames {
		if squash(im.countries[id].Capital) == n {
			return id
		}
	}
	for _, u := range im.units {
		if squash(u.ID) == n && u.Land != "" && im.countries[u.Land] != nil {
			return u.Land
		}
	}
	for _, id := range im.cnames {
		if d := editDistance(squash(id), n); d <= 2 && len(n) > 5 {
			return id
		}
	}
	return im.matchByFirstVersion(name)
}

// matchByFirstVersion finds the country whose counters are those the first
// version of the fan counter list gave the rulebook's name (its races and
// types, e.g. the pirates of the Maelstrom).
func (im *importer) matchByFirstVersion(name string) string {
	var b []byte
	for _, f := range []string{"units_first_version_a9886ad.csv"} {
		b, _ = im.file(f, false)
	}
	if b == nil {
		return ""
	}
	recs, err := readCSV("units_first_version", b)
	if err != nil || len(recs) == 0 {
		return ""
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[strings.ToLower(strings.TrimSpace(h))] = i
	}
	sig := map[string]bool{}
	for _, r := range recs[1:] {
		if len(r) > col["land"] && strings.EqualFold(strings.TrimSpace(r[col["land"]]), name) {
			sig[strings.TrimSpace(r[col["type"]])+"/"+strings.TrimSpace(r[col["race"]])] = true
		}
	}
	if len(sig) == 0 {
		return ""
	}
	var found []string
	for _, id := range im.cnames {
		have := map[string]bool{}
		for _, u := range im.units {
			if u.Land == id && u.ID == "" {
				t := u.Type
				if t == "wing" {
					t = "flight"
				}
				have[t+"/"+u.Race] = true
			}
		}
		if len(have) > 0 && equalSets(have, sig) {
			found = append(found, id)
		}
	}
	if len(found) == 1 {
		im.note("the Activation Table's %s is matched to %s by its counters in the fan data's first counter list", name, found[0])
		return found[0]
	}
	return ""
}

func equalSets(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
