package dragonnoir

import (
	"fmt"
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// Charms: what a spell leaves in play (DN3-SPELL-GEN-2) — on a character
// (more MP, Attack or Defence, immobilised, a better shot, invisible), on
// locations (a magic circle, a Silence, a fireball's burning hex, a bridge
// or gallery), on hexsides (a demolished wall). The rules of the other
// chapters see them through the core's questions — Values, Terrain,
// CanEnter, Touch, LineOfFire — and the few hooks named here.

// Charm is one lasting effect of a spell.
type Charm struct {
	ID      string           `json:"id"` // caster/turn/spell: one spell a caster a turn
	Spell   string           `json:"spell"`
	Effect  string           `json:"effect"`
	Caster  string           `json:"caster"`
	Side    adjudicator.Side `json:"side"`
	Unit    string           `json:"unit,omitempty"`
	Locs    []string         `json:"locs,omitempty"` // locations, or hexsides "0202/0203"
	N       int              `json:"n,omitempty"`    // points bought; 0 for attack-boost: doubled
	Terrain string           `json:"terrain,omitempty"`
	// To is where an invisible magician reappears, as a spell order named
	// it before the destination moved to a sealed mail (spell_reappear.go):
	// kept for the games whose logs carry it; never set now.
	To string `json:"to,omitempty"`
	// Expires is the player-turn at whose end it goes (AMB-18's
	// counting); 0: it stays (the scenario), or until used or reappearing.
	Expires int `json:"expires,omitempty"`
}

// The magic chapter's events.
type (
	// Charmed puts a charm in play.
	Charmed struct {
		Charm Charm `json:"charm"`
	}
	// Uncharmed takes charm ID out of play: expired, used, or its magician
	// reappeared.
	Uncharmed struct {
		ID string `json:"id"`
	}
)

func (*Charmed) EventType() string   { return Prefix + ".charmed" }
func (*Uncharmed) EventType() string { return Prefix + ".uncharmed" }

// magicEvents are the magic chapter's event types (events.go lists them).
func magicEvents() []adjudicator.EventType {
	ev := func(mk func() adjudicator.Event) adjudicator.EventType {
		return adjudicator.EventType{Name: mk().EventType(), Schema: 1, New: mk}
	}
	return []adjudicator.EventType{
		ev(func() adjudicator.Event { return &Charmed{} }),
		ev(func() adjudicator.Event { return &Uncharmed{} }),
		ev(func() adjudicator.Event { return &Noted{} }), // spell_reappear.go
	}
}

// evolveMagic applies the magic chapter's events; false for any other.
func (s *State) evolveMagic(ev adjudicator.Event) bool {
	switch e := ev.(type) {
	case *Charmed:
		ch := e.Charm
		ch.Locs = slices.Clone(ch.Locs)
		s.Charms = append(s.Charms, ch)
	case *Uncharmed:
		s.Charms = slices.DeleteFunc(s.Charms, func(c Charm) bool { return c.ID == e.ID })
	case *Noted:
		s.evolveNoted(e)
	default:
		return false
	}
	return true
}

// charm puts sp's effect in play, lasting its player-turns.
func (w *world) charm(c *Char, sp *Spell, ch Charm) {
	st := w.st()
	ch.ID = fmt.Sprintf("%s/t%d/%s", c.ID, st.Turn, sp.ID)
	ch.Spell, ch.Effect, ch.Caster, ch.Side = sp.ID, sp.Effect, c.ID, c.Side
	if lasts := st.spellLasts(sp); lasts > 0 && ch.Expires == 0 {
		ch.Expires = st.PlayerTurn() + lasts - 1
	}
	w.emit(&Charmed{Charm: ch})
}

// charmsOf lists the charms of effect on character id.
func (s *State) charmsOf(effect, id string) []Charm {
	var out []Charm
	for _, c := range s.Charms {
		if c.Effect == effect && c.Unit == id {
			out = append(out, c)
		}
	}
	return out
}

// charmOn is the charm of effect on location l, if any.
func (s *State) charmOn(effect string, l hex.Loc) *Charm {
	at := locString(s.board, l)
	for i, c := range s.Charms {
		if c.Effect == effect && slices.Contains(c.Locs, at) {
			return &s.Charms[i]
		}
	}
	return nil
}

// charmed is c's face with the spells on it (tables.go Values): Move and
// Attack boosted (DN3-SPELL-MAGE-1, -3), Attack halved (-4), Defence
// boosted (-5), Move nothing when immobilised (-2, AMB-100: no move, no
// advance after combat).
func (s *State) charmed(c *Char, f Face) Face {
	for _, ch := range s.Charms {
		if ch.Unit != c.ID {
			continue
		}
		switch ch.Effect {
		case "move-boost":
			f.Move += ch.N
			f.MoveLand += ch.N * boolInt(f.MoveLand > 0)
		case "attack-boost":
			if ch.N == 0 {
				f.Attack *= 2
			} else {
				f.Attack += ch.N
			}
		case "halve-attack":
			f.Attack /= 2
		case "defence-boost":
			f.Defence += ch.N
		}
	}
	for _, ch := range s.Charms {
		if ch.Unit == c.ID && ch.Effect == "immobilise" {
			f.Move, f.MoveLand = 0, 0
		}
	}
	return f
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// magicTerrain is the terrain a spell made of hex h (a bridge, a gallery:
// DN3-SPELL-MAGE-13, -17), if any (geo.go Terrain).
func (s *State) magicTerrain(h hex.Hex) (string, bool) {
	for _, ch := range s.Charms {
		if ch.Terrain != "" && slices.ContainsFunc(ch.Locs, func(x string) bool {
			l, _, err := hex.ParseLoc(x)
			return err == nil && l.Hex == h
		}) {
			return ch.Terrain, true
		}
	}
	return "", false
}

// terrainKind is hex h's terrain kind now: a spell's, or the board's.
func (s *State) terrainKind(h hex.Hex) string {
	if k, ok := s.magicTerrain(h); ok {
		return k
	}
	return s.board.Terrain(h)
}

// burning reports whether a fireball made l impassable (DN3-SPELL-MAGE-26,
// AMB-78: until the end of the next player-turn; geo.go CanEnter).
func (s *State) burning(l hex.Loc) bool { return s.charmOn("fireball", l) != nil }

// demolished reports whether a spell demolished the wall on side
// (DN3-SPELL-MAGE-18; geo.go Touch and LineOfFire).
func (s *State) demolished(side hex.Hexside) bool {
	for _, ch := range s.Charms {
		if ch.Effect == "demolish-wall" && slices.Contains(ch.Locs, side.String()) {
			return true
		}
	}
	return false
}

// crossing is what crossing from a to b adds to a move's MP: 1 through a
// demolished wall (DN3-SPELL-MAGE-18; move.go).
func (s *State) crossing(a, b hex.Loc) int {
	if side, ok := s.board.SideBetween(a.Hex, b.Hex); ok && s.demolished(side) {
		return 1
	}
	return 0
}

// warded says why nobody may fire at, attack or cast an attack spell at
// location l — a magic circle (DN3-SPELL-MAGE-11, AMB-80) — or "".
func (s *State) warded(l hex.Loc) string {
	if ch := s.charmOn("magic-circle", l); ch != nil {
		return fmt.Sprintf("a magic circle protects %s (AMB-80)", locString(s.board, l))
	}
	return ""
}

// wardedChar is warded for any of c's locations.
func (s *State) wardedChar(c *Char) string {
	for _, l := range s.Locs(c) {
		if why := s.warded(l); why != "" {
			return why
		}
	}
	return ""
}

// fireCharm is what an Improve fire on shooter sh takes off its fire roll,
// with the words for the report; the charm is used by this shot
// (DN3-SPELL-MAGE-10: "1 shot"; fire.go).
func (w *world) fireCharm(sh *Char) (int, string) {
	for _, ch := range w.st().charmsOf("improve-fire", sh.ID) {
		w.emit(&Uncharmed{ID: ch.ID})
		return -ch.N, fmt.Sprintf("%d Improve fire (DN3-SPELL-MAGE-10)", -ch.N)
	}
	return 0, ""
}

// expireCharms ends the charms whose time is up at the end of this
// player-turn.
func (w *world) expireCharms() {
	st := w.st()
	for _, ch := range slices.Clone(st.Charms) {
		if ch.Expires > 0 && ch.Expires <= st.PlayerTurn() {
			w.emit(&Uncharmed{ID: ch.ID})
			w.say(nil, "%s's %s ends.", ch.Caster, st.data.Spells[ch.Spell].Title)
		}
	}
}
