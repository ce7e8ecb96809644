package conquete

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir"
	"github.com/umpire-pbem/umpire/adjudicator/modcache"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
)

// The module format (data/assumed/, docs/la-conquete.md): module.yaml,
// valley.yaml (the strategic map), forces.yaml (the counters and the
// peoples), calendar.yaml (the turns, the length, victory) and
// negotiation.yaml (the marker pool, the loyalty table). Every entry
// carries its provenance (dragonnoir.Prov: rule, assumed with clues, or
// user), every file is read strictly, and Load checks them against the
// rules and each other.

// Prov is where a value comes from (dragonnoir's: rule, assumed, user).
type Prov = dragonnoir.Prov

// lined is a list entry that remembers its line, for the checks' messages.
type lined[T any] struct {
	V    T
	Line int
}

// UnmarshalYAML decodes the entry strictly and records its line.
func (l *lined[T]) UnmarshalYAML(n *yaml.Node) error {
	l.Line = n.Line
	return yamlx.Decode(n, &l.V)
}

// ModuleInfo is module.yaml, as in Dragon Noir's modules.
type ModuleInfo = dragonnoir.ModuleInfo

// Region is one Region of the valley (valley.yaml).
type Region struct {
	ID     string `yaml:"id"`
	Name   string `yaml:"name"`
	People string `yaml:"people"` // the framed people (DN3-CAMP-MAP-3), "" for an empty Region
	Forest bool   `yaml:"forest"` // AMB-66
	Marsh  bool   `yaml:"marsh"`
	X      int    `yaml:"x"`
	Y      int    `yaml:"y"`
	Battle string `yaml:"battle"` // the dragonnoir assembly of its Battles
	Offmap bool   `yaml:"offmap"` // the starting road, the valley exit
	Prov   Prov   `yaml:",inline"`
	// Discovered is the stealth table's number for it (Table DN3-T4), set
	// by the loader; DiscoveryProv its provenance.
	Discovered    int  `yaml:"-"`
	DiscoveryProv Prov `yaml:"-"`
}

// Path kinds.
const (
	PathPlain = "path"  // a brown path
	PathDwarf = "dwarf" // the Dwarf passage (DN3-CAMP-MAP-7)
	PathRoad  = "road"  // the Rebels' starting road (AMB-89)
	PathExit  = "exit"  // the valley exit (AMB-52)
)

// Path is a path between two Regions, both ways.
type Path struct {
	ID   string `yaml:"id"`
	A    string `yaml:"a"`
	B    string `yaml:"b"`
	Kind string `yaml:"kind"`
	Prov Prov   `yaml:",inline"`
}

// Other is the Region at the other end of p from r, "" if p does not touch r.
func (p *Path) Other(r string) string {
	switch r {
	case p.A:
		return p.B
	case p.B:
		return p.A
	}
	return ""
}

// StealthRow is a row of Table DN3-T4: the Regions where a stealthy Troop
// is discovered on Discovered or more (none listed: every other Region).
type StealthRow struct {
	Discovered int      `yaml:"discovered"`
	Regions    []string `yaml:"regions"`
	Prov       Prov     `yaml:",inline"`
}

// NightStealth is what night adds to the number needed (AMB-40).
type NightStealth struct {
	Add  int  `yaml:"add"`
	Prov Prov `yaml:",inline"`
}

type valleyFile struct {
	Regions []lined[Region]     `yaml:"regions"`
	Paths   []lined[Path]       `yaml:"paths"`
	Stealth []lined[StealthRow] `yaml:"stealth"`
	Night   NightStealth        `yaml:"night-stealth"`
}

// Strategic classes of counters (Table DN3-T3).
const (
	ClassUnicorn = "unicorn"
	ClassRider   = "rider"
	ClassHealthy = "healthy"
	ClassDwarf   = "dwarf"
)

// Stealth abilities (DN3-CAMP-STEALTH-2).
const (
	StealthAlways = "always"
	StealthForest = "forest"
)

