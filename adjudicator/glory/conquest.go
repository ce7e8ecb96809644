package glory

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// Conquest (DG-CONQ), the Knights of Solamnia (DG-KNIGHT) and the optional
// rule of moving semi-human capitals (DG-CAP).

// conquestSet lists the fortifications whose capture by the enemy conquers
// nation n (DG-CONQ-2): its fortresses and fortified cities; for a Knights
// nation, those of every Knights nation and the High Clerist's Tower
// (DG-KNIGHT-2, DG-AMB-63); under the capitals rule, for a semi-human
// nation, none while its capital is dismantled and the new capital once it
// is set up again (DG-CAP-6, -8). Empty means n cannot be conquered now.
func (s *State) conquestSet(n string) []string {
	d := s.data.Nations[n]
	if d.NoConquest {
		return nil
	}
	g := s.Geo()
	if d.Knights {
		var out []string
		for _, id := range s.data.NationIDs() {
			if s.data.Nations[id].Knights {
				out = append(out, g.Forts(id)...)
			}
		}
		if t := s.Tower(); t != "" && !slices.Contains(out, t) {
			out = append(out, t)
		}
		slices.Sort(out)
		return out
	}
	if s.Options.Capitals && d.SemiHuman {
		ns := s.Nations[n]
		if ns.Back > 0 {
			return nil
		}
		if ns.Capital != "" {
			return []string{ns.Capital}
		}
	}
	var out []string
	for _, h := range g.Forts(n) {
		if !s.capitalDismantled(h) {
			out = append(out, h)
		}
	}
	return out
}

// checkConquest conquers the nations whose last fortification h was
// (DG-CONQ-2, DG-KNIGHT-2, DG-CAP-8, DG-AMB-62).
func (w *world) checkConquest(h string) {
	st := w.st()
	for _, n := range st.data.NationIDs() {
		if slices.Contains(st.conquestSet(n), h) {
			w.tryConquer(n)
		}
	}
}

// tryConquer conquers n if its enemy holds its whole conquest set now.
func (w *world) tryConquer(n string) {
	st := w.st()
	ns := st.Nations[n]
	if ns.Side == "" || ns.Conquered != "" {
		return
	}
	set := st.conquestSet(n)
	if len(set) == 0 {
		return
	}
	enemy := Other(ns.Side)
	for _, h := range set {
		if st.Controller(h) != enemy {
			return
		}
	}
	if !st.data.Nations[n].Knights {
		w.conquer(n, enemy, fmt.Sprintf("%s holds %s", enemy, list(set)))
		return
	}
	// The Knights fall together (DG-KNIGHT-1, -2): every Knights nation at
	// war on the same side, and the Knights of the Tower.
	why := fmt.Sprintf("%s holds every fortification of the Knights: %s (DG-KNIGHT-1, -2)", enemy, list(set))
	for _, id := range st.data.NationIDs() {
		if m := st.Nations[id]; st.data.Nations[id].Knights && m.Side == ns.Side && m.Conquered == "" {
			w.conquer(id, enemy, why)
		}
	}
	var tower []string
	for _, u := range w.st().Sorted() {
		if w.st().Kind(u.ID).Tower && u.Where != Out && u.Where != InReserve && u.Where != Unused {
			tower = append(tower, u.ID)
		}
	}
	if len(tower) > 0 {
		w.emit(&Put{Units: tower, Where: Out, Why: "conquest"})
		w.say("The Knights of the Tower fall with them and leave the game: %s.", list(tower))
	}
}

// conquer conquers nation n for side by: its armies and leaders leave the
// game wherever they are, the pool and fleets' holds included; its fleets
// stay with the side that controlled it (DG-CONQ-1, -5, -6, DG-REPL-13,
// DG-AMB-64).
func (w *world) conquer(n string, by adjudicator.Side, why string) {
	st := w.st()
	was := st.Nations[n].Side
	w.emit(&NationChanged{Nation: n, Conquered: by})
	var gone, fleets []string
	for _, u := range st.Sorted() {
		k := st.Kind(u.ID)
		if k.Nation != n || u.Where == Out {
			continue
		}
		switch {
		case k.Type == Fleet:
			if u.Where != InReserve && u.Where != Unused {
				fleets = append(fleets, u.ID)
			}
		case k.IsArmy() || k.Type == Leader:
			gone = append(gone, u.ID)
		}
	}
	if len(gone) > 0 {
		w.emit(&Put{Units: gone, Where: Out, Why: "conquest"})
	}
	w.say("%s is conquered by %s (%s): its armies and leaders leave the game: %s (DG-CONQ-1, -5).", n, by, why, list(gone))
	if len(fleets) > 0 {
		w.say("%s's fleets stay in play under %s: %s (DG-CONQ-6).", n, was, list(fleets))
	}
}

