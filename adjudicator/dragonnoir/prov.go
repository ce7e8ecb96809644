package dragonnoir

import (
	"fmt"
	"strings"
)

// Prov says where a value of the module comes from. Exactly one of Rule,
// Assumed and User is given:
//
//   - rule: DN-COMBAT-4 — the rules text states it (the rule ID);
//   - assumed: true — umpire or the module's author chose it for want of
//     the printed table (the game sheets are missing, GAP-1 … GAP-12); its
//     Clues list what of the text it is consistent with, each a rule ID and
//     what it says ("DN-COMBAT-4: 8 vs 3 is 2-1");
//   - user: true — a group entered it from its own printed components.
//
// A report line that used an assumed value says so (world.used): players
// must never take an invented figure for the game's.
type Prov struct {
	Rule    string   `yaml:"rule" json:"rule,omitempty"`
	Assumed bool     `yaml:"assumed" json:"assumed,omitempty"`
	User    bool     `yaml:"user" json:"user,omitempty"`
	Clues   []string `yaml:"clues" json:"clues,omitempty"`
	Note    string   `yaml:"note" json:"note,omitempty"`
}

// Source is "rule", "assumed" or "user".
func (p Prov) Source() string {
	switch {
	case p.Assumed:
		return "assumed"
	case p.User:
		return "user"
	}
	return "rule"
}

// Check says what is wrong with the provenance of the value at where
// (a file and line): other rulesets played from Dragon Noir's module
// format (the La Conquête campaign) check theirs by it.
func (p Prov) Check(where string) error { return p.check(where) }

// check says what is wrong with the provenance of the value at where.
func (p Prov) check(where string) error {
	n := 0
	for _, set := range []bool{p.Rule != "", p.Assumed, p.User} {
		if set {
			n++
		}
	}
	switch {
	case n == 0:
		return fmt.Errorf("%s: say where this comes from: rule: (the rule ID that states it), assumed: true (with clues:) or user: true", where)
	case n > 1:
		return fmt.Errorf("%s: give only one of rule:, assumed: and user:", where)
	case p.Assumed && len(p.Clues) == 0:
		return fmt.Errorf("%s: an assumed value lists the clues of the text it is consistent with (clues: [\"DN-COMBAT-4: 8 vs 3 is 2-1\"]), or one clue saying the text gives none", where)
	case p.Rule != "" && !strings.HasPrefix(p.Rule, "DN"):
		return fmt.Errorf("%s: rule %q: name the rule of the digest that states it (DN-…)", where, p.Rule)
	}
	return nil
}

// Provs gathers the provenances a result was made of, for the report.
type Provs []Prov

// Assumed reports whether any of them is assumed.
func (ps Provs) Assumed() bool {
	for _, p := range ps {
		if p.Assumed {
			return true
		}
	}
	return false
}
