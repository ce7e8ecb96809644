package dragonrage

import (
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
	"github.com/umpire-pbem/umpire/adjudicator/hexmap"
)

// Terrain questions the movement, fire and melee rules ask.

// bridgeState is a bridge hex's state: "intact", "destroyed" or "burned";
// "" if the hex has no bridge.
func (w *world) bridgeState(h hex.Hex) string {
	b, ok := w.m.Bridge(h)
	if !ok {
		return ""
	}
	s := w.st.Bridges[h.String()]
	switch {
	case s == "burned" && b.Kind == "wooden":
		return "burned"
	case strings.HasPrefix(s, "destroyed"):
		return "destroyed" // still usable until it burns (DR-AMB-48)
	}
	return "intact"
}

// water reports whether h is water a land unit may not enter: sea, or
// river that is not a usable bridge, a ford or a mixed land-and-river hex.
func (w *world) water(h hex.Hex) bool {
	switch w.m.Terrain(h) {
	case "sea":
		return true
	case "river":
		if bs := w.bridgeState(h); bs == "intact" || bs == "destroyed" {
			return false // a bridge hex is a road hex (DR-TERR-6)
		}
		return true
	}
	return false
}

// cannotStand says why unit u may not stand in hex h, or "".
func (w *world) cannotStand(u *Unit, h hex.Hex) string {
	t := w.st.typ(u)
	terr := w.m.Terrain(h)
	switch {
	case t.Swims():
		if terr != "sea" && terr != "river" && terr != "ford" && !w.m.Has(h, "river") && !(terr == "dock" && len(w.st.at(h.String())) == 0) {
			return "a sea serpent never leaves sea and river hexes (DR-SERP-2, DR-SERP-3)"
		}
		return ""
	case terr == "sea":
		return "only sea serpents enter the sea (DR-TERR-2)"
	case w.water(h) && !t.EntersRivers():
		return "only giants and sea serpents enter river hexes (DR-TERR-3)"
	case !t.MayEndInTower() && terr == "tower":
		return "cavalry may not end its move in a tower (DR-CAV-1)"
	case t.IsSummoned() && (terr == "dock" || terr == "sea" || terr == "river"):
		return "an Elemental never enters a bridge, dock or water hex (DR-SPELL-ELEM-5)"
	}
	return ""
}

// feature returns the map feature on the hexside between a and b.
func (w *world) feature(a, b hex.Hex) (hexmap.Side, bool) {
	return w.m.HexsideBetween(a, b)
}

// entrance returns the state of the entrance on hexside key, with the
// defender in control of every entrance at the start (the city's gates;
// DR-TOWER-2, DR-ENTR-4).
func (w *world) entrance(key string) Entrance {
	if e, ok := w.st.Entrances[key]; ok {
		return *e
	}
	return Entrance{Controller: Defender}
}

// towerEntrance reports whether an entrance belongs to a tower: the
// defender controls those for good (DR-TOWER-2).
func (w *world) towerEntrance(f hexmap.Side) bool {
	a, b := f.Side.Hexes()
	return f.HasTag("tower") || w.m.Terrain(a) == "tower" || w.m.Terrain(b) == "tower"
}

// passable reports whether side may pass the entrance f freely now:
// smashed, opened by the defender and still open (DR-ENTR-9), or in its
// control (DR-ENTR-5, DR-AMB-36). Tower entrances stay the defender's
// (DR-TOWER-2, DR-TOWER-3).
func (w *world) passable(f hexmap.Side, side adjudicator.Side) bool {
	e := w.entrance(f.Side.String())
	switch {
	case e.Broken:
		return true
	case e.OpenUntil >= w.st.Turn && e.OpenUntil > 0:
		return true
	case w.towerEntrance(f):
		return side == Defender
	}
	return e.Controller == side
}

// vpHex returns the VP still to be scored in h (0 if none or destroyed).
func (w *world) vpHex(h hex.Hex) int {
	if _, done := w.st.Destroyed[h.String()]; done {
		return 0
	}
	return w.citadelVP(h, w.m.VP(h)) // 4 once Elowyn has left it (DR-ELOWYN-7)
}

// doorVP reports whether h is a Nurkott VP hex with a door: it falls only
// when its door is smashed (DR-VP-12, DR-AMB-31).
func (w *world) doorVP(h hex.Hex) bool {
	if w.st.Map != "nurkott" || w.m.VP(h) == 0 {
		return false
	}
	for _, s := range h.Sides() {
		if f, ok := w.m.Feature(s); ok && f.Kind == "door" && f.Inside == h {
			return true
		}
	}
	return false
}

// adjacentEnemy reports whether an enemy of side stands next to h. With
// climbing set it ignores enemies in towers and a lone hero or wizard, as
// the climbing +1 does (DR-CLIMB-3, DR-AMB-38).
func (w *world) adjacentEnemy(h hex.Hex, side adjudicator.Side, climbing bool) bool {
	for _, n := range h.Neighbours() {
		if !w.m.OnMap(n) {
			continue
		}
		us := w.st.at(n.String())
		enemies, characters := 0, 0
		for _, u := range us {
			if u.Side != side {
				enemies++
				if w.st.isCharacter(u) && !isElowyn(u) {
					characters++
				}
			}
		}
		if enemies == 0 {
			continue
		}
		if climbing && (w.m.Terrain(n) == "tower" || characters == enemies) {
			continue
		}
		return true
	}
	return false
}
