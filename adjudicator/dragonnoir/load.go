package dragonnoir

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/modcache"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
)

var loaded modcache.Cache[*Data]

// LoadModule reads and checks a module. The result is cached by digest: a
// module's data never changes once read.
func LoadModule(m adjudicator.Module) (*Data, error) {
	return loaded.Load(m, parseModule)
}

// strict decodes one module file, its errors naming the file and line.
func strict(m adjudicator.Module, file string, v any) error {
	b, ok := m.Files[file]
	if !ok {
		return fmt.Errorf("module %s has no %s (every module has it: see docs/dragon-noir.md)", m.Name, file)
	}
	if err := yamlx.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	return nil
}

// checker gathers every problem of a module, each at its file and line.
type checker struct{ errs []error }

func (c *checker) at(file string, line int, format string, args ...any) {
	c.errs = append(c.errs, fmt.Errorf("%s:%d: %s", file, line, fmt.Sprintf(format, args...)))
}

func (c *checker) prov(file string, line int, p Prov) {
	if err := p.check(fmt.Sprintf("%s:%d", file, line)); err != nil {
		c.errs = append(c.errs, err)
	}
}

// Terrain effects on combat (DN-TERRAIN-1).
var combatEffects = []string{"+", "0", "-"}

func parseModule(m adjudicator.Module) (*Data, error) {
	d := &Data{Key: map[string]*ResultKey{}, Shifts: map[string]*Shift{}, Terrain: map[string]*Terrain{},
		Features: map[string]*Feature{}, FireKey: map[string]*ResultKey{}, Fire: map[string]*FireColumn{},
		Weapons: map[string]*Weapon{}, Appear: map[string]*GharvAppearance{}, Kinds: map[string]*Kind{},
		Counters: map[string]*Kind{}, Spells: map[string]*Spell{}}
	if err := strict(m, "module.yaml", &d.Info); err != nil {
		return nil, err
	}
	c := &checker{}
	if err := d.Info.Prov.check("module.yaml"); err != nil {
		c.errs = append(c.errs, err)
	}
	var (
		cf  combatFile
		sf  shiftsFile
		tf  terrainFile
		ff  fireFile
		wf  weaponsFile
		inf infiltrationFile
		gf  gharvsFile
		cnt countersFile
		spf spellsFile
		scf scenariosFile
	)
	for _, f := range []struct {
		name string
		v    any
	}{{"combat.yaml", &cf}, {"shifts.yaml", &sf}, {"terrain.yaml", &tf}, {"fire.yaml", &ff}, {"weapons.yaml", &wf},
		{"infiltration.yaml", &inf}, {"gharvs.yaml", &gf}, {"jump.yaml", &d.Jump}, {"counters.yaml", &cnt},
		{"spells.yaml", &spf}, {"scenarios.yaml", &scf}} {
		if err := strict(m, f.name, f.v); err != nil {
			c.errs = append(c.errs, err)
		}
	}
	if len(c.errs) > 0 {
		return nil, errors.Join(c.errs...)
	}
	d.combat(c, cf)
	d.shifts(c, sf)
	d.terrain(c, tf)
	d.weapons(c, wf)
	d.fire(c, ff)
	d.infiltration(c, inf)
	d.gharvs(c, gf)
	d.jump(c)
	d.counters(c, cnt)
	d.spells(c, spf)
	d.boards(c, m)
	d.scenarios(c, m, scf)
	if len(c.errs) > 0 {
		return nil, errors.Join(c.errs...)
	}
	d.Digest = m.Digest()
	return d, nil
}

// odds reads "3-1".
func odds(s string) (int, bool) {
	a, b, ok := strings.Cut(s, "-")
	n, err := strconv.Atoi(a)
	return n, ok && err == nil && b == "1" && n >= 1
}

