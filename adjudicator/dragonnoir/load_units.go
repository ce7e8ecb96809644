package dragonnoir

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
	"github.com/umpire-pbem/umpire/adjudicator/hexmap"
)

// Faces a counter may have (DN-CNT-5): healthy and wounded for everyone
// who can be wounded; stunned when the counter prints values for it
// (AMB-12); berserk for a berserker (DN-SPEC-1).
var faceNames = []string{"healthy", "wounded", "stunned", "berserk"}

// counterNames lists the counters a kind makes: ID, or ID-1 … ID-n.
func (k *Kind) counterNames() []string {
	n := max(k.Count, 1)
	if n == 1 {
		return []string{k.ID}
	}
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s-%d", k.ID, i+1)
	}
	return out
}

func (d *Data) counters(c *checker, f countersFile) {
	const file = "counters.yaml"
	for _, l := range f.Kinds {
		k := l.V
		c.prov(file, l.Line, k.Prov)
		if k.ID == "" || d.Kinds[k.ID] != nil {
			c.at(file, l.Line, "kind %q: give each kind its own id", k.ID)
			continue
		}
		if !slices.Contains([]string{string(Adventurers), string(Krobs), string(Gharvs)}, k.Side) {
			c.at(file, l.Line, "kind %s: side %q is adventurers, krobs or gharvs", k.ID, k.Side)
		}
		if k.Shape == "" {
			k.Shape = hex.Single.Name
		}
		if _, err := hex.ParseShape(k.Shape); err != nil {
			c.at(file, l.Line, "kind %s: %v", k.ID, err)
		}
		if _, ok := k.Faces["healthy"]; !ok {
			c.at(file, l.Line, "kind %s: give its healthy face (faces: {healthy: {attack: …, move: …, defence: …}})", k.ID)
		}
		for _, name := range slices.Sorted(maps.Keys(k.Faces)) {
			if !slices.Contains(faceNames, name) {
				c.at(file, l.Line, "kind %s: face %q is one of %s", k.ID, name, strings.Join(faceNames, ", "))
			}
		}
		if k.Wounds < 1 {
			c.at(file, l.Line, "kind %s: wounds: the wound that kills it (1 for babies and dogs, 2 for most, AMB-11)", k.ID)
		}
		if k.Wounds > 1 && k.Faces["wounded"] == (Face{}) {
			c.at(file, l.Line, "kind %s: a character that survives a wound needs its wounded face (DN-RES-3)", k.ID)
		}
		if k.Weapon != "" && d.Weapons[k.Weapon] == nil {
			c.at(file, l.Line, "kind %s: weapon %q is not in weapons.yaml", k.ID, k.Weapon)
		}
		if k.Has(TagBerserker) && k.Faces["berserk"] == (Face{}) {
			c.at(file, l.Line, "kind %s: a berserker needs its berserk face (DN-SPEC-1)", k.ID)
		}
		checkCaster(c, file, l.Line, &k) // La Conquête's magic (spell_lists.go)
		for _, t := range k.Tags {
			if !slices.Contains(counterTags, t) {
				c.at(file, l.Line, "kind %s: tag %q is not one of %s", k.ID, t, strings.Join(counterTags, ", "))
			}
		}
		d.checkGiants(c, file, l.Line, &k)  // DN3: Ents and the Black Dragon (special_ent.go)
		if k.Armoured && !k.Has(TagSinks) { // movement chapter: armour counts for every rule (DN-CNT-9), and sinks (DN-MOVE-5)
			k.Tags = append(slices.Clone(k.Tags), TagSinks)
		}
		kk := k
		d.Kinds[k.ID] = &kk
		for _, id := range k.counterNames() {
			if d.Counters[id] != nil {
				c.at(file, l.Line, "kind %s makes counter %s, which kind %s makes too", k.ID, id, d.Counters[id].ID)
			}
			d.Counters[id] = &kk
		}
	}
	for _, k := range d.Kinds {
		if k.GuardedBy != "" && d.Counters[k.GuardedBy] == nil {
			c.at(file, 1, "kind %s: guarded-by %q is no counter", k.ID, k.GuardedBy)
		}
	}
	d.peoples(c, f) // chapter: the valley's peoples
	if g := d.Kinds[d.GharvKind]; g == nil || g.Side != string(Gharvs) {
		c.at("gharvs.yaml", 1, "kind %q: name the Gharvs' kind of counters.yaml (side gharvs)", d.GharvKind)
	}
}

