package dragonrage

import (
	"embed"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
)

//go:embed data/*.yaml
var dataFS embed.FS

// UnitType is one kind of counter.
type UnitType struct {
	Code        string   `yaml:"-" json:"code"`
	Name        string   `yaml:"name" json:"name"`
	Kind        string   `yaml:"kind" json:"kind"` // troop, character, minor, siege
	Attack      int      `yaml:"attack" json:"attack"`
	DefenceOnly bool     `yaml:"defence-only" json:"defence_only,omitempty"`
	Defence     int      `yaml:"defence" json:"defence,omitempty"` // when it differs from Attack
	Escape      int      `yaml:"escape" json:"escape"`
	MP          int      `yaml:"mp" json:"mp"`
	Road        int      `yaml:"road" json:"road"`
	HP          int      `yaml:"hp" json:"hp,omitempty"`
	Hit         int      `yaml:"hit" json:"hit,omitempty"`
	Range       int      `yaml:"range" json:"range,omitempty"`
	MinRange    int      `yaml:"min-range" json:"min_range,omitempty"`
	Points      float64  `yaml:"points" json:"points,omitempty"`
	Assumed     []string `yaml:"assumed" json:"assumed,omitempty"`
	Note        string   `yaml:"note" json:"-"`

	// What the rules let the unit do, each from its rule (see the header
	// of data/counters.yaml and capabilities.go).
	Human         bool      `yaml:"human" json:"-"`          // DR-COMP-2
	Hero          bool      `yaml:"hero" json:"-"`           // DR-HERO-1, -2, DR-MATK-16
	WoundedFirst  bool      `yaml:"wounded-first" json:"-"`  // DR-HERO-5, DR-ELOWYN-5
	Wizard        bool      `yaml:"wizard" json:"-"`         // DR-MAGIC-1
	Summoned      bool      `yaml:"summoned" json:"-"`       // DR-SPELL-ELEM-1, -5, -9
	Dragon        bool      `yaml:"dragon" json:"-"`         // DR-SPELL-ELEM-10
	Melee         MeleeRule `yaml:"melee" json:"-"`          // DR-ARH-1, DR-SIEGE-3
	FearsMonsters bool      `yaml:"fears-monsters" json:"-"` // DR-MIL-1
	DestroysVP    VPRule    `yaml:"destroys-vp" json:"-"`    // DR-VP-4..7, DR-ELOWYN-13
	Ladder        bool      `yaml:"ladder" json:"-"`         // DR-CLIMB-7
	Escort        bool      `yaml:"escort" json:"-"`         // DR-ELOWYN-12
	Rivers        bool      `yaml:"rivers" json:"-"`         // DR-TERR-3, DR-GIANT-4, DR-SERP-2
	Swimmer       bool      `yaml:"swimmer" json:"-"`        // DR-SERP-2..10
	NoTower       bool      `yaml:"no-tower" json:"-"`       // DR-CAV-1
	Heavy         bool      `yaml:"heavy" json:"-"`          // DR-TREX-2
	Overrun       bool      `yaml:"overrun" json:"-"`        // DR-OVR-2, -4
	Grudge        bool      `yaml:"grudge" json:"-"`         // DR-TREX-4
	TowerRange    TowerRule `yaml:"tower-range" json:"-"`    // DR-FIRE-6, DR-BAL-1, DR-CAT-1
	FarFrom       int       `yaml:"far-from" json:"-"`       // DR-BAL-4
	FarAttack     int       `yaml:"far-attack" json:"-"`     // DR-BAL-4
	MonsterHit    []int     `yaml:"monster-hit" json:"-"`    // DR-FIRE-8, DR-BAL-3, DR-CAT-4
	Lobs          bool      `yaml:"lobs" json:"-"`           // DR-CAT-3
	Missile       string    `yaml:"missile" json:"-"`        // what the report says it shoots
	Major         *MajorDef `yaml:"major" json:"-"`          // a major monster's record sheet (§18, major.go)
}

// DefenceStrength is the strength the unit defends with on the CRT.
func (t *UnitType) DefenceStrength() int {
	if t.Defence > 0 {
		return t.Defence
	}
	return t.Attack
}

// Values is the counter as printed: attack-escape-MP(road), attack in
// parentheses when it is defence only.
func (t *UnitType) Values() string {
	a := strconv.Itoa(t.Attack)
	if t.DefenceOnly {
		a = "(" + a + ")"
	}
	if t.Major != nil {
		return t.Major.values()
	}
	if t.Kind == "siege" {
		return fmt.Sprintf("%d/%d-–", t.Attack, t.DefenceStrength())
	}
	if t.Kind == "minor" && t.HP > 0 {
		return fmt.Sprintf("%s-%d-%d %dHP", a, t.Escape, t.MP, t.HP)
	}
	return fmt.Sprintf("%s-%d-%d(%d)", a, t.Escape, t.MP, t.Road)
}