func (d *Data) combat(c *checker, f combatFile) {
	const file = "combat.yaml"
	for _, k := range f.Key {
		e := k.V
		c.prov(file, k.Line, e.Prov)
		if _, err := parseEffects(e.Code); err != nil {
			c.at(file, k.Line, "%v", err)
		}
		if e.Means == "" {
			c.at(file, k.Line, "key %s: say what it means for people (means:)", e.Code)
		}
		d.Key[e.Code] = &e
	}
	for _, l := range f.Columns {
		col := l.V
		c.prov(file, l.Line, col.Prov)
		n, ok := odds(col.Odds)
		if !ok {
			c.at(file, l.Line, "odds %q: write the column as N-1 (1-1, 2-1 …): odds below 1-1 are impossible (DN-COMBAT-5)", col.Odds)
			continue
		}
		col.n = n
		if len(col.Rows) != 10 {
			c.at(file, l.Line, "column %s has %d rows: give the result for each roll of the d10, 1 to 10 (DN-GEN-1)", col.Odds, len(col.Rows))
		}
		for i, code := range col.Rows {
			es, err := parseEffects(code)
			switch {
			case err != nil:
				c.at(file, l.Line, "column %s, roll %d: %v", col.Odds, i+1, err)
			case d.Key[code] == nil && code != "-":
				c.at(file, l.Line, "column %s, roll %d: %s is not in the key: add it under key: with what it means", col.Odds, i+1, code)
			}
			col.cells = append(col.cells, es)
		}
		if len(d.Columns) > 0 && d.Columns[len(d.Columns)-1].n+1 != n {
			c.at(file, l.Line, "column %s: the columns run without a gap from 1-1 up, one odds each", col.Odds)
		}
		if len(d.Columns) == 0 && n != 1 {
			c.at(file, l.Line, "the first column is 1-1, the lowest odds allowed (DN-COMBAT-5)")
		}
		d.Columns = append(d.Columns, &col)
	}
	if len(d.Columns) == 0 {
		c.at(file, 1, "the Combat Table has no columns")
	}
}

func (d *Data) shifts(c *checker, f shiftsFile) {
	const file = "shifts.yaml"
	for _, l := range f.Shifts {
		s := l.V
		c.prov(file, l.Line, s.Prov)
		if !slices.Contains(combatEffects, s.Attacker) || !slices.Contains(combatEffects, s.Defender) {
			c.at(file, l.Line, "attacker %q, defender %q: each is +, 0 or - (DN-TERRAIN-1)", s.Attacker, s.Defender)
			continue
		}
		key := s.Attacker + "/" + s.Defender
		if d.Shifts[key] != nil {
			c.at(file, l.Line, "a second entry for attacker %s against defender %s", s.Attacker, s.Defender)
		}
		d.Shifts[key] = &s
	}
	for _, a := range combatEffects {
		for _, df := range combatEffects {
			if d.Shifts[a+"/"+df] == nil {
				c.at(file, 1, "no entry for attackers on %s against a defender on %s: give all nine", a, df)
			}
		}
	}
}

