package dragonnoir

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// The spells of the Druid and Unicorn sheets that the Mage sheet does not
// have (B.15.3, B.15.4): walking on water, frost, the plants' attack and
// the poison cloud; and the area a spell covers around its hex (the poison
// cloud's seven hexes). The sheets' other spells are the Mage sheet's
// effects, on rows shared with it or with their own (name:, spells.yaml);
// Light is spell_valley.go's.

// markedEffects are the view's marks of the lasting effects on hexes
// the Druid sheet leaves (valleyMarks).
var markedEffects = map[string]string{"frost": "frost", "poison-cloud": "poison"}

// flagPoisoned marks a character that has rolled against a poison cloud
// this game turn: once, when the cloud is cast on it or when it first
// walks into it (DN3-SPELL-DRUID-24: "durée 1 tour").
const flagPoisoned = "poisoned"

// around are the locations within radius r of l on the map, l's own
// excluded, each hex's floor, in hex order: the seven hexes of a cloud are
// a hex and the six around it (DN3-SPELL-DRUID-24).
func (s *State) around(l hex.Loc, r int) []hex.Loc {
	var out []hex.Loc
	if r < 1 {
		return nil
	}
	for _, h := range s.board.Hexes() {
		if h != l.Hex && s.board.Layout.Distance(l.Hex, h) <= r {
			out = append(out, s.board.FloorLoc(h))
		}
	}
	return out
}

// waterWalker reports whether c walks on water (DN3-SPELL-DRUID-11).
func (s *State) waterWalker(c *Char) bool { return len(s.charmsOf("walk-on-water", c.ID)) > 0 }

// waterStep is what entering l costs c walking on water: a water hex
// costs 1 MP, even to one who would sink, doubled by frost
// (DN3-SPELL-DRUID-11, -12); on says whether the spell decides it.
func (s *State) waterStep(c *Char, l hex.Loc) (cost int, prov Prov, on bool) {
	t := s.Terrain(l)
	chs := s.charmsOf("walk-on-water", c.ID)
	if len(chs) == 0 || t == nil || !t.Has(TerrWater) || s.burning(l) {
		return 0, Prov{}, false
	}
	return s.frosted(l, 1), s.data.Spells[chs[0].Spell].Prov, true
}

// frosted is an MP cost on l, doubled where a Frost lies
// (DN3-SPELL-DRUID-12; tables.go MPCost).
func (s *State) frosted(l hex.Loc, cost int) int {
	if s.charmOn("frost", s.board.FloorLoc(l.Hex)) != nil {
		return 2 * cost
	}
	return cost
}

// frostTerrain is the combat effect of l under a Frost: unfavourable (-)
// for everyone (DN3-SPELL-DRUID-12; tables.go TerrainAt).
func (s *State) frostTerrain(l hex.Loc) (string, Prov, bool) {
	ch := s.charmOn("frost", s.board.FloorLoc(l.Hex))
	if ch == nil {
		return "", Prov{}, false
	}
	return "-", s.data.Spells[ch.Spell].Prov, true
}

// spellPlants: the plants of the target's brush or tree hex seize it
// (DN3-SPELL-DRUID-23, ROLL-12, AMB-77): it always retreats a hex and is
// wounded on 1-4 — the row's rolls — with the row's modifiers: +Armoured
// for an armoured target, terrain-mod for the hex it stands in (-3 in a
// tree hex).
func (w *world) spellPlants(c *Char, sp *Spell, _ *SpellOrder, tg *spellTarget, used Provs) {
	st := w.st()
	t := tg.Unit
	in := st.Terrain(st.loc(t))
	used = append(used, in.Prov) // the brush or tree it stands in
	mod, why := 0, ""
	if st.Kind(t).Armoured && sp.Armoured != 0 {
		mod += sp.Armoured
		why += fmt.Sprintf(" %+d armoured,", sp.Armoured)
	}
	if n := sp.TerrainMod[in.Kind]; n != 0 {
		mod += n
		why += fmt.Sprintf(" %+d in %s,", n, in.Title)
	}
	if why == "" {
		why = " +0"
	}
	r := w.d10(fmt.Sprintf("plant attack on %s", t.ID))
	es, _ := parseEffects(sp.Rolls[modified(r.Total+mod)-1])
	outcome(r, used, "%s makes %d: %s", strings.TrimSuffix(why, ",")[1:], modified(r.Total+mod), effectWords(es))
	for _, e := range es {
		w.hurt(t, e.What, e.N, []*Char{c}, used, false)
	}
}

