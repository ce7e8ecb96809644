package dragonnoir

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// What each spell effect does (spells.yaml effect:), and what it needs to
// be cast at all (spellChecks: checked before any PE is spent, so that a
// spell that cannot be attempted costs nothing, AMB-20's reading).

type effectFunc func(w *world, c *Char, sp *Spell, o *SpellOrder, tg *spellTarget, used Provs)

var spellEffects = map[string]effectFunc{
	"summon":        (*world).spellSummon,
	"fireball":      (*world).spellFireball,
	"heal":          (*world).spellHeal,
	"resurrect":     (*world).spellResurrect,
	"move-boost":    (*world).spellOnUnit,
	"immobilise":    (*world).spellOnUnit,
	"attack-boost":  (*world).spellOnUnit,
	"halve-attack":  (*world).spellOnUnit,
	"defence-boost": (*world).spellOnUnit,
	"improve-fire":  (*world).spellOnUnit,
	"teleport":      (*world).spellTeleport,
	"invisible":     (*world).spellInvisible,
	"levitation":    (*world).spellLevitate,
	"magic-circle":  (*world).spellOnHexes,
	"silence":       (*world).spellOnHexes,
	"terrain":       (*world).spellOnHexes,
	"demolish-wall": (*world).spellDemolish,
	"detect":        (*world).spellDetect,
	// the Druid and Unicorn sheets (spell_nature.go)
	"walk-on-water": (*world).spellWaterWalk,
	"frost":         (*world).spellFrost,
	"plant-attack":  (*world).spellPlants,
	"poison-cloud":  (*world).spellCloud,
}

// spellCheck says why spell sp as ordered cannot be attempted, "" when it
// can: what its effect needs of its target.
func (w *world) spellCheck(c *Char, sp *Spell, o *SpellOrder, tg *spellTarget) string {
	st := w.st()
	if why := w.valleyCheck(c, sp, tg); why != "" { // immunities, free ground, Terror (spell_valley.go)
		return why
	}
	if sp.Hostile {
		for _, l := range tg.Locs {
			if why := st.warded(l); why != "" {
				return why
			}
		}
	}
	t := tg.Unit
	switch sp.Effect {
	case "heal":
		if t.Wounds == 0 {
			return fmt.Sprintf("%s is not wounded", t.ID)
		}
	case "resurrect":
		if _, ok := w.freeNear(t, st.loc(t)); !ok {
			return fmt.Sprintf("there is no room for %s to rise on or beside %s", t.ID, t.At)
		}
	case "attack-boost", "move-boost", "improve-fire":
		if sp.Effect == "improve-fire" && st.Kind(t).Weapon == "" {
			return fmt.Sprintf("%s has no bow or crossbow (DN-FIRE-1)", t.ID)
		}
	case "teleport":
		if tg.To == nil {
			return "name its destination under to:"
		}
		if why := w.standOK(c, *tg.To); why != "" {
			return why
		}
	case "levitation":
		return w.levitationPath(t, tg.Locs[len(st.Locs(t)):])
	case "plant-attack":
		if k := st.Terrain(st.loc(t)); !slices.Contains(sp.On, k.Kind) {
			return fmt.Sprintf("%s stands in %s: the plants attack in %s only (DN3-SPELL-DRUID-23)", t.ID, k.Title, strings.Join(sp.On, ", "))
		}
	case "terrain":
		seen := []hex.Hex{}
		nt := st.data.Terrain[sp.Terrain]
		for i, l := range tg.Locs {
			if k := st.terrainKind(l.Hex); !slices.Contains(sp.On, k) {
				return fmt.Sprintf("%s is %s: %s works on %s only", locString(st.board, l), k, sp.Title, strings.Join(sp.On, ", "))
			}
			for _, o := range st.At(st.board.FloorLoc(l.Hex)) { // the Druid and Unicorn sheets: not under who could not stand in it
				if o.Alive() && (nt.Impassable || slices.ContainsFunc(nt.ClosedTo, st.Kind(o).Has)) {
					return fmt.Sprintf("%s stands on %s, and may not stand in %s", o.ID, locString(st.board, l), nt.Title)
				}
			}
			if i > 0 && !slices.ContainsFunc(seen, func(h hex.Hex) bool { return st.board.Layout.Adjacent(h, l.Hex) }) {
				return fmt.Sprintf("its hexes follow each other: %s is next to none before it", locString(st.board, l))
			}
			seen = append(seen, l.Hex)
		}
	case "demolish-wall":
		for _, s := range tg.Sides {
			if !w.wallOn(s) {
				return fmt.Sprintf("there is no wall on %s", s)
			}
		}
		if len(tg.Sides) != len(o.Hexes) {
			return "name each wall as the two hexes it parts, \"0202/0203\""
		}
	}
	return ""
}

