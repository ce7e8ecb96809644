package dragonrage

// Magic (§14): the spell orders of a magic phase (DR-MAGIC-1..6). Each
// spell has its own file (spell_*.go); the markers they leave are in
// magic_state.go and what they do to other rules in magic_effects.go.

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
)

// The spells, as orders name them (DR-MAGIC-6).
const (
	spellBoost     = "boost-morale"
	spellFog       = "fog"
	spellWhirlwind = "whirlwind"
	spellLightning = "lightning"
	spellSummon    = "summon"
	spellDismiss   = "dismiss"
)

// spellAliases are other names players may use.
var spellAliases = map[string]string{
	"boost": spellBoost, "morale": spellBoost, "summon-elemental": spellSummon,
	"dismiss-elemental": spellDismiss, "dissipate": spellDismiss,
}

// Spell is one spell cast in a magic phase; it is also the normalised echo.
type Spell struct {
	Cast      string `yaml:"cast"`
	By        string `yaml:"by"`
	At        string `yaml:"at,omitempty"`
	Radius    *int   `yaml:"radius,omitempty"`    // boost-morale
	Target    string `yaml:"target,omitempty"`    // lightning
	Resolve   string `yaml:"resolve,omitempty"`   // lightning: now or melee
	Elemental string `yaml:"elemental,omitempty"` // dismiss
	Pay       int    `yaml:"pay,omitempty"`       // dismiss: the most SP the wizard will pay
	Cost      string `yaml:"cost,omitempty"`      // set by umpire: what it costs
	Fallback  bool   `yaml:"fallback,omitempty"`  // set by umpire: cast only if the dismissal before it is declined (DR-AMB-65)

	node *yaml.Node
	f    map[string]*yaml.Node
}

const magicExample = `  - cast: fog
    by: WZD-1
    at: 1210`

// canCast reports whether side has a wizard on the map who could cast
// something: one with SP left, or one who may dismiss his own Elemental
// for free (DR-MAGIC-2, DR-SPELL-ELEM-12).
func (w *world) canCast(side adjudicator.Side) bool {
	for _, u := range w.st.alive(side) {
		if !w.st.typ(u).Casts() || u.Hex == "" {
			continue
		}
		if u.SP > 0 || len(w.controlledBy(u)) > 0 {
			return true
		}
	}
	return false
}

func (w *world) parseMagic(side adjudicator.Side, n *yaml.Node) (*Orders, error) {
	list, err := items(n, magicExample)
	if err != nil {
		return nil, err
	}
	o := &Orders{}
	byWizard := map[string][]*Spell{}
	summoned := map[string]bool{}
	for _, item := range list {
		f, err := fields(item, "cast", "by", "at", "radius", "target", "resolve", "elemental", "pay")
		if err != nil {
			return nil, err
		}
		if f["cast"] == nil || f["by"] == nil {
			return nil, adjudicator.Errorf(item, adjudicator.CodeMissingField, "a spell order names the spell and the wizard:\n%s", magicExample)
		}
		sp := &Spell{node: item, f: f}
		if sp.Cast, err = spellName(f["cast"]); err != nil {
			return nil, err
		}
		wz, err := w.ownUnit(f["by"], side)
		if err != nil {
			return nil, err
		}
		sp.By = wz.ID
		if !w.st.typ(wz).Casts() {
			return nil, adjudicator.Errorf(f["by"], codeCannot, "%s cannot cast spells: only a wizard (WZD) does (DR-MAGIC-1)", wz.ID)
		}
		prev := byWizard[wz.ID]
		switch {
		case len(prev) == 1 && prev[0].Cast == spellDismiss && prev[0].Cost != "free" && sp.Cast != spellDismiss:
			sp.Fallback = true // DR-AMB-65: a declined dismissal leaves the wizard his spell
		case len(prev) > 0:
			return nil, adjudicator.Errorf(f["cast"], codeTwice, "%s already casts %s this turn: a wizard casts one spell per turn (DR-MAGIC-4); a second spell is allowed only after a dismissal he may decline (DR-AMB-65)", wz.ID, prev[0].Cast)
		}
		if err := w.readSpell(sp, f); err != nil {
			return nil, err
		}
		if field, code, why := w.checkSpell(sp, wz); why != "" {
			node := f[field]
			if node == nil {
				node = item
			}
			return nil, adjudicator.Errorf(node, code, "%s", why)
		}
		if sp.Cast == spellSummon {
			if summoned[sp.At] {
				return nil, adjudicator.Errorf(f["at"], codeStacking, "another Elemental is summoned into %s this phase: it must be placed in an empty hex (DR-AMB-65)", sp.At)
			}
			summoned[sp.At] = true
		}
		byWizard[wz.ID] = append(prev, sp)
		o.Spells = append(o.Spells, sp)
	}
	return o, nil
}