// CounterKind is one kind of counter of forces.yaml.
type CounterKind struct {
	Kind      string `yaml:"kind"`
	Count     int    `yaml:"count"`
	Side      string `yaml:"side"` // rebels, reptilians, or a people's id
	Class     string `yaml:"class"`
	Stealth   string `yaml:"stealth"`
	PE        int    `yaml:"pe"`
	PEWounded int    `yaml:"pe-wounded"`
	// PEWhen: a people's caster receives its PE the first time its people
	// allies (first-alliance, DN3-PEOPLE-DRUID-1, -GOB-3), or allies or
	// fights (first-alliance-or-battle, DN3-PEOPLE-HERMIT-1); "" from the
	// start (DN3-PEOPLE-UNIC-9).
	PEWhen string `yaml:"pe-when"`
	Level  int    `yaml:"level"`
	Role   string `yaml:"role"`
	Prov   Prov   `yaml:",inline"`
}

// IDs are the counter ids of the kind: the kind itself, or kind-1 … kind-N.
func (k *CounterKind) IDs() []string {
	if k.Count <= 1 {
		return []string{k.Kind}
	}
	out := make([]string, k.Count)
	for i := range out {
		out[i] = k.Kind + "-" + strconv.Itoa(i+1)
	}
	return out
}

// RebelChoice is the Rebels' choice of 12 (DN3-CAMP-FORCE-1 … 3).
type RebelChoice struct {
	Pick   int      `yaml:"pick"`
	KeyMax int      `yaml:"key-max"`
	Key    []string `yaml:"key"`
	Orb    string   `yaml:"orb"`
	Prov   Prov     `yaml:",inline"`
}

// Influence is a side's influential characters for a people: at least Min
// (default 1) living counters of these ids or kinds in its Troops there.
type Influence struct {
	Min int      `yaml:"min"`
	Of  []string `yaml:"of"`
}

// Marker is where a people's counter marks it at the start, and the
// counters that join a side when it allies there.
type Marker struct {
	Region   string   `yaml:"region"`
	Counters []string `yaml:"counters"`
}

// People is one people of the valley (Table DN3-T5).
type People struct {
	ID         string                         `yaml:"id"`
	Name       string                         `yaml:"name"`
	Relations  bool                           `yaml:"relations"` // one of the 7 of DN3-CAMP-REL-1 (AMB-48)
	Markers    []Marker                       `yaml:"markers"`
	Influence  map[adjudicator.Side]Influence `yaml:"influence"`
	Impossible []adjudicator.Side             `yaml:"impossible"`
	Prov       Prov                           `yaml:",inline"`
}

type forcesFile struct {
	Rebels   RebelChoice          `yaml:"rebels"`
	Counters []lined[CounterKind] `yaml:"counters"`
	Peoples  []lined[People]      `yaml:"peoples"`
}

// Slot is one strategic turn of a day.
type Slot struct {
	ID    string `yaml:"id"`
	Name  string `yaml:"name"`
	Night bool   `yaml:"night"`
	Prov  Prov   `yaml:",inline"`
}

// When is a turn of the calendar: a day and a slot's id.
type When struct {
	Day  int    `yaml:"day"`
	Slot string `yaml:"slot"`
	Prov Prov   `yaml:",inline"`
}

// Victory is one victory condition (GAP-23), checked in order.
type Victory struct {
	Kind   string           `yaml:"kind"` // eliminated, hold, more
	Side   adjudicator.Side `yaml:"side"`
	Region string           `yaml:"region"`
	Text   string           `yaml:"text"`
	Prov   Prov             `yaml:",inline"`
}

// Victory kinds.
const (
	VictoryEliminated = "eliminated"
	VictoryHold       = "hold"
	VictoryMore       = "more"
)

type calendarFile struct {
	Slots        []lined[Slot] `yaml:"slots"`
	Start        When          `yaml:"start"`
	Length       When          `yaml:"length"`
	SertegNights struct {
		Days    []int `yaml:"days"`
		Default int   `yaml:"default"`
		Prov    Prov  `yaml:",inline"`
	} `yaml:"serteg-nights"`
	KandarDelay struct {
		Turns int  `yaml:"turns"`
		Prov  Prov `yaml:",inline"`
	} `yaml:"kandar-delay"`
	Victory []lined[Victory] `yaml:"victory"`
}

// MarkerKind is one kind of Negotiation marker and how many the cup holds.
type MarkerKind struct {
	ID    string `yaml:"id"`
	Name  string `yaml:"name"`
	Count int    `yaml:"count"`
	Prov  Prov   `yaml:",inline"`
}

