package dragonnoir

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
)

// Spell orders as mailed (PBEM-DN-2) and as standing triggers for the
// Krob turn (PBEM-DN-7): what can be checked before anything moves. Range,
// PE, the cave and the target's state are checked when the spell's moment
// comes (magic.go), and a spell that no longer holds is not cast, with the
// reason in the report.

// codeUndefinedSpell refuses a spell the rules leave undefined: spells.yaml
// keeps it with no effect and says why (GAP-12, GAP-26, AMB-76).
const codeUndefinedSpell = "spell-undefined"

// spellMoments are when a spell of the Adventurer mail may be cast: as a
// stage starts, or before one named action (AMB-19).
var spellMoments = []string{"fire", "moves", "attacks", "end"}

// checkSpell says what is wrong with spell order x of side's mail (os the
// whole mail; nil for a standing trigger, whose moment is a Krob stage):
// the error code and message, or "".
func checkSpell(st *State, x *SpellOrder, os *Orders) (string, string) {
	c := st.Chars[x.Caster]
	if c != nil && st.level(c) == 0 {
		if st.valley() {
			return codeNotMagician, fmt.Sprintf("%s is no magician (DN3-MAGIC-3: the mages, sorcerers, druids and unicorns are)", x.Caster)
		}
		return codeNotMagician, fmt.Sprintf("%s is no magician (DN-MAGIC-1: Zacharie and Shaman are)", x.Caster)
	}
	sp := st.spellFor(c, x.Spell) // the row of that name on c's sheet (spell_data.go)
	if sp == nil {
		return codeUnknownSpell, fmt.Sprintf("no spell %q in the module%s", x.Spell, suggest(x.Spell, slices.Sorted(maps.Keys(st.data.Spells))))
	}
	if code, msg := spellRefusal(st, c, sp); code != "" { // the sheets (spell_lists.go)
		return code, msg
	}
	switch {
	case sp.Aim == "self" && x.At != "" && x.At != x.Caster:
		return adjudicator.CodeBadValue, fmt.Sprintf("%s is cast on its caster only (%s): leave at: out", sp.Title, st.sheetRule(sp, c, sp.ID))
	case x.Units < 0:
		return adjudicator.CodeBadValue, "units: is how many MP or points it buys, 1 or more"
	case sp.Effect == "invisible" && x.To != "":
		return codeWrongSection, invisibleToMessage(st, x.Caster) // HID-6 (spell_reappear.go)
	}
	for _, s := range append([]string{x.To}, x.Hexes...) {
		if _, err := locOn(st.board, s); s != "" && !strings.Contains(s, "/") && err != nil {
			return codeBadLocation, err.Error()
		}
	}
	if x.At != "" && st.Chars[x.At] == nil {
		if _, err := locOn(st.board, x.At); err != nil {
			return codeBadLocation, fmt.Sprintf("at: is a character or a location: %v", err)
		}
	}
	if os == nil {
		return "", ""
	}
	if m := momentStage(x.Before); c != nil && m != "" && !slices.Contains((&program{Side: c.Side}).stages(), m) {
		return adjudicator.CodeBadValue, fmt.Sprintf("before: %q: the %s player-turn has no %s step", x.Before, c.Side, momentStage(x.Before))
	}
	if slices.Contains(spellMoments, x.Before) {
		return "", ""
	}
	kind, unit, ok := strings.Cut(x.Before, " ")
	if _, known := spellStages[kind]; !ok || !known {
		return adjudicator.CodeBadValue, fmt.Sprintf("before: %q is fire, moves, attacks or end, or one action: \"move UNIT\", \"fire UNIT\" or \"attack UNIT\" (AMB-19)", x.Before)
	}
	if spellMoment(os, x) == "" {
		return adjudicator.CodeBadValue, fmt.Sprintf("before: %q: your mail gives %s no %s order", x.Before, unit, kind)
	}
	return "", ""
}

// momentStage is the stage a before: names: "fire", "moves", "attacks"
// or "end" (the last stage), or the stage of "fire UNIT", "move UNIT",
// "attack UNIT"; "" for none.
func momentStage(before string) string {
	kind, _, ok := strings.Cut(before, " ")
	switch {
	case ok:
		return spellStages[kind]
	case before == "end":
		return stageDone
	case before == "moves":
		return stageMoves
	case before == "attacks":
		return stageAttacks
	case before == "fire":
		return stageFire
	}
	return "" // not a moment: refused below
}

// SpellTrigger is a standing order for a spell in the Krob turn
// (PBEM-DN-7): the spell as in a mail, cast when a Krob matching On (any,
// a Krob's ID, kind:KIND) enters a location within Within hexes of the
// caster (default: his range) — at that Krob, when the order names no
// target — or, with no On, before the Krob moves, attacks, or at the end
// of the Krob turn (before:). A magician who cast in the Adventurer turn
// casts nothing (DN-TURN-7).
type SpellTrigger struct {
	SpellOrder `yaml:",inline"`
	On         string `yaml:"on,omitempty"`
	Within     int    `yaml:"within,omitempty"`
}

// checkSpellTriggers checks the standing spell-trigger v of the
// Adventurers.
func checkSpellTriggers(st *State, side adjudicator.Side, v *yaml.Node) *adjudicator.OrderError {
	if side != Adventurers && !st.valley() { // in the valley both sides have casters (DN3-MAGIC-3)
		return adjudicator.Errorf(v, codeWrongSection, "only the Adventurers have magicians (DN-MAGIC-1)")
	}
	befores, turn := []string{"moves", "attacks", "end"}, "the Krob turn"
	if side != Adventurers {
		befores, turn = []string{"fire", "moves", "attacks", "end"}, "the Adventurer turn"
	}
	var ts []lined[SpellTrigger]
	if err := yamlx.Decode(v, &ts); err != nil {
		return adjudicator.Errorf(v, adjudicator.CodeBadValue, "spell-trigger: a list of {caster: ID, spell: ID, at:, hexes:, units:, to:, and on: any | ID | kind:KIND with within: N, or before: moves | attacks | end}: %v", err)
	}
	for _, l := range ts {
		t := l.V
		bad := func(code, format string, args ...any) *adjudicator.OrderError {
			return &adjudicator.OrderError{Line: l.Line, Code: code, Msg: fmt.Sprintf(format, args...)}
		}
		c := st.Chars[t.Caster]
		switch {
		case c == nil:
			return bad(adjudicator.CodeUnknownUnit, "no character %q in this game", t.Caster)
		case c.Side != side:
			return bad(codeNotYours, "%s is a %s character: you play the %s", t.Caster, c.Side, st.SideName(side))
		case (t.On == "") == (t.Before == ""):
			return bad(adjudicator.CodeMissingField, "a spell trigger gives on: (a Krob entering a location) or before: (moves, attacks or end), one of them")
		case t.Before != "" && !slices.Contains(befores, t.Before):
			return bad(adjudicator.CodeBadValue, "before: %q is %s or %s (of %s)", t.Before, strings.Join(befores[:len(befores)-1], ", "), befores[len(befores)-1], turn)
		}
		if code, msg := checkSpell(st, &t.SpellOrder, nil); code != "" {
			return bad(code, "%s", msg)
		}
	}
	return nil
}
