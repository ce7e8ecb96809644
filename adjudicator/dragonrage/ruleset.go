package dragonrage

import (
	"fmt"
	"slices"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// Version of the rules implementation, recorded in every game.
const Version = "0.1.0"

// Ruleset is Dragon Rage.
var Ruleset adjudicator.Ruleset = ruleset{}

type ruleset struct{}

func (ruleset) Info() adjudicator.Info {
	in := adjudicator.Info{Name: "dragonrage", Title: "Dragon Rage", Version: Version, Sides: []adjudicator.Side{Invader, Defender}, Options: knownOptions}
	d, err := Embedded()
	if err != nil {
		return in
	}
	for _, s := range d.Scenarios {
		doc := fmt.Sprintf("map %s, VP goal %d (%s)", s.Map, s.Goal, s.Rule)
		if !s.IsPlayable() {
			doc += "; not playable in this version"
		}
		in.Scenarios = append(in.Scenarios, adjudicator.ScenarioInfo{ID: s.ID, Title: s.Title, Sides: in.Sides, Doc: doc})
	}
	in.Scenarios = append(in.Scenarios, pointScenarioInfos(in.Sides)...)
	return in
}

func (ruleset) Setup(s adjudicator.Setup) (adjudicator.State, error) {
	return setup(s)
}

func (ruleset) Due(s adjudicator.State) []adjudicator.Request {
	st := s.(*State)
	if st.Over {
		return nil
	}
	if st.pointPhase() {
		return st.buildRequests() // points.go, weighted.go
	}
	return []adjudicator.Request{st.request()}
}

func (ruleset) ParseOrders(s adjudicator.State, req adjudicator.Request, n *yaml.Node) (adjudicator.Orders, error) {
	st := s.(*State)
	w := newWorld(st.clone(), nil)
	if st.pointPhase() {
		return w.parseBuildOrders(req, n) // points.go, weighted.go
	}
	return w.parse(req, n)
}

func (ruleset) Decide(r *adjudicator.Resolution, subs []adjudicator.Submission) error {
	st := r.State().(*State)
	w := newWorld(st, r)
	w.emit(&Resolving{})
	if st.pointPhase() {
		w.resolveBuilds(subs) // points.go, weighted.go
		return r.Err()
	}
	o := subs[0].Orders.(*Orders)
	if o.Concede {
		w.concede(subs[0].Side)
		return r.Err()
	}
	w.resolve(o)
	w.checkVictory()
	if !w.st.Over && w.st.Pending == nil {
		w.advance()
	}
	return r.Err()
}

func (ruleset) Evolve(s adjudicator.State, ev adjudicator.Event) adjudicator.State {
	st := s.(*State)
	evolve(st, ev)
	return st
}

func (ruleset) Clone(s adjudicator.State) adjudicator.State { return s.(*State).clone() }

func (ruleset) EventTypes() []adjudicator.EventType { return slices.Clone(eventTypes) }
