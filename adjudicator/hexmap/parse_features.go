package hexmap

import (
	"slices"
	"sort"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

func (p *parser) addSide(w word, s Side) {
	a, b := s.Side.Hexes()
	if !p.m.OnMap(a) && !p.m.OnMap(b) {
		p.c.at(w, "hexside %s is off the map", s.Side)
		return
	}
	if old, ok := p.m.sides[s.Side]; ok {
		if !p.m.Vocabulary.StackSides && !apartInLevel(p.m.Features(s.Side), s) {
			p.c.at(w, "hexside %s already has a %s", s.Side, old.Kind)
			return
		}
		for _, f := range p.m.Features(s.Side) {
			if f.Kind == s.Kind {
				p.c.at(w, "hexside %s already has a %s", s.Side, f.Kind)
				return
			}
		}
		p.m.extra[s.Side] = append(p.m.extra[s.Side], s)
		return
	}
	p.m.sides[s.Side] = s
}

func (p *parser) sides(fs []fileSide) {
	for _, f := range fs {
		if !p.kind(f.Kind, "hexside kind", p.m.Vocabulary.Sides) {
			continue
		}
		base := Side{Kind: f.Kind.s, Tags: f.Tags, Provenance: f.P.prov()}
		if f.Level.s != "" {
			l, err := hex.ParseLevel(f.Level.s)
			if err != nil {
				p.c.at(f.Level, "%v", err)
				continue
			}
			base.OnLevel, base.Level = true, l
		}
		if len(f.Hexes) > 0 {
			if len(f.Hexes) != 2 || len(f.Sides) > 0 {
				p.c.at(f.Kind, "a %s gives either hexes: [A, B] (two adjacent hexes) or sides: [\"HEX DIR …\"]", f.Kind.s)
				continue
			}
			a, err1 := hex.Parse(f.Hexes[0].s)
			b, err2 := hex.Parse(f.Hexes[1].s)
			if err1 != nil || err2 != nil {
				p.c.at(f.Hexes[0], "hexes must be two four-digit hexes")
				continue
			}
			s, ok := p.m.Layout.SideBetween(a, b)
			if !ok {
				p.c.at(f.Hexes[0], "hexes %s and %s are not adjacent", a, b)
				continue
			}
			base.Side = s
			if f.Inside.s != "" {
				in, err := hex.Parse(f.Inside.s)
				if err != nil || !s.Has(in) {
					p.c.at(f.Inside, "inside must be %s or %s", a, b)
					continue
				}
				base.Inside = in
			}
			p.addSide(f.Hexes[0], base)
			continue
		}
		if f.Inside.s != "" {
			p.c.at(f.Inside, "with sides: runs, the hex that starts each run is the inside one; drop inside:")
		}
		for _, w := range f.Sides {
			h, ds, err := sideRun(w.s, p.m.Layout)
			if err != nil {
				p.c.at(w, "%v", err)
				continue
			}
			for _, d := range ds {
				s := base
				s.Side, s.Inside = p.m.Layout.Side(h, d), h
				p.addSide(w, s)
			}
		}
	}
}

func (p *parser) roads(rs []fileRoad) {
	for _, r := range rs {
		road := Road{Name: r.Name, Provenance: r.P.prov()}
		for _, w := range r.Path {
			h, ok := p.one(w, "road "+r.Name)
			if !ok {
				continue
			}
			if n := len(road.Path); n > 0 {
				s, adj := p.m.Layout.SideBetween(road.Path[n-1], h)
				if !adj {
					p.c.at(w, "road %q jumps from %s to %s, which are not adjacent", r.Name, road.Path[n-1], h)
				} else {
					p.m.roadLinks[s] = true
				}
			}
			road.Path = append(road.Path, h)
			p.m.roadHexes[h] = true
		}
		if len(road.Path) < 2 && len(r.Path) > 0 {
			p.c.at(r.Path[0], "road %q needs at least two hexes", r.Name)
		}
		p.m.roads = append(p.m.roads, road)
	}
}

func (p *parser) bridges(bs []fileBrdg) {
	for _, b := range bs {
		h, ok := p.one(b.Hex, "bridge")
		if !ok || !p.kind(b.Kind, "bridge kind", p.m.Vocabulary.Bridges) {
			continue
		}
		if _, dup := p.m.bridges[h]; dup {
			p.c.at(b.Hex, "hex %s already has a bridge", h)
			continue
		}
		br := Bridge{Hex: h, Kind: b.Kind.s, Provenance: b.P.prov()}
		if len(b.Connects) != 2 {
			p.c.at(b.Hex, "bridge %s: connects: needs the two bank hexes it joins", h)
			continue
		}
		good := true
		for i, w := range b.Connects {
			e, ok := p.one(w, "bridge "+h.String())
			if ok && !p.m.Layout.Adjacent(h, e) {
				p.c.at(w, "bridge %s cannot connect %s: not adjacent", h, e)
				ok = false
			}
			good = good && ok
			br.Connects[i] = e
		}
		if good {
			p.m.bridges[h] = br
		}
	}
}

func (p *parser) zones(zs []fileZone) {
	for _, z := range zs {
		if z.Name.s == "" {
			p.c.at(z.Name, "a zone needs a name")
			continue
		}
		if _, dup := p.m.zones[z.Name.s]; dup {
			p.c.at(z.Name, "zone %q is defined twice", z.Name.s)
			continue
		}
		zone := &Zone{Name: z.Name.s, Title: z.Title, Group: z.Group.s, set: map[hex.Hex]bool{}, Provenance: z.P.prov()}
		for _, h := range p.hexes(z.Hexes) {
			zone.set[h] = true
		}
		for _, h := range p.hexes(z.Except) {
			delete(zone.set, h)
		}
		if zone.Group != "" {
			for _, h := range sortedKeys(zone.set) {
				if other, ok := p.m.ZoneOf(h, zone.Group); ok {
					p.c.at(z.Name, "zone %q: hex %s is already in zone %q of group %q (a hex is in at most one zone of a group); leave it out of one of them", zone.Name, h, other.Name, zone.Group)
					break
				}
			}
		}
		for h := range zone.set {
			zone.Hexes = append(zone.Hexes, h)
		}
		sort.Slice(zone.Hexes, func(i, j int) bool { return zone.Hexes[i].Less(zone.Hexes[j]) })
		p.m.zones[zone.Name] = zone
		p.m.zoneOrder = append(p.m.zoneOrder, zone.Name)
	}
}

func (p *parser) points(ps []filePt) {
	seen := map[string]bool{}
	for _, pt := range ps {
		h, ok := p.one(pt.Hex, "point "+pt.Name.s)
		if !ok || !p.kind(pt.Kind, "point kind", p.m.Vocabulary.Points) {
			continue
		}
		if pt.Name.s == "" || seen[pt.Name.s] {
			p.c.at(pt.Name, "each point needs its own name (%q)", pt.Name.s)
			continue
		}
		seen[pt.Name.s] = true
		point := Point{Name: pt.Name.s, Kind: pt.Kind.s, Hex: h, Provenance: pt.P.prov()}
		for _, w := range pt.Tags {
			if len(p.m.Vocabulary.PointTags) == 0 {
				p.c.at(w, "point %s: this map's vocabulary gives points no tags; drop tags:", pt.Name.s)
				break
			}
			if p.kind(w, "point tag", p.m.Vocabulary.PointTags) && !slices.Contains(point.Tags, w.s) {
				point.Tags = append(point.Tags, w.s)
			}
		}
		p.m.points = append(p.m.points, point)
	}
}
