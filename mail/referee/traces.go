package referee

import (
	"bytes"
	"encoding/json"
	"sync"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/mail/compose"
)

// The picture of a results mail shows what happened since the reader's
// last picture: when one mail tells several adjudications (orders sent
// ahead under then:, a default answer that let the next phase through),
// the moves and fire of each are drawn, numbered by the adjudication's
// number as the narrative numbers them, not only those of the last.

// tracesSince folds recs onto a copy of before and gathers, as viewer sees
// them, the traces of every adjudication recs hold, each with Step set to
// the adjudication's number. It returns nil when recs hold fewer than two
// adjudications (the view's own traces are then the whole story) or when
// they cannot be folded onto before (the picture then shows the last
// adjudication only).
func tracesSince(before *game.Game, recs []game.Record, viewer adjudicator.Side) []adjudicator.Trace {
	return tracerOf(before, recs).hex(viewer)
}

// tracer is tracesSince for every viewer of one submission: recs are
// folded once, on the first call, and the game after each adjudication
// kept, so that each viewer's traces are only views of those games.
type tracer struct {
	before *game.Game
	recs   []game.Record
	once   sync.Once
	steps  []tracerStep
}

type tracerStep struct {
	k int
	g *game.Game
}

func tracerOf(before *game.Game, recs []game.Record) *tracer {
	return &tracer{before: before, recs: recs}
}

func (t *tracer) fold() {
	n := 0
	for _, r := range t.recs {
		if r.Type == game.TypeAdjudicated {
			n++
		}
	}
	if t.before == nil || n < 2 {
		return
	}
	g := t.before.Clone()
	for _, r := range t.recs {
		if err := g.Apply(game.Entry{Seq: g.Version + 1, Record: r}); err != nil {
			t.steps = nil
			return
		}
		if r.Type != game.TypeAdjudicated {
			continue
		}
		var a game.Adjudicated
		if json.Unmarshal(r.Payload, &a) != nil {
			t.steps = nil
			return
		}
		t.steps = append(t.steps, tracerStep{a.K, g.Clone()})
	}
}

// hex are the traces of the views (a hex map's), nil as tracesSince.
func (t *tracer) hex(viewer adjudicator.Side) []adjudicator.Trace {
	if t == nil {
		return nil
	}
	t.once.Do(t.fold)
	if t.steps == nil {
		return nil
	}
	out := []adjudicator.Trace{} // several adjudications, nothing drawn: not the view's
	for _, s := range t.steps {
		for _, tr := range s.g.View(viewer).Traces {
			tr.Step = s.k
			out = append(out, tr)
		}
	}
	return out
}

// regions are the traces of the maps of regions
// (adjudicator.RegionMaps), as viewer sees them after each adjudication,
// each with its Step; nil as tracesSince.
func (t *tracer) regions(viewer adjudicator.Side) []adjudicator.RegionTrace {
	if t == nil {
		return nil
	}
	t.once.Do(t.fold)
	if t.steps == nil {
		return nil
	}
	out := []adjudicator.RegionTrace{}
	for _, s := range t.steps {
		rm, ok := s.g.Rules.(adjudicator.RegionMaps)
		if !ok {
			return nil
		}
		g, ok := rm.RegionGraph(s.g.State, viewer)
		if !ok {
			continue
		}
		for _, tr := range g.Traces {
			tr.Step = s.k
			out = append(out, tr)
		}
	}
	return out
}

// pictures draws each viewer's picture of one game state once, for every
// mail that carries it (the players', the referee's copy, every observer's).
type pictures struct {
	d     *Desk
	g     *game.Game
	st    story
	drawn map[adjudicator.Side][]compose.Attachment
}

func (d *Desk) pictures(g *game.Game, st story) *pictures {
	return &pictures{d: d, g: g, st: st, drawn: map[adjudicator.Side][]compose.Attachment{}}
}

// of is viewer's picture of the game, drawn at the first call.
func (p *pictures) of(viewer adjudicator.Side) []compose.Attachment {
	if atts, ok := p.drawn[viewer]; ok {
		return atts
	}
	atts := p.d.pictureSince(p.g, p.g.View(viewer), viewer, p.st.traces.hex(viewer), p.st.traces.regions(viewer))
	p.drawn[viewer] = atts
	return atts
}

// changed is side's picture when the board it sees changed since before
// the results; nil when it did not (a results mail whose board did not
// change carries no picture: fewer, smaller mails).
func (p *pictures) changed(side adjudicator.Side) []compose.Attachment {
	if p.st.before != nil && sameBoard(p.st.before(side), p.g.View(side)) && p.sameRegions(side) {
		return nil
	}
	return p.of(side)
}

// sameRegions reports whether side's map of regions is the same as before
// the results, its traces aside (true for a game with none).
func (p *pictures) sameRegions(side adjudicator.Side) bool {
	rm, ok := p.g.Rules.(adjudicator.RegionMaps)
	if !ok {
		return true
	}
	if p.st.prior == nil {
		return false
	}
	a, okA := rm.RegionGraph(p.st.prior.State, side)
	b, okB := rm.RegionGraph(p.g.State, side)
	a.Traces, b.Traces = nil, nil
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return okA == okB && bytes.Equal(ja, jb)
}
