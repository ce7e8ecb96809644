package dragonnoir

import (
	"fmt"
	"maps"
	"slices"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
)

// Where an invisible magician reappears (DN3-SPELL-MAGE-9, AMB-79): his
// side notes it in secret, and nobody else learns it before he is back on
// the map (HID-6). The Adventurer turn's mail is opened to the Krob player
// once adjudicated, before he writes his own, so the spell order takes no
// destination. It comes in a mail opened no earlier than he reappears:
//
//   - the Adventurers' reactions mail to the Krob turn (fire_reactions.go),
//     sealed until the Krob orders are in and opened when that turn is
//     adjudicated, at whose end — the start of the Adventurers' next
//     player-turn — he reappears; a magician who vanishes during the Krob
//     turn (a spell trigger, PBEM-DN-7) reappears at its end too, where
//     the same mail noted;
//   - with defensive-fire: live there is no reactions mail: the next
//     Adventurer mail notes it, opened when it is adjudicated, and he
//     reappears as that adjudication starts (the start of his player-turn).
//
// The destination is within his MP of where he vanished, a location he may
// stand on (AMB-79); a noted one that is not, or none (a deadline), puts
// him back where he vanished; taken by then, the nearest free location.

// KeyReappear is the key of the reactions mail (with defensive-fire: live,
// of the Adventurer mail) naming where each invisible magician reappears:
// reappear: {zacharie: "0105"}.
const KeyReappear = "reappear"

// Noted records, once the mail that says so is opened, that magician Unit
// reappears on To; To "" drops the note (he is back, or never vanished).
type Noted struct {
	Unit string `json:"unit"`
	To   string `json:"to,omitempty"`
}

// EventType names the event in the log.
func (*Noted) EventType() string { return Prefix + ".reappear-noted" }

// evolveNoted applies a Noted event.
func (s *State) evolveNoted(e *Noted) {
	if e.To == "" {
		delete(s.Reappear, e.Unit)
		return
	}
	if s.Reappear == nil {
		s.Reappear = map[string]string{}
	}
	s.Reappear[e.Unit] = e.To
}

// invisibleToMessage is the refusal of a to: on an invisibility: where
// the destination goes instead, for the game's mode of defensive fire.
func invisibleToMessage(st *State, caster string) string {
	where := fmt.Sprintf("in your reactions mail to the Krob turn, sealed until the Krob orders are in and opened when that turn is adjudicated, at whose end he reappears: %s: {%s: \"0105\"}", KeyReappear, caster)
	if st.Options.LiveFire {
		where = fmt.Sprintf("in your next Adventurer mail, opened when it is adjudicated, as he reappears (defensive-fire: live has no reactions mail): %s: {%s: \"0105\"}", KeyReappear, caster)
	}
	return fmt.Sprintf("invisibility takes no destination (to:): this mail is opened to the Krob player before he writes his own, and where %s reappears is secret until he does (HID-6). Give it %s", caster, where)
}

// parseReappear reads a reappear: key: each an Adventurer magician and a
// location of the map; for one already invisible, within his MP of where
// he vanished and a location he may stand on (AMB-79). Who stands there
// is seen when he reappears.
func parseReappear(st *State, n *yaml.Node) (map[string]string, *adjudicator.OrderError) {
	var m map[string]yaml.Node
	if err := yamlx.Decode(n, &m); err != nil || n.Kind != yaml.MappingNode {
		return nil, adjudicator.Errorf(n, adjudicator.CodeBadValue, "%s: each invisible magician and the location where he reappears, {zacharie: \"0105\"}", KeyReappear)
	}
	out := map[string]string{}
	for _, id := range slices.Sorted(maps.Keys(m)) {
		v := m[id]
		c := st.Chars[id]
		switch {
		case c == nil:
			return nil, adjudicator.Errorf(&v, adjudicator.CodeUnknownUnit, "%s: no character %q in this game", KeyReappear, id)
		case c.Side != Adventurers:
			return nil, adjudicator.Errorf(&v, codeNotYours, "%s: %s is a %s character", KeyReappear, id, c.Side)
		case st.level(c) == 0:
			return nil, adjudicator.Errorf(&v, codeNotMagician, "%s: %s is no magician and never becomes invisible (DN-MAGIC-1)", KeyReappear, id)
		case v.Kind != yaml.ScalarNode:
			return nil, adjudicator.Errorf(&v, adjudicator.CodeBadValue, "%s: %s: one location, \"0105\"", KeyReappear, id)
		}
		l, err := locOn(st.board, v.Value)
		if err != nil {
			return nil, adjudicator.Errorf(&v, codeBadLocation, "%s: %s: %v", KeyReappear, id, err)
		}
		if from, ok := st.vanished(c); ok {
			if why := st.reappearWhy(c, from, l); why != "" {
				return nil, adjudicator.Errorf(&v, adjudicator.CodeBadValue, "%s: %s cannot reappear on %s: %s", KeyReappear, id, v.Value, why)
			}
		}
		out[id] = locString(st.board, l)
	}
	return out, nil
}