// ScenarioDef is one printed scenario.
type ScenarioDef struct {
	ID            string         `yaml:"id"`
	Rule          string         `yaml:"rule"`
	Title         string         `yaml:"title"`
	Map           string         `yaml:"map"`
	Goal          int            `yaml:"goal"`
	Playable      *bool          `yaml:"playable"`
	DefenderFirst bool           `yaml:"defender-first"`
	Invader       map[string]int `yaml:"invader"`
	Defender      map[string]int `yaml:"defender"`
}

// IsPlayable reports whether umpire implements everything the scenario needs.
func (s *ScenarioDef) IsPlayable() bool { return s.Playable == nil || *s.Playable }

// CSTRow is one row of the Climbing & Smashing table.
type CSTRow struct {
	Climb           string `yaml:"climb"`
	Door            string `yaml:"door"`
	Gate            string `yaml:"gate"`
	NoClimbAdjacent bool   `yaml:"no-climb-when-adjacent"`
}

// Data is the module data of the ruleset.
type Data struct {
	Types     map[string]*UnitType
	Mix       map[string]int
	Scenarios []*ScenarioDef
	CRT       [30][15]string
	CST       map[string]CSTRow
}

var (
	loadOnce sync.Once
	loaded   *Data
	loadErr  error
)

// Embedded returns the data shipped with umpire.
func Embedded() (*Data, error) {
	loadOnce.Do(func() { loaded, loadErr = parseData() })
	return loaded, loadErr
}

func parseData() (*Data, error) {
	var counters struct {
		Types map[string]*UnitType `yaml:"types"`
		Mix   struct {
			Assumed bool           `yaml:"assumed"`
			Counts  map[string]int `yaml:"counts"`
		} `yaml:"mix"`
	}
	var scen struct {
		Scenarios []*ScenarioDef `yaml:"scenarios"`
	}
	var tables struct {
		CRT [][]yamlScalar    `yaml:"crt"`
		CST map[string]CSTRow `yaml:"cst"`
	}
	for name, v := range map[string]any{"counters.yaml": &counters, "scenarios.yaml": &scen, "tables.yaml": &tables} {
		b, err := dataFS.ReadFile("data/" + name)
		if err != nil {
			return nil, err
		}
		if err := yamlx.Unmarshal(b, v); err != nil {
			return nil, fmt.Errorf("dragonrage data/%s: %w", name, err)
		}
	}
	d := &Data{Types: counters.Types, Mix: counters.Mix.Counts, Scenarios: scen.Scenarios, CST: tables.CST}
	for code, t := range d.Types {
		t.Code = code
	}
	if len(tables.CRT) != 30 {
		return nil, fmt.Errorf("dragonrage data/tables.yaml: the CRT has %d rows, not 30", len(tables.CRT))
	}
	for i, row := range tables.CRT {
		if len(row) != 15 {
			return nil, fmt.Errorf("dragonrage data/tables.yaml: CRT row %d has %d columns, not 15", i+1, len(row))
		}
		for j, c := range row {
			d.CRT[i][j] = string(c)
		}
	}
	return d, nil
}

// yamlScalar keeps a scalar's text whatever YAML would make of it.
type yamlScalar string

func (s *yamlScalar) UnmarshalYAML(unmarshal func(any) error) error {
	var v string
	if err := unmarshal(&v); err != nil {
		return err
	}
	*s = yamlScalar(v)
	return nil
}

// Scenario returns a scenario by id.
func (d *Data) Scenario(id string) (*ScenarioDef, bool) {
	for _, s := range d.Scenarios {
		if s.ID == id {
			return s, true
		}
	}
	return nil, false
}

// withOverrides returns the unit types with a game's "counter.TYPE.FIELD"
// options applied.
func (d *Data) withOverrides(opts map[string]string) (map[string]*UnitType, error) {
	out := make(map[string]*UnitType, len(d.Types))
	for k, t := range d.Types {
		c := *t
		out[k] = &c
	}
	keys := make([]string, 0, len(opts))
	for k := range opts {
		if strings.HasPrefix(k, "counter.") {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		parts := strings.Split(k, ".")
		if len(parts) != 3 {
			return nil, fmt.Errorf("option %s: write counter.TYPE.FIELD=VALUE, e.g. counter.INF.attack=3", k)
		}
		t, ok := out[parts[1]]
		if !ok {
			return nil, fmt.Errorf("option %s: no unit type %q", k, parts[1])
		}
		n, err := strconv.Atoi(opts[k])
		if err != nil || n < 0 {
			return nil, fmt.Errorf("option %s=%s: give a whole number", k, opts[k])
		}
		switch parts[2] {
		case "attack":
			t.Attack = n
		case "defence":
			t.Defence = n
		case "escape":
			t.Escape = n
		case "mp":
			t.MP = n
		case "road":
			t.Road = n
		case "hp":
			t.HP = n
		case "hit":
			if n < 2 || n > 6 {
				return nil, fmt.Errorf("option %s=%s: a to-hit number is 2 to 6", k, opts[k])
			}
			t.Hit = n // e.g. counter.GIANT.hit=5, the other reading of DR-AMB-13
		default:
			return nil, fmt.Errorf("option %s: the fields are attack, defence, escape, mp, road, hp, hit", k)
		}
	}
	return out, nil
}
