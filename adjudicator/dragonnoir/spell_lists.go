package dragonnoir

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// Magic in La Conquête's valley (B.14, B.15; DN3). A battle of the
// campaign is a game of this ruleset whose state says Valley (its
// position's battle: section, or valley: true for a rule case that starts
// in the middle of one). There:
//
//   - every caster has 50 PE a level, not 100 (DN3-MAGIC-1, -2): fullPE;
//     Zacharie and Shaman are level 3 (AMB-73: counters.yaml valley-level);
//   - four kinds of caster each cast the spells of one sheet (DN3-MAGIC-3,
//     -4, -12): a kind's spell-list names it, a spell's lists: the sheets it
//     is on (B.15.5); casting another's is refused (spell-not-on-list);
//   - strategic spells are the campaign's (DN3-MAGIC-5): refused in a
//     battle (spell-strategic);
//   - magic resistance raises the difficulty of every spell cast at a
//     creature, friend's or foe's, helpful or not, but its own on itself
//     (DN3-MAGIC-9, -10, Table DN3-T6, AMB-86): resistance;
//   - some creatures are immune to a kind of spell (fearless Kandärs,
//     unicorns that no one immobilises: DN3-PEOPLE-KANDAR-3,
//     DN3-PEOPLE-UNIC-10): immune;
//   - a spell reaches the whole battle map, 7 + 3 a level beyond the first
//     with −1 a hex beyond (AMB-72: no per-cave limit outdoors);
//   - the sheets are printed: a row the underground game takes as GAP-12's
//     stand-in is the rule there (valley-rule:), with the sheets'
//     durations (valley-lasts:);
//   - the Reptilians' casters cast in their own player-turn's mail, and by
//     standing triggers in the Rebels' (DN-MAGIC-9 for both sides).
//
// Everything else of A.11 stays (DN3-MAGIC-13): the casting roll and the
// level bonus, one spell a magician a game turn, PE spent whether it works
// or not, halved when wounded and doubled when healed, the farthest hex of
// a spell on several.

// The spell lists, one a kind of caster (DN3-MAGIC-3).
const (
	ListMage     = "mage"     // Zacharie, Shaman ork (B.15.1)
	ListSorcerer = "sorcerer" // the Reptilian Sorcerer, the Goblin Shaman (B.15.2)
	ListDruid    = "druid"    // the three druids, the Hermit (B.15.3)
	ListUnicorn  = "unicorn"  // the three unicorns (B.15.4)
)

var spellLists = []string{ListMage, ListSorcerer, ListDruid, ListUnicorn}

// Error codes of La Conquête's magic (docs/orders/dragon-noir.md).
const (
	codeNotOnList      = "spell-not-on-list" // a caster's sheet has no such spell (DN3-MAGIC-3)
	codeSpellStrategic = "spell-strategic"   // a strategic spell, the campaign's (DN3-MAGIC-5)
)

// checkLists checks a spell row's La Conquête fields. A row with no
// lists: is on the Mage sheet, GAP-12's stand-in for DN2's (spells.go
// reads it so).
func (d *Data) checkLists(s *Spell, bad func(string, ...any)) {
	if len(s.Lists) == 0 {
		s.Lists = []string{ListMage}
	}
	for _, l := range s.Lists {
		if !slices.Contains(spellLists, l) {
			bad("list %q is one of %s (DN3-MAGIC-3)", l, strings.Join(spellLists, ", "))
		}
	}
	if s.ValleyRule != "" && !strings.HasPrefix(s.ValleyRule, "DN3-") {
		bad("valley-rule %q: name the rows of the DN3 sheets that print it (DN3-SPELL-…)", s.ValleyRule)
	}
	if s.ValleyOnly && s.Underground != "" {
		bad("valley-only: it is on no underground sheet, so it needs no underground: reason")
	}
	if s.Category == "strategic" && (!s.ValleyOnly || s.Effect != "") {
		bad("a strategic spell is cast in the campaign (DN3-MAGIC-5): valley-only, with no effect: in a battle")
	}
	for _, t := range s.Immune {
		if !slices.Contains(counterTags, t) {
			bad("immune: %q is no counter tag", t)
		}
	}
}

