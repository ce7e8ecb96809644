package dragonnoir

// Chapter: spectres (A.10.2): Gargoyles and Living Dead summoned by a
// spell (magic.go), who cannot be hurt (special.go: every hurt is a
// retreat, DN-SPECTRE-3), and vanish after their time (DN-SPECTRE-4, -7),
// counted in player-turns, the one they appear in being the first
// (AMB-18): Living Dead go at the end of the 2nd, Gargoyles of the 4th.
//
// First implementation: summoning next to the caster's target location and
// expiry. Left to its helper: the Gargoyles' flight (DN-SPECTRE-2), a
// retreat with no room (DN-SPECTRE-3: they do not move), DN3 durations
// (AMB-17).

// summon places the spectres spell sp summons (spells.yaml summons:,
// count:, lasts: in player-turns, AMB-18) on free locations around the
// target location at, for the side of the caster.
func (w *world) summon(caster *Char, sp *Spell, at string, used Provs) {
	kind, n, turns := sp.Summons, sp.Count, sp.Lasts
	st := w.st()
	l, err := locOn(st.board, at)
	if err != nil {
		w.say(nil, "The spectres cannot appear: %v.", err)
		return
	}
	k := st.data.Kinds[kind]
	spots := append([]string{}, locString(st.board, l))
	for _, x := range st.board.Exits(l) {
		spots = append(spots, locString(st.board, x))
	}
	placed := 0
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
				w.emit(&Placed{Unit: id, Kind: kind, Side: caster.Side, At: s, Expires: st.PlayerTurn() + turns - 1, Why: "summoned"})
				w.say(used, "%s appears on %s, for %d player-turns (AMB-18).", id, s, turns)
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
			w.say(nil, "%s dematerialises (DN-SPECTRE-4, -7).", c.ID)
		}
	}
}
