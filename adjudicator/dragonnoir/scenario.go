package dragonnoir

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/hexmap"
)

// Part of the scenarios chapter (DN-MAP-2, DN-TURN-1, GAP-13): what the
// loader checks of a scenario beyond its forces' locations.
//
// A scenario gives its map (an assembly of boards, DN-MAP-2), its length,
// the zone each party enters by (entries: every force of that side stands
// in it), its forces (every counter on terrain it may stand on), webs,
// boats, hidden markers and victory conditions.
//
// Hidden markers (DN-CNT-13, PBEM-DN-14, HID-1 … 3): a module is public
// (anyone may export it), so a scenario never says which marker is the
// real one: umpire draws it when a marker is revealed (turn.go), and until
// then no event, view, picture, roll or export can tell, because nothing
// has decided it yet.

// Victory kinds (GAP-13): eliminate (Side wins when no living enemy is on
// the map), kill (when every one of Units is dead), find (when the real
// marker of kind Marker is revealed), hold (at the end, when nothing else
// was met first).
var victoryKinds = []string{"eliminate", "kill", "find", "hold"}

// markerKinds are the kinds of hidden marker (DN-CNT-13) and what the
// real one is, for people.
var markerKinds = map[string]markerKind{
	"orb":      {Label: "Orbe?", Real: "the mauve Orb"},
	"prisoner": {Label: "Khuzun?", Real: "Khuzun, the prisoner dwarf"},
	"exit":     {Label: "Soleil ?", Real: "the sun: the only gallery to Arkö Iriss"},
}

type markerKind struct{ Label, Real string }

// checkScenario checks s on mp (nil when the map is missing); at reports a
// problem at the scenario's line.
func (d *Data) checkScenario(at func(string, ...any), s *Scenario, mp *hexmap.Map) {
	for _, v := range s.Victory {
		if !slices.Contains(victoryKinds, v.Kind) {
			at("victory: kind %q is one of %s", v.Kind, strings.Join(victoryKinds, ", "))
		}
		if v.Side != string(Adventurers) && v.Side != string(Krobs) {
			at("victory: side %q is adventurers or krobs", v.Side)
		}
		if v.Zone != "" && mp != nil {
			if _, ok := mp.Zone(v.Zone); !ok {
				at("victory: the map has no zone %q", v.Zone)
			}
		}
		switch v.Kind {
		case "kill":
			if len(v.Units) == 0 {
				at("victory: kill names the characters to kill (units: [queen])")
			}
			for _, u := range v.Units {
				if !slices.ContainsFunc(s.Forces, func(p Placement) bool { return p.Unit == u }) {
					at("victory: kill %s, who is not among the forces", u)
				}
			}
		case "find":
			if !slices.ContainsFunc(s.Hidden, func(h HiddenMarker) bool { return h.Kind == v.Marker }) {
				at("victory: find %q: the scenario has no hidden marker of that kind", v.Marker)
			}
		}
		if v.Text == "" {
			at("victory: say what it is for people (text:)")
		}
	}
	if mp == nil {
		return
	}
	for side, z := range s.Entries {
		zone, ok := mp.Zone(z)
		if !ok {
			continue // reported with the entries
		}
		for _, p := range s.Forces {
			k := d.Counters[p.Unit]
			if k == nil || k.Side != side {
				continue
			}
			if l, err := locOn(mp, p.At); err == nil && !slices.Contains(zone.Hexes, l.Hex) {
				at("forces: %s stands on %s, outside the %s's entry zone %s (DN-MAP-2)", p.Unit, p.At, side, z)
			}
		}
	}
	for _, p := range s.Forces {
		k := d.Counters[p.Unit]
		if k == nil {
			continue
		}
		l, err := locOn(mp, p.At)
		if err != nil {
			continue
		}
		f, err := footprintOf(mp, k, l.Hex, p.Facing)
		if err != nil {
			continue
		}
		for _, h := range f.Hexes() {
			if !mp.OnMap(h) {
				continue
			}
			t := d.Terrain[mp.Terrain(h)]
			if t == nil || t.Impassable || slices.ContainsFunc(t.ClosedTo, k.Has) {
				at("forces: a %s cannot stand on %s (%s)", k.Title, h, mp.Terrain(h))
			}
		}
	}
	d.checkHidden(at, s, mp)
}

// checkHidden checks a scenario's hidden markers: known kinds, their own
// ids, at least two of a kind (one alone would be no secret), and nothing
// that says which is the real one (PBEM-DN-14).
func (d *Data) checkHidden(at func(string, ...any), s *Scenario, mp *hexmap.Map) {
	count := map[string]int{}
	ids := map[string]bool{}
	for _, h := range s.Hidden {
		if _, ok := markerKinds[h.Kind]; !ok {
			at("hidden %s: kind %q is orb, prisoner or exit (DN-CNT-13)", h.ID, h.Kind)
		}
		if h.ID == "" || ids[h.ID] || d.Counters[h.ID] != nil {
			at("hidden: give each marker its own id, no counter's (%q)", h.ID)
		}
		ids[h.ID] = true
		count[h.Kind]++
		if h.Real {
			at("hidden %s: real: a module is public, so it never says which marker is the real one; umpire draws it when a marker is revealed (PBEM-DN-14): remove real:", h.ID)
		}
		if h.Owner != "" {
			at("hidden %s: owner: no side knows the real marker before it is revealed (umpire draws it then, PBEM-DN-14): remove owner:", h.ID)
		}
	}
	for _, k := range sortedKeys(count) {
		if count[k] < 2 {
			at("hidden: one %s marker alone hides nothing: give two or more (DN-CNT-13: 3 Orbe?, 8 Khuzun?, 4 Soleil ?)", markerKinds[k].Label)
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// markerWords names a hidden marker for people: "orb-2 (Orbe?)".
func markerWords(h HiddenMarker) string {
	return fmt.Sprintf("%s (%s)", h.ID, markerKinds[h.Kind].Label)
}
