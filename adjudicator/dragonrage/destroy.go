package dragonrage

import (
	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// checkDestroyVP checks "destroy: vp" on a move ending in h (DR-VP-5,
// DR-VP-6, DR-AMB-70).
func (w *world) checkDestroyVP(u *Unit, h hex.Hex, n *yaml.Node) error {
	switch {
	case u.Side != Invader:
		return adjudicator.Errorf(n, codeCannot, "only the invader destroys VP hexes (DR-VP-1)")
	case !w.st.typ(u).Occupies(): // DR-VP-5, DR-VP-6
		how := "they destroy VP hexes in other ways"
		switch w.st.typ(u).DestroysVP {
		case VPEnter:
			how = "it destroys a VP hex simply by entering it when no defender is there (DR-VP-4, DR-TRL-2)"
		case VPSpells:
			how = "a wizard destroys VP hexes only with spells (DR-VP-7)"
		case VPNever:
			how = "Elowyn never destroys VP hexes (DR-ELOWYN-13)"
		}
		return adjudicator.Errorf(n, codeCannot, "%s cannot destroy a hex by occupying it: %s", u.ID, how)
	case w.m.VP(h) == 0:
		return adjudicator.Errorf(n, codeCannot, "%s has no VP value", h)
	case w.vpHex(h) == 0:
		return adjudicator.Errorf(n, codeCannot, "%s is already destroyed (DR-VP-2)", h)
	case w.doorVP(h):
		return adjudicator.Errorf(n, codeCannot, "%s is a Nurkott VP hex with a door: it falls only when its door is smashed (DR-VP-12, DR-AMB-31)", h)
	case u.Attacked:
		return adjudicator.Errorf(n, codeCannot, "%s has already attacked this turn (DR-VP-5)", u.ID)
	}
	return nil
}

// checkDestroyBridge checks "destroy: bridge": a troop unit on a wooden
// bridge that makes no melee or fire this turn (DR-BRIDGE-4).
func (w *world) checkDestroyBridge(u *Unit, h hex.Hex, n *yaml.Node) error {
	b, ok := w.m.Bridge(h)
	switch {
	case !ok:
		return adjudicator.Errorf(n, codeCannot, "there is no bridge in %s", h)
	case b.Kind != "wooden":
		return adjudicator.Errorf(n, codeCannot, "the bridge in %s is stone and cannot be destroyed (DR-BRIDGE-2)", h)
	case w.bridgeState(h) != "intact":
		return adjudicator.Errorf(n, codeCannot, "the bridge in %s is already %s", h, w.bridgeState(h))
	case w.st.typ(u).Kind != "troop":
		return adjudicator.Errorf(n, codeCannot, "only troops destroy bridges (DR-BRIDGE-4)")
	case u.Attacked:
		return adjudicator.Errorf(n, codeCannot, "%s has already attacked this turn (DR-BRIDGE-4)", u.ID)
	}
	return nil
}