// parseDismantle reads the capitals WS dismantles in his movement step
// (DG-CAP-3): a list of nations.
func parseDismantle(st *State, side adjudicator.Side, v *yaml.Node) ([]string, error) {
	if !st.Options.Capitals {
		return nil, adjudicator.Errorf(v, codeCannot, "the optional rule of moving semi-human capitals is not used in this game (option capitals)")
	}
	items, ok := oneOrList(v)
	if !ok {
		return nil, adjudicator.Errorf(v, adjudicator.CodeBadValue, "dismantle: is a nation, or a list of nations, whose capital you dismantle, e.g. [dunmere]")
	}
	var out []string
	var errs adjudicator.OrderErrors
	for _, e := range items {
		if why := st.dismantleProblem(side, e.Value); why != "" {
			errs = append(errs, adjudicator.Errorf(e, codeCannot, "%s", why))
			continue
		}
		if slices.Contains(out, e.Value) {
			errs = append(errs, adjudicator.Errorf(e, codeTwice, "%s is named twice", e.Value))
			continue
		}
		out = append(out, e.Value)
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return out, nil
}

// dismantleProblem says why side may not dismantle n's capital now, or ""
// (DG-CAP-1 to -3, -8): the Whitestone, in his own movement step, an elven
// or kender nation allied to him whose capital has never moved, with one of
// its land armies in the capital.
func (s *State) dismantleProblem(side adjudicator.Side, n string) string {
	d := s.data.Nations[n]
	switch {
	case d == nil:
		return fmt.Sprintf("no nation %q", n)
	case side != Whitestone:
		return "only the Whitestone dismantles capitals (DG-CAP-2)"
	case !d.SemiHuman || d.Capital == "":
		return fmt.Sprintf("%s is not an elven or kender nation with a capital (DG-CAP-1, -2)", n)
	case s.Nations[n].Side != Whitestone || s.Nations[n].Conquered != "":
		return fmt.Sprintf("%s is not a Whitestone nation (DG-CAP-2)", n)
	case s.Nations[n].Back > 0:
		return fmt.Sprintf("%s's capital is already dismantled", n)
	case s.Nations[n].Capital != "":
		return fmt.Sprintf("%s's capital was set up again at %s and can no longer move (DG-CAP-8)", n, s.Nations[n].Capital)
	}
	for _, u := range s.Armies(d.Capital, side) {
		if k := s.Kind(u.ID); k.IsLand() && k.Nation == n {
			return ""
		}
	}
	return fmt.Sprintf("no land army of %s is in its capital %s (DG-CAP-3)", n, d.Capital)
}

// dismantle dismantles the capitals named: each becomes clear terrain at
// once and is set up again 1d6+4 turns later (DG-CAP-4, -5).
func (w *world) dismantle(side adjudicator.Side, nations []string) {
	for _, n := range nations {
		st := w.st()
		if why := st.dismantleProblem(side, n); why != "" {
			w.say("%s's capital is not dismantled: %s.", n, why)
			continue
		}
		r := w.roll(fmt.Sprintf("capital delay %s", n), 1, 6)
		if w.r.Err() != nil {
			return
		}
		back := st.Turn + r.Total + 4
		r.Outcome = fmt.Sprintf("+4 = %d turns: set up again on turn %d", r.Total+4, back)
		w.emit(&NationChanged{Nation: n, Back: back})
		w.say("The Whitestone dismantles %s's capital at %s: it is clear terrain from now on, and the capital is set up again on turn %d; %s cannot be conquered before then (DG-CAP-4 to -6).", n, st.data.Nations[n].Capital, back, n)
	}
}

// capitalsDue sets up again, at the start of step 1, the capitals whose
// delay ends this turn, where the Whitestone's orders (capital:) or his
// standing capital: order say, else in the fortress or fortified city he
// controls nearest the old capital, ties drawn by a die; a nation with no
// such place left is conquered (DG-CAP-7, -9, DG-AMB-65).
func (w *world) capitalsDue(o *StrategicOrders) {
	st := w.st()
	if !st.Options.Capitals {
		return
	}
	for _, n := range st.data.NationIDs() {
		ns := st.Nations[n]
		if ns.Back == 0 || ns.Back > st.Turn || ns.Conquered != "" {
			continue
		}
		st = w.st()
		var legal []string
		for _, h := range st.Geo().Hexes() {
			if st.capitalSiteProblem(h) == "" {
				legal = append(legal, h)
			}
		}
		if len(legal) == 0 {
			w.conquer(n, Highlord, fmt.Sprintf("its capital is due on turn %d and the Whitestone controls no fortress or fortified city (DG-CAP-9)", ns.Back))
			continue
		}
		want := o.Capital[n]
		if want == "" {
			if s, ok := st.Pause.Lookup(Whitestone, "capital"); ok {
				var m map[string]string
				if yaml.Unmarshal([]byte(s), &m) == nil {
					want = normHex(m[n])
				}
			}
		}
		h := ""
		if want != "" {
			if why := st.capitalSiteProblem(want); why != "" {
				w.say("%s's capital cannot be set up at %s: %s; it goes to the nearest place.", n, want, why)
			} else {
				h = want
			}
		}
		if h == "" {
			old := st.data.Nations[n].Capital
			sortByDistance(st.Geo(), old, legal)
			d0 := st.Geo().Distance(old, legal[0])
			var ties []string
			for _, x := range legal {
				if st.Geo().Distance(old, x) == d0 {
					ties = append(ties, x)
				}
			}
			h = ties[0]
			if len(ties) > 1 {
				r := w.roll(fmt.Sprintf("capital site %s", n), 1, len(ties))
				if w.r.Err() != nil {
					return
				}
				h = ties[r.Total-1]
				r.Outcome = fmt.Sprintf("%d of %s, equally near %s: %s", r.Total, strings.Join(ties, ", "), old, h)
			}
		}
		w.emit(&NationChanged{Nation: n, Capital: h})
		w.say("%s's capital is set up again at %s; it can no longer move, and %s is conquered if the Highlord takes it (DG-CAP-7, -8).", n, h, n)
	}
}

// capitalSiteProblem says why a capital may not be set up again at h, or
// "": a fortress or fortified city the Whitestone controls (DG-CAP-7).
func (s *State) capitalSiteProblem(h string) string {
	if !s.Geo().OnMap(h) || s.Geo().Fort(h) == "" || s.capitalDismantled(h) {
		return fmt.Sprintf("%s is not a fortress or fortified city", h)
	}
	if s.Controller(h) != Whitestone {
		return fmt.Sprintf("the Whitestone does not control %s", h)
	}
	for _, n := range s.Nations {
		if n.Capital == h {
			return fmt.Sprintf("%s is already a capital", h)
		}
	}
	if s.Geo().PrintedCapital(h) != "" {
		return fmt.Sprintf("%s is already a capital", h)
	}
	return ""
}

func (c *checker) capital(v *yaml.Node, add func(error)) map[string]string {
	out, err := capitalEntries(c.st, c.side, v)
	add(err)
	return out
}

func checkCapitalStanding(st *State, side adjudicator.Side, v *yaml.Node) error {
	_, err := capitalEntries(st, side, v)
	return err
}

// capitalEntries reads capital: nation → hex, for a nation whose capital is
// dismantled (or may be, in standing orders).
func capitalEntries(st *State, side adjudicator.Side, v *yaml.Node) (map[string]string, error) {
	if v.Kind != yaml.MappingNode {
		return nil, adjudicator.Errorf(v, adjudicator.CodeBadValue, "capital: is a mapping of nation: hex, e.g. {dunmere: \"1503\"}")
	}
	if !st.Options.Capitals {
		return nil, adjudicator.Errorf(v, codeCannot, "the optional rule of moving semi-human capitals is not used in this game (option capitals)")
	}
	if side != Whitestone {
		return nil, adjudicator.Errorf(v, codeCannot, "only the Whitestone sets up semi-human capitals (DG-CAP-7)")
	}
	out := map[string]string{}
	var errs adjudicator.OrderErrors
	for i := 0; i+1 < len(v.Content); i += 2 {
		kn, hn := v.Content[i], v.Content[i+1]
		d := st.data.Nations[kn.Value]
		if d == nil || !d.SemiHuman || d.Capital == "" {
			errs = append(errs, adjudicator.Errorf(kn, codeCannot, "%q is not an elven or kender nation with a capital (DG-CAP-1)", kn.Value))
			continue
		}
		h, err := hexOf(st, hn)
		if err != nil {
			errs = append(errs, err.(*adjudicator.OrderError))
			continue
		}
		if st.Geo().Fort(h) == "" {
			errs = append(errs, adjudicator.Errorf(hn, codeNoHome, "%s is not a fortress or fortified city (DG-CAP-7)", h))
			continue
		}
		out[kn.Value] = h
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return out, nil
}

// PosCapital is a semi-human capital in a position: set up again At a hex,
// or dismantled until turn Back (DG-CAP).
type PosCapital struct {
	At   string `yaml:"at"`
	Back int    `yaml:"back"`
}

// positionStrategic sets what a position says of fortifications taken and
// capitals moved.
func positionStrategic(st *State, p *Position) error {
	for h, side := range p.Held {
		if !st.Geo().OnMap(h) || st.Geo().Fort(h) == "" || !validSide(side) {
			return fmt.Errorf("position: held: %s: %s: give a fortress or fortified city of the map and highlord or whitestone", h, side)
		}
		if st.Held == nil {
			st.Held = map[string]adjudicator.Side{}
		}
		st.Held[h] = side
	}
	for n, c := range p.Capitals {
		d := st.data.Nations[n]
		if d == nil || !d.SemiHuman {
			return fmt.Errorf("position: capitals: %s is not a semi-human nation of the module", n)
		}
		if (c.At == "") == (c.Back == 0) {
			return fmt.Errorf("position: capitals: %s: give either at: (where it was set up again) or back: (the turn it is due)", n)
		}
		if c.At != "" && st.Geo().Fort(c.At) == "" {
			return fmt.Errorf("position: capitals: %s: %s is not a fortress or fortified city", n, c.At)
		}
		st.Nations[n].Capital, st.Nations[n].Back = c.At, c.Back
	}
	return nil
}
