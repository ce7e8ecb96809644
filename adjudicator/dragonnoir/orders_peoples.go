package dragonnoir

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// The valley's peoples in the mails (chapter: the valley's peoples): the
// techniques of Magna Carta the peoples' rules name (techniques:), and
// the Kandärs' standing answer to a fire retreat (kandar-fire,
// PBEM-DN3-20).

// Error codes of the chapter (docs/orders/dragon-noir.md).
const (
	codeNotAllowed    = "not-allowed"    // the rules do not let this character do it (DN3-MC-2 …)
	codeRuleUndefined = "rule-undefined" // a Magna Carta rule no source gives (GAP-16)
)

// TechniqueOrder is one use of a technique of Magna Carta (techniques:):
// the character and the technique.
type TechniqueOrder struct {
	Unit string `json:"unit" yaml:"unit"`
	Use  string `json:"use" yaml:"use"`
	Line int    `json:"-" yaml:"-"`
}

// technique is one Magna Carta rule the valley's peoples' rules name: who
// may use it (counter or kind IDs, tag:T, weapon:W, any; none for no one),
// who never, the rule, and whether umpire plays it (Fanaticism, by its
// assumed definition, GAP-28) or refuses it (rule-undefined: the rule is
// in no source, GAP-16).
type technique struct {
	ID, Title string
	By, Not   []string
	OnFoot    bool // only on foot (DN3-MC-2: "s'ils sont à pied")
	Rule      string
	Played    bool
}

var techniques = []technique{
	{ID: "fanaticism", Title: "Fanaticism (Fanatisme)", By: []string{"tag:barbarian"}, Rule: "DN3-PEOPLE-BARB-1", Played: true},
	{ID: "two-handed-axe", Title: "two-handed axes (Haches à deux mains)", OnFoot: true,
		By: []string{"konrad", "aldus", "rix", "thrugg", "kuruz", "radak", "finim", "hagmor", "tag:barbarian"}, Rule: "DN3-MC-2, DN3-PEOPLE-BARB-1"},
	{ID: "throwing-axe", Title: "throwing axes (Haches de lancer)", By: []string{"tag:grey-dwarf"}, Rule: "DN3-PEOPLE-DWARF-1"},
	{ID: "shield-wall", Title: "the shield wall (Mur de boucliers)", By: []string{"zigildum", "grarim", "monar", "ori"}, Rule: "DN3-MC-9, DN3-PEOPLE-DWARF-1"},
	{ID: "crossbow-servant", Title: "crossbow servants (Servants d'arbalète)", By: []string{"weapon:crossbow"}, Rule: "DN3-MC-3"},
	{ID: "climb-tree", Title: "climbing up and down trees", By: []string{"any"}, Rule: "DN3-MC-4"},
	{ID: "hamstring", Title: "hamstringing (Coupe-jarrets)", By: []string{"tag:goblin", "goblin", "goblin-chief"}, Rule: "DN3-MC-5, DN3-PEOPLE-GOB-10"},
	{ID: "kneel", Title: "kneeling (S'agenouiller)", By: []string{"any"}, Not: []string{"tag:unicorn", "ent"}, Rule: "DN3-MC-6"},
	{ID: "walk-roofs", Title: "walking on house roofs", Rule: "DN3-MC-8"},
	{ID: "flaming-arrows", Title: "flaming arrows (Flèches enflammées)", By: []string{"weapon:crossbow", "weapon:longbow", "weapon:short-bow"}, Rule: "DN3-MC-10"},
}

// techniqueNotes say more of who may use a technique than its list can.
var techniqueNotes = map[string]string{
	"crossbow-servant": "helped to reload by a servant of his own race",
	"climb-tree":       "armoured Elves included",
	"walk-roofs":       "the architecture of Val Ekal does not allow it",
	"flaming-arrows":   "only when defending Fort Ekal, the goblin village or the Dwarf caverns",
}

// names reports whether an entry of a technique's By or Not names c.
func (s *State) names(who string, c *Char) bool {
	k := s.Kind(c)
	if tag, ok := strings.CutPrefix(who, "tag:"); ok {
		return k.Has(tag)
	}
	if wp, ok := strings.CutPrefix(who, "weapon:"); ok {
		return k.Weapon == wp
	}
	return who == "any" || who == c.ID || who == k.ID
}

// checkTechnique says why c may not use technique id (code and message),
// "" when umpire plays it.
func checkTechnique(st *State, c *Char, id string) (string, string) {
	i := slices.IndexFunc(techniques, func(t technique) bool { return t.ID == id })
	if i < 0 {
		var ids []string
		for _, t := range techniques {
			ids = append(ids, t.ID)
		}
		return adjudicator.CodeBadValue, fmt.Sprintf("use: %q is no technique; the rules name %s", id, strings.Join(ids, ", "))
	}
	t := techniques[i]
	who := strings.Join(t.By, ", ")
	if who == "" {
		who = "nobody"
	}
	if len(t.Not) > 0 {
		who += " but " + strings.Join(t.Not, ", ")
	}
	if n := techniqueNotes[id]; n != "" {
		who += "; " + n
	}
	names := func(w string) bool { return st.names(w, c) }
	switch {
	case !slices.ContainsFunc(t.By, names) || slices.ContainsFunc(t.Not, names):
		return codeNotAllowed, fmt.Sprintf("%s may not use %s (%s: %s)", c.ID, t.Title, t.Rule, who)
	case t.OnFoot && c.Mount != "":
		return codeNotAllowed, fmt.Sprintf("%s uses %s only on foot (%s)", c.ID, t.Title, t.Rule)
	case !t.Played:
		return codeRuleUndefined, fmt.Sprintf("%s may use %s (%s), but it is a rule of Magna Carta that no source gives (GAP-16): umpire cannot play it", c.ID, t.Title, t.Rule)
	}
	return "", ""
}

// playTechniques plays the techniques of a mail as its player-turn begins:
// a barbarian's Fanaticism makes him fanatic to the end of the battle
// (DN3-PEOPLE-BARB-1; what a fanatic does is assumed, GAP-28).
func (w *world) playTechniques(o *Orders) {
	st := w.st()
	for _, t := range o.Techniques {
		c := st.Chars[t.Unit]
		if t.Use != "fanaticism" || c == nil || !c.Alive() || c.Fanatic {
			continue
		}
		w.emit(&Fanaticised{Unit: c.ID})
		w.say(Provs{fanaticProv}, "%s chooses Fanaticism (DN3-PEOPLE-BARB-1): to the end of the battle he ignores stunned and retreat results and attacks whenever he can (GAP-28).", c.ID)
	}
}

// checkPeoplesStanding checks the chapter's standing answers: kandar-fire
// (PBEM-DN3-20).
func checkPeoplesStanding(key string, v *yaml.Node) *adjudicator.OrderError {
	if key != KeyKandarFire {
		return nil
	}
	if v.Kind != yaml.ScalarNode || !slices.Contains([]string{kandarRetreat, kandarWound, kandarUnhurt}, v.Value) {
		return adjudicator.Errorf(v, adjudicator.CodeBadValue, "kandar-fire: what a Kandär bound to its Officer does when fire makes it retreat (DN3-PEOPLE-KANDAR-5, PBEM-DN3-20): retreat (the default), wound (a wound instead) or wound-unless-wounded")
	}
	return nil
}
