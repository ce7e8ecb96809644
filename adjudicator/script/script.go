// Package script plays game scripts: one YAML file holding a ruleset, a
// scenario or inline position, options, scripted dice, the submissions
// exactly as players would mail them, and what must be true at the end. It
// is how every rule is tested (one case per rule ID, like the Diplomacy
// DATC), and how a referee tries a position out with `umpire run`.
//
// Scripts run in memory; nothing is stored. The format is documented in
// docs/game-script.md. The package is pure.
package script

import (
	"crypto/sha256"
	"fmt"
	"regexp"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
)

// Script is one game script.
type Script struct {
	Name     string            `yaml:"name"`
	Rules    []string          `yaml:"rules"` // the rule IDs this case covers
	Doc      string            `yaml:"doc"`
	Ruleset  string            `yaml:"ruleset"`
	Scenario string            `yaml:"scenario"`
	Position yaml.Node         `yaml:"position"`
	Options  map[string]string `yaml:"options"`
	// Module names a builtin module of a ruleset played from module data
	// ("" for its first).
	Module  string   `yaml:"module"`
	Players []string `yaml:"players"`
	Dice    []int    `yaml:"dice"`
	Seed    string   `yaml:"seed"`
	Steps   []Step   `yaml:"steps"`
	Expect  *Expect  `yaml:"expect"`

	file string
}

// Step is one submission.
type Step struct {
	Side        string `yaml:"side"`
	Orders      string `yaml:"orders"`
	ExpectError string `yaml:"expect-error"` // the submission must be refused with this code
	ExpectLine  int    `yaml:"expect-line"`  // … at this line of the orders
	ExpectHas   string `yaml:"expect-has"`   // … with this text in the message

	node *yaml.Node
}

// Expect is what must hold once every step has run.
type Expect struct {
	Turn      *int              `yaml:"turn"`
	Phase     string            `yaml:"phase"`
	Units     map[string]string `yaml:"units"` // id → where it stands, or "gone"
	Status    map[string]string `yaml:"status"`
	Gone      []string          `yaml:"gone"`
	Score     map[string]int    `yaml:"score"`
	Winner    *string           `yaml:"winner"`
	Result    string            `yaml:"result"`
	Over      *bool             `yaml:"over"`
	Due       []string          `yaml:"due"` // the sides due to send next
	ReportHas []string          `yaml:"report-has"`
	Rolls     []string          `yaml:"rolls"` // each roll as printed, in order, e.g. "advance R1: 1d6=4, from 0 to 4"
	DiceLeft  *int              `yaml:"dice-left"`
	Markers   map[string]string `yaml:"markers"`
	Notes     []string          `yaml:"notes-have"`
	// Hexes lists, for each kind of hex mark named, every mark of that
	// kind, as "AT", then " rRADIUS" and " LABEL" when it has them:
	// {broken: ["0606/0707"], vp-destroyed: ["1108 3"], fog: ["1210 r2"]}.
	// An empty list says there is none.
	Hexes map[string][]string `yaml:"hexes"`
	// Damage is each unit's damage as the view gives it: "LEFT/OF" per
	// area (and group), e.g. "body 7/10".
	Damage map[string]string `yaml:"damage"`
	// Facing is each facing unit's facing, with " flying" when it is in
	// the air: {DRAGON-1: "SE flying"}.
	Facing map[string]string `yaml:"facing"`
	// StatusHas lists entries each unit's status must include (in any
	// order, among others), e.g. {WZD-1: ["SP 7"]}.
	StatusHas map[string][]string `yaml:"status-has"`
}

var rulesRE = regexp.MustCompile(`^[A-Z0-9]+(-[A-Z0-9]+)+$`)

// Parse reads a script. file names it in errors.
func Parse(file string, src []byte) (*Script, error) {
	root, err := yamlx.Parse(src)
	if err != nil {
		return nil, fmt.Errorf("%s:%w", file, posErr(err))
	}
	var s Script
	if err := yamlx.Decode(root, &s); err != nil {
		return nil, fmt.Errorf("%s:%w", file, posErr(err))
	}
	s.file = file
	if s.Ruleset == "" {
		return nil, fmt.Errorf("%s: the script names no ruleset (add \"ruleset: dragonrage\")", file)
	}
	if (s.Scenario == "") == (s.Position.Kind == 0) {
		return nil, fmt.Errorf("%s: give either a scenario or an inline position, not both or neither", file)
	}
	for _, r := range s.Rules {
		if !rulesRE.MatchString(r) {
			return nil, fmt.Errorf("%s: %q is not a rule ID like DR-FIRE-4", file, r)
		}
	}
	if steps := yamlx.Value(root, "steps"); steps != nil {
		for i := range s.Steps {
			if i < len(steps.Content) {
				s.Steps[i].node = steps.Content[i]
			}
		}
	}
	for i, st := range s.Steps {
		if st.Side == "" {
			return nil, fmt.Errorf("%s: step %d names no side", file, i+1)
		}
	}
	return &s, nil
}

// posErr turns a yamlx error into ":line:col: msg" for file prefixes.
func posErr(err error) error {
	if e, ok := err.(*yamlx.Error); ok && e.Line > 0 {
		return fmt.Errorf("%d:%d: %s", e.Line, e.Column, e.Msg)
	}
	return fmt.Errorf(" %v", err)
}

// File is the file the script was read from.
func (s *Script) File() string { return s.file }

// position returns the inline position as YAML text.
func (s *Script) position() ([]byte, error) {
	switch s.Position.Kind {
	case 0:
		return nil, nil
	case yaml.ScalarNode:
		return []byte(s.Position.Value), nil
	}
	return yaml.Marshal(&s.Position)
}

// gameID derives a valid game id from the script's file name.
func (s *Script) gameID() string {
	base := s.file
	if i := strings.LastIndexAny(base, "/\\"); i >= 0 {
		base = base[i+1:]
	}
	base = strings.TrimSuffix(strings.TrimSuffix(base, ".yaml"), ".yml")
	var b strings.Builder
	for _, r := range strings.ToLower(base) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' {
			b.WriteRune(r)
		} else {
			b.WriteRune('-')
		}
	}
	id := strings.Trim(b.String(), "-")
	if id == "" {
		id = "script"
	}
	if len(id) > 60 {
		id = id[:60]
	}
	return id
}

// secret is the dice secret of a script without scripted dice: derived from
// its seed text so every run rolls the same.
func (s *Script) secret() []byte {
	seed := s.Seed
	if seed == "" {
		seed = "umpire script " + s.gameID()
	}
	h := sha256.Sum256([]byte(seed))
	return h[:]
}

// epoch is the fixed time scripts run at, so their logs are reproducible.
var epoch = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

var _ = adjudicator.Referee
