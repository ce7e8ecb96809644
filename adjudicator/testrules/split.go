package testrules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// The race can be played by teams whose players split a side's runners
// (team.orders=split): each runner is a part, named by its id in lower
// case ("r1"). The moves are split, one part per runner; the bids and the
// trap decisions are the captain's.

var _ adjudicator.Splitter = race{}

func partOf(runner string) string { return strings.ToLower(runner) }

func (race) Parts(s adjudicator.State, side adjudicator.Side) []string {
	var out []string
	for _, r := range s.(*State).Runners {
		if r.Side == string(side) {
			out = append(out, partOf(r.ID))
		}
	}
	return out
}

// Needs: every runner of the side at a move that has not finished; none
// (the captain) for a bid or a trap.
func (race) Needs(s adjudicator.State, req adjudicator.Request) []string {
	st := s.(*State)
	if req.Phase != "move" {
		return nil
	}
	var out []string
	for _, r := range st.Runners {
		if r.Side == string(req.Side) && r.At < st.Track {
			out = append(out, partOf(r.ID))
		}
	}
	return out
}

func (race) Commands(_ adjudicator.State, req adjudicator.Request, o adjudicator.Orders) []string {
	ms, ok := o.([]Move)
	if !ok || req.Phase != "move" {
		return nil
	}
	var out []string
	for _, m := range ms {
		out = append(out, partOf(m.Advance))
	}
	return out
}

// Merge puts the parts' moves together, in the order the answers came, each
// answer giving only the moves of its own runners.
func (race) Merge(_ adjudicator.State, req adjudicator.Request, answers []adjudicator.PartAnswer) (adjudicator.Orders, error) {
	if req.Phase != "move" {
		return nil, fmt.Errorf("request %s is not split", req.ID)
	}
	out := []Move{}
	for _, a := range answers {
		ms, ok := a.Orders.([]Move)
		if !ok {
			return nil, fmt.Errorf("answer for %v is %T, not moves", a.Parts, a.Orders)
		}
		for _, m := range ms {
			if slices.Contains(a.Parts, partOf(m.Advance)) {
				out = append(out, m)
			}
		}
	}
	return out, nil
}