func (d *Data) terrain(c *checker, f terrainFile) {
	const file = "terrain.yaml"
	for _, l := range f.Terrain {
		t := l.V
		c.prov(file, l.Line, t.Prov)
		if d.Terrain[t.Kind] != nil {
			c.at(file, l.Line, "a second row for terrain %q", t.Kind)
		}
		if !slices.Contains(vocabulary.Terrain, t.Kind) {
			c.at(file, l.Line, "terrain %q is not a kind the maps know: %s", t.Kind, strings.Join(vocabulary.Terrain, ", "))
		}
		if !t.Impassable && t.MP < 1 {
			c.at(file, l.Line, "terrain %s: mp is at least 1, or say impassable: true", t.Kind)
		}
		if !slices.Contains(combatEffects, t.Combat) {
			c.at(file, l.Line, "terrain %s: combat %q is +, 0 or - (DN-TERRAIN-1)", t.Kind, t.Combat)
		}
		for _, v := range t.CombatBy {
			if !slices.Contains(combatEffects, v) {
				c.at(file, l.Line, "terrain %s: combat-by %q is +, 0 or -", t.Kind, v)
			}
		}
		if coverRank(t.Cover) < 0 {
			c.at(file, l.Line, "terrain %s: cover %q is one of %s (DN-COVER-1)", t.Kind, t.Cover, strings.Join(covers, ", "))
		}
		for _, tag := range t.Tags {
			if !slices.Contains(terrainTags, tag) {
				c.at(file, l.Line, "terrain %s: tag %q is not one of %s", t.Kind, tag, strings.Join(terrainTags, ", "))
			}
		}
		for _, tag := range t.NotFrom { // movement chapter
			if !slices.Contains(terrainTags, tag) {
				c.at(file, l.Line, "terrain %s: not-from %q is not a terrain tag: %s", t.Kind, tag, strings.Join(terrainTags, ", "))
			}
		}
		for _, tag := range slices.Concat(slices.Collect(maps.Keys(t.CombatBy)), slices.Collect(maps.Keys(t.MPBy)), t.ClosedTo, t.NotFromExcept, t.OpenTo) {
			if !slices.Contains(counterTags, tag) {
				c.at(file, l.Line, "terrain %s: %q is not a counter tag: %s", t.Kind, tag, strings.Join(counterTags, ", "))
			}
		}
		for _, closed := range slices.Sorted(maps.Keys(t.ClosedExcept)) { // chapter: the valley's peoples
			if !slices.Contains(t.ClosedTo, closed) {
				c.at(file, l.Line, "terrain %s: closed-except %s: it reopens a closure, and %s is not in closed-to", t.Kind, closed, closed)
			}
			for _, tag := range t.ClosedExcept[closed] {
				if !slices.Contains(counterTags, tag) {
					c.at(file, l.Line, "terrain %s: closed-except %s: %q is not a counter tag: %s", t.Kind, closed, tag, strings.Join(counterTags, ", "))
				}
			}
		}
		fireTerrain(c, file, l.Line, &t) // fire chapter
		d.Terrain[t.Kind] = &t
	}
	for _, k := range vocabulary.Terrain {
		if d.Terrain[k] == nil {
			c.at(file, 1, "no row for terrain %s, which the maps use", k)
		}
	}
	for _, l := range f.Hexsides {
		h := l.V
		c.prov(file, l.Line, h.Prov)
		if !slices.Contains(vocabulary.Sides, h.Kind) {
			c.at(file, l.Line, "hexside %q is not a feature the maps know: %s", h.Kind, strings.Join(vocabulary.Sides, ", "))
		}
		if coverRank(h.Cover) < 0 {
			c.at(file, l.Line, "hexside %s: cover %q is one of %s", h.Kind, h.Cover, strings.Join(covers, ", "))
		}
		fireFeature(c, file, l.Line, &h) // fire chapter
		d.Features[h.Kind] = &h
	}
	for _, k := range vocabulary.Sides {
		if d.Features[k] == nil {
			c.at(file, 1, "no row under hexsides: for %s, which the maps use", k)
		}
	}
}

func (d *Data) weapons(c *checker, f weaponsFile) {
	const file = "weapons.yaml"
	d.Range = f.Range
	if f.Range < 1 {
		c.at(file, 1, "range: give the longest shot in hexes (DN-FIRE-8: 5)")
	}
	d.DayRange = f.DayRange
	if d.DayRange.Hexes == 0 { // DN3 battles: none given, a shot outdoors reaches as far as underground
		d.DayRange = DayRange{Hexes: f.Range, Prov: Prov{Rule: "DN-FIRE-8"}}
	} else {
		c.prov(file, 1, f.DayRange.Prov)
		if d.DayRange.Hexes < f.Range {
			c.at(file, 1, "day-range: %d hexes: a shot in the open reaches at least as far as by torchlight (range: %d)", d.DayRange.Hexes, f.Range)
		}
	}
	for _, l := range f.Weapons {
		w := l.V
		c.prov(file, l.Line, w.Prov)
		if w.ID == "" || d.Weapons[w.ID] != nil {
			c.at(file, l.Line, "weapon %q: give each weapon its own id", w.ID)
			continue
		}
		d.Weapons[w.ID] = &w
	}
}