// LoyaltyRow is a row of Table DN3-T1.
type LoyaltyRow struct {
	From   int    `yaml:"from"`
	To     int    `yaml:"to"`
	Result string `yaml:"result"` // loyal or defects
	Prov   Prov   `yaml:",inline"`
}

type negotiationFile struct {
	Markers []lined[MarkerKind] `yaml:"markers"`
	Loyalty struct {
		Rows []lined[LoyaltyRow] `yaml:"rows"`
		Lord struct {
			Modifier int  `yaml:"modifier"`
			Prov     Prov `yaml:",inline"`
		} `yaml:"lord"`
	} `yaml:"loyalty"`
}

// Data is a module read and checked.
type Data struct {
	Info    ModuleInfo
	Regions map[string]*Region
	Order   []string // the Regions in file order
	Paths   []*Path
	Night   NightStealth
	stealth []*StealthRow

	Rebels      RebelChoice
	Kinds       map[string]*CounterKind // by kind
	Counters    map[string]*CounterKind // by counter id
	Peoples     map[string]*People
	PeopleOrder []string

	Slots         []*Slot
	Start         When
	Length        When
	SertegNights  []int
	SertegDefault int
	SertegProv    Prov
	KandarDelay   int
	KandarProv    Prov
	Victory       []*Victory

	Markers     []*MarkerKind
	Loyalty     []*LoyaltyRow
	LordMod     int
	LordModProv Prov

	// Races are magic.yaml's, by counter kind (magic.go).
	Races map[string]*Race

	Digest string
}

var loaded modcache.Cache[*Data]

// LoadModule reads and checks a module, cached by digest.
func LoadModule(m adjudicator.Module) (*Data, error) {
	return loaded.Load(m, parseModule)
}

// checker gathers every problem of a module, each at its file and line.
type checker struct{ errs []error }

func (c *checker) at(file string, line int, format string, args ...any) {
	c.errs = append(c.errs, fmt.Errorf("%s:%d: %s", file, line, fmt.Sprintf(format, args...)))
}

func (c *checker) prov(file string, line int, p Prov) {
	if err := p.Check(fmt.Sprintf("%s:%d", file, line)); err != nil {
		c.errs = append(c.errs, err)
	}
}

func strict(m adjudicator.Module, file string, v any) error {
	b, ok := m.Files[file]
	if !ok {
		return fmt.Errorf("module %s has no %s (every La Conquête module has it: see docs/la-conquete.md)", m.Name, file)
	}
	if err := yamlx.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	return nil
}

func parseModule(m adjudicator.Module) (*Data, error) {
	d := &Data{Regions: map[string]*Region{}, Kinds: map[string]*CounterKind{}, Counters: map[string]*CounterKind{},
		Peoples: map[string]*People{}}
	var (
		vf valleyFile
		ff forcesFile
		cf calendarFile
		nf negotiationFile
	)
	c := &checker{}
	for _, f := range []struct {
		name string
		v    any
	}{{"module.yaml", &d.Info}, {"valley.yaml", &vf}, {"forces.yaml", &ff}, {"calendar.yaml", &cf}, {"negotiation.yaml", &nf}} {
		if err := strict(m, f.name, f.v); err != nil {
			c.errs = append(c.errs, err)
		}
	}
	if len(c.errs) > 0 {
		return nil, errors.Join(c.errs...)
	}
	c.prov("module.yaml", 1, d.Info.Prov)
	d.forces(c, ff) // before the valley: the peoples' ids
	d.valley(c, vf)
	d.peoples(c, ff)
	d.calendar(c, cf)
	d.negotiation(c, nf)
	d.magic(c, m)
	if len(c.errs) > 0 {
		return nil, errors.Join(c.errs...)
	}
	d.Digest = m.Digest()
	return d, nil
}

