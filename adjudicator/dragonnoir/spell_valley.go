package dragonnoir

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
)

// The spells only La Conquête's valley knows (B.15.1, B.15.2; the core is
// spell_lists.go): Light, the Sorcerer's Armour, Berserker and Terror, the
// terrain spells for plain or brush (grow a tree, a spring, a crevasse, a
// house, a tower: the terrain effect of spell_effects.go, on terrain kinds
// only a spell makes), and the terrain spells cast before the first turn
// (DN3-MAGIC-6).

// spellTerrains are the terrain kinds only a spell makes (terrain.yaml):
// no board shows them. Brush is the valley's (the battle chapter's boards
// show it; the plain-or-brush spells need its row, DN3-SPELL-GEN-5).
var spellTerrains = []string{"brush", "crevasse", "magic-house", "magic-tower"}

func init() {
	for _, k := range spellTerrains {
		if !slices.Contains(vocabulary.Terrain, k) {
			vocabulary.Terrain = append(vocabulary.Terrain, k)
		}
	}
	spellEffects["light"] = (*world).spellLight
	spellEffects["armour"] = (*world).spellArmour
	spellEffects["fanatic"] = (*world).spellFanatic
	spellEffects["terror"] = (*world).spellTerror
}

// valleyCheck says why spell sp as ordered cannot be attempted in the
// valley's terms, "" when it can (spell_effects.go spellCheck asks it
// first): the target's immunity (DN3-PEOPLE-KANDAR-3, -UNIC-10), free
// ground for a spring, a crevasse, a house or a tower, a Terror's target.
func (w *world) valleyCheck(c *Char, sp *Spell, tg *spellTarget) string {
	st := w.st()
	if t := tg.Unit; t != nil {
		if why := st.immune(t, sp); why != "" {
			return why
		}
	}
	if sp.Free {
		for _, l := range tg.Locs {
			if w.occupied(nil, l) {
				return fmt.Sprintf("someone stands on %s: %s needs free ground (spells.yaml free)", locString(st.board, l), sp.Title)
			}
		}
	}
	if sp.Effect == "terror" {
		t := tg.Unit
		switch {
		case t == c:
			return "a sorcerer does not flee from himself"
		case st.Kind(t).Shape != hex.Single.Name:
			return fmt.Sprintf("%s covers several hexes: umpire makes only a one-hex character flee (assumed)", t.ID)
		}
	}
	return ""
}

// spellLight lights the hex and those beside it as in broad daylight for
// the rest of the battle (DN3-SPELL-MAGE-22, -SORC-18; AMB-88: a night
// battle's fire reaches into them; State.Lit).
func (w *world) spellLight(c *Char, sp *Spell, _ *SpellOrder, tg *spellTarget, used Provs) {
	st := w.st()
	h := tg.Locs[0].Hex
	locs := []string{locString(st.board, st.board.FloorLoc(h))}
	for _, n := range st.board.Neighbours(h) {
		locs = append(locs, locString(st.board, st.board.FloorLoc(n)))
	}
	w.charm(c, sp, Charm{Locs: locs})
	w.say(used, "%s and the hexes beside it are lit as in broad daylight for the rest of the battle (%s, AMB-88).", h, st.sheetRule(sp, c, "DN3-SPELL-MAGE-22"))
}

// spellArmour gives the target the bonus of armour for the spell's
// duration — +1 to the die of fire and combat against it — without
// armour's movement or swimming penalty (DN3-SPELL-SORC-9; combat.go and
// fire.go ask spellArmoured and armourCharm).
func (w *world) spellArmour(c *Char, sp *Spell, _ *SpellOrder, tg *spellTarget, used Provs) {
	t := tg.Unit
	w.charm(c, sp, Charm{Unit: t.ID})
	w.say(used, "%s fights as if armoured until the end of the next player-turn: +1 to the die of fire and combat against it, without armour's movement or swimming penalty (%s).", t.ID, sp.Duration)
}

// spellArmoured reports whether an Armour spell is on c (DN3-SPELL-SORC-9).
func (s *State) spellArmoured(c *Char) bool { return len(s.charmsOf("armour", c.ID)) > 0 }

// armourCharm is what an Armour spell on target t adds to a fire roll at
// it, with the words for the report (DN3-SPELL-SORC-9, AMB-93; fire.go).
func (s *State) armourCharm(t *Char) (int, string) {
	if !s.spellArmoured(t) || s.Kind(t).Armoured {
		return 0, ""
	}
	return 1, fmt.Sprintf("+1 Armour spell on %s (DN3-SPELL-SORC-9, AMB-93)", t.ID)
}

// spellFanatic makes the target Fanatic for the spell's duration
// (DN3-SPELL-SORC-10): the text never says what that is (GAP-28); umpire
// plays it as a berserk Crazy Ork's fury (DN-SPEC-2): stunned and retreat
// results no longer apply to it (special.go convert asks fanatic).
func (w *world) spellFanatic(c *Char, sp *Spell, _ *SpellOrder, tg *spellTarget, used Provs) {
	t := tg.Unit
	w.charm(c, sp, Charm{Unit: t.ID})
	w.say(used, "%s is Fanatic until the end of the next player-turn: stunned and retreat results no longer apply to it (GAP-28, as DN-SPEC-2).", t.ID)
}

