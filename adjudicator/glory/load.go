package glory

import (
	"errors"
	"fmt"
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
	"github.com/umpire-pbem/umpire/adjudicator/hexmap"
	"github.com/umpire-pbem/umpire/adjudicator/modcache"
)

// Terrain kinds, hexside features and named points of a map (map.yaml).
var vocabulary = hexmap.Vocabulary{
	Terrain: []string{"clear", "forest", "mountain", "swamp", "desert", "sea", "maelstrom"},
	Sides:   []string{"river", "deep-river", "ford", "bridge", "mountain", "pass"},
	// A named hex is a city, a fortification or a port; a port, a capital
	// or the High Clerist's Tower (where the Knights of the Tower enter,
	// DG-ACT-10) may also be a city or fortification, which its tags say.
	Points:     []string{"city", "fortified-city", "fortress", "dwarven-fortress", "port"},
	PointTags:  []string{"port", "capital", "tower"},
	StackSides: true, // a river may run along a mountain ridge
	Letters:    map[string]byte{"clear": '.', "forest": 'f', "mountain": 'm', "swamp": 'w', "desert": 'd', "sea": '~', "maelstrom": '@'},
}

var loaded modcache.Cache[*Data]

// LoadModule reads and checks a module. The result is cached by digest: a
// module's data never changes once read.
func LoadModule(m adjudicator.Module) (*Data, error) {
	return loaded.Load(m, parseModule)
}

func parseModule(m adjudicator.Module) (*Data, error) {
	d := &Data{Nations: map[string]*Nation{}, Kinds: map[string]*CounterKind{}, Counters: map[string]*CounterKind{}, Events: map[string]*EventDef{}}
	var errs []error
	if err := strict(m, "module.yaml", &d.Info); err != nil {
		return nil, err
	}
	if err := d.Info.Prov.check("module.yaml"); err != nil {
		errs = append(errs, err)
	}
	mb, ok := m.Files["map.yaml"]
	if !ok {
		return nil, fmt.Errorf("module %s has no map.yaml", m.Name)
	}
	mp, err := hexmap.Parse("map.yaml", mb, &vocabulary)
	if err != nil {
		return nil, err
	}
	d.Map = mp
	var nations []*Nation
	if err := strict(m, "nations.yaml", &nations); err != nil {
		return nil, err
	}
	for i, n := range nations {
		where := fmt.Sprintf("nations.yaml: nation %d (%s)", i+1, n.ID)
		if n.ID == "" {
			errs = append(errs, fmt.Errorf("%s: give it an id", where))
			continue
		}
		if d.Nations[n.ID] != nil {
			errs = append(errs, fmt.Errorf("%s: a second nation with this id", where))
		}
		d.Nations[n.ID] = n
		if err := n.Prov.check(where); err != nil {
			errs = append(errs, err)
		}
		for s := range n.Activation {
			if !validSide(s) {
				errs = append(errs, fmt.Errorf("%s: activation for %q: the sides are highlord and whitestone", where, s))
			}
		}
		if n.Capital != "" {
			if _, err := d.hexAt(n.Capital); err != nil {
				errs = append(errs, fmt.Errorf("%s: capital: %v", where, err))
			}
		}
		if _, ok := mp.Zone(n.ID); !ok {
			errs = append(errs, fmt.Errorf("%s: map.yaml has no zone %q with its hexes", where, n.ID))
		}
	}
	d.Geo = newGeo(d)
	var kinds []*CounterKind
	if err := strict(m, "counters.yaml", &kinds); err != nil {
		return nil, err
	}
	for i, k := range kinds {
		where := fmt.Sprintf("counters.yaml: counter %d (%s)", i+1, k.ID)
		if k.ID == "" {
			errs = append(errs, fmt.Errorf("%s: give it an id", where))
			continue
		}
		if d.Kinds[k.ID] != nil {
			errs = append(errs, fmt.Errorf("%s: a second counter kind with this id", where))
		}
		d.Kinds[k.ID] = k
		if err := k.Prov.check(where); err != nil {
			errs = append(errs, err)
		}
		if !slices.Contains([]string{Infantry, Cavalry, Air, Fleet, Leader, Wizard}, k.Type) {
			errs = append(errs, fmt.Errorf("%s: type %q: write infantry, cavalry, air, fleet, leader or wizard", where, k.Type))
		}
		if k.Nation != "" && d.Nations[k.Nation] == nil {
			errs = append(errs, fmt.Errorf("%s: nation %q is not in nations.yaml", where, k.Nation))
		}
		if k.Side != "" && !validSide(adjudicator.Side(k.Side)) {
			errs = append(errs, fmt.Errorf("%s: side %q: write highlord or whitestone", where, k.Side))
		}
		if k.Nation == "" && k.Side == "" {
			errs = append(errs, fmt.Errorf("%s: give it a nation or a side", where))
		}
		switch k.Type {
		case Infantry, Cavalry, Air, Fleet:
			if k.Half == nil {
				errs = append(errs, fmt.Errorf("%s: an army or fleet needs its half (reduced or damaged) face", where))
			}
		}
		errs = append(errs, checkErrata(where, k)...)
		for _, c := range k.counterNames() {
			if d.Counters[c] != nil {
				errs = append(errs, fmt.Errorf("%s: counter %s is also made by %s", where, c, d.Counters[c].ID))
			}
			d.Counters[c] = k
		}
	}
	var events []*EventDef
	if err := strict(m, "events.yaml", &events); err != nil {
		return nil, err
	}
	for i, e := range events {
		where := fmt.Sprintf("events.yaml: event %d (%s)", i+1, e.ID)
		if e.ID == "" {
			errs = append(errs, fmt.Errorf("%s: give it an id", where))
			continue
		}
		d.Events[e.ID] = e
		if err := e.Prov.check(where); err != nil {
			errs = append(errs, err)
		}
		if !slices.Contains([]int{1, 10, 20}, e.Enter) {
			errs = append(errs, fmt.Errorf("%s: enter %d: event counters are marked E1, E10 or E20 (DG-COMP-15)", where, e.Enter))
		}
		if !slices.Contains([]string{"drawer", string(Highlord), string(Whitestone)}, e.For) {
			errs = append(errs, fmt.Errorf("%s: for %q: write drawer, highlord or whitestone", where, e.For))
		}
		for j, ef := range e.Does {
			w := fmt.Sprintf("%s, effect %d", where, j+1)
			switch ef.Kind {
			case "activation":
				if ef.Nation != "" && d.Nations[ef.Nation] == nil {
					errs = append(errs, fmt.Errorf("%s: nation %q is not in nations.yaml", w, ef.Nation))
				}
			case "reinforce", "wizard":
				for _, u := range ef.Units {
					if d.Counters[u] == nil {
						errs = append(errs, fmt.Errorf("%s: no counter %q in counters.yaml", w, u))
					}
				}
				if ef.At != "" {
					if _, err := d.hexAt(ef.At); err != nil {
						errs = append(errs, fmt.Errorf("%s: at: %v", w, err))
					}
				}
			case "nothing":
			default:
				errs = append(errs, fmt.Errorf("%s: kind %q: write activation, reinforce, wizard or nothing", w, ef.Kind))
			}
		}
	}
	if err := strict(m, "scenarios.yaml", &d.Scenarios); err != nil {
		return nil, err
	}
	for i, s := range d.Scenarios {
		errs = append(errs, d.checkScenario(i, s)...)
	}
	d.Digest = m.Digest()
	return d, errors.Join(errs...)
}

