package dragonnoir

// Chapter: spectres (A.10.2): Gargoyles and Living Dead summoned by a
// magician's spell (DN-SPECTRE-1, -5; magic.go casts, summon places),
// who cannot be hurt — every stunned, wounded or killed result is a
// simple retreat of one hex, made only if there is room (DN-SPECTRE-3,
// AMB-9; special.go converts, results.go retreats or stays) — Gargoyles
// who fly (spectre_fly.go, DN-SPECTRE-2) and Living Dead who walk
// (DN-SPECTRE-6), and who all dematerialise after their time
// (DN-SPECTRE-4, -7). Time is counted in player-turns, Gharv interphases
// not counting, the one they appear in being the first (AMB-18): the
// spell's lasts: in spells.yaml. With DN2's durations underground
// (AMB-17) Living Dead (1 game turn) go at the end of the 2nd
// player-turn, Gargoyles (2 game turns) at the end of the 4th; a module
// for DN3's valley battles would say 4 and 8.

// summon places the spectres spell sp summons, for the side of caster:
// sp.Count counters of kind sp.Summons (spells.yaml summons:, count:) that
// are not on the map, each on the first free location it may enter among
// the target location at and then the locations touching it in the map's
// order, for sp.Lasts player-turns counting this one (AMB-18). used are
// the provenances of the spell, for the report. It is the magic chapter's
// entry point (magic.go, effect: summon) and must not roll or spend PE:
// the casting is done.
func (w *world) summon(caster *Char, sp *Spell, at string, used Provs) {
	st := w.st()
	kind, n, turns := sp.Summons, sp.Count, st.spellLasts(sp) // the valley's sheet: DN3-SPELL-MAGE-28, -29
	l, err := locOn(st.board, at)
	if err != nil {
		w.say(nil, "The spectres cannot appear: %v.", err)
		return
	}
	k := st.data.Kinds[kind]
	spots := append([]string{}, locString(st.board, l))
	for _, x := range st.board.Exits(l) {
		if st.Touch(l, x) {
			spots = append(spots, locString(st.board, x))
		}
	}
	placed := 0
	expires := st.PlayerTurn() + turns - 1
	for _, id := range k.counterNames() {
		if placed == n {
			break
		}
		if c := st.Chars[id]; c != nil && c.Alive() {
			continue
		}
		for len(spots) > 0 {
			s := spots[0]
			spots = spots[1:]
			if sl := mustLoc(st, s); st.CanEnter(k, sl) && !w.occupied(nil, sl) {
				w.emit(&Placed{Unit: id, Kind: kind, Side: caster.Side, At: s, Expires: expires, Why: "summoned"})
				w.say(used, "%s appears on %s, for %d player-turns counting this one: it dematerialises at the end of player-turn %d (DN-SPECTRE-1, -5, AMB-18).", id, s, turns, expires)
				placed++
				break
			}
		}
	}
	if placed < n {
		w.say(nil, "Only %d of the %d spectres find room to appear.", placed, n)
	}
}

// expireSpectres removes the spectres whose time is up at the end of this
// player-turn (DN-SPECTRE-4, -7, AMB-18).
func (w *world) expireSpectres() {
	st := w.st()
	for _, c := range st.Living("") {
		if c.Expires > 0 && c.Expires <= st.PlayerTurn() {
			w.emit(&Placed{Unit: c.ID, Side: c.Side, Why: "dematerialises"})
			w.say(nil, "%s dematerialises at the end of player-turn %d (DN-SPECTRE-4, -7, AMB-18).", c.ID, st.PlayerTurn())
		}
	}
}