// spellSummon calls the spectres (DN-MAGIC-4; spectre.go).
func (w *world) spellSummon(c *Char, sp *Spell, _ *SpellOrder, tg *spellTarget, used Provs) {
	w.summon(c, sp, locString(w.st().board, tg.Locs[0]), used)
}

// spellFireball strikes every character on the hex, once each (ROLL-11,
// DN3-SPELL-MAGE-26, AMB-78): its rolls, +Armoured for an armoured
// counter, the Queen's and Guards' resistance (DN-KROB-13); it burns the
// web there (DN-KROB-14) and the hex is impassable until the end of the
// next player-turn.
func (w *world) spellFireball(c *Char, sp *Spell, _ *SpellOrder, tg *spellTarget, used Provs) {
	st := w.st()
	l := tg.Locs[0]
	at := locString(st.board, l)
	w.destroyWebAt(at, "DN-KROB-14, DN-WEB-5")            // web.go, the combat chapter's
	for _, t := range append(st.At(l), st.Aboard(l)...) { // Aboard: DN3, a character an Ent carries
		if !t.Alive() {
			continue
		}
		tk := st.Kind(t)
		if tk.Has(TagFireProof) { // DN3: the dragon (special_dragon.go)
			w.say(Provs{tk.Prov}, "%s is immune to fire: the fireball does nothing to it (DN3-PEOPLE-DRAGON-3, AMB-78).", t.ID)
			continue
		}
		mod := 0
		if tk.Armoured {
			mod = sp.Armoured
		}
		r := w.d10(fmt.Sprintf("fireball on %s", t.ID))
		es, _ := parseEffects(sp.Rolls[modified(r.Total+mod)-1])
		if tk.fireball != nil { // DN3: an Ent's own rows (DN3-PEOPLE-ENT-30)
			es = tk.fireball[modified(r.Total+mod)-1]
			w.say(Provs{tk.Prov}, "%s: a fireball on %s: one wound, no retreat, on 1 to 5, nothing on 6 to 10 (DN3-PEOPLE-ENT-30, AMB-78).", t.ID, aKind(tk))
		}
		es, resists := fireballEffects(tk, es) // special.go: DN-KROB-13
		outcome(r, used, "%+d makes %d: %s", mod, modified(r.Total+mod), effectWords(es))
		if resists != "" {
			w.say(Provs{tk.Prov}, "%s: %s.", t.ID, resists)
		}
		for _, e := range es {
			w.hurt(t, e.What, e.N, []*Char{c}, used, false)
		}
	}
	w.charm(c, sp, Charm{Locs: []string{at}})
	w.say(used, "%s burns: nobody enters it until the end of the next player-turn (AMB-78).", at)
}

// spellHeal heals the wounded target at once (DN3-SPELL-MAGE-7); a
// magician's PE are doubled (DN-MAGIC-6).
func (w *world) spellHeal(_ *Char, sp *Spell, _ *SpellOrder, tg *spellTarget, used Provs) {
	t := tg.Unit
	face := Healthy
	if t.Face == Stunned {
		face = Stunned
	}
	w.emit(&Conditioned{Unit: t.ID, Face: face, Berserk: t.Berserk, StunnedIn: t.StunnedIn})
	w.say(used, "%s is healed.", t.ID)
	if t.PE > 0 {
		w.emit(&Energy{Unit: t.ID, PE: 2 * t.PE})
		w.tell(toOwner(t), nil, "%s's energy is doubled by the healing: %d PE (DN-MAGIC-6).", t.ID, t.PE)
	}
}

// spellResurrect brings a dead character back where it fell, or beside
// it if someone stands there, healthy; a magician comes back with no PE
// (DN3-SPELL-MAGE-8).
func (w *world) spellResurrect(_ *Char, _ *Spell, _ *SpellOrder, tg *spellTarget, used Provs) {
	st := w.st()
	t := tg.Unit
	l, _ := w.freeNear(t, st.loc(t))
	w.emit(&Placed{Unit: t.ID, At: locString(st.board, l), Facing: t.Facing, Why: "resurrected"})
	w.say(used, "%s rises from the dead on %s.", t.ID, t.At)
	if st.level(t) > 0 {
		w.emit(&Energy{Unit: t.ID, PE: 0})
		w.tell(toOwner(t), nil, "%s comes back with 0 PE (DN3-SPELL-MAGE-8).", t.ID)
	}
}