func (d *Data) checkScenario(i int, s *Scenario) []error {
	where := fmt.Sprintf("scenarios.yaml: scenario %d (%s)", i+1, s.ID)
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(where+": "+format, args...)) }
	if s.ID == "" {
		bad("give it an id")
	}
	if err := s.Prov.check(where); err != nil {
		errs = append(errs, err)
	}
	if s.Start < 1 || s.End < s.Start {
		bad("start %d and end %d: the game runs from turn start to turn end, start at least 1", s.Start, s.End)
	}
	if s.Initiative != "" && !validSide(adjudicator.Side(s.Initiative)) {
		bad("initiative %q: write highlord, whitestone or leave it out", s.Initiative)
	}
	for n, side := range s.Allies {
		if d.Nations[n] == nil {
			bad("allies: nation %q is not in nations.yaml", n)
		}
		if !validSide(side) {
			bad("allies: %s: %q is not highlord or whitestone", n, side)
		}
	}
	for _, n := range s.Activate {
		if d.Nations[n] == nil {
			bad("activate: nation %q is not in nations.yaml", n)
		}
	}
	seen := map[string]bool{}
	for _, list := range [][]Placement{s.Units, s.Track} {
		for _, p := range list {
			if _, err := d.hexAt(p.At); err != nil {
				bad("units at %q: %v", p.At, err)
			}
			for _, u := range p.Units {
				if d.Counters[u] == nil {
					bad("no counter %q in counters.yaml", u)
				}
				if seen[u] {
					bad("counter %s is placed twice", u)
				}
				seen[u] = true
			}
		}
	}
	for _, e := range s.Cup {
		if d.Events[e] == nil {
			bad("cup: no event %q in events.yaml", e)
		}
	}
	if s.Temple != "" {
		if _, err := d.hexAt(s.Temple); err != nil {
			bad("temple: %v", err)
		} else if why := d.templeSiteProblem(s); why != "" {
			bad("temple: %s", why)
		}
	}
	for j, v := range s.Victory {
		if !slices.Contains([]string{"hold", "capture", "strength"}, v.Kind) {
			bad("victory %d: kind %q: write hold, capture or strength", j+1, v.Kind)
		}
		if !validSide(v.Side) {
			bad("victory %d: side %q: write highlord or whitestone", j+1, v.Side)
		}
		for _, h := range v.Hexes {
			if _, err := d.hexAt(h); err != nil {
				bad("victory %d: %v", j+1, err)
			}
		}
		for _, n := range v.Nations {
			if d.Nations[n] == nil {
				bad("victory %d: nation %q is not in nations.yaml", j+1, n)
			}
		}
	}
	return errs
}

// hexAt parses a hex of the module's map.
func (d *Data) hexAt(s string) (hex.Hex, error) {
	h, err := hex.Parse(s)
	if err != nil {
		return h, err
	}
	if !d.Map.OnMap(h) {
		return h, fmt.Errorf("%s is not on the map", s)
	}
	return h, nil
}
