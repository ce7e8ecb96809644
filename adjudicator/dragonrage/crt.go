package dragonrage

import (
	"fmt"
	"strconv"
)

// crtResult is a cell of the Combat Resolution Table (DR-CRT-2): "D"
// destroyed, "M" missed, "11" (2d6, 11+), or "2".."6" (1d6, that or more).
type crtResult string

// crt looks up attacker strength att against defender strength def,
// applying the off-table rule beyond 30 or 15 (DR-CRT-3, DR-AMB-35).
func (w *world) crt(att, def int) (res crtResult, how string) {
	d, _ := Embedded()
	switch {
	case att <= 0:
		return "M", "no attack strength"
	case def <= 0:
		return "D", "no defence strength"
	case att <= 30 && def <= 15:
		return crtResult(d.CRT[att-1][def-1]), fmt.Sprintf("CRT %d v %d", att, def)
	case att >= 2*def:
		return "D", fmt.Sprintf("off the table, %d v %d: at least double (DR-CRT-3)", att, def)
	case def >= 2*att:
		return "M", fmt.Sprintf("off the table, %d v %d: the defence is at least double (DR-CRT-3)", att, def)
	}
	q := att / def
	if 7-q >= 7 {
		return "11", fmt.Sprintf("off the table, %d v %d (DR-CRT-3)", att, def)
	}
	return crtResult(strconv.Itoa(7 - q)), fmt.Sprintf("off the table, %d v %d (DR-CRT-3)", att, def)
}

// resolveCRT rolls an attack of strength att on a target of strength def
// with a die modifier, and reports whether the target is destroyed.
// A modifier also applies to the 2d6 of an "11" (DR-AMB-34).
func (w *world) resolveCRT(label string, att, def, mod int) (bool, string) {
	res, how := w.crt(att, def)
	modText := ""
	if mod != 0 {
		modText = fmt.Sprintf(" %+d", mod)
	}
	switch res {
	case "D":
		return true, how + ": D, destroyed automatically"
	case "M":
		return false, how + ": M, missed automatically"
	case "11":
		r := w.roll(label, 2)
		hit := r.Total+mod >= 11
		r.Outcome = fmt.Sprintf("%s: needs 11+ on 2d6%s: %s", how, modText, hitWord(hit))
		return hit, r.Outcome
	}
	need, _ := strconv.Atoi(string(res))
	r := w.roll(label, 1)
	hit := r.Total+mod >= need
	r.Outcome = fmt.Sprintf("%s: needs %d+%s: %s", how, need, modText, hitWord(hit))
	return hit, r.Outcome
}

func hitWord(hit bool) string {
	if hit {
		return "destroyed"
	}
	return "missed"
}
