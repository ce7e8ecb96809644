package glory

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// Kender taunts (DG-TAUNT). After the mover's movement and before his
// attacks, the non-mover may have each of his kender stacks taunt one enemy
// stack next to it: the mover rolls 1d6 for the taunted stack, and on 4-6
// it attacks the kender at once, alone, at -2. The non-mover declares his
// taunts with a standing order (taunt: [...]) or is asked, when he has
// kender next to an enemy stack; by default he makes none.

// tauntWork is the taunts stage in progress.
type tauntWork struct {
	Asked    bool        `json:"asked,omitempty"`
	Decls    []tauntDecl `json:"decls,omitempty"`
	I        int         `json:"i,omitempty"`
	InCombat bool        `json:"in_combat,omitempty"`
}

func saveTaunts(p *program, tw tauntWork) {
	b, _ := json.Marshal(tw)
	if p.Work == nil {
		p.Work = map[string]any{}
	}
	p.Work["taunts"] = string(b)
}

// taunts resolves the non-mover's kender taunts (DG-TAUNT) before the
// mover's attacks.
func (w *world) taunts(p *program, ans *Answer) bool {
	var tw tauntWork
	if s, ok := p.Work["taunts"].(string); ok {
		_ = json.Unmarshal([]byte(s), &tw)
	}
	kender := Other(p.Side)
	if !tw.Asked {
		opts := w.st().tauntOptions(p.Side)
		if len(opts) == 0 {
			return false
		}
		text, ok := take(&ans)
		if !ok {
			var lines []string
			var ex tauntDecl
			for _, h := range slices.Sorted(maps.Keys(opts)) {
				lines = append(lines, fmt.Sprintf("your kender at %s may taunt %s", h, strings.Join(opts[h], " or ")))
				if ex.Kender == "" {
					ex = tauntDecl{h, opts[h][0]}
				}
			}
			q := w.question(kender, "taunt", fmt.Sprintf("kender taunts before %s's attacks", p.Side),
				fmt.Sprintf("%s has moved. Before his attacks your kender may taunt enemy stacks next to them (DG-TAUNT): %s. Each kender stack taunts once a turn; on 4-6 on 1d6 the taunted stack must attack it at once, alone, at -2. Answer none, or your taunts in the order you make them, e.g. \"answer: [{kender: \\\"%s\\\", target: \\\"%s\\\"}]\".",
					p.Side, strings.Join(lines, "; "), ex.Kender, ex.Target), "none")
			saveTaunts(p, tw)
			var paused bool
			if text, paused = w.pauseFor(p, q); paused {
				return true
			}
		}
		tw.Decls, tw.Asked = readTauntPlan(text).Each, true
	}
	for tw.I < len(tw.Decls) {
		if w.r.Err() != nil || w.st().Over {
			return true
		}
		var c *combat
		if tw.InCombat {
			c, _ = loadCombat(p)
		} else if c = w.taunt(p.Side, tw.Decls[tw.I]); c != nil {
			tw.InCombat = true
		}
		if c != nil {
			saveTaunts(p, tw)
			if w.fight(p, c, ans) {
				return true
			}
			ans = nil
		}
		tw.InCombat = false
		tw.I++
	}
	delete(p.Work, "taunts")
	return false
}

// tauntOptions lists, for each of the non-mover's kender stacks that has not
// taunted this turn, the mover's stacks next to it that could be taunted.
func (s *State) tauntOptions(mover adjudicator.Side) map[string][]string {
	out := map[string][]string{}
	for _, u := range s.Sorted() {
		if u.Side != Other(mover) || u.Where != OnMap || !s.Kind(u.ID).Kender() || s.Is("taunt-used", u.ID) {
			continue
		}
		h := u.Hex
		if _, done := out[h]; done {
			continue
		}
		var targets []string
		for _, n := range s.Geo().Near(h) {
			if len(s.tauntAttackers(mover, n, h)) > 0 && !s.Is("taunted", string(mover)+"/"+n) {
				targets = append(targets, n)
			}
		}
		if len(targets) > 0 {
			slices.Sort(targets)
			out[h] = targets
		}
	}
	return out
}

// tauntAttackers lists the mover's armies at n that must attack the kender
// at h if taunted: those that have not attacked and could attack h
// (DG-TAUNT-10).
func (s *State) tauntAttackers(mover adjudicator.Side, n, h string) []string {
	var out []string
	for _, a := range s.Armies(n, mover) {
		if !s.Is("attacked", a.ID) && s.cannotAttack(a.ID, n, h) == "" {
			out = append(out, a.ID)
		}
	}
	return out
}

// taunt makes one declared taunt: checked again (a taunt no longer valid
// lapses, and its kender keep their attempt, DG-TAUNT-10), rolled, and on
// 4-6 the taunted stack's attack is returned to be fought.
func (w *world) taunt(mover adjudicator.Side, d tauntDecl) *combat {
	st := w.st()
	var kender []string
	for _, a := range st.Armies(d.Kender, Other(mover)) {
		if st.Kind(a.ID).Kender() {
			kender = append(kender, a.ID)
		}
	}
	lapse := func(why string) *combat {
		w.say("The taunt from %s at %s lapses: %s (DG-TAUNT-10).", d.Kender, d.Target, why)
		return nil
	}
	switch {
	case len(kender) == 0:
		return lapse(fmt.Sprintf("no kender army of %s is at %s", Other(mover), d.Kender))
	case slices.ContainsFunc(kender, func(id string) bool { return st.Is("taunt-used", id) }):
		return lapse("these kender have taunted already this turn (DG-TAUNT-5)")
	case !st.Geo().Adjacent(d.Kender, d.Target):
		return lapse(fmt.Sprintf("%s is not next to %s", d.Target, d.Kender))
	case st.Is("taunted", string(mover)+"/"+d.Target):
		return lapse(fmt.Sprintf("the stack at %s was taunted into an attack already (DG-TAUNT-6)", d.Target))
	}
	attackers := st.tauntAttackers(mover, d.Target, d.Kender)
	if len(attackers) == 0 {
		return lapse(fmt.Sprintf("no army of %s at %s could attack the kender", mover, d.Target))
	}
	w.emit(&Flagged{Flag: "taunt-used", IDs: kender})
	w.say("The kender at %s taunt the %s stack at %s (DG-TAUNT-3).", d.Kender, mover, d.Target)
	r := w.roll(fmt.Sprintf("taunt of %s by the kender at %s", d.Target, d.Kender), 1, 6)
	if r.Total <= 3 {
		r.Outcome = "1-3: no effect (DG-TAUNT-4)"
		return nil
	}
	r.Outcome = "4-6: the stack must attack the kender at once, alone, at -2 (DG-TAUNT-4)"
	w.emit(&Flagged{Flag: "taunted", IDs: []string{string(mover) + "/" + d.Target}})
	return &combat{Side: mover, Target: d.Kender, Taunt: true, Attackers: attackers}
}
