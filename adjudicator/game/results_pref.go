package game

import (
	"encoding/json"
	"fmt"
	"maps"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// When a player gets results. By default every adjudication's results go
// to every player ("every"). A player who wants fewer mails asks for
// results only when something is due from them ("due"): they then get a
// results mail when they must act, when the game ends, and when their own
// orders made the results (the acknowledgement opens that mail); each
// tells everything since the last results they were sent. The player (or
// the referee) sets it by mail: "command: mail", "results: due".

// TypeResultsPref is the event that records a side's choice (schema 1).
const TypeResultsPref = "player.results" // ResultsPref

// The choices.
const (
	ResultsEvery = "every"
	ResultsDue   = "due"
)

// ResultsPref is the payload of player.results.
type ResultsPref struct {
	Side adjudicator.Side `json:"side"`
	When string           `json:"when"` // ResultsEvery or ResultsDue
}

func (g *Game) applyResultsPref(e Entry) error {
	var p ResultsPref
	if err := json.Unmarshal(e.Payload, &p); err != nil {
		return &LogError{Seq: e.Seq, Msg: "bad player.results: " + err.Error()}
	}
	m := maps.Clone(g.ResultsOnlyDue)
	if m == nil {
		m = map[adjudicator.Side]bool{}
	}
	switch p.When {
	case ResultsDue:
		m[p.Side] = true
	case ResultsEvery:
		delete(m, p.Side)
	default:
		return &LogError{Seq: e.Seq, Msg: fmt.Sprintf("player.results: unknown choice %q", p.When)}
	}
	g.ResultsOnlyDue = m
	return nil
}

// ResultsWhen is side's choice: ResultsEvery or ResultsDue.
func (g *Game) ResultsWhen(side adjudicator.Side) string {
	if g.ResultsOnlyDue[side] {
		return ResultsDue
	}
	return ResultsEvery
}

// ResultsPrefRecord records side's choice of when to get results, folded
// into g.
func (g *Game) ResultsPrefRecord(now time.Time, side adjudicator.Side, when, actor string) (Record, error) {
	if _, ok := g.Player(side); !ok {
		return Record{}, fmt.Errorf("game %s has no side %q", g.ID, side)
	}
	if when != ResultsEvery && when != ResultsDue {
		return Record{}, fmt.Errorf("results: %q is not a choice; say %q (every adjudication) or %q (only when something is due from you)", when, ResultsEvery, ResultsDue)
	}
	if g.ResultsWhen(side) == when {
		return Record{}, fmt.Errorf("%s already gets results %s", side, map[string]string{ResultsEvery: "after every adjudication", ResultsDue: "only when something is due from it"}[when])
	}
	return g.fold(now, actor, TypeResultsPref, ResultsPref{Side: side, When: when})
}