// spellName reads the "cast:" value.
func spellName(n *yaml.Node) (string, error) {
	v, err := scalar(n, "the spell: "+strings.Join(spellNames, ", "))
	if err != nil {
		return "", err
	}
	v = strings.ToLower(strings.TrimSpace(v))
	if a, ok := spellAliases[v]; ok {
		v = a
	}
	if slices.Contains(spellNames, v) {
		return v, nil
	}
	msg := fmt.Sprintf("there is no spell %q; the spells are %s (DR-MAGIC-6)", v, strings.Join(spellNames, ", "))
	if s := yamlx.Nearest(v, spellNames); s != "" {
		msg = fmt.Sprintf("there is no spell %q (did you mean %q?); the spells are %s (DR-MAGIC-6)", v, s, strings.Join(spellNames, ", "))
	}
	return "", adjudicator.Errorf(n, adjudicator.CodeBadValue, "%s", msg)
}

// readSpell reads the fields each spell takes, refusing the others.
func (w *world) readSpell(sp *Spell, f map[string]*yaml.Node) error {
	row, _ := spellRowOf(sp.Cast)
	takes := row.takes
	for _, k := range []string{"at", "radius", "target", "resolve", "elemental", "pay"} {
		if f[k] != nil && !slices.Contains(takes, k) {
			return adjudicator.Errorf(f["@"+k], adjudicator.CodeBadValue, "%s takes no %q; it takes %s", sp.Cast, k, strings.Join(takes, ", "))
		}
	}
	for _, k := range takes {
		if f[k] == nil && k != "resolve" && k != "pay" {
			return adjudicator.Errorf(sp.node, adjudicator.CodeMissingField, "%s needs \"%s:\" (%s)", sp.Cast, k, spellNeeds[k])
		}
	}
	var err error
	if x := f["at"]; x != nil {
		if sp.At, err = w.parseHex(x); err != nil {
			return err
		}
	}
	if x := f["radius"]; x != nil {
		r := -1
		fmt.Sscan(x.Value, &r)
		if x.Kind != yaml.ScalarNode || r < 0 || r > 2 || fmt.Sprint(r) != strings.TrimSpace(x.Value) {
			return adjudicator.Errorf(x, adjudicator.CodeBadValue, "the radius is 0, 1 or 2 (1, 2 or 3 SP) (DR-SPELL-MORALE-1)")
		}
		sp.Radius = &r
	}
	if x := f["target"]; x != nil {
		v, err := scalar(x, "the unit struck, e.g. TRL-2")
		if err != nil {
			return err
		}
		sp.Target = strings.ToUpper(strings.TrimSpace(v))
	}
	if x := f["resolve"]; x != nil {
		if x.Value != "now" && x.Value != "melee" {
			return adjudicator.Errorf(x, adjudicator.CodeBadValue, "resolve the Lightning \"now\" (as fire on the CRT) or keep it for a \"melee\" on the target this turn (DR-SPELL-LIGHT-7)")
		}
		sp.Resolve = x.Value
	}
	if x := f["elemental"]; x != nil {
		v, err := scalar(x, "the Elemental, e.g. ELM-1")
		if err != nil {
			return err
		}
		sp.Elemental = strings.ToUpper(strings.TrimSpace(v))
	}
	if x := f["pay"]; x != nil {
		var n int
		v := strings.TrimSpace(x.Value)
		if _, err := fmt.Sscanf(v, "up-to %d", &n); err != nil || n < 1 || n > 6 || v != fmt.Sprintf("up-to %d", n) {
			return adjudicator.Errorf(x, adjudicator.CodeBadValue, "write the most SP the wizard will pay for the dismissal, \"pay: up-to N\" with N from 1 to 6: the cost is rolled on 1d6 and paid only if it is N or less (DR-SPELL-ELEM-12, DR-AMB-65)")
		}
		sp.Pay = n
	}
	return nil
}