// fanatic reports whether c is Fanatic now: a Berserker spell is on it
// (DN3-SPELL-SORC-10). The peoples' Fanatics (a druid's animal,
// DN3-PEOPLE-DRUID-5) answer here too.
func (s *State) fanatic(c *Char) bool { return c.Fanatic || len(s.charmsOf("fanatic", c.ID)) > 0 }

// fanaticConvert is what a stunned or retreat result does to a Fanatic:
// nothing (special.go convert).
func (w *world) fanaticConvert(c *Char, what string) (conversion, bool) {
	st := w.st()
	if (what != Stunned && what != Retreat) || !st.fanatic(c) {
		return conversion{}, false
	}
	var used Provs
	for _, ch := range st.charmsOf("fanatic", c.ID) {
		used = append(used, st.spellProv(st.data.Spells[ch.Spell]))
	}
	return conversion{Why: fmt.Sprintf("Fanatic, it ignores the %s result (DN3-SPELL-SORC-10; GAP-28, as DN-SPEC-2)", what), Used: used}, true
}

// spellTerror makes the target flee its whole movement directly away from
// the sorcerer, rolling for infiltration as it leaves every location
// where an enemy is in position to attack it, the first included: "in
// permanence" (DN3-SPELL-SORC-11). Its flight is flight's; a roll that
// ends a move ends it there. The flight spends none of its MP.
func (w *world) spellTerror(c *Char, sp *Spell, _ *SpellOrder, tg *spellTarget, used Provs) {
	st := w.st()
	t := tg.Unit
	path, mp := w.flight(t, c)
	if len(path) == 0 {
		w.say(used, "%s is terrified but has nowhere to flee from %s: it stays on %s.", t.ID, c.ID, t.At)
		return
	}
	w.say(used, "%s flees from %s, %d MP directly away from him (DN3-SPELL-SORC-11).", t.ID, c.ID, mp)
	seg := []string{t.At}
	flush := func() {
		if len(seg) > 1 {
			w.emit(&Moved{Unit: t.ID, Path: seg, Facing: t.Facing, Kind: "flight"})
			w.say(used, "%s flees %s.", t.ID, strings.Join(seg, " → "))
		}
		seg = []string{t.At}
	}
	at := st.loc(t)
	for _, l := range path {
		if len(w.infiltrators(t, at)) > 0 { // where it is now, which the report has not moved it to yet
			flush()
			if w.infiltrateExcept(t, nil, "fleeing past", "DN3-SPELL-SORC-11, DN-INFIL-1") {
				w.say(nil, "%s's flight ends on %s.", t.ID, t.At)
				return
			}
		}
		at = l
		seg = append(seg, locString(st.board, l))
	}
	flush()
}

// flight is where t flees from sorcerer s, and the MP it spends: each
// step to a location touching the last, farther from s, that t may enter
// and where no living character stands (nor a web, for an Adventurer),
// paid from its whole movement; of those, the one nearest the line from
// s through t, then the cheapest, then the map's order (assumed: "à
// l'opposé du sorcier", directly away).
func (w *world) flight(t, s *Char) ([]hex.Loc, int) {
	st := w.st()
	k := st.Kind(t)
	f, _ := st.Values(t)
	left, spent := f.Move, 0
	cur := st.loc(t)
	lay := st.board.Layout
	px := func(h hex.Hex) (float64, float64) { return lay.Pixel(lay.Centre(h)) }
	ax, ay := px(st.loc(s).Hex)
	tx, ty := px(cur.Hex)
	away := [2]float64{tx - ax, ty - ay} // the line from the sorcerer through the target
	var path []hex.Loc
	for {
		var best *hex.Loc
		bestOff, bestCost := 0.0, 0
		for _, x := range st.board.Exits(cur) {
			if st.distanceTo(s, x) <= st.distanceTo(s, cur) || w.occupied(t, x) || t.Side == Adventurers && st.Web(locString(st.board, x)) {
				continue
			}
			cost, _, why := w.step(t, k, cur, t.Facing, x, t.Facing, false, true)
			if why != "" || cost > left {
				continue
			}
			nx, ny := px(x.Hex)
			off := math.Abs((nx-ax)*away[1] - (ny-ay)*away[0]) // how far from the line (× its length)
			if best == nil || off < bestOff-1e-9 || math.Abs(off-bestOff) <= 1e-9 && cost < bestCost {
				x := x
				best, bestOff, bestCost = &x, off, cost
			}
		}
		if best == nil {
			return path, spent
		}
		path = append(path, *best)
		left, spent, cur = left-bestCost, spent+bestCost, *best
	}
}

