package hexmap

import (
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// apartInLevel reports whether feature s stands at a level none of the
// features already on its hexside stands at, so that the hexside may carry
// both even when the vocabulary does not stack features (a wall at level 0
// under a railing at +1).
func apartInLevel(old []Side, s Side) bool {
	if !s.OnLevel {
		return false
	}
	for _, o := range old {
		if !o.OnLevel || o.Level == s.Level {
			return false
		}
	}
	return true
}

func (p *parser) level(w word, what string) (hex.Level, bool) {
	if w.s == "" {
		p.c.at(w, "%s needs a level: 0, +1, -1, or a half level such as -1/2", what)
		return 0, false
	}
	l, err := hex.ParseLevel(w.s)
	if err != nil {
		p.c.at(w, "%s: %v", what, err)
		return 0, false
	}
	return l, true
}

func (p *parser) floors(fs []fileFloor) {
	m := p.m
	for _, f := range fs {
		l, ok := p.level(f.Level, "a floors entry")
		if !ok {
			continue
		}
		up, okUp := p.dirs(f.Up)
		down, okDown := p.dirs(f.Down)
		if !okUp || !okDown {
			continue
		}
		if !l.IsHalf() && len(f.Up)+len(f.Down) > 0 {
			w := append(f.Up, f.Down...)[0]
			p.c.at(w, "up: and down: name the sides of a stairs or ramp hex, whose level is a half level (e.g. -1/2); level %s is a whole level", l)
			continue
		}
		for i, w := range f.Hexes {
			for _, h := range p.hexes(f.Hexes[i : i+1]) {
				if old, dup := m.floor[h]; dup {
					p.c.at(w, "hex %s already has its floor at level %s", h, old)
					continue
				}
				if l.IsHalf() && len(m.Vocabulary.Ramps) > 0 && !slices.Contains(m.Vocabulary.Ramps, m.Terrain(h)) {
					p.c.at(w, "hex %s is at half level %s, but its terrain is %s: only %s join two levels; give it one of those terrains or a whole level",
						h, l, m.Terrain(h), strings.Join(m.Vocabulary.Ramps, ", "))
					continue
				}
				if m.floor == nil {
					m.floor, m.fprov, m.ramps = map[hex.Hex]hex.Level{}, map[hex.Hex]Provenance{}, map[hex.Hex]Ramp{}
				}
				m.floor[h], m.fprov[h] = l, f.P.prov()
				if l.IsHalf() {
					m.ramps[h] = Ramp{Hex: h, Level: l, Up: up, Down: down, Provenance: f.P.prov()}
				}
			}
		}
	}
}

// dirs reads a list of direction names of the map's layout.
func (p *parser) dirs(ws []word) ([]hex.Direction, bool) {
	var out []hex.Direction
	ok := true
	for _, w := range ws {
		d, err := p.m.Layout.ParseDirection(w.s)
		if err != nil {
			p.c.at(w, "%v", err)
			ok = false
			continue
		}
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out, ok
}

func (p *parser) decks(ds []fileDeck) {
	m := p.m
	for _, d := range ds {
		where := d.Kind
		if len(d.Path) > 0 {
			where = d.Path[0]
		}
		if d.Name == "" {
			p.c.at(where, "a deck needs a name")
			continue
		}
		l, ok := p.level(d.Level, "deck "+d.Name)
		if !ok {
			continue
		}
		switch {
		case d.Kind.s != "" && len(m.Vocabulary.Decks) == 0:
			p.c.at(d.Kind, "deck %s: this map's vocabulary has no deck kinds; drop kind:", d.Name)
			continue
		case d.Kind.s == "" && len(m.Vocabulary.Decks) > 0:
			p.c.at(where, "deck %s needs a kind: one of %s", d.Name, strings.Join(m.Vocabulary.Decks, ", "))
			continue
		case d.Kind.s != "" && !p.kind(d.Kind, "deck kind", m.Vocabulary.Decks):
			continue
		}
		deck := Deck{Name: d.Name, Kind: d.Kind.s, Level: l, Provenance: d.P.prov()}
		good := true
		for _, w := range d.Path {
			h, ok := p.one(w, "deck "+d.Name)
			if !ok {
				good = false
				continue
			}
			if n := len(deck.Path); n > 0 && !m.Layout.Adjacent(deck.Path[n-1], h) {
				p.c.at(w, "deck %s jumps from %s to %s, which are not adjacent", d.Name, deck.Path[n-1], h)
				good = false
			}
			if f := m.Floor(h); f > l {
				p.c.at(w, "deck %s at level %s cannot pass %s, whose floor is higher (%s)", d.Name, l, h, f)
				good = false
			}
			if slices.Contains(deck.Path, h) {
				p.c.at(w, "deck %s passes %s twice", d.Name, h)
				good = false
			}
			deck.Path = append(deck.Path, h)
		}
		if !good {
			continue
		}
		if len(deck.Path) < 2 {
			p.c.at(where, "deck %s needs a path of at least two adjacent hexes", d.Name)
			continue
		}
		if len(deck.Over(m)) == 0 {
			p.c.at(where, "deck %s stands above no hex: every hex of its path has its floor at level %s; a deck needs a lower floor under it", d.Name, l)
			continue
		}
		p.addDeck(where, deck)
	}
}

// addDeck records a deck's locations and links, refusing a location another
// deck already holds.
func (p *parser) addDeck(w word, deck Deck) {
	m := p.m
	for _, h := range deck.Over(m) {
		if i, dup := m.deckAt[hex.At(h, deck.Level)]; dup {
			p.c.at(w, "deck %s and deck %s both stand at %s", m.decks[i].Name, deck.Name, hex.At(h, deck.Level))
			return
		}
	}
	if m.deckAt == nil {
		m.deckAt, m.deckLinks = map[hex.Loc]int{}, map[deckLink]bool{}
	}
	for _, h := range deck.Over(m) {
		m.deckAt[hex.At(h, deck.Level)] = len(m.decks)
	}
	for i := 1; i < len(deck.Path); i++ {
		s, _ := m.Layout.SideBetween(deck.Path[i-1], deck.Path[i])
		m.deckLinks[deckLink{s, deck.Level}] = true
	}
	m.decks = append(m.decks, deck)
}

func (p *parser) edges(f *fileMap) {
	m := p.m
	for i, w := range []word{f.Edges.North, f.Edges.East, f.Edges.South, f.Edges.West} {
		m.edges[i] = w.s
	}
	m.edgeProv = f.Edges.P.prov()
	if f.Arrow.s == "" {
		return
	}
	e, err := ParseBoardEdge(f.Arrow.s)
	if err != nil {
		p.c.at(f.Arrow, "arrow: %v", err)
		return
	}
	m.arrow, m.hasArrow = e, true
}
