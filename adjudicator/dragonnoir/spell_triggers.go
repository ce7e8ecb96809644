package dragonnoir

import (
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// Spells in the Krob turn (DN-TURN-7, DN-MAGIC-9, PBEM-DN-7): the
// Adventurers' standing spell-trigger, read like the defensive-fire
// triggers (PBEM-DN-6): each is tried once a Krob turn, by a magician on
// his feet who has not cast this game turn. A trigger that does not fire
// says nothing: standing orders stay secret but through their effects
// (HID-7).

// spellTriggers are the standing spell triggers of the side that does not
// act in p's player-turn: the Adventurers' in the Krob turn; in the
// valley also the Reptilians' (krobs) in the Rebels' turn (DN-MAGIC-9:
// each magician casts in either player-turn; spell_lists.go).
func (w *world) spellTriggers(p *program) []SpellTrigger {
	other := Adventurers
	if p.Side == Adventurers {
		other = Krobs
	}
	var ts []SpellTrigger
	if txt, ok := w.st().Pause.Lookup(other, KeySpellTrigger); ok {
		_ = yaml.Unmarshal([]byte(txt), &ts) // checked when it was sent
	}
	return ts
}

// triggersAt casts the triggers due at moment of the other side's turn:
// before its moves, its attacks, or at its end.
func (w *world) triggersAt(p *program, moment string) {
	for i, t := range w.spellTriggers(p) {
		if t.On == "" && t.Before == moment {
			w.pull(p, i, &t, nil)
		}
	}
}

// triggersOn casts the triggers k, moving in its own player-turn, sets
// off where it stands now (AMB-19: a spell may interrupt an enemy's move
// at a hex, as defensive fire does).
func (w *world) triggersOn(p *program, k *Char) {
	st := w.st()
	for i, t := range w.spellTriggers(p) {
		c := st.Chars[t.Caster]
		if t.On == "" || c == nil || !c.Standing() || !k.Alive() || !krobMatches(t.On, k) {
			continue
		}
		within := t.Within
		if within == 0 {
			within = spellRange(st.level(c))
		}
		if st.distanceTo(c, st.loc(k)) <= within {
			w.pull(p, i, &t, k)
		}
	}
}

// pull casts trigger i of the Krob turn, once.
func (w *world) pull(p *program, i int, t *SpellTrigger, k *Char) {
	st := w.st()
	c := st.Chars[t.Caster]
	if slices.Contains(p.Spelled, -(i+1)) || c == nil || !c.Standing() || st.Is(flagCast, c.ID) {
		return
	}
	p.Spelled = append(p.Spelled, -(i + 1))
	w.cast(&t.SpellOrder, k)
}

// triggersWait reports whether a trigger of the Reptilians waits for
// Rebel c on l, the location its move has just entered, in the valley:
// the move is then reported up to l and the trigger cast there (move.go),
// as at every step of a Krob's move.
func (w *world) triggersWait(p *program, c *Char, l hex.Loc) bool {
	st := w.st()
	if !st.valley() || p.Side == Krobs {
		return false
	}
	for i, t := range w.spellTriggers(p) {
		m := st.Chars[t.Caster]
		if t.On == "" || m == nil || !m.Standing() || st.Is(flagCast, m.ID) || slices.Contains(p.Spelled, -(i+1)) || !krobMatches(t.On, c) {
			continue
		}
		within := t.Within
		if within == 0 {
			within = spellRange(st.level(m))
		}
		if st.distanceTo(m, l) <= within {
			return true
		}
	}
	return false
}

// krobMatches reports whether on names Krob k: any, its ID, or kind:KIND.
func krobMatches(on string, k *Char) bool {
	kind, isKind := strings.CutPrefix(on, "kind:")
	return on == "any" || on == k.ID || isKind && k.Kind == kind
}