// checkCaster checks a kind's La Conquête fields: a magician names its
// sheet (DN3-MAGIC-3); one that does not casts from the Mage sheet, as
// DN2's magicians do (GAP-12).
func checkCaster(c *checker, file string, line int, k *Kind) {
	if k.Level > 0 && k.SpellList == "" {
		k.SpellList = ListMage
	}
	switch {
	case k.Level > 0 && !slices.Contains(spellLists, k.SpellList):
		c.at(file, line, "kind %s: a magician names his sheet, spell-list: one of %s (DN3-MAGIC-3)", k.ID, strings.Join(spellLists, ", "))
	case k.Level == 0 && (k.SpellList != "" || k.ValleyLevel != 0):
		c.at(file, line, "kind %s: spell-list and valley-level are a magician's: give its level (DN-MAGIC-2)", k.ID)
	case k.ValleyLevel < 0 || k.MagicResistance < 0:
		c.at(file, line, "kind %s: valley-level and magic-resistance are 0 or more", k.ID)
	}
}

// valley reports whether the game is a battle of La Conquête's valley: a
// position's valley: true, or the option rules=dn3 or magna-carta
// (chapter: the valley's peoples).
func (s *State) valley() bool { return s.Valley || s.Options.Edition != "" }

// fullPE is a magician's energy at his level: 100 PE a level underground
// (DN-MAGIC-6), 50 in the valley (DN3-MAGIC-1).
func (s *State) fullPE(level int) int {
	if s.valley() {
		return 50 * level
	}
	return 100 * level
}

// spellProv is sp's provenance in this game: in the valley, the printed
// sheet's rows when it has them (valley-rule).
func (s *State) spellProv(sp *Spell) Prov {
	if s.valley() && sp.ValleyRule != "" {
		return Prov{Rule: sp.ValleyRule}
	}
	return sp.Prov
}

// spellLasts is how many player-turns sp's effect stays in this game
// (AMB-18's counting): the valley's sheets' duration when it differs.
func (s *State) spellLasts(sp *Spell) int {
	if s.valley() && sp.ValleyLasts > 0 {
		return sp.ValleyLasts
	}
	return sp.Lasts
}

// spellRefusal says why no caster of this game may order sp, with the
// code; "" when one may. c is the caster (nil when unknown).
func spellRefusal(st *State, c *Char, sp *Spell) (string, string) {
	switch {
	case sp.ValleyOnly && !st.valley():
		return codeUnknownSpell, fmt.Sprintf("%s is not on the underground sheet: it is a spell of La Conquête's valley (GAP-12)", sp.Title)
	case c != nil && st.level(c) > 0 && !slices.Contains(sp.Lists, st.Kind(c).SpellList):
		k := st.Kind(c)
		sheets := "sheet"
		if len(sp.Lists) > 1 {
			sheets = "sheets"
		}
		return codeNotOnList, fmt.Sprintf("%s casts from the %s sheet, which has no %s: it is on the %s %s (DN3-MAGIC-3, -4, B.15.5); the %s sheet's spells: %s", c.ID, k.SpellList, sp.Title, list(sp.Lists), sheets, k.SpellList, strings.Join(st.data.spellNames(k.SpellList), ", "))
	case sp.Category == "strategic":
		return codeSpellStrategic, fmt.Sprintf("%s is a strategic spell: it is cast in the campaign's Reorganisation or Movement phase, never in a battle (DN3-MAGIC-5, -6)", sp.Title)
	case sp.Effect == "":
		return codeUndefinedSpell, fmt.Sprintf("%s cannot be cast: %s (spells.yaml)", sp.Title, sp.Prov.Note)
	case !st.valley() && sp.Underground != "":
		return codeUndefinedSpell, fmt.Sprintf("%s cannot be cast: %s (spells.yaml)", sp.Title, sp.Underground)
	}
	return "", ""
}

// charactersHit are the spells cast "at a character" besides those aimed
// at one: the effects that strike the characters on their hexes.
var charactersHit = []string{"fireball", "magic-circle", "poison-cloud"}

