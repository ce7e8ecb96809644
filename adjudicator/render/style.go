package render

import (
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// style is a ruleset's adjudicator.PictureStyle, indexed for drawing. A
// kind the ruleset does not style is drawn plainly (terrainStyleOf,
// pointStyleOf, sideFeature, drawHexMarkers), so a new game's picture
// reads before it has a style.
type style struct {
	terrain map[string]terrainStyle
	first   string // the first styled terrain, the ground of legend samples
	flags   []adjudicator.FlagStyle
	points  map[string]pointStyle
	sides   []adjudicator.SideStyle
	side    map[string]adjudicator.SideStyle
	markers []adjudicator.MarkerStyle
	marker  map[string]adjudicator.MarkerStyle
	paths   []string
}

func colour(c adjudicator.RGB) Colour { return rgb(uint32(c)) }

// newStyle indexes ps; nil gives the plain style.
func newStyle(ps *adjudicator.PictureStyle) *style {
	s := &style{
		terrain: map[string]terrainStyle{},
		points:  map[string]pointStyle{},
		side:    map[string]adjudicator.SideStyle{},
		marker:  map[string]adjudicator.MarkerStyle{},
	}
	if ps == nil {
		return s
	}
	for _, t := range ps.Terrain {
		if _, dup := s.terrain[t.Kind]; dup {
			continue
		}
		if s.first == "" {
			s.first = t.Kind
		}
		st := terrainStyle{fill: colour(t.Fill), pattern: t.Pattern}
		if t.Pattern != "" {
			st.mark = colour(t.Mark)
		}
		s.terrain[t.Kind] = st
	}
	s.flags = slices.Clone(ps.Flags)
	for _, p := range ps.Points {
		if _, dup := s.points[p.Kind]; !dup {
			s.points[p.Kind] = pointStyle{p.Label, colour(p.Fill), colour(p.Text)}
		}
	}
	for _, d := range ps.Sides {
		if _, dup := s.side[d.Kind]; !dup {
			s.side[d.Kind] = d
			s.sides = append(s.sides, d)
		}
	}
	for _, m := range ps.Markers {
		if _, dup := s.marker[m.Kind]; !dup {
			s.marker[m.Kind] = m
			s.markers = append(s.markers, m)
		}
	}
	s.paths = slices.Clone(ps.PathTraces)
	return s
}

// terrainStyleOf is the style of a terrain kind: the ruleset's, or grey
// with the kind's name written on it.
func (s *style) terrainStyleOf(kind string) terrainStyle {
	if t, ok := s.terrain[kind]; ok {
		return t
	}
	return terrainStyle{rgb(0xdddddd), "letter", inkSoft}
}

// pointStyleOf is the tag of a kind of named hex: the ruleset's, or the
// kind's first two letters on grey.
func (s *style) pointStyleOf(kind string) pointStyle {
	if p, ok := s.points[kind]; ok {
		return p
	}
	l := []rune(kind)
	if len(l) > 2 {
		l = l[:2]
	}
	return pointStyle{upper(string(l)), rgb(0xdddddd), ink}
}

// sideLegend are the legend words of a side kind drawn in variant v ("",
// "tower", "open" or "broken").
func sideLegend(d adjudicator.SideStyle, v string) string {
	base := d.Legend
	if base == "" {
		base = d.Kind
	}
	pick := func(set, prefix string) string {
		if set != "" {
			return set
		}
		return prefix + base
	}
	switch {
	case d.Broken:
		return base
	case v == "tower":
		return pick(d.TowerLegend, "tower ")
	case v == "open":
		return pick(d.OpenLegend, "open ")
	case v == "broken":
		return pick(d.BrokenLegend, "broken ")
	}
	return base
}

// brokenSideKey is the legend entry of a broken marker on a hexside with
// no feature: the first wall's broken variant, or a plain "broken".
func (s *style) brokenSideKey() string {
	for _, d := range s.sides {
		if d.Shape == "wall" {
			return "side:" + d.Kind + ":broken"
		}
	}
	return "side::broken"
}

// isPath reports whether traces of kind are drawn as paths.
func (s *style) isPath(kind string) bool {
	return slices.Contains(moveKinds, kind) || slices.Contains(s.paths, kind)
}
