package render

import (
	"math"
	"sort"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// Zones: HexMark{Kind: "zone", Label: name} marks a hex of a named zone
// (a setup zone the viewer must set up in). Each zone is shaded with a
// light tint and a hatching of its own direction, outlined, and labelled
// once with its name as the orders' errors spell it; the hatching and the
// label keep the zones apart printed in grey.

// zoneStyle is how one zone is drawn.
type zoneStyle struct {
	tint  Colour  // the light shading
	line  Colour  // hatching, outline and the label's rim
	slant float64 // the hatching's direction, in radians
}

// zoneStyles are given to the zones in the order they first appear in the
// View: yellow, sky blue, bluish green, reddish purple (Okabe & Ito).
var zoneStyles = []zoneStyle{
	{okYellow.alpha(0.42), rgb(0x8a7d00), math.Pi / 4},
	{okSky.alpha(0.40), rgb(0x1f5f96), -math.Pi / 4},
	{okGreen.alpha(0.30), rgb(0x00664a), 0},
	{okPurple.alpha(0.35), rgb(0x9b3f86), math.Pi / 2},
}

// zone is one named zone read from the View.
type zone struct {
	name  string
	hexes []hex.Hex
	style zoneStyle
}

// addZoneMark files a zone mark; it reports false for any other mark.
func (b *board) addZoneMark(mk adjudicator.HexMark, h hex.Hex) bool {
	if mk.Kind != "zone" {
		return false
	}
	name := mk.Label
	if name == "" {
		name = "zone"
	}
	for i := range b.zones {
		if b.zones[i].name == name {
			b.zones[i].hexes = append(b.zones[i].hexes, h)
			return true
		}
	}
	b.zones = append(b.zones, zone{name: name, hexes: []hex.Hex{h}, style: zoneStyles[len(b.zones)%len(zoneStyles)]})
	b.used["zone:"+name] = true
	return true
}

// drawZones shades the zones' hexes and outlines each zone.
func (b *board) drawZones() {
	u := b.u
	for _, z := range b.zones {
		in := map[hex.Hex]bool{}
		for _, h := range z.hexes {
			in[h] = true
		}
		var polys, hatch, edge [][]pt
		for _, h := range z.hexes {
			polys = append(polys, b.hexPts(h))
			hatch = append(hatch, b.hatch(b.centre(h), z.style.slant, 0.78*b.A(), 9*u)...)
			for _, d := range hex.Directions {
				if !in[b.m.Layout.Neighbour(h, d)] {
					p, q := b.m.Layout.Corners(h, d)
					edge = append(edge, []pt{b.lattice(p), b.lattice(q)})
				}
			}
		}
		b.c.fillAll(polys, z.style.tint)
		b.c.lines(hatch, z.style.line.alpha(0.55), 1.1*u, true)
		b.c.ops = append(b.c.ops, op{kind: opStroke, paths: edge, stroke: z.style.line, width: 2.6 * u, round: true, dash: []float64{7 * u, 4 * u}})
	}
}

// hatch are parallel strokes at angle a across the disc of radius r
// centred on c, gap apart.
func (b *board) hatch(c pt, a, r, gap float64) [][]pt {
	dir := pt{math.Cos(a), math.Sin(a)}
	nrm := pt{-dir.Y, dir.X}
	var out [][]pt
	for off := -r + gap/2; off < r; off += gap {
		half := math.Sqrt(r*r - off*off)
		m := c.add(nrm.mul(off))
		out = append(out, []pt{m.sub(dir.mul(half)), m.add(dir.mul(half))})
	}
	return out
}

// drawZoneLabels names each zone once, inside its largest connected part.
func (b *board) drawZoneLabels() {
	u := b.u
	for _, z := range b.zones {
		part := largestPart(b.m.Layout, z.hexes)
		var mid pt
		for _, h := range part {
			mid = mid.add(b.centre(h))
		}
		mid = mid.mul(1 / float64(len(part)))
		// The hex nearest the middle among those deepest inside the zone
		// (most neighbours in it), so the name sits within the zone.
		in := map[hex.Hex]bool{}
		for _, h := range part {
			in[h] = true
		}
		depth := func(h hex.Hex) (n int) {
			for _, d := range hex.Directions {
				if in[b.m.Layout.Neighbour(h, d)] {
					n++
				}
			}
			return n
		}
		best, bestN, bestD := part[0], -1, math.MaxFloat64
		for _, h := range part {
			n, d := depth(h), b.centre(h).sub(mid).len()
			if n > bestN || (n == bestN && d < bestD-1e-9) {
				best, bestN, bestD = h, n, d
			}
		}
		c := b.centre(best)
		b.tag(pt{c.X, c.Y + 6*u}, z.name, white.mix(z.style.tint, 0.5), ink, 9*u)
	}
}

// largestPart is the largest set of adjacent hexes of hs (the first, in
// hex order, of equal ones).
func largestPart(l hex.Layout, hs []hex.Hex) []hex.Hex {
	in := map[hex.Hex]bool{}
	for _, h := range hs {
		in[h] = true
	}
	sorted := append([]hex.Hex{}, hs...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Less(sorted[j]) })
	seen := map[hex.Hex]bool{}
	var best []hex.Hex
	for _, h := range sorted {
		if seen[h] {
			continue
		}
		part := []hex.Hex{h}
		seen[h] = true
		for i := 0; i < len(part); i++ {
			for _, d := range hex.Directions {
				n := l.Neighbour(part[i], d)
				if in[n] && !seen[n] {
					seen[n] = true
					part = append(part, n)
				}
			}
		}
		if len(part) > len(best) {
			best = part
		}
	}
	return best
}

// zoneLegend is the legend's sample of zone z.
func (b *board) zoneLegend(z zone) func(c pt) {
	return func(c pt) {
		u := b.u
		k := 0.34
		var ps []pt
		for _, p := range [][2]float64{{-1, -1}, {1, -1}, {2, 0}, {1, 1}, {-1, 1}, {-2, 0}} {
			ps = append(ps, pt{c.X + p[0]*20*u*k, c.Y + p[1]*20*sqrt3*u*k})
		}
		b.c.poly(ps, white, Colour{}, 0)
		b.c.poly(ps, z.style.tint, Colour{}, 0)
		b.c.lines(b.hatch(c, z.style.slant, 9*u, 4*u), z.style.line.alpha(0.55), 0.9*u, true)
		b.c.ops = append(b.c.ops, op{kind: opStroke, paths: [][]pt{ps}, closed: true, stroke: z.style.line, width: 1.6 * u, dash: []float64{4 * u, 2.5 * u}})
	}
}