func (d *Data) valley(c *checker, f valleyFile) {
	const file = "valley.yaml"
	for _, l := range f.Regions {
		r := l.V
		c.prov(file, l.Line, r.Prov)
		switch {
		case r.ID == "" || r.Name == "":
			c.at(file, l.Line, "a Region has an id and a name")
			continue
		case d.Regions[r.ID] != nil:
			c.at(file, l.Line, "Region %s is given twice", r.ID)
			continue
		case r.X < 0 || r.X > 100 || r.Y < 0 || r.Y > 100:
			c.at(file, l.Line, "Region %s: x and y run from 0 to 100 (the schematic picture)", r.ID)
		case !r.Offmap && r.Battle == "":
			c.at(file, l.Line, "Region %s: name the tactical assembly of its Battles (battle: battle-%s)", r.ID, r.ID)
		case r.People != "" && d.Peoples[r.People] == nil:
			c.at(file, l.Line, "Region %s: no people %q in forces.yaml", r.ID, r.People)
		}
		d.Regions[r.ID] = &r
		d.Order = append(d.Order, r.ID)
	}
	for _, l := range f.Paths {
		p := l.V
		c.prov(file, l.Line, p.Prov)
		if p.Kind == "" {
			p.Kind = PathPlain
		}
		if !slices.Contains([]string{PathPlain, PathDwarf, PathRoad, PathExit}, p.Kind) {
			c.at(file, l.Line, "path %s: kind %q: write path, dwarf, road or exit", p.ID, p.Kind)
		}
		for _, r := range []string{p.A, p.B} {
			if d.Regions[r] == nil {
				c.at(file, l.Line, "path %s: no Region %q%s", p.ID, r, suggest(r, d.Order))
			}
		}
		if p.A == p.B {
			c.at(file, l.Line, "path %s joins %s to itself", p.ID, p.A)
		}
		for _, q := range d.Paths {
			if q.ID == p.ID {
				c.at(file, l.Line, "path id %s is given twice", p.ID)
			}
			if q.Other(p.A) == p.B {
				c.at(file, l.Line, "path %s joins %s and %s, as %s does already", p.ID, p.A, p.B, q.ID)
			}
		}
		d.Paths = append(d.Paths, &p)
	}
	other := 0
	for _, l := range f.Stealth {
		s := l.V
		c.prov(file, l.Line, s.Prov)
		if len(s.Regions) == 0 {
			other = s.Discovered
		}
		for _, r := range s.Regions {
			reg := d.Regions[r]
			if reg == nil {
				c.at(file, l.Line, "stealth: no Region %q", r)
				continue
			}
			reg.Discovered, reg.DiscoveryProv = s.Discovered, s.Prov
		}
		d.stealth = append(d.stealth, &s)
	}
	if other == 0 {
		c.at(file, 1, "stealth: give the row for every other Region (regions: [], discovered: 4, Table DN3-T4)")
	}
	for _, s := range f.Stealth {
		if len(s.V.Regions) == 0 {
			for _, r := range d.Regions {
				if r.Discovered == 0 && !r.Offmap {
					r.Discovered, r.DiscoveryProv = s.V.Discovered, s.V.Prov
				}
			}
		}
	}
	c.prov(file, 1, f.Night.Prov)
	d.Night = f.Night
	for _, p := range CheckValley(d) {
		c.errs = append(c.errs, fmt.Errorf("%s: %s", file, p))
	}
}

// t2Edges are the edge labels of the battle game aid (Table DN3-T2): each
// pair must be joined by a path. "cavernes" is either Caverne naine.
var t2Edges = [][2]string{
	{"carrefour-du-dragon", "les-elfes"}, {"carrefour-du-dragon", "le-pont"}, {"carrefour-du-dragon", "cavernes"},
	{"carrefour-du-dragon", "dragon-noir"}, {"cercle-des-druides", "fond-du-val"}, {"cercle-des-druides", "conseil-des-ents"},
	{"cercle-des-druides", "la-foret"}, {"cercle-des-druides", "courte-passe"}, {"clairiere-des-licornes", "la-foret"},
	{"clairiere-des-licornes", "cercle-des-druides"}, {"clairiere-des-licornes", "courte-passe"}, {"conseil-des-ents", "le-moulin"},
	{"conseil-des-ents", "la-croisee"}, {"conseil-des-ents", "clairiere-des-licornes"}, {"courte-passe", "fond-du-val"},
	{"courte-passe", "cavernes"}, {"la-croisee", "le-marais"}, {"la-croisee", "le-pont"}, {"la-croisee", "le-gue"},
	{"la-croisee", "les-elfes"}, {"fond-du-val", "le-moulin"}, {"la-foret", "les-elfes"}, {"fort-ekal", "village-gobelin"},
	{"fort-ekal", "sortie"}, {"fort-ekal", "le-pont"}, {"oasis-barbare", "le-moulin"},
}