// spellOnUnit puts a charm on the target for the spell's duration: more
// MP, Attack or Defence, fewer Attack, no movement, a better next shot.
func (w *world) spellOnUnit(c *Char, sp *Spell, o *SpellOrder, tg *spellTarget, used Provs) {
	t := tg.Unit
	n := o.Units
	if sp.Effect == "attack-boost" && t != c {
		n = 0 // on another, its Attack is doubled (DN3-SPELL-MAGE-3)
	}
	w.charm(c, sp, Charm{Unit: t.ID, N: n})
	words := map[string]string{
		"move-boost":    fmt.Sprintf("%s has %d more MP", t.ID, n),
		"immobilise":    fmt.Sprintf("%s cannot move, nor advance after combat (AMB-100)", t.ID),
		"attack-boost":  fmt.Sprintf("%s's Attack is doubled", t.ID),
		"halve-attack":  fmt.Sprintf("%s's Attack is halved", t.ID),
		"defence-boost": fmt.Sprintf("%s has %d more Defence", t.ID, n),
		"improve-fire":  fmt.Sprintf("%s's next shot takes %d off the die", t.ID, n),
	}[sp.Effect]
	if sp.Effect == "attack-boost" && n > 0 {
		words = fmt.Sprintf("%s has %d more Attack", t.ID, n)
	}
	until := "until the end of the next player-turn"
	if sp.Effect == "improve-fire" {
		until = "for one shot, before the end of the next player-turn"
	}
	w.say(used, "%s, %s (%s).", words, until, sp.Duration)
}

// spellTeleport moves the caster at once to its destination
// (DN3-SPELL-MAGE-6, AMB-81).
func (w *world) spellTeleport(c *Char, _ *Spell, _ *SpellOrder, tg *spellTarget, used Provs) {
	st := w.st()
	from := c.At
	to := locString(st.board, *tg.To)
	w.emit(&Moved{Unit: c.ID, Path: []string{from, to}, Facing: c.Facing, Kind: "teleport"})
	w.say(used, "%s vanishes from %s and appears on %s.", c.ID, from, to)
}

// spellInvisible takes the caster off the map; he reappears at the start
// of his side's next player-turn where his side noted, in secret, in a
// mail opened no earlier than that (DN3-SPELL-MAGE-9, AMB-79, HID-6;
// spell_reappear.go).
func (w *world) spellInvisible(c *Char, sp *Spell, _ *SpellOrder, _ *spellTarget, used Provs) {
	st := w.st()
	from := c.At
	w.charm(c, sp, Charm{Unit: c.ID, Locs: []string{from}})
	w.emit(&Placed{Unit: c.ID, Facing: c.Facing, Why: "invisible"})
	w.say(used, "%s becomes invisible and leaves %s: nobody may act with or against him until he reappears (AMB-79).", c.ID, from)
	f, _ := st.Values(c)
	where := "note where in your reactions mail to the Krob turn (sealed until the Krob orders are in)"
	switch {
	case st.Options.LiveFire:
		where = "note where in your next Adventurer mail"
	case st.Step == StepKrobs:
		where = "where the reactions mail you sent to this Krob turn notes"
	}
	w.tell(adjudicator.To(c.Side), used, "%s reappears at the start of your next player-turn: %s, %s: {%s: LOCATION}, within his %d MP of %s; with none, on %s (AMB-79, HID-6).", c.ID, where, KeyReappear, c.ID, f.Move, from, from)
}

// spellLevitate flies the target along its path, a level above the
// ground (DN3-SPELL-MAGE-12, AMB-83).
func (w *world) spellLevitate(_ *Char, _ *Spell, o *SpellOrder, tg *spellTarget, used Provs) {
	st := w.st()
	t := tg.Unit
	path := []string{t.At}
	for _, l := range tg.Locs[len(st.Locs(t)):] {
		path = append(path, locString(st.board, l))
	}
	w.emit(&Moved{Unit: t.ID, Path: path, Facing: t.Facing, Kind: "levitate"})
	w.say(used, "%s flies %s.", t.ID, strings.Join(path, " → "))
}

// levitationPath says why t may not fly along path, "" when it may: each
// hex next to the last, through no wall nor rock, never where the gallery
// is one hex wide (the ceiling is too low: DN3-SPELL-MAGE-12), ending
// where it may stand.
func (w *world) levitationPath(t *Char, path []hex.Loc) string {
	st := w.st()
	if st.Kind(t).Shape != hex.Single.Name {
		return fmt.Sprintf("%s is too big to levitate", t.ID)
	}
	if len(path) == 0 {
		return "give its flight under hexes:, one hex after another"
	}
	cur := st.loc(t)
	for _, l := range append([]hex.Loc{cur}, path...) {
		if !w.wideGallery(l.Hex) { // spectre_fly.go: the Gargoyles' rule (DN-SPECTRE-2)
			return fmt.Sprintf("the gallery at %s is one hex wide: the ceiling is too low (DN3-SPELL-MAGE-12)", l.Hex)
		}
	}
	for _, l := range path {
		side, ok := st.board.SideBetween(cur.Hex, l.Hex)
		if !ok {
			return fmt.Sprintf("%s is not next to %s", l.Hex, cur.Hex)
		}
		if t := st.Terrain(l); t == nil || t.Impassable {
			return fmt.Sprintf("%s is solid", l.Hex)
		}
		for _, f := range st.board.Features(side) {
			if ft := st.data.Features[f.Kind]; ft != nil && ft.BlocksMove && ft.BlocksFire && !st.demolished(side) {
				return fmt.Sprintf("a %s on %s stands to the ceiling", f.Kind, side)
			}
		}
		cur = l
	}
	return w.standOK(t, st.board.FloorLoc(cur.Hex))
}

