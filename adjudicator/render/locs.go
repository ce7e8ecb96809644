package render

import (
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// place reads where on hex h a unit stands: the level of its location
// (UnitView.Level; "" is the floor) and, for a live unit, the hexes its
// counter covers (UnitView.Shape, anchored on h, facing UnitView.Facing).
// What cannot be placed so is drawn on the floor of h as one hex, with a
// warning.
func (b *board) place(u adjudicator.UnitView, h hex.Hex, live bool) placed {
	p := placed{u: u, h: h, lv: b.m.Floor(h)}
	if s := strings.TrimSpace(u.Level); s != "" && u.Type != Hidden {
		l, err := hex.ParseLevel(s)
		switch {
		case err != nil:
			b.warnf("unit %s is at level %q: %v; drawn on the floor of %s", u.ID, u.Level, err, h)
		case !b.m.HasLoc(hex.At(h, l)):
			b.warnf("unit %s is at %s, which is not a location of %s (a floor or a deck above it); drawn on the floor of %s", u.ID, hex.At(h, l), b.m.Name, h)
		default:
			p.lv, p.deck = l, l != b.m.Floor(h)
		}
	}
	if s := strings.TrimSpace(u.Shape); live && s != "" && u.Type != Hidden {
		sh, err := hex.ParseShape(s)
		if err != nil {
			b.warnf("unit %s: %v; drawn on one hex", u.ID, err)
			return p
		}
		var d hex.Direction
		if u.Facing != "" {
			if d, err = b.m.Layout.ParseDirection(u.Facing); err != nil {
				b.warnf("unit %s faces %q, which is not a direction; its %s is drawn on one hex", u.ID, u.Facing, sh.Name)
				return p
			}
		}
		fp := hex.Footprint{Shape: sh, Anchor: h, Facing: d, Layout: b.m.Layout}
		if sh.Size() < 2 {
			return p
		}
		if !fp.Fits(b.m.OnMap) {
			b.warnf("unit %s: its %s does not fit on %s; drawn on one hex", u.ID, fp, b.m.Name)
			return p
		}
		p.fp, p.multi = fp, true
	}
	return p
}

// levelText writes a level for a tag: "+1", "−1", "−½", "+1½" (with a true
// minus sign and a half fraction, which read better small than "-1/2").
func levelText(l hex.Level) string {
	s := l.String()
	s = strings.Replace(s, "-", "−", 1)
	switch {
	case strings.HasSuffix(s, "1/2") && len(strings.TrimLeft(s, "+−")) == 3:
		s = strings.TrimSuffix(s, "1/2") + "½"
	case strings.HasSuffix(s, "/2"):
		n := strings.TrimSuffix(strings.TrimLeft(s, "+−"), "/2")
		half := 0
		for _, c := range n {
			half = half*10 + int(c-'0')
		}
		s = s[:len(s)-len(n)-2] + itoa(half/2) + "½"
	}
	return s
}