// Regions the rules name (DN3-CAMP-MAP-8, AMB-89, AMB-52): a valley must
// have them all, under these ids (the battles and the rules look them up).
var namedRegions = []string{"fort-ekal", "le-pont", "carrefour-du-dragon", "dragon-noir", "cavernes-ouest", "cavernes-est",
	"cercle-des-druides", "clairiere-des-licornes", "conseil-des-ents", "courte-passe", "la-croisee", "les-elfes",
	"fond-du-val", "la-foret", "le-gue", "le-marais", "le-moulin", "oasis-barbare", "village-gobelin", "route", "sortie"}

// CheckValley says what is wrong with a valley as the rules need it: a
// Region they name missing, an edge of the battle game aid (Table DN3-T2)
// with no path, the Dwarf passage, the starting road joined to the Moulin
// only (AMB-89), the exit off Fort Ekal (AMB-52), and a Region from which
// no path leads to Fort Ekal.
func CheckValley(d *Data) []adjudicator.MapProblem {
	var out []adjudicator.MapProblem
	bad := func(where, rule, format string, args ...any) {
		out = append(out, adjudicator.MapProblem{Where: where, Rule: rule, Message: fmt.Sprintf(format, args...)})
	}
	for _, id := range namedRegions {
		if d.Regions[id] == nil {
			bad(id, "DN3-CAMP-MAP-8", "the valley has no Region %s", id)
		}
	}
	joined := func(a, b string) bool {
		for _, p := range d.Paths {
			if p.Other(a) == b {
				return true
			}
		}
		return false
	}
	for _, e := range t2Edges {
		switch {
		case e[1] == "cavernes":
			if !joined(e[0], "cavernes-ouest") && !joined(e[0], "cavernes-est") {
				bad(e[0], "DN3-MAPS-2", "its battle map has an edge to Les Cavernes naines (Table DN3-T2), but no path joins it to either")
			}
		case !joined(e[0], e[1]):
			bad(e[0]+"/"+e[1], "DN3-MAPS-2", "the battle map of %s has an edge to %s (Table DN3-T2): give a path between them", e[0], e[1])
		}
	}
	n := 0
	for _, p := range d.Paths {
		switch p.Kind {
		case PathDwarf:
			n++
			if !(p.Other("cavernes-ouest") == "cavernes-est") {
				bad(p.ID, "DN3-CAMP-MAP-7", "the Dwarf passage joins the two Cavernes naines, not %s and %s", p.A, p.B)
			}
		case PathRoad:
			if p.Other("route") != "le-moulin" {
				bad(p.ID, "AMB-89", "the starting road joins route to le-moulin only")
			}
		case PathExit:
			if p.Other("sortie") != "fort-ekal" {
				bad(p.ID, "AMB-52", "the valley exit joins sortie to fort-ekal only")
			}
		default:
			if p.Other("route") != "" || p.Other("sortie") != "" {
				bad(p.ID, "AMB-89", "the road (route) and the exit (sortie) are joined by a road and an exit path only")
			}
		}
	}
	if n != 1 {
		bad("paths", "DN3-CAMP-MAP-7", "give one Dwarf passage (kind: dwarf) between cavernes-ouest and cavernes-est, not %d", n)
	}
	// Every Region of play reaches Fort Ekal by paths.
	if d.Regions["fort-ekal"] != nil {
		seen := map[string]bool{"fort-ekal": true}
		todo := []string{"fort-ekal"}
		for len(todo) > 0 {
			r := todo[0]
			todo = todo[1:]
			for _, p := range d.Paths {
				if o := p.Other(r); o != "" && !seen[o] {
					seen[o] = true
					todo = append(todo, o)
				}
			}
		}
		for _, id := range d.Order {
			if !seen[id] {
				bad(id, "DN3-CAMP-MAP-2", "no path leads from %s to Fort Ekal", id)
			}
		}
	}
	return out
}

