package dragonrage

// Fog, 2 SP (DR-SPELL-FOG-1..6). Its effects on attacks and climbing are in
// magic_effects.go; bounding and landing in fog (DR-SPELL-FOG-5) are the
// major monsters' movement's (major_move.go).

// checkFog: cast into any hex within 3 of the wizard (DR-SPELL-FOG-1).
func (w *world) checkFog(sp *Spell, wz *Unit) (string, string, string) {
	return w.within(wz, sp.At, 3, "DR-SPELL-FOG-1")
}

// castFog puts the Fog marker in the hex: the fog covers it and every hex
// within 2, 19 hexes, until the caster's side's next magic phase
// (DR-SPELL-FOG-1, DR-SPELL-FOG-2).
func (w *world) castFog(sp *Spell, wz *Unit, cost int) {
	w.emit(&SpellCast{Wizard: wz.ID, Spell: spellFog, SP: cost, Hex: sp.At})
	w.trace("spell", wz.ID, []string{wz.Hex, sp.At}, "fog")
	w.sayf("%s casts Fog on %s (%d SP, %d left): it covers %s and every hex within 2 until the start of the %s's next magic phase; no attack into, out of or inside it (DR-SPELL-FOG-1, DR-SPELL-FOG-2, DR-SPELL-FOG-4)", wz.ID, sp.At, cost, wz.SP, sp.At, wz.Side)
}