// resistance is what magic resistance adds to the difficulty of sp cast
// by c at tg (DN3-MAGIC-9, -10, AMB-86), with the words for the roll: the
// target character's, never c's own on himself; for a spell whose effect
// strikes the characters on its hexes, the highest of theirs.
func (s *State) resistance(c *Char, sp *Spell, tg *spellTarget) (int, string) {
	var ts []*Char
	switch {
	case sp.Aim == "character" && tg.Unit != nil && tg.Unit != c:
		ts = []*Char{tg.Unit}
	case slices.Contains(charactersHit, sp.Effect):
		for _, l := range tg.Locs {
			for _, t := range s.At(l) {
				if t != c && t.Alive() && !slices.Contains(ts, t) {
					ts = append(ts, t)
				}
			}
		}
	}
	best, who := 0, ""
	for _, t := range ts {
		if r := s.Kind(t).MagicResistance; r > best {
			best, who = r, t.ID
		}
	}
	if best == 0 {
		return 0, ""
	}
	return best, fmt.Sprintf("+%d magic resistance of %s (DN3-MAGIC-9, AMB-86)", best, who)
}

// immunityRules name the rule of each immunity tag, for the report.
var immunityRules = map[string]string{
	TagFearless:         "DN3-PEOPLE-KANDAR-3",
	TagCharmImmune:      "DN3-PEOPLE-KANDAR-3, DN3-PEOPLE-UNIC-10",
	TagImmobiliseImmune: "DN3-PEOPLE-UNIC-10",
}

// immune says why t cannot be the target of sp ("" when it can): its kind
// carries a tag the spell's row names under immune:, and the immunity
// holds now (immunityHolds).
func (s *State) immune(t *Char, sp *Spell) string {
	k := s.Kind(t)
	for _, tag := range sp.Immune {
		if k.Has(tag) && s.immunityHolds(t, tag) {
			return fmt.Sprintf("%s is immune to %s (%s, %s)", t.ID, sp.Title, tag, immunityRules[tag])
		}
	}
	return ""
}

// immunityHolds reports whether t's immunity tag holds now. The Kandärs'
// hold only while their bond to an Officer does (DN3-PEOPLE-KANDAR-1, -6,
// AMB-95): that is the peoples' rule, which answers here; by default a
// tag always holds.
func (s *State) immunityHolds(t *Char, tag string) bool { return s.HasNow(t, tag) }

// Lit reports whether a Light spell lights hex h "as in broad daylight"
// (DN3-SPELL-MAGE-22, -SORC-18): the hex it was cast on and those beside
// it, for the rest of the battle. A night battle's ranges ask it (AMB-88).
func (s *State) Lit(h hex.Hex) bool {
	for _, ch := range s.Charms {
		if ch.Effect != "light" {
			continue
		}
		for _, x := range ch.Locs {
			if l, _, err := hex.ParseLoc(x); err == nil && l.Hex == h {
				return true
			}
		}
	}
	return false
}

// sheetAbbrev is how a sheet's rows are named in the digest (DN3-SPELL-…).
var sheetAbbrev = map[string]string{ListMage: "MAGE", ListSorcerer: "SORC", ListDruid: "DRUID", ListUnicorn: "UNIC"}

var sheetRowRE = regexp.MustCompile(`DN3-SPELL-(MAGE|SORC|DRUID|UNIC)-[0-9]+`)

// sheetRule is the row of caster c's sheet that prints sp, as its rule,
// valley-rule or clues name it (a Druid's Silence is DN3-SPELL-DRUID-18);
// def when c is no caster or the row names none of his sheet.
func (s *State) sheetRule(sp *Spell, c *Char, def string) string {
	if sp == nil || c == nil || s.level(c) == 0 {
		return def
	}
	want := "DN3-SPELL-" + sheetAbbrev[s.Kind(c).SpellList] + "-"
	for _, t := range append([]string{sp.Prov.Rule, sp.ValleyRule}, sp.Prov.Clues...) {
		for _, id := range sheetRowRE.FindAllString(t, -1) {
			if strings.HasPrefix(id, want) {
				return id
			}
		}
	}
	return def
}

// spellNames are the names an order gives the spells of sheet l.
func (d *Data) spellNames(l string) []string {
	var out []string
	for _, sp := range d.Spells {
		if slices.Contains(sp.Lists, l) && !slices.Contains(out, sp.Key()) {
			out = append(out, sp.Key())
		}
	}
	slices.Sort(out)
	return out
}
