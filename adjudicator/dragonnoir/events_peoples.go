package dragonnoir

import (
	"github.com/umpire-pbem/umpire/adjudicator"
)

// The events of the valley's peoples (La Conquête): a rider mounting or
// getting down (move_rider.go), a character turning fanatic, and one
// leaving the game at a battle's end (special_peoples.go).
type (
	// Mounted: Rider mounts Steed (Up), the pair standing at At, having
	// spent Spent MP (the steed's); or gets down (not Up): the steed stays
	// where the pair stood, having spent Spent MP, and the rider stands at
	// At ("" where the pair stood: thrown, or killed on it).
	Mounted struct {
		Rider string `json:"rider"`
		Steed string `json:"steed"`
		Up    bool   `json:"up,omitempty"`
		At    string `json:"at,omitempty"`
		Spent int    `json:"spent,omitempty"`
	}
	// Fanaticised makes a character fanatic to the end of the battle
	// (DN3-PEOPLE-DRUID-5, -BARB-1; GAP-28).
	Fanaticised struct {
		Unit string `json:"unit"`
	}
	// Departed takes a character out of the game at a battle's end: it
	// goes back to the wild (DN3-PEOPLE-DRUID-6, -GOB-9).
	Departed struct {
		Unit string `json:"unit"`
	}
)

func (*Mounted) EventType() string     { return Prefix + ".mounted" }
func (*Fanaticised) EventType() string { return Prefix + ".fanatic" }
func (*Departed) EventType() string    { return Prefix + ".departed" }

func peoplesEvents() []adjudicator.EventType {
	ev := func(mk func() adjudicator.Event) adjudicator.EventType {
		return adjudicator.EventType{Name: mk().EventType(), Schema: 1, New: mk}
	}
	return []adjudicator.EventType{
		ev(func() adjudicator.Event { return &Mounted{} }),
		ev(func() adjudicator.Event { return &Fanaticised{} }),
		ev(func() adjudicator.Event { return &Departed{} }),
	}
}

// evolvePeoples folds the events above; false for any other.
func (s *State) evolvePeoples(ev adjudicator.Event) bool {
	switch e := ev.(type) {
	case *Mounted:
		r, m := s.Chars[e.Rider], s.Chars[e.Steed]
		if e.Up {
			from := r.At
			r.At, r.Mount, r.Spent = e.At, m.ID, e.Spent
			m.At, m.RiddenBy = "", r.ID
			s.Traces = append(s.Traces, adjudicator.Trace{Kind: "mount", Unit: r.ID, Path: []string{from, e.At}})
			return true
		}
		m.At, m.RiddenBy, m.Spent = r.At, "", e.Spent
		r.Mount = ""
		if e.At != "" {
			s.Traces = append(s.Traces, adjudicator.Trace{Kind: "dismount", Unit: r.ID, Path: []string{r.At, e.At}})
			r.At = e.At
		}
	case *Fanaticised:
		s.Chars[e.Unit].Fanatic = true
	case *Departed:
		c := s.Chars[e.Unit]
		c.Departed, c.At = true, ""
	default:
		return false
	}
	return true
}
