package dragonrage

import (
	"fmt"
	"strconv"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// cstRow returns u's row of the Climbing & Smashing table: militia and
// infantry stacked with a hero use the "with Hero" row (DR-CST-3).
func (w *world) cstRow(u *Unit) (CSTRow, bool) {
	d, _ := Embedded()
	if r, ok := d.CST[u.Type+"+HERO"]; ok && w.heroWith(u) {
		return r, true
	}
	r, ok := d.CST[u.Type]
	return r, ok
}

// smashesDoorsOnTheWay reports whether u breaks doors as it moves, its row
// of the table saying "auto", as Dragons do (DR-CST-5, DR-AMB-46).
func (w *world) smashesDoorsOnTheWay(u *Unit) bool {
	r, ok := w.cstRow(u)
	return ok && r.Door == "auto"
}

// canSmash reports whether u may smash an entrance of that kind at all
// ("impossible" units never can, guarded or not: DR-AMB-33).
func (w *world) canSmash(u *Unit, kind string) bool {
	r, ok := w.cstRow(u)
	if !ok {
		return false
	}
	if kind == "door" {
		return r.Door != ""
	}
	return r.Gate != ""
}

// checkSmash checks "smash: HEX" at the end of a move in h (DR-SMASH-6,
// DR-SMASH-7).
func (w *world) checkSmash(u *Unit, h hex.Hex, target string, n *yaml.Node) error {
	t, _ := hex.Parse(target)
	f, ok := w.feature(h, t)
	switch {
	case !h.Adjacent(t) || !ok || !w.smashable(u, f):
		return adjudicator.Errorf(n, codeCannot, "there is no door or gate between %s and %s", h, t)
	case w.entrance(f.Side.String()).Broken:
		return adjudicator.Errorf(n, codeCannot, "the %s between %s and %s is already smashed", f.Kind, h, t)
	case w.passable(f, u.Side):
		return adjudicator.Errorf(n, codeCannot, "the %s between %s and %s is yours: you pass it freely (DR-ENTR-5)", f.Kind, h, t)
	case !w.canSmash(u, f.Kind):
		return adjudicator.Errorf(n, codeCannot, "%s cannot smash a %s (DR-TABLE-CST: impossible)", u.ID, f.Kind)
	}
	return nil
}

// resolveSmash tries to smash the entrance between u and target: automatic
// if nobody guards the far side, else 2d6 on the table (DR-SMASH-6,
// DR-SMASH-7, DR-CST-1).
func (w *world) resolveSmash(u *Unit, target string) {
	h := w.st.hexOf(u)
	t, _ := hex.Parse(target)
	f, ok := w.feature(h, t)
	if !ok {
		return
	}
	if w.entrance(f.Side.String()).Broken {
		// Checked when the orders came; an earlier smash of this phase broke it.
		w.sayf("%s does not smash the %s %s: it was already smashed earlier this phase", u.ID, f.Kind, f.Side.String())
		return
	}
	key := f.Side.String()
	r, _ := w.cstRow(u)
	need := r.Door
	if f.Kind != "door" { // a gate, or a palisade a serpent breaks as a gate (DR-SERP-7)
		need = r.Gate
	}
	if !w.st.enemyIn(target, u.Side) || need == "auto" {
		w.smashed(key, u, fmt.Sprintf("smashed by %s, unguarded: no roll (DR-SMASH-6, DR-SMASH-7)", u.ID))
		return
	}
	n, _ := strconv.Atoi(need)
	roll := w.roll(fmt.Sprintf("%s smashes the %s %s", u.ID, f.Kind, key), 2)
	ok = roll.Total >= n
	roll.Outcome = fmt.Sprintf("needs %d+ on 2d6 (DR-TABLE-CST): %s", n, map[bool]string{true: "smashed", false: "it holds"}[ok])
	w.sayf("%s: %s", roll.Label, roll.Outcome)
	if ok {
		w.smashed(key, u, "smashed by "+u.ID)
	}
	w.trace("smash", u.ID, []string{u.Hex, target}, map[bool]string{true: "smashed", false: "held"}[ok])
}

// smashed breaks an entrance for good (DR-ENTR-7); at Nurkott a smashed
// door destroys its VP hex (DR-SMASH-9, DR-VP-12).
func (w *world) smashed(key string, by *Unit, how string) {
	e := w.entrance(key)
	w.emit(&EntranceChanged{Side: key, Broken: true, Controller: e.Controller})
	w.sayf("the entrance %s is %s", key, how)
	a, b := sideHexes(key)
	for _, h := range []hex.Hex{a, b} {
		if w.doorVP(h) {
			if f, ok := w.feature(a, b); ok && f.Kind == "door" && f.Inside == h {
				w.destroyVP(h, by, "its door was smashed (DR-SMASH-9)")
			}
		}
	}
}

func sideHexes(key string) (hex.Hex, hex.Hex) {
	a, _ := hex.Parse(key[:4])
	b, _ := hex.Parse(key[5:])
	return a, b
}
