package dragonnoir

import (
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
)

// Defensive-fire triggers (PBEM-GEN-4 (a), PBEM-DN-6): the Adventurers'
// conditional orders for the Krob turn. A trigger names a shooter and the
// Krobs it fires at, and fires at the first Krob it names where it can: a
// moving Krob at each location it enters (DN-FIRE-12), a Krob that does
// not move at the moment the trigger says (DN-FIRE-13, AMB-27). The
// list's order is the priority: a shooter fires once in the sequence
// (DN-FIRE-2), at the Krob its first matching trigger names. (Spell
// triggers, PBEM-DN-7, are the magic chapter's: spell_triggers.go.)

// When a trigger reacts to the Krobs that do not move (AMB-27).
const (
	unmovedAfter  = "after"  // once every move is done (the default)
	unmovedBefore = "before" // before the first Krob moves
	unmovedNever  = "never"
)

// aim is what a trigger says about the Krobs it reacts to.
type aim struct {
	at      string
	within  int
	hexes   []string
	unmoved string
}

func (t Trigger) aim() aim { return aim{t.At, t.Within, t.Hexes, t.Unmoved} }

// names reports whether the trigger reacts to Krob c, seen from who: c is
// any Krob, the one named, or of the kind named; within range of who; on
// one of the locations named; and, for a Krob that does not move (moment
// not ""), at this moment.
func (a aim) names(st *State, who, c *Char, moment string) bool {
	switch {
	case a.at == "any" || a.at == c.ID:
	case strings.HasPrefix(a.at, "kind:") && c.Kind == strings.TrimPrefix(a.at, "kind:"):
	default:
		return false
	}
	if moment != "" && a.moment() != moment {
		return false
	}
	if a.within > 0 && st.Distance(st.loc(who), st.loc(c)) > a.within {
		return false
	}
	if len(a.hexes) > 0 {
		here := false
		for _, h := range a.hexes {
			if l, err := locOn(st.board, h); err == nil && st.Covers(c, l) {
				here = true
			}
		}
		return here
	}
	return true
}

func (a aim) moment() string {
	if a.unmoved == "" {
		return unmovedAfter
	}
	return a.unmoved
}

// fireTriggers are the Adventurers' defensive-fire triggers in force.
func (st *State) fireTriggers() []Trigger {
	var ts []Trigger
	if txt, ok := st.Pause.Lookup(st.defender(), KeyDefensiveFire); ok {
		_ = yaml.Unmarshal([]byte(txt), &ts)
	}
	return ts
}

// triggerFire fires the triggers at the first of krobs each names (moment
// "" for a moving Krob where it stands; before or after for those that do
// not move). A Krob killed or driven off its location is not shot at again.
func (w *world) triggerFire(krobs []*Char, moment string) {
	st := w.st()
	at := map[string]string{}
	for _, c := range krobs {
		at[c.ID] = c.At
	}
	for _, t := range st.fireTriggers() {
		sh := st.Chars[t.Shooter]
		if sh == nil {
			continue
		}
		for _, c := range krobs {
			if !c.Alive() || c.At != at[c.ID] || !t.aim().names(st, sh, c, moment) {
				continue
			}
			if why, _ := w.canDefend(sh, c); why == "" {
				w.defend(sh, c)
				break
			}
		}
	}
}

// unmovedReact fires the triggers due at moment at the Krobs that do not
// move (DN-FIRE-13, AMB-27).
func (w *world) unmovedReact(p *program, moment string) {
	if !w.st().Options.LiveFire {
		w.triggerFire(w.chars(w.unmoved(p)), moment)
	}
}

// unmoved are the Krobs the mail does not move: those it says hold, and
// every other living Krob no move names (DN-FIRE-13: the Krob player
// does not intend to move it), in the order given, then by ID.
func (w *world) unmoved(p *program) []string {
	st := w.st()
	moving := map[string]bool{}
	for _, m := range p.Orders.Moves {
		moving[m.Unit] = true
	}
	var out []string
	for _, id := range p.Orders.Hold {
		if !moving[id] && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	for _, c := range st.Living(p.Side) {
		if !moving[c.ID] && !slices.Contains(out, c.ID) {
			out = append(out, c.ID)
		}
	}
	return out
}

// chars are the living characters of ids.
func (w *world) chars(ids []string) []*Char {
	var out []*Char
	for _, id := range ids {
		if c := w.st().Chars[id]; c != nil && c.Alive() {
			out = append(out, c)
		}
	}
	return out
}

// checkTrigger checks a standing defensive-fire order as it is sent: its
// form, its shooters, the Krobs and locations it names.
func checkTrigger(st *State, side adjudicator.Side, key string, v *yaml.Node) *adjudicator.OrderError {
	var aims []aim
	var whos []string
	switch key {
	case KeyDefensiveFire:
		var ts []Trigger
		if err := yamlx.Decode(v, &ts); err != nil {
			return adjudicator.Errorf(v, adjudicator.CodeBadValue, "defensive-fire: a list of {shooter: ID, at: any | ID | kind:KIND, within: N, hexes: [LOC …], unmoved: after | before | never}: %v", err)
		}
		for _, t := range ts {
			if c := st.Chars[t.Shooter]; c == nil || c.Side != side || st.Kind(c).Weapon == "" {
				who := "Adventurer"
				if st.Battle != nil {
					who = "counter of the " + st.SideName(side)
				}
				return adjudicator.Errorf(v, adjudicator.CodeBadValue, "defensive-fire: %q is no %s with a bow or crossbow (DN-FIRE-1)", t.Shooter, who)
			}
			aims, whos = append(aims, t.aim()), append(whos, t.Shooter)
		}
	default:
		return nil
	}
	for i, a := range aims {
		if a.at != "any" && !strings.HasPrefix(a.at, "kind:") {
			if c := st.Chars[a.at]; c == nil || c.Side != Other(side) {
				return adjudicator.Errorf(v, adjudicator.CodeBadValue, "%s of %s: at %q is any, an enemy's ID, or kind:KIND", key, whos[i], a.at)
			}
		}
		if k, ok := strings.CutPrefix(a.at, "kind:"); ok && (st.data.Kinds[k] == nil || st.Battle == nil && st.data.Kinds[k].Side != string(Krobs)) {
			return adjudicator.Errorf(v, adjudicator.CodeBadValue, "%s of %s: %q is no kind of Krob", key, whos[i], k)
		}
		for _, h := range a.hexes {
			if _, err := locOn(st.board, h); err != nil {
				return adjudicator.Errorf(v, codeBadLocation, "%s of %s: %v", key, whos[i], err)
			}
		}
		if !slices.Contains([]string{"", unmovedAfter, unmovedBefore, unmovedNever}, a.unmoved) {
			return adjudicator.Errorf(v, adjudicator.CodeBadValue, "%s of %s: unmoved %q is after, before or never (AMB-27)", key, whos[i], a.unmoved)
		}
	}
	return nil
}
