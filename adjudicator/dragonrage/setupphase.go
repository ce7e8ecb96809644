package dragonrage

import (
	"slices"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// setupZones are the zones a side's unit may be set up in (DR-SCEN-3,
// DR-SCEN-4, DR-SCEN-8): the defender inside the city (with the harbour
// and the bridges), the invader on the edges by the forest, sea serpents in
// the south-edge sea.
func (w *world) setupZones(u *Unit) []string {
	if u.Side == Defender {
		return []string{"defender-setup", "harbour"}
	}
	if m := w.st.major(u); m != nil && m.AnyEdge {
		return []string{"roc-setup"} // any edge (DR-ROC-14)
	}
	if w.st.typ(u).Swims() { // sea serpents set up in the sea
		return []string{"serpent-setup"}
	}
	return []string{"invader-setup"}
}

// setsUp reports whether u is placed on the map at setup: every defender;
// the invader's units at Esirien (DR-SCEN-4); at Nurkott, where the
// invaders enter from off the map (DR-SCEN-9), only a Roc, which starts on
// an edge (DR-ROC-14).
func (w *world) setsUp(u *Unit) bool {
	if u.Side == Defender || w.st.Map == "esirien" {
		return true
	}
	m := w.st.major(u)
	return m != nil && m.AnyEdge
}

func (w *world) inZones(h hex.Hex, zones []string) bool {
	for _, z := range zones {
		if w.m.InZone(h, z) {
			return true
		}
	}
	return false
}

// parseSetup reads "UNIT: HEX" lines placing every unit of the side
// (DR-SCEN-3 to DR-SCEN-5, DR-STACK-5).
func (w *world) parseSetup(side adjudicator.Side, n *yaml.Node) (*Orders, error) {
	if n.Kind != yaml.MappingNode {
		return nil, adjudicator.Errorf(n, adjudicator.CodeBadValue, "setup orders are one line per unit, \"UNIT: HEX\", e.g. \"INF-1: 0808\"")
	}
	o := &Orders{Place: map[string]string{}}
	var errs adjudicator.OrderErrors
	named := map[string]bool{} // units given a line, legal or not: not also reported missing
	var zoneErrs []*adjudicator.OrderError
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		u, err := w.ownUnit(k, side)
		if err != nil {
			errs = append(errs, err.(*adjudicator.OrderError))
			continue
		}
		if isElowyn(u) {
			errs = append(errs, adjudicator.Errorf(k, codeCannot, "Elowyn starts where the rules put her (DR-ELOWYN-1, DR-ELOWYN-10); do not place her"))
			continue
		}
		if named[u.ID] {
			errs = append(errs, adjudicator.Errorf(k, codeTwice, "%s is placed twice", u.ID))
			continue
		}
		if !w.setsUp(u) {
			errs = append(errs, adjudicator.Errorf(k, codeCannot, "%s starts off the map and enters through %s in its first movement (DR-SCEN-9): do not place it", u.ID, strings.Join(w.entryNames(u), " or ")))
			named[u.ID] = true
			continue
		}
		named[u.ID] = true
		if v.Kind == yaml.ScalarNode && strings.Trim(v.Value, "_") == "" && v.Value != "" {
			errs = append(errs, adjudicator.Errorf(v, codeBadHex, "replace %s by a hex for %s in %s", v.Value, u.ID, strings.Join(w.zonesOn(u), " or ")))
			continue
		}
		v, face, err := w.setupFacing(u, v)
		if err != nil {
			errs = append(errs, err.(*adjudicator.OrderError))
			continue
		}
		h, err := w.parseHex(v)
		if err != nil {
			errs = append(errs, err.(*adjudicator.OrderError))
			continue
		}
		if face != "" {
			if o.Face == nil {
				o.Face = map[string]string{}
			}
			o.Face[u.ID] = face
		}
		hx, _ := hex.Parse(h)
		if zones := w.setupZones(u); !w.inZones(hx, zones) {
			e := adjudicator.Errorf(v, codeSetupZone, "%s may not set up in %s: the %s sets up in %s (%s)", u.ID, h, side, strings.Join(w.zonesOn(u), " or "), map[adjudicator.Side]string{Defender: "DR-SCEN-3, DR-SCEN-8", Invader: "DR-SCEN-4"}[side])
			errs = append(errs, e)
			zoneErrs = append(zoneErrs, e)
			continue
		}
		if why := w.cannotStand(u, hx); why != "" {
			errs = append(errs, adjudicator.Errorf(v, codeIllegalMove, "%s may not set up in %s: %s", u.ID, h, why))
			continue
		}
		o.Place[u.ID] = h
	}
	// Stacking, counted over the whole setup (DR-STACK-5).
	byHex := map[string][]*Unit{}
	for id, h := range o.Place {
		byHex[h] = append(byHex[h], w.st.unit(id))
	}
	w.elowynInSetup(side, byHex) // she starts in the citadel or the cages (DR-ELOWYN-1, DR-ELOWYN-10)
	for h, us := range byHex {
		sortUnits(us)
		if why := w.stackProblem(us); why != "" {
			errs = append(errs, adjudicator.Errorf(findValue(n, h), codeStacking, "hex %s: %s (DR-STACK-1, DR-STACK-2, DR-SCEN-5)", h, why))
		}
	}
	var missing []string
	for _, u := range w.st.alive(side) {
		if !named[u.ID] && !isElowyn(u) && w.setsUp(u) {
			missing = append(missing, u.ID)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		errs = append(errs, adjudicator.Errorf(n, codeMissing, "every unit must be set up; these are not: %s", strings.Join(missing, ", ")))
	}
	if len(errs) > 0 {
		sortErrs(errs)
		w.zoneHexesOnce(side, errs, zoneErrs)
		return nil, errs
	}
	return o, nil
}

// zoneHexesOnce adds the legal hexes of the side's zones to the first
// "outside-setup-zone" error of the list, so that the answer says them
// once.
func (w *world) zoneHexesOnce(side adjudicator.Side, errs adjudicator.OrderErrors, zoneErrs []*adjudicator.OrderError) {
	for _, e := range errs {
		if !slices.Contains(zoneErrs, e) {
			continue
		}
		var parts []string
		for _, z := range w.legalZones(side) {
			p := z.Name + " is " + z.Compact
			if z.Note != "" {
				p += "; " + z.Note
			}
			parts = append(parts, p)
		}
		e.Msg += "; " + strings.Join(parts, "; and ")
		return
	}
}

func findValue(n *yaml.Node, v string) *yaml.Node {
	for i := 1; i < len(n.Content); i += 2 {
		if h, err := hex.ParseLenient(n.Content[i].Value); err == nil && h.String() == v {
			return n.Content[i]
		}
	}
	return n
}

func sortErrs(errs adjudicator.OrderErrors) {
	sort.SliceStable(errs, func(i, j int) bool {
		if errs[i].Line != errs[j].Line {
			return errs[i].Line < errs[j].Line
		}
		return errs[i].Column < errs[j].Column
	})
}

func (w *world) resolveSetup(o *Orders) {
	ids := make([]string, 0, len(o.Place))
	for id := range o.Place {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		w.emit(&Placed{Unit: id, Hex: o.Place[id]})
		if f := o.Face[id]; f != "" {
			w.emit(&MajorPlaced{Unit: id, Facing: f})
		}
	}
	side := phases[w.st.Phase].side
	w.sayf("the %s has set up %d units", side, len(ids))
	if side == Defender {
		w.placeElowyn()
	}
}

// stackProblem says why the units may not share a hex, or "".
// DR-STACK-1: troops stand alone. DR-STACK-2, -3: a hero, wizard or Elowyn
// may share with one friendly unit; two counters at most.
//
// A major monster in flight is above the hex and stacks with nothing
// (DR-AMB-61). One on the ground may have enemy units under it — a hero
// who walked in, a hero or wizard it landed on, units it failed to overrun
// (DR-STACK-4, DR-DRAGON-BOUND-5, DR-OVR-7) — but no friend, and no other
// major monster; the units under it stack by the rules above.
func (w *world) stackProblem(us []*Unit) string {
	var rest []*Unit
	var monster *Unit
	for _, u := range us {
		switch {
		case !w.st.typ(u).IsMajor():
			rest = append(rest, u)
		case u.Flying:
		case monster != nil:
			return monster.ID + " and " + u.ID + " are both major monsters on the ground"
		default:
			monster = u
		}
	}
	if monster != nil {
		for _, x := range rest {
			if x.Side == monster.Side {
				return x.ID + " may not share a hex with " + monster.ID + ": only enemy units end up under a major monster"
			}
		}
	}
	us = rest
	if len(us) <= 1 {
		return ""
	}
	if len(us) > 2 {
		return "at most two counters may share a hex"
	}
	if us[0].Side != us[1].Side {
		return "enemy units may not share a hex"
	}
	if !w.st.isCharacter(us[0]) && !w.st.isCharacter(us[1]) {
		return us[0].ID + " and " + us[1].ID + " are both troops or monsters: only a hero, wizard or Elowyn may stack with another unit"
	}
	return ""
}