var spellNeeds = map[string]string{
	"at":        "the hex it is cast into",
	"radius":    "0, 1 or 2 hexes around the wizard, for 1, 2 or 3 SP",
	"target":    "the unit struck in that hex",
	"elemental": "the Elemental to dismiss, e.g. ELM-1",
}

// checkSpell says why wz may not cast sp now: the field to blame, the
// error code and the reason, or "" for the reason if he may. It sets
// sp.Cost.
func (w *world) checkSpell(sp *Spell, wz *Unit) (field, code, why string) {
	if wz.Gone {
		return "by", codeGone, fmt.Sprintf("%s has been eliminated", wz.ID)
	}
	if wz.Hex == "" {
		return "by", codeCannot, fmt.Sprintf("%s is not on the map: a wizard casts from his hex (DR-MAGIC-5)", wz.ID)
	}
	row, _ := spellRowOf(sp.Cast)
	if row.check != nil {
		if field, code, why = row.check(w, sp, wz); why != "" || row.cost == nil {
			return field, code, why
		}
	}
	cost := row.cost(sp)
	sp.Cost = fmt.Sprintf("%d SP", cost)
	if wz.SP < cost {
		return "cast", codeCannot, fmt.Sprintf("%s has %d SP left and %s costs %d: a wizard cannot spend more than he has (DR-MAGIC-2, DR-MAGIC-6)", wz.ID, wz.SP, sp.Cast, cost)
	}
	return "", "", ""
}

// within checks that hex at is at most max hexes from the wizard (DR-MAGIC-5:
// line of sight does not matter).
func (w *world) within(wz *Unit, at string, max int, rule string) (string, string, string) {
	h, _ := hex.Parse(at)
	if d := hex.Distance(w.st.hexOf(wz), h); d > max {
		return "at", codeOutOfRange, fmt.Sprintf("%s is %d hexes from %s in %s; this spell reaches %d (%s)", at, d, wz.ID, wz.Hex, max, rule)
	}
	return "", "", ""
}

func (w *world) resolveMagic(o *Orders) {
	declined := map[string]bool{}
	for _, sp := range o.Spells {
		if sp.Fallback && !declined[sp.By] {
			w.sayf("%s paid for the dismissal, so his %s is not cast (DR-MAGIC-4)", sp.By, sp.Cast)
			continue
		}
		wz := w.st.unit(sp.By)
		if _, _, why := w.checkSpell(sp, wz); why != "" {
			w.sayf("%s does not cast %s: %s", sp.By, sp.Cast, why)
			continue
		}
		row, _ := spellRowOf(sp.Cast)
		cost := 0
		if row.cost != nil {
			cost = row.cost(sp)
		}
		if !row.cast(w, sp, wz, cost) {
			declined[sp.By] = true
		}
		if w.st.Over {
			return
		}
	}
}

// sideName is how reports name a side.
func sideName(s adjudicator.Side) string {
	if s == "" {
		return "nobody"
	}
	return string(s)
}