// spellCloud spreads a poison cloud over its hexes for the spell's
// duration (DN3-SPELL-DRUID-24, ROLL-13): every character in it rolls
// once, and is wounded by the row's rolls (1 or 2); unicorns are immune,
// and so are their riders (DN3-PEOPLE-UNIC-11); a magic circle keeps it
// off the characters it protects (AMB-80). One who walks into it while it
// lasts rolls too (breathe).
func (w *world) spellCloud(c *Char, sp *Spell, _ *SpellOrder, tg *spellTarget, used Provs) {
	st := w.st()
	var at []string
	var in []*Char
	for _, l := range tg.Locs {
		at = append(at, locString(st.board, l))
		for _, t := range st.At(l) {
			if t.Alive() && !slices.Contains(in, t) {
				in = append(in, t)
			}
		}
	}
	w.charm(c, sp, Charm{Locs: at})
	w.say(used, "A poison cloud covers %s until the end of the next player-turn (%s): whoever is in it or walks into it rolls once a game turn.", list(at), sp.Duration)
	slices.SortFunc(in, func(a, b *Char) int { return cmp.Compare(a.ID, b.ID) })
	for _, t := range in {
		w.poison(t, sp, used)
	}
}

// poison rolls for t in a poison cloud of spell sp, once a game turn.
func (w *world) poison(t *Char, sp *Spell, used Provs) {
	st := w.st()
	if st.Is(flagPoisoned, t.ID) {
		return
	}
	w.emit(&Flagged{Flag: flagPoisoned, IDs: []string{t.ID}})
	if why := poisonImmune(st, t); why != "" {
		w.say(used, "%s breathes the poison unharmed: %s.", t.ID, why)
		return
	}
	if why := st.wardedChar(t); why != "" {
		w.say(used, "The poison does not reach %s: %s.", t.ID, why)
		return
	}
	r := w.d10(fmt.Sprintf("poison cloud on %s", t.ID))
	es, _ := parseEffects(sp.Rolls[modified(r.Total)-1])
	outcome(r, used, "%s", effectWords(es))
	for _, e := range es {
		w.hurt(t, e.What, e.N, nil, used, false)
	}
}

// poisonImmune says why t takes no harm from poison, "" when it does: a
// unicorn (counter tag poison-immune, DN3-PEOPLE-UNIC-11). Its rider is
// immune too: when riders are on the map, the rider of such a mount is
// to be answered here.
func poisonImmune(st *State, t *Char) string {
	if st.Kind(t).Has(TagPoisonImmune) {
		return "immune to poison (DN3-PEOPLE-UNIC-11)"
	}
	return ""
}

// cloudAt is the poison cloud lying on l, if any.
func (s *State) cloudAt(l hex.Loc) *Charm { return s.charmOn("poison-cloud", s.board.FloorLoc(l.Hex)) }

// breathe rolls for c, who has just walked from cur into l, when l is in
// a poison cloud it was not in (movement chapter's walk). It reports
// whether c can go no further.
func (w *world) breathe(c *Char, cur, l hex.Loc) bool {
	st := w.st()
	ch := st.cloudAt(l)
	if ch == nil || st.cloudAt(cur) == ch || st.Is(flagPoisoned, c.ID) {
		return false
	}
	sp := st.data.Spells[ch.Spell]
	w.say(Provs{sp.Prov}, "%s walks into the poison cloud on %s.", c.ID, locString(st.board, l))
	w.poison(c, sp, Provs{sp.Prov})
	return !c.Standing()
}

// spellFrost: the hexes freeze until the end of the next player-turn:
// entering one costs twice its MP, and it is unfavourable (-) in combat
// (DN3-SPELL-DRUID-12, AMB-82: it aims at hexes).
func (w *world) spellFrost(c *Char, sp *Spell, _ *SpellOrder, tg *spellTarget, used Provs) {
	st := w.st()
	var at []string
	for _, l := range tg.Locs {
		at = append(at, locString(st.board, st.board.FloorLoc(l.Hex)))
	}
	w.charm(c, sp, Charm{Locs: at})
	w.say(used, "Frost covers %s until the end of the next player-turn: entering costs twice the MP, and the terrain is unfavourable (-) in combat (%s).", list(at), sp.Duration)
}

// spellWaterWalk: the target walks on water until the end of the next
// player-turn (DN3-SPELL-DRUID-11).
func (w *world) spellWaterWalk(c *Char, sp *Spell, _ *SpellOrder, tg *spellTarget, used Provs) {
	t := tg.Unit
	w.charm(c, sp, Charm{Unit: t.ID})
	w.say(used, "%s walks on water until the end of the next player-turn: a water hex costs it 1 MP and is neutral (0) for it in combat (%s).", t.ID, sp.Duration)
}
