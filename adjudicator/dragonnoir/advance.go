package dragonnoir

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator/pause"
)

// Advance after combat (DN-ADV-1 … 6, PBEM-DN-10), part of the combat
// chapter: when the losers retreated, or one was stunned or killed, one
// of the winners who fought may advance up to half its movement, its
// first hex one the losers left; the winners' owner says so in a pause
// (key advance: a standing "never" or "always" answers it; the default at
// a deadline is no advance, PBEM-GEN-3).

// advanceAnswer is an answer to an advance question.
type advanceAnswer struct {
	Unit string   `yaml:"unit"`
	Path []string `yaml:"path"`
}

// advance offers the winners of cw their advance. It reports a pause.
func (w *world) advance(p *program, cw *combatWork) bool {
	st := w.st()
	who, into := cw.Attackers, cw.VacatedD
	if len(into) == 0 {
		who, into = cw.Defenders, cw.VacatedA
	}
	if len(into) == 0 {
		return false
	}
	var can []string
	for _, id := range who {
		if c := st.Chars[id]; c.Standing() {
			can = append(can, id)
		}
	}
	if len(can) == 0 {
		return false
	}
	side := st.Chars[can[0]].Side
	ans, ok := w.take()
	if !ok {
		q := pause.Question{Side: side, Key: KeyAdvance,
			Title:   fmt.Sprintf("turn %d, advance after combat into %s", st.Turn, list(into)),
			Prompt:  fmt.Sprintf("%s may advance after combat, first into %s, up to half their MP (DN-ADV-1, -2). Answer none, or {unit: ID, path: [hexes]}.", list(can), list(into)),
			Default: "none"}
		var paused bool
		if ans, paused = w.pauseFor(p, q); paused {
			return true
		}
	}
	var a advanceAnswer
	switch t := strings.TrimSpace(ans); t {
	case "none", "never", "":
		return false
	case "always":
		a = advanceAnswer{Unit: can[0], Path: []string{into[0]}}
	default:
		if err := yaml.Unmarshal([]byte(ans), &a); err != nil {
			w.say(nil, "No advance: the answer %q is neither none nor {unit: ID, path: [hexes]}.", t)
			return false
		}
	}
	if why := w.advanceOK(a, can, into); why != "" {
		w.say(nil, "%s does not advance: %s.", a.Unit, why)
		return false
	}
	c := st.Chars[a.Unit]
	path := append([]string{c.At}, a.Path...)
	w.emit(&Moved{Unit: c.ID, Path: path, Kind: "advance"}) // DN-ADV-5: these MP do not count
	w.say(nil, "%s advances after combat to %s.", c.ID, c.At)
	for _, l := range a.Path {
		if st.Web(l) && c.Side == Adventurers {
			w.emit(&Webbed{At: l, Intact: false})
			w.say(nil, "The web on %s is destroyed (DN-WEB-3).", l)
		}
	}
	return false
}

// advanceOK says why an advance is not allowed: a winner who fought, the
// first hex one the losers left, each step touching the last, enterable,
// no standing enemy on the way, the end free, at most half its MP
// (AMB-30: rounded down).
func (w *world) advanceOK(a advanceAnswer, can, into []string) string {
	st := w.st()
	c := st.Chars[a.Unit]
	switch {
	case !slices.Contains(can, a.Unit):
		return fmt.Sprintf("only %s fought and may advance (DN-ADV-4)", list(can))
	case len(a.Path) == 0 || !slices.Contains(into, a.Path[0]):
		return fmt.Sprintf("the first hex must be one the enemy left: %s (DN-ADV-2)", list(into))
	}
	k := st.Kind(c)
	f, _ := st.Values(c)
	cur, mp := st.loc(c), 0
	for _, s := range a.Path {
		l, err := locOn(st.board, s)
		if err != nil {
			return err.Error()
		}
		cost, _, ok := st.MPCost(k, l)
		if !ok || !st.Touch(cur, l) {
			return fmt.Sprintf("it cannot step to %s", s)
		}
		for _, o := range st.At(l) {
			if o.Standing() && Enemy(o.Side, c.Side) {
				return fmt.Sprintf("%s stands on %s", o.ID, s)
			}
		}
		mp += cost
		cur = l
	}
	if mp > f.Move/2 {
		return fmt.Sprintf("the path costs %d MP, more than half its %d (DN-ADV-1, AMB-30)", mp, f.Move)
	}
	if w.occupied(c, cur) {
		return fmt.Sprintf("%s is taken: one living character a hex (DN-STACK-2)", a.Path[len(a.Path)-1])
	}
	return ""
}
