package game

import (
	"encoding/json"
	"fmt"
	"maps"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// Absences. A player who will be away says until when
// ("command: away"); while away, the side is not reminded and no deadline
// of its passes before AwayMargin after the absence ends: deadlines that
// would fall earlier move there, and everyone is told. An absence is
// bounded by the game's deadline.away-max (14 days by default); the player
// or the referee ends it early ("command: back").

// Absence event types (schema 1).
const (
	TypeAway = "player.away" // Away
	TypeBack = "player.back" // Back
)

// AwayMargin is how long after an absence a deadline falls at the
// earliest.
const AwayMargin = 24 * time.Hour

// DefaultAwayMax bounds an absence when the game names no deadline.away-max.
const DefaultAwayMax = 14 * 24 * time.Hour

// Away is the payload of player.away.
type Away struct {
	Side   adjudicator.Side `json:"side"`
	Until  time.Time        `json:"until"`
	Reason string           `json:"reason,omitempty"`
}

// Back is the payload of player.back: the absence ended early.
type Back struct {
	Side adjudicator.Side `json:"side"`
}

func (g *Game) applyAway(e Entry) error {
	m := maps.Clone(g.AwayUntil)
	if m == nil {
		m = map[adjudicator.Side]time.Time{}
	}
	switch e.Type {
	case TypeAway:
		var p Away
		if err := json.Unmarshal(e.Payload, &p); err != nil {
			return &LogError{Seq: e.Seq, Msg: "bad player.away: " + err.Error()}
		}
		m[p.Side] = p.Until.UTC()
	case TypeBack:
		var p Back
		if err := json.Unmarshal(e.Payload, &p); err != nil {
			return &LogError{Seq: e.Seq, Msg: "bad player.back: " + err.Error()}
		}
		delete(m, p.Side)
	}
	g.AwayUntil = m
	return nil
}

// Away reports whether side is away at now, and until when.
func (g *Game) Away(side adjudicator.Side, now time.Time) (time.Time, bool) {
	until, ok := g.AwayUntil[side]
	return until, ok && now.Before(until)
}

// earliest is the earliest a deadline of side may fall at now: AwayMargin
// after its absence, or zero.
func (g *Game) earliest(side adjudicator.Side, now time.Time) time.Time {
	if until, away := g.Away(side, now); away {
		return until.Add(AwayMargin)
	}
	return time.Time{}
}

// AwayRecords records side's absence until then and moves its deadlines
// that would fall before the absence ends (plus AwayMargin); the records,
// folded into g.
func (g *Game) AwayRecords(now, until time.Time, side adjudicator.Side, reason string, max time.Duration) ([]Record, error) {
	if _, ok := g.Player(side); !ok {
		return nil, fmt.Errorf("game %s has no side %q", g.ID, side)
	}
	if g.Over() {
		return nil, fmt.Errorf("game %s is over", g.ID)
	}
	if !until.After(now) {
		return nil, fmt.Errorf("%s is past: say until when you will be away", until.UTC().Format("2006-01-02 15:04 MST"))
	}
	if until.Sub(now) > max {
		return nil, fmt.Errorf("an absence in this game is at most %s; ask the referee for longer, or for a pause", max)
	}
	rec, err := g.fold(now, SideActor(side), TypeAway, Away{Side: side, Until: until.UTC(), Reason: reason})
	if err != nil {
		return nil, err
	}
	recs := []Record{rec}
	at := until.Add(AwayMargin)
	var reqs []string
	for _, r := range g.Due() {
		if d, ok := g.Deadlines[r.ID]; ok && r.Side == side && d.Due.Before(at) {
			reqs = append(reqs, r.ID)
		}
	}
	if len(reqs) > 0 {
		more, err := g.ExtendRecords(now, SideActor(side), fmt.Sprintf("%s is away until %s", side, until.UTC().Format("Mon 2 Jan 15:04 MST")), reqs,
			func(time.Time) time.Time { return at })
		if err != nil {
			return nil, err
		}
		recs = append(recs, more...)
	}
	return recs, nil
}

// BackRecord ends side's absence.
func (g *Game) BackRecord(now time.Time, side adjudicator.Side, actor string) (Record, error) {
	if _, away := g.Away(side, now); !away {
		return Record{}, fmt.Errorf("%s is not away", side)
	}
	return g.fold(now, actor, TypeBack, Back{Side: side})
}
