package dragonrage

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// Setup help: what the side that sets up is shown (the zones on its
// picture, the hexes and a skeleton in its mail), so that nobody sets up
// blind (DR-SCEN-3, DR-SCEN-4, DR-SCEN-8).

// placeholder stands for a hex still to choose in the setup skeleton.
const placeholder = "____"

// SetupHelp lists the zones the side answering req sets up in and a
// skeleton of its answer (adjudicator.SetupHelper).
func (ruleset) SetupHelp(s adjudicator.State, req adjudicator.Request) ([]adjudicator.Zone, string, bool) {
	st := s.(*State)
	if st.Pending != nil || (st.Phase != phSetupDefender && st.Phase != phSetupInvader) || req.Side != phases[st.Phase].side {
		return nil, "", false
	}
	w := newWorld(st, nil) // read only
	zones := w.legalZones(req.Side)
	return zones, w.setupSkeleton(req, zones), true
}

// legalZones are the zones side's units set up in, in the map's order, each
// with the hexes where every unit that may use it may stand; hexes that
// only some of them may take (no cavalry in a tower, DR-CAV-1) are named in
// the Note.
func (w *world) legalZones(side adjudicator.Side) []adjudicator.Zone {
	units := map[string][]*Unit{}
	for _, u := range w.st.alive(side) {
		if isElowyn(u) || !w.setsUp(u) {
			continue
		}
		for _, z := range w.setupZones(u) {
			units[z] = append(units[z], u)
		}
	}
	var out []adjudicator.Zone
	for _, mz := range w.m.Zones() {
		us := units[mz.Name]
		if len(us) == 0 {
			continue
		}
		z := adjudicator.Zone{Name: mz.Name, Title: mz.Title}
		for _, u := range us {
			z.Units = append(z.Units, u.ID)
		}
		barred := map[string]string{} // type → why it may not take a hex of Also
		for _, h := range mz.Hexes {
			if !w.m.OnMap(h) {
				continue
			}
			no := map[string]string{}
			for _, u := range us {
				if why := w.cannotStand(u, h); why != "" {
					no[u.Type] = why
				}
			}
			switch {
			case len(no) == 0:
				z.Hexes = append(z.Hexes, h.String())
			case len(no) < len(typesOf(us)):
				z.Also = append(z.Also, h.String())
				for t, why := range no {
					barred[t] = why
				}
			}
		}
		z.Compact = compactHexes(z.Hexes)
		if len(z.Also) > 0 {
			var ts []string
			for t := range barred {
				ts = append(ts, t)
			}
			slices.Sort(ts)
			var whys []string
			for _, t := range ts {
				whys = append(whys, barred[t])
			}
			z.Note = fmt.Sprintf("also %s, for every unit but %s (%s)", compactHexes(z.Also), strings.Join(ts, ", "), strings.Join(whys, "; "))
		}
		out = append(out, z)
	}
	return out
}

func typesOf(us []*Unit) []string {
	var ts []string
	for _, u := range us {
		if !slices.Contains(ts, u.Type) {
			ts = append(ts, u.Type)
		}
	}
	return ts
}

// compactHexes writes sorted hexes as runs down a column: "0805-0812,
// 0905-0911, 1013".
func compactHexes(hs []string) string {
	var parts []string
	for i := 0; i < len(hs); {
		a, _ := hex.Parse(hs[i])
		j := i
		for j+1 < len(hs) {
			b, _ := hex.Parse(hs[j+1])
			c, _ := hex.Parse(hs[j])
			if b.Col != c.Col || b.Row != c.Row+1 {
				break
			}
			j++
		}
		if j == i {
			parts = append(parts, a.String())
		} else {
			parts = append(parts, a.String()+"-"+hs[j])
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}

// setupSkeleton is the answer to a setup with every hex left to fill in:
// one "UNIT: ____" line per unit, each with its zones.
func (w *world) setupSkeleton(req adjudicator.Request, zones []adjudicator.Zone) string {
	var b strings.Builder
	fmt.Fprintf(&b, "turn: %d\nphase: %s\norders:\n", req.Turn, req.Phase)
	b.WriteString("  # Replace every " + placeholder + " by a hex of the unit's zone, one unit per hex\n")
	b.WriteString("  # (a hero or wizard may share a hex with one other unit, DR-STACK-2).\n")
	for _, z := range zones {
		fmt.Fprintf(&b, "  # %s: %s\n", z.Name, z.Compact)
		if z.Note != "" {
			fmt.Fprintf(&b, "  #   %s\n", z.Note)
		}
	}
	w.facingHelp(&b, req.Side, zones)
	for _, u := range w.st.alive(req.Side) {
		switch {
		case isElowyn(u) || !w.setsUp(u):
		case w.st.typ(u).IsMajor():
			fmt.Fprintf(&b, "  %s: %q   # %s, then its facing\n", u.ID, placeholder+" "+skeletonFacing, strings.Join(w.zonesOn(u), " or "))
		default:
			fmt.Fprintf(&b, "  %s: %q   # %s\n", u.ID, placeholder, strings.Join(w.zonesOn(u), " or "))
		}
	}
	return b.String()
}

// skeletonFacing is the facing the setup skeleton suggests for a major
// monster: south, towards the city from the north edge.
const skeletonFacing = "S"

// facingHelp explains, when the side has a major monster to set up, what
// its line says: the hex, then the hexside it faces (DR-HEX-7,
// DR-MAJOR-2), with an example taken from its own zone.
func (w *world) facingHelp(b *strings.Builder, side adjudicator.Side, zones []adjudicator.Zone) {
	var u *Unit
	for _, x := range w.st.alive(side) {
		if w.st.typ(x).IsMajor() && w.setsUp(x) {
			u = x
			break
		}
	}
	if u == nil {
		return
	}
	example := "0503"
	for _, z := range zones {
		if slices.Contains(z.Units, u.ID) && len(z.Hexes) > 0 {
			example = z.Hexes[len(z.Hexes)/2]
			break
		}
	}
	t := w.st.typ(u)
	attacks := "bites and buffets"
	if t.Major.Breath > 0 {
		attacks = "bites, buffets and breathes"
	}
	fmt.Fprintf(b, "  # A %s's line is its hex, a space, and the hexside it faces (DR-HEX-7):\n", t.Name)
	fmt.Fprintf(b, "  #   %s: \"%s %s\" stands in %s facing south (the top of the map is N;\n", u.ID, example, skeletonFacing, example)
	b.WriteString("  #   the six facings are N, NE, SE, S, SW and NW).\n")
	fmt.Fprintf(b, "  #   It %s into the hexes in front of it;\n", attacks)
	b.WriteString("  #   its head can be hit only from the hex it faces (DR-DRAGON-ATK-3,\n")
	b.WriteString("  #   DR-DRAGON-DEF-1). Change the " + skeletonFacing + " below to face the way it will go.\n")
	b.WriteString("  #   It may not share a hex with a unit of its own side (DR-STACK-1).\n")
}

// zonesOn are the setup zones of u that exist on this map.
func (w *world) zonesOn(u *Unit) []string {
	var out []string
	for _, z := range w.setupZones(u) {
		if _, ok := w.m.Zone(z); ok {
			out = append(out, z)
		}
	}
	return out
}
