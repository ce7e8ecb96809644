package dragonnoir

import (
	"fmt"
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// Boats under attack by Gharvs (DN-GHARV-5): a Gharv whose victim is in a
// boat tries to capsize it instead of fighting, on the capsize rolls of
// gharvs.yaml (GAP-7); a capsized boat is lost, and each character aboard
// falls in the water and suffers the table's result: overboard for one who
// may be in water, sinks for one who may not (DN-MOVE-5).

// Capsized takes a boat a Gharv capsized off the map (DN-GHARV-5).
type Capsized struct {
	Boat string `json:"boat"`
	By   string `json:"by"`
}

// EventType names the event in game logs.
func (*Capsized) EventType() string { return Prefix + ".capsized" }

// boatFootprint is the two hexes of boat b (DN-BOAT-7): its anchor at the
// rear and the hex it faces.
func (s *State) boatFootprint(b *Boat) (hex.Footprint, error) {
	l, err := locOn(s.board, b.At)
	if err != nil {
		return hex.Footprint{}, err
	}
	var d hex.Direction
	if b.Facing != "" {
		if d, err = s.board.Layout.ParseDirection(b.Facing); err != nil {
			return hex.Footprint{}, err
		}
	}
	return hex.Footprint{Shape: hex.Pair, Anchor: l.Hex, Facing: d, Layout: s.board.Layout}, nil
}

// boatAt is the boat covering hex h, nil if none.
func (w *world) boatAt(h hex.Hex) *Boat {
	st := w.st()
	for _, b := range st.Boats {
		if f, err := st.boatFootprint(b); err == nil && slices.Contains(f.Hexes(), h) {
			return b
		}
	}
	return nil
}

// boatOf is the boat c is in (it stands on one of its hexes), nil if none.
func (w *world) boatOf(c *Char) *Boat {
	if !c.Alive() {
		return nil
	}
	return w.boatAt(w.st().loc(c).Hex)
}

// placeBoats puts a position's boats on the map, each on two hexes of it.
func (s *State) placeBoats(ps []Placement) error {
	for i, p := range ps {
		if p.Unit == "" || slices.ContainsFunc(s.Boats, func(b *Boat) bool { return b.ID == p.Unit }) {
			return fmt.Errorf("boats %d: give each boat its own name (unit: boat-1)", i+1)
		}
		l, err := locOn(s.board, p.At)
		if err != nil {
			return fmt.Errorf("boats %d: %v", i+1, err)
		}
		b := &Boat{ID: p.Unit, At: locString(s.board, l), Facing: p.Facing}
		f, err := s.boatFootprint(b)
		if err != nil {
			return fmt.Errorf("boats %d: %v", i+1, err)
		}
		for _, h := range f.Hexes() {
			if !s.board.OnMap(h) {
				return fmt.Errorf("boats %d: facing %s from %s it covers %s, off the map", i+1, p.Facing, p.At, h)
			}
		}
		s.Boats = append(s.Boats, b)
	}
	return nil
}

// capsize is Gharv g's attempt on boat b (DN-GHARV-5, ROLL-8).
func (w *world) capsize(g *Char, b *Boat) {
	st := w.st()
	cp := st.data.Capsize
	used := Provs{cp.Prov}
	var aboard []*Char
	for _, c := range st.Living("") {
		if c.Side != Gharvs && w.boatOf(c) == b {
			aboard = append(aboard, c)
		}
	}
	var ids []string
	for _, c := range aboard {
		ids = append(ids, c.ID)
	}
	r := w.d10(fmt.Sprintf("capsize %s by %s", b.ID, g.ID))
	if !slices.Contains(cp.Capsizes, r.Total) {
		outcome(r, used, "the boat holds")
		w.say(used, "%s tries to capsize %s with %s aboard; the boat holds (DN-GHARV-5).", g.ID, b.ID, list(ids))
		return
	}
	outcome(r, used, "the boat capsizes")
	w.emit(&Capsized{Boat: b.ID, By: g.ID})
	w.say(used, "%s capsizes %s: %s fall into the water and the boat is lost (DN-GHARV-5).", g.ID, b.ID, list(ids))
	for _, c := range aboard {
		code := cp.Overboard
		if !st.CanEnter(st.Kind(c), st.loc(c)) {
			code = cp.Sinks
			w.say(used, "%s may not be in water and sinks (DN-MOVE-5).", c.ID)
		}
		es, _ := parseEffects(code)
		for _, e := range es {
			w.hurt(c, e.What, e.N, []*Char{g}, used, false)
		}
	}
}