func (d *Data) fire(c *checker, f fireFile) {
	const file = "fire.yaml"
	for _, l := range f.Key {
		k := l.V
		c.prov(file, l.Line, k.Prov)
		es, err := parseEffects(k.Result)
		if err != nil {
			c.at(file, l.Line, "key %s: %v", k.Code, err)
		}
		for _, e := range es {
			if e.Who != 'D' {
				c.at(file, l.Line, "key %s: a fire result falls on the target: write D… (DW, DS, DR)", k.Code)
			}
		}
		d.FireKey[k.Code] = &k
	}
	for _, l := range f.Weapons {
		w := l.V
		c.prov(file, l.Line, w.Prov)
		if d.Weapons[w.Weapon] == nil {
			c.at(file, l.Line, "weapon %q is not in weapons.yaml", w.Weapon)
		}
		for _, cv := range covers[:4] {
			rows, ok := w.Cover[cv]
			if !ok {
				c.at(file, l.Line, "weapon %s: no column for %s cover (DN-FIRE-11: none, light, medium, heavy)", w.Weapon, cv)
				continue
			}
			if len(rows) != 10 {
				c.at(file, l.Line, "weapon %s, %s cover: %d rows; give one for each modified roll 1 to 10", w.Weapon, cv, len(rows))
			}
			for i, r := range rows {
				if r != "-" && d.FireKey[r] == nil {
					c.at(file, l.Line, "weapon %s, %s cover, roll %d: %q is not in the key", w.Weapon, cv, i+1, r)
				}
			}
		}
		for cv := range w.Cover {
			if i := coverRank(cv); i < 0 || i > 3 {
				c.at(file, l.Line, "weapon %s: %q is not none, light, medium or heavy (total cover means no shot)", w.Weapon, cv)
			}
		}
		d.Fire[w.Weapon] = &w
	}
	for id := range d.Weapons {
		if d.Fire[id] == nil {
			c.at(file, 1, "no column for weapon %s", id)
		}
	}
}

var infilResults = []string{"-", "stop", "DS", "DW", "DK"}

func (d *Data) infiltration(c *checker, f infiltrationFile) {
	const file = "infiltration.yaml"
	any := false
	for _, l := range f.Rows {
		r := l.V
		c.prov(file, l.Line, r.Prov)
		any = any || r.Enemy == "any"
		if r.Enemy != "any" && !slices.Contains(counterTags, r.Enemy) {
			c.at(file, l.Line, "enemy %q: write any, or a counter tag", r.Enemy)
		}
		if len(r.Rolls) != 10 {
			c.at(file, l.Line, "%d rolls: give the result for each roll 1 to 10", len(r.Rolls))
		}
		for _, x := range r.Rolls {
			if !slices.Contains(infilResults, x) {
				c.at(file, l.Line, "result %q is one of %s", x, strings.Join(infilResults, ", "))
			}
		}
		d.Infil = append(d.Infil, &r)
	}
	if !any {
		c.at(file, 1, "give a row for enemy: any")
	}
}

var gharvSituations = []string{"in-water", "beside-water", "marsh"}

func (d *Data) gharvs(c *checker, f gharvsFile) {
	const file = "gharvs.yaml"
	d.GharvKind = f.Kind
	for _, l := range f.Appearance {
		a := l.V
		c.prov(file, l.Line, a.Prov)
		if !slices.Contains(gharvSituations, a.Where) {
			c.at(file, l.Line, "where %q is one of %s (DN-GHARV-2)", a.Where, strings.Join(gharvSituations, ", "))
		}
		d.Appear[a.Where] = &a
		checkRolls(c, file, l.Line, a.Appears)
	}
	for _, s := range gharvSituations {
		if d.Appear[s] == nil {
			c.at(file, 1, "no appearance row for %s", s)
		}
	}
	d.Capsize = f.Capsize
	c.prov(file, 1, f.Capsize.Prov)
	checkRolls(c, file, 1, f.Capsize.Capsizes)
	for _, code := range []string{f.Capsize.Overboard, f.Capsize.Sinks} { // chapter: Gharvs (DN-GHARV-5)
		if _, err := parseEffects(code); err != nil || code == "" {
			c.at(file, 1, "capsize: overboard and sinks are result codes such as -, DW or DK (what befalls a character aboard): %q", code)
		}
	}
}

func checkRolls(c *checker, file string, line int, rolls []int) {
	for _, r := range rolls {
		if r < 1 || r > 10 {
			c.at(file, line, "roll %d: the d10 reads 1 to 10 (DN-GEN-1)", r)
		}
	}
}

func (d *Data) jump(c *checker) {
	c.prov("jump.yaml", 1, d.Jump.Prov)
	if len(d.Jump.Rolls) != 10 {
		c.at("jump.yaml", 1, "%d rolls: give the result for each roll 1 to 10", len(d.Jump.Rolls))
	}
	for _, r := range d.Jump.Rolls {
		if es, err := parseEffects(r); err != nil || slices.ContainsFunc(es, func(e Effect) bool { return e.Who != 'D' }) {
			c.at("jump.yaml", 1, "result %q: write -, DS, DW or DK", r)
		}
	}
}