// boards reads every map file under boards/, then every assembly under
// assemblies/ (a scenario plays on one or the other).
func (d *Data) boards(c *checker, m adjudicator.Module) {
	d.Boards, d.maps = map[string]*hexmap.Map{}, map[string]*hexmap.Map{}
	for _, p := range m.Paths() {
		name, ok := strings.CutPrefix(p, "boards/")
		if !ok {
			continue
		}
		name, ok = strings.CutSuffix(name, ".yaml")
		if !ok || strings.Contains(name, "/") {
			c.at(p, 1, "boards/ holds only board files NAME.yaml")
			continue
		}
		b, err := hexmap.Parse(p, m.Files[p], &vocabulary)
		if err != nil {
			c.errs = append(c.errs, err)
			continue
		}
		d.Boards[name] = b
		d.maps[name] = b
	}
	find := func(name string) (*hexmap.Map, error) {
		if b, ok := d.Boards[name]; ok {
			return b, nil
		}
		return nil, fmt.Errorf("no board file boards/%s.yaml", name)
	}
	for _, p := range m.Paths() {
		name, ok := strings.CutPrefix(p, "assemblies/")
		if !ok {
			continue
		}
		name, _ = strings.CutSuffix(name, ".yaml")
		a, err := hexmap.ParseAssembly(p, m.Files[p])
		if err == nil {
			var mp *hexmap.Map
			if mp, err = a.Build(find); err == nil {
				d.maps[name] = mp
			}
		}
		if err != nil {
			c.errs = append(c.errs, err)
		}
	}
	for name, mp := range d.maps {
		for _, p := range (ruleset{}).CheckMap(mp) {
			c.errs = append(c.errs, fmt.Errorf("map %s: %s", name, p))
		}
	}
}

func (d *Data) scenarios(c *checker, m adjudicator.Module, f scenariosFile) {
	const file = "scenarios.yaml"
	for _, l := range f.Scenarios {
		s := l.V
		at := func(format string, args ...any) {
			c.at(file, l.Line, "scenario %s: "+format, append([]any{s.ID}, args...)...)
		}
		c.prov(file, l.Line, s.Prov)
		if s.ID == "" {
			at("give it an id")
		}
		mp := d.maps[s.Map]
		if mp == nil {
			at("map %q: name an assembly of assemblies/ or a board of boards/", s.Map)
		}
		if s.Turns < 1 {
			at("turns: how many game turns it lasts")
		}
		for side, z := range s.Entries {
			if side != string(Adventurers) && side != string(Krobs) {
				at("entries: %q is adventurers or krobs", side)
			}
			if mp != nil {
				if _, ok := mp.Zone(z); !ok {
					at("entries: the map has no zone %q", z)
				}
			}
		}
		seen := map[string]bool{}
		covered := map[string]string{} // location → the counter on it (DN-STACK-2)
		for _, p := range s.Forces {
			k := d.Counters[p.Unit]
			if k == nil {
				at("forces: no counter %q in counters.yaml", p.Unit)
				continue
			}
			if seen[p.Unit] {
				at("forces: %s is placed twice", p.Unit)
			}
			seen[p.Unit] = true
			if mp != nil && p.At != "" {
				if err := placeable(mp, k, p); err != nil {
					at("forces: %s: %v", p.Unit, err)
					continue
				}
				l, _ := locOn(mp, p.At)
				f, _ := footprintOf(mp, k, l.Hex, p.Facing)
				for _, h := range f.Hexes() {
					cl := locString(mp, l)
					if h != l.Hex {
						cl = locString(mp, mp.FloorLoc(h))
					}
					if o, ok := covered[cl]; ok {
						at("forces: %s and %s are both on %s: one living character a hex (DN-STACK-2)", o, p.Unit, cl)
					}
					covered[cl] = p.Unit
				}
			}
		}
		for _, w := range append(slices.Clone(s.Webs), hiddenAts(s.Hidden)...) {
			if mp != nil {
				if _, err := locOn(mp, w); err != nil {
					at("%v", err)
				}
			}
		}
		if mp != nil { // movement chapter: boats and oubliette entrances
			for _, err := range checkMarkers(mp, d, s.Boats, s.Oubliettes) {
				at("%v", err)
			}
		}
		d.checkScenario(at, &s, mp) // scenario.go: victory, entries, hidden markers, boats
		ss := s
		d.Scenarios = append(d.Scenarios, &ss)
	}
	if len(d.Scenarios) == 0 {
		c.at(file, 1, "a module has at least one scenario")
	}
}

func hiddenAts(hs []HiddenMarker) []string {
	var out []string
	for _, h := range hs {
		out = append(out, h.At)
	}
	return out
}

// placeable says why a counter cannot stand at p's location on mp.
func placeable(mp *hexmap.Map, k *Kind, p Placement) error {
	l, err := locOn(mp, p.At)
	if err != nil {
		return err
	}
	f, err := footprintOf(mp, k, l.Hex, p.Facing)
	if err != nil {
		return err
	}
	for _, h := range f.Hexes() {
		if !mp.OnMap(h) {
			return fmt.Errorf("facing %s from %s it covers %s, off the map", p.Facing, p.At, h)
		}
	}
	return nil
}