// vanished is where invisible magician c left the map, false when he is
// not invisible.
func (s *State) vanished(c *Char) (hex.Loc, bool) {
	for _, ch := range s.charmsOf("invisible", c.ID) {
		if len(ch.Locs) > 0 && c.At == "" {
			if l, err := locOn(s.board, ch.Locs[0]); err == nil {
				return l, true
			}
		}
	}
	return hex.Loc{}, false
}

// reappearWhy says why c, who vanished from from, may not reappear on l,
// "" when he may: within his MP of from (AMB-79), a location he may stand
// on (DN-MOVE-5).
func (s *State) reappearWhy(c *Char, from, l hex.Loc) string {
	if f, _ := s.Values(c); s.Distance(from, l) > f.Move {
		return fmt.Sprintf("it is %d hexes from %s, where he vanished: he reappears within his %d MP (AMB-79)", s.Distance(from, l), locString(s.board, from), f.Move)
	}
	if !s.CanEnter(s.Kind(c), l) {
		return fmt.Sprintf("he may not stand on %s (DN-MOVE-5)", locString(s.board, l))
	}
	return ""
}

// note records the destinations of a mail just opened (the reactions
// mail, or with defensive-fire: live the Adventurer mail).
func (w *world) note(to map[string]string) {
	for _, id := range slices.Sorted(maps.Keys(to)) {
		w.emit(&Noted{Unit: id, To: to[id]})
	}
}

// reappear puts back the invisible magicians of the side whose
// player-turn starts now (AMB-79) — with defensive-fire: live, the
// Adventurers' wait for their mail (mailReappear).
func (w *world) reappear() {
	st := w.st()
	side := adjudicator.Side(st.Step)
	if side == Adventurers && st.Options.LiveFire {
		return
	}
	w.putBack(side)
}

// mailReappear is the start of the Adventurer player-turn with
// defensive-fire: live: the mail, opened now, notes where the invisible
// magicians reappear, and they do.
func (w *world) mailReappear(side adjudicator.Side, o *Orders) {
	if side != Adventurers || !w.st().Options.LiveFire {
		return
	}
	w.note(o.Reappear)
	w.putBack(side)
}

// putBack puts side's invisible magicians back on the map: where the side
// noted, if he may stand there, else where he vanished; taken, the
// nearest free location (AMB-79). Every note of the side is then dropped.
func (w *world) putBack(side adjudicator.Side) {
	st := w.st()
	for _, ch := range slices.Clone(st.Charms) {
		c := st.Chars[ch.Unit]
		if ch.Effect != "invisible" || ch.Side != side || c == nil || c.At != "" {
			continue
		}
		from := mustLoc(st, ch.Locs[0])
		to := from
		switch noted := st.Reappear[c.ID]; {
		case ch.To != "": // a spell cast while its order still named the destination
			to = mustLoc(st, ch.To)
		case noted == "":
			w.say(nil, "No location was noted for %s: he reappears where he vanished, %s (AMB-79).", c.ID, ch.Locs[0])
		default:
			l := mustLoc(st, noted)
			if why := st.reappearWhy(c, from, l); why != "" {
				w.say(nil, "%s cannot reappear on %s: %s; he reappears where he vanished, %s.", c.ID, noted, why, ch.Locs[0])
			} else {
				to = l
			}
		}
		l, ok := w.freeNear(c, to)
		w.emit(&Uncharmed{ID: ch.ID})
		if !ok {
			l = from
		}
		w.emit(&Placed{Unit: c.ID, At: locString(st.board, l), Facing: c.Facing, Why: "reappears"})
		w.say(nil, "%s reappears on %s (AMB-79).", c.ID, c.At)
	}
	for _, id := range slices.Sorted(maps.Keys(st.Reappear)) {
		if c := st.Chars[id]; c != nil && c.Side == side {
			w.emit(&Noted{Unit: id})
		}
	}
}

// mailReappearKey reads the reappear: key of side's player-turn mail: the
// Adventurers', with defensive-fire: live only; otherwise the mail is
// opened before he reappears, and the key belongs to the reactions mail.
func mailReappearKey(st *State, side adjudicator.Side, n *yaml.Node) (map[string]string, *adjudicator.OrderError) {
	switch {
	case side != Adventurers:
		return nil, adjudicator.Errorf(n, codeWrongSection, "%s: only the Adventurers have magicians (DN-MAGIC-1)", KeyReappear)
	case !st.Options.LiveFire:
		return nil, adjudicator.Errorf(n, codeWrongSection, "%s: this mail is opened to the Krob player before he writes his own, and where an invisible magician reappears is secret until he does (HID-6): give it in the reactions mail to the Krob turn, sealed until the Krob orders are in", KeyReappear)
	}
	return parseReappear(st, n)
}

// reappearsWith reports whether c, invisible, is back on the map as
// side's player-turn mail is adjudicated, before its orders: with
// defensive-fire: live, the Adventurer mail puts him back (mailReappear),
// so it may give him orders.
func (s *State) reappearsWith(side adjudicator.Side, c *Char) bool {
	_, invisible := s.vanished(c)
	return invisible && side == Adventurers && c.Side == Adventurers && s.Options.LiveFire && s.Step == StepAdventurers
}
