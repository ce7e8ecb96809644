package game

import (
	"encoding/json"
	"fmt"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// WhatIf decides adjudication k of a log again with the given faces first
// (then the recorded seed's own dice) and returns what would have happened.
// Nothing is changed: it is a referee's tool for answering "what if that
// roll had been a 6?".
func WhatIf(entries []Entry, lookup Source, k int, faces []int) (*Result, error) {
	if len(entries) == 0 {
		return nil, fmt.Errorf("the log is empty")
	}
	g, err := Start(entries[0], lookup)
	if err != nil {
		return nil, err
	}
	g.lookAhead(entries)
	var pre *Game
	for _, e := range entries[1:] {
		if (ruleEvent(e.Type) || e.Type == TypeAdjudicated) && pre == nil && g.K == k-1 {
			pre = g.Clone()
		}
		if e.Type == TypeAdjudicated && g.K == k-1 {
			var a Adjudicated
			if err := json.Unmarshal(e.Payload, &a); err != nil {
				return nil, &LogError{Seq: e.Seq, Msg: err.Error()}
			}
			var then adjudicator.Roller
			if a.Seed != "" {
				seed, err := dice.ParseSeed(a.Seed)
				if err != nil {
					return nil, err
				}
				then = dice.NewStream(seed, g.Created.DiceGame(), k)
			}
			r, err := pre.decide(&dice.Script{Faces: faces, Then: then})
			if err != nil {
				return nil, err
			}
			lines, rolls, _, _ := splitReport(r.Report(), r.Rolls())
			stored := 0
			for _, ev := range r.Events() {
				if ev.EventType() != adjudicator.TypeReveal {
					stored++
				}
			}
			// The state hash is not salted: a what-if is the referee's
			// alone, and is never compared with the log.
			return &Result{Adjudicated: Adjudicated{K: k, Requests: a.Requests, Events: stored, Rolls: rolls, Report: lines,
				StateHash: StateHash(r.State()), RulesetVersion: pre.Rules.Info().Version}, Full: r.Report(), AllRolls: r.Rolls(), RuleEvents: r.Events()}, nil
		}
		if err := g.Apply(e); err != nil {
			return nil, err
		}
	}
	return nil, fmt.Errorf("game %s has %d adjudications; there is no adjudication %d", g.ID, g.K, k)
}