func (d *Data) forces(c *checker, f forcesFile) {
	const file = "forces.yaml"
	d.Rebels = f.Rebels
	c.prov(file, 1, f.Rebels.Prov)
	for _, p := range f.Peoples {
		d.Peoples[p.V.ID] = &People{ID: p.V.ID} // the ids, for the counters' sides; peoples() reads the rest
	}
	for _, l := range f.Counters {
		k := l.V
		c.prov(file, l.Line, k.Prov)
		if k.Count == 0 {
			k.Count = 1
		}
		switch {
		case k.Kind == "":
			c.at(file, l.Line, "a counter has a kind (its dragonnoir kind id)")
			continue
		case d.Kinds[k.Kind] != nil:
			c.at(file, l.Line, "kind %s is given twice", k.Kind)
			continue
		case k.Side != "rebels" && k.Side != "reptilians" && d.Peoples[k.Side] == nil:
			c.at(file, l.Line, "%s: side %q: write rebels, reptilians or a people of peoples:", k.Kind, k.Side)
		case !slices.Contains([]string{ClassUnicorn, ClassRider, ClassHealthy, ClassDwarf}, k.Class):
			c.at(file, l.Line, "%s: class %q: write unicorn, rider, healthy or dwarf (Table DN3-T3)", k.Kind, k.Class)
		case k.Stealth != "" && k.Stealth != StealthAlways && k.Stealth != StealthForest:
			c.at(file, l.Line, "%s: stealth %q: write always or forest (DN3-CAMP-STEALTH-2)", k.Kind, k.Stealth)
		case k.PEWhen != "" && k.PEWhen != peFirstAlliance && k.PEWhen != peOrBattle:
			c.at(file, l.Line, "%s: pe-when %q: write first-alliance or first-alliance-or-battle (Table DN3-T7)", k.Kind, k.PEWhen)
		}
		d.Kinds[k.Kind] = &k
		for _, id := range k.IDs() {
			d.Counters[id] = &k
		}
	}
	r := f.Rebels
	if r.Pick <= 0 || r.KeyMax <= 0 {
		c.at(file, 1, "rebels: give pick (12, DN3-CAMP-FORCE-1) and key-max (4, DN3-CAMP-FORCE-2)")
	}
	for _, id := range append(slices.Clone(r.Key), r.Orb) {
		if k := d.Counters[id]; k == nil || k.Side != "rebels" {
			c.at(file, 1, "rebels: %s is not a Rebel counter of counters:", id)
		}
	}
}

func (d *Data) peoples(c *checker, f forcesFile) {
	const file = "forces.yaml"
	relations := 0
	for _, l := range f.Peoples {
		p := l.V
		c.prov(file, l.Line, p.Prov)
		if p.Relations {
			relations++
		}
		for _, m := range p.Markers {
			if r := d.Regions[m.Region]; r == nil || r.People != p.ID {
				c.at(file, l.Line, "%s: its marker is on %s, which valley.yaml does not frame for it (people: %s)", p.ID, m.Region, p.ID)
			}
			for _, id := range m.Counters {
				if k := d.Counters[id]; k == nil || k.Side != p.ID {
					c.at(file, l.Line, "%s: %s is not one of its counters (side: %s in counters:)", p.ID, id, p.ID)
				}
			}
		}
		for side, in := range p.Influence {
			if side != "rebels" && side != "reptilians" {
				c.at(file, l.Line, "%s: influence of %q: write rebels or reptilians", p.ID, side)
			}
			for _, id := range in.Of {
				if d.Counters[id] == nil && d.Kinds[id] == nil {
					c.at(file, l.Line, "%s: influence: no counter %q", p.ID, id)
				}
			}
		}
		d.Peoples[p.ID] = &p
		d.PeopleOrder = append(d.PeopleOrder, p.ID)
	}
	if relations != 7 {
		c.at(file, 1, "peoples: %d have relations: true; the Reptilian player sorts 7 (DN3-CAMP-REL-1, AMB-48)", relations)
	}
	for _, id := range d.Order {
		if r := d.Regions[id]; r.People != "" {
			found := false
			for _, m := range d.Peoples[r.People].Markers {
				found = found || m.Region == id
			}
			if !found && r.People != "nains-gris" { // either Caverne naine may hold the dwarves' marker (DN3-CAMP-SETUP-4)
				c.at("valley.yaml", 1, "Region %s is framed for %s, but no marker of forces.yaml is there", id, r.People)
			}
		}
	}
}