// Before the first turn (DN3-MAGIC-6). A Troop that starts a battle on
// the map (at the centre of the Region: it does not enter) may have its
// casters cast "spells affecting the terrain" before turn 1: the sheets'
// terrain heading (DN3-SPELL-GEN-1: category environment). They come in
// the side's set-up orders under KeyPreBattleSpells, as a mail's spells:
// without before:. The battle chapter reads them there with
// parsePreBattleSpells and, once both set-ups are on the map, casts them
// with castPreBattle, the Rebels' then the Reptilians' (AMB-69's order).
// Each caster casts one; it is no game turn's spell (DN-MAGIC-9 counts
// game turns), and a caster not on the map then (he enters by an edge)
// casts nothing.

// KeyPreBattleSpells is the set-up orders' key of the terrain spells cast
// before the first turn.
const KeyPreBattleSpells = "spells"

// parsePreBattleSpells reads side's terrain spells before the first turn.
func parsePreBattleSpells(st *State, side adjudicator.Side, n *yaml.Node) ([]SpellOrder, error) {
	var ls []lined[SpellOrder]
	if err := yamlx.Decode(n, &ls); err != nil {
		return nil, adjudicator.Errorf(n, adjudicator.CodeBadValue, "%s: a list of {caster: ID, spell: ID, at:, hexes:, units:} (DN3-MAGIC-6): %v", KeyPreBattleSpells, err)
	}
	var errs adjudicator.OrderErrors
	bad := func(line int, code, format string, args ...any) {
		errs = append(errs, &adjudicator.OrderError{Line: line, Code: code, Msg: fmt.Sprintf(format, args...)})
	}
	var out []SpellOrder
	seen := map[string]bool{}
	for _, l := range ls {
		x := l.V
		x.Line = l.Line
		c := st.Chars[x.Caster]
		sp := st.spellFor(c, x.Spell)
		switch {
		case c == nil:
			bad(l.Line, adjudicator.CodeUnknownUnit, "no character %q in this battle", x.Caster)
			continue
		case c.Side != side:
			bad(l.Line, codeNotYours, "%s is a %s character: you play the %s", x.Caster, c.Side, side)
			continue
		case seen[x.Caster]:
			bad(l.Line, codeTwice, "%s has a second spell before the first turn: one a caster", x.Caster)
			continue
		case x.Before != "":
			bad(l.Line, adjudicator.CodeBadValue, "before: has no meaning before the first turn: leave it out")
			continue
		case sp != nil && sp.Category != "environment" && st.level(c) > 0:
			bad(l.Line, adjudicator.CodeBadValue, "%s does not affect the terrain: before the first turn only spells affecting the terrain are cast (DN3-MAGIC-6, DN3-SPELL-GEN-1)", sp.Title)
			continue
		}
		seen[x.Caster] = true
		if code, msg := checkSpell(st, &x, nil); code != "" {
			bad(l.Line, code, "%s", msg)
			continue
		}
		out = append(out, x)
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return out, nil
}

// castPreBattle casts one side's terrain spells before the first turn.
func (w *world) castPreBattle(os []SpellOrder) {
	st := w.st()
	for i := range os {
		o := &os[i]
		if c := st.Chars[o.Caster]; c == nil || !c.Alive() {
			w.say(nil, "%s does not cast %s before the first turn: only a caster who starts on the map does (DN3-MAGIC-6).", o.Caster, st.spellFor(c, o.Spell).Title)
			continue
		}
		w.castSpell(o, nil, true)
	}
}

// valleyMarks are the marks a valley battle's view adds (everyone sees the
// table): each lit hex ("lit", DN3-SPELL-MAGE-22), each hex whose
// terrain a spell made ("spell-terrain", labelled with the terrain, the
// spell's: a bridge, a tree, a crevasse…), each hex under a Frost
// ("frost", DN3-SPELL-DRUID-12) or a poison cloud ("poison",
// DN3-SPELL-DRUID-24). Underground views keep theirs.
func (s *State) valleyMarks() []adjudicator.HexMark {
	if !s.valley() {
		return nil
	}
	var out []adjudicator.HexMark
	seen := map[string]bool{}
	for _, ch := range s.Charms {
		for _, x := range ch.Locs {
			l, _, err := hex.ParseLoc(x)
			if err != nil {
				continue // a hexside (a demolished wall)
			}
			switch {
			case ch.Effect == "light" && !seen["lit "+l.Hex.String()]:
				seen["lit "+l.Hex.String()] = true
				out = append(out, adjudicator.HexMark{Kind: "lit", At: l.Hex.String()})
			case ch.Terrain != "":
				out = append(out, adjudicator.HexMark{Kind: "spell-terrain", At: l.Hex.String(), Label: ch.Terrain})
			case ch.Effect == "frost" || ch.Effect == "poison-cloud": // the Druid sheet (spell_nature.go)
				out = append(out, adjudicator.HexMark{Kind: markedEffects[ch.Effect], At: l.Hex.String()})
			}
		}
	}
	return out
}