// standOK says why c may not end on l, "" when it may: it could enter it
// and no living character is there — for a counter of several hexes
// anchored on l, facing as it does, every hex of it (retreat.go coverAt:
// on the map, one it may enter).
func (w *world) standOK(c *Char, l hex.Loc) string {
	st := w.st()
	locs, ok := w.coverAt(c, l)
	if !ok {
		return fmt.Sprintf("%s may not stand on %s (DN-MOVE-5)", c.ID, locString(st.board, l))
	}
	for _, x := range locs {
		if w.occupied(c, x) {
			return fmt.Sprintf("someone stands on %s (DN-STACK-2)", locString(st.board, x))
		}
	}
	return ""
}

// freeNear is where c may stand on l or, failing that, nearest to it.
func (w *world) freeNear(c *Char, l hex.Loc) (hex.Loc, bool) {
	st := w.st()
	seen := map[hex.Loc]bool{l: true}
	for ring := []hex.Loc{l}; len(ring) > 0; {
		var next []hex.Loc
		for _, x := range ring {
			if w.standOK(c, x) == "" {
				return x, true
			}
			for _, n := range st.board.Exits(x) {
				if !seen[n] {
					seen[n] = true
					next = append(next, n)
				}
			}
		}
		ring = next
	}
	return l, false
}

// spellOnHexes puts a charm on the hexes: a magic circle (AMB-80), a
// Silence (DN3-SPELL-MAGE-21), a bridge or a gallery (terrain:).
func (w *world) spellOnHexes(c *Char, sp *Spell, _ *SpellOrder, tg *spellTarget, used Provs) {
	st := w.st()
	var at []string
	for _, l := range tg.Locs {
		at = append(at, locString(st.board, st.board.FloorLoc(l.Hex)))
	}
	w.charm(c, sp, Charm{Locs: at, Terrain: sp.Terrain})
	switch sp.Effect {
	case "terrain":
		t := st.data.Terrain[sp.Terrain]
		w.say(append(used, t.Prov), "%s become %s for the rest of the scenario.", list(at), t.Title)
	case "magic-circle":
		w.say(used, "Nobody may fire at, attack or cast an attack spell at %s until the end of the next player-turn (AMB-80).", list(at))
	case "silence":
		w.say(used, "No spell may be cast from %s until the end of the next player-turn (%s).", list(at), st.sheetRule(sp, c, "DN3-SPELL-MAGE-21"))
	}
}

// wallOn reports whether a wall stands on side.
func (w *world) wallOn(side hex.Hexside) bool {
	st := w.st()
	for _, f := range st.board.Features(side) {
		if ft := st.data.Features[f.Kind]; ft != nil && ft.BlocksMove {
			return !st.demolished(side)
		}
	}
	return false
}

// spellDemolish knocks down walls: a character crosses them for 1 MP more
// (DN3-SPELL-MAGE-18).
func (w *world) spellDemolish(c *Char, sp *Spell, _ *SpellOrder, tg *spellTarget, used Provs) {
	var at []string
	for _, s := range tg.Sides {
		at = append(at, s.String())
	}
	w.charm(c, sp, Charm{Locs: at})
	w.say(used, "The wall on %s falls: crossing it costs 1 MP more (%s).", list(at), w.st().sheetRule(sp, c, "DN3-SPELL-MAGE-18"))
}

// spellDetect tells the caster's side alone who and what is on the
// location (DN-MAGIC-3: the presence of an object or a living being): the
// living characters, and the hidden markers with whether each is the
// real one.
func (w *world) spellDetect(c *Char, _ *Spell, _ *SpellOrder, tg *spellTarget, used Provs) {
	st := w.st()
	l := tg.Locs[0]
	var found []string
	for _, t := range st.At(l) {
		if t.Alive() {
			found = append(found, t.ID)
		}
	}
	for _, h := range st.Hidden {
		if hl, err := locOn(st.board, h.At); err == nil && hl.Hex == l.Hex {
			what := "a decoy"
			if w.sense(h, adjudicator.To(c.Side)) { // turn.go: drawn now if it was not
				what = "the real one"
			}
			found = append(found, fmt.Sprintf("%s (%s)", h.ID, what))
		}
	}
	w.tell(adjudicator.To(c.Side), used, "%s senses on %s: %s.", c.ID, locString(st.board, l), list(found))
}