func (d *Data) calendar(c *checker, f calendarFile) {
	const file = "calendar.yaml"
	for _, l := range f.Slots {
		s := l.V
		c.prov(file, l.Line, s.Prov)
		d.Slots = append(d.Slots, &s)
	}
	if len(d.Slots) == 0 || !slices.ContainsFunc(d.Slots, func(s *Slot) bool { return s.Night }) {
		c.at(file, 1, "slots: a day has turns, one of them a night (DN3-CAMP-TURN-3)")
	}
	d.Start, d.Length = f.Start, f.Length
	for _, w := range []When{f.Start, f.Length} {
		c.prov(file, 1, w.Prov)
		if d.slot(w.Slot) < 0 || w.Day < 1 {
			c.at(file, 1, "%d-%s: a day from 1 and a slot of slots:", w.Day, w.Slot)
		}
	}
	d.SertegNights, d.SertegDefault, d.SertegProv = f.SertegNights.Days, f.SertegNights.Default, f.SertegNights.Prov
	d.KandarDelay, d.KandarProv = f.KandarDelay.Turns, f.KandarDelay.Prov
	c.prov(file, 1, d.SertegProv)
	c.prov(file, 1, d.KandarProv)
	if !slices.Contains(d.SertegNights, d.SertegDefault) {
		c.at(file, 1, "serteg-nights: the default is one of the days")
	}
	for _, l := range f.Victory {
		v := l.V
		c.prov(file, l.Line, v.Prov)
		switch {
		case v.Kind == VictoryMore:
		case v.Kind != VictoryEliminated && v.Kind != VictoryHold:
			c.at(file, l.Line, "victory kind %q: write eliminated, hold or more", v.Kind)
		case v.Side != "rebels" && v.Side != "reptilians":
			c.at(file, l.Line, "victory: side rebels or reptilians")
		case v.Kind == VictoryHold && d.Regions[v.Region] == nil:
			c.at(file, l.Line, "victory: no Region %q", v.Region)
		}
		if v.Text == "" {
			c.at(file, l.Line, "victory: say it for people (text:)")
		}
		d.Victory = append(d.Victory, &v)
	}
}

func (d *Data) negotiation(c *checker, f negotiationFile) {
	const file = "negotiation.yaml"
	for _, l := range f.Markers {
		m := l.V
		c.prov(file, l.Line, m.Prov)
		if m.Count < 0 {
			c.at(file, l.Line, "marker %s: a count of 0 or more", m.ID)
		}
		d.Markers = append(d.Markers, &m)
	}
	covered := map[int]bool{}
	for _, l := range f.Loyalty.Rows {
		r := l.V
		c.prov(file, l.Line, r.Prov)
		if r.Result != "loyal" && r.Result != "defects" {
			c.at(file, l.Line, "loyalty: result loyal or defects (Table DN3-T1)")
		}
		for i := r.From; i <= r.To; i++ {
			if covered[i] {
				c.at(file, l.Line, "loyalty: %d is in two rows", i)
			}
			covered[i] = true
		}
		d.Loyalty = append(d.Loyalty, &r)
	}
	for i := 1; i <= 10; i++ {
		if !covered[i] {
			c.at(file, 1, "loyalty: no row for a roll of %d", i)
		}
	}
	d.LordMod, d.LordModProv = f.Loyalty.Lord.Modifier, f.Loyalty.Lord.Prov
	c.prov(file, 1, d.LordModProv)
}

// slot is the index of slot id in the day, -1 if none.
func (d *Data) slot(id string) int {
	return slices.IndexFunc(d.Slots, func(s *Slot) bool { return s.ID == id })
}

// Adjacent lists the paths out of Region r, in file order.
func (d *Data) Adjacent(r string) []*Path {
	var out []*Path
	for _, p := range d.Paths {
		if p.Other(r) != "" {
			out = append(out, p)
		}
	}
	return out
}

// PathBetween is the path joining a and b, nil if none.
func (d *Data) PathBetween(a, b string) *Path {
	for _, p := range d.Paths {
		if p.Other(a) == b {
			return p
		}
	}
	return nil
}

// suggest is ", did you mean X?" for a near miss, "" otherwise.
func suggest(s string, among []string) string {
	if n := yamlx.Nearest(s, among); n != "" {
		return fmt.Sprintf(" (did you mean %s?)", n)
	}
	return ""
}

// list writes ids for people: "a, b and c".
func list(ids []string) string {
	switch len(ids) {
	case 0:
		return "none"
	case 1:
		return ids[0]
	}
	return strings.Join(ids[:len(ids)-1], ", ") + " and " + ids[len(ids)-1]
}
