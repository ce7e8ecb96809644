package referee

import (
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
	return tracerOf(before, recs)(viewer)
}

// tracerOf is tracesSince for every viewer of one submission: recs are
// folded once, on the first call, and the game after each adjudication
// kept, so that each viewer's traces are only views of those games.
func tracerOf(before *game.Game, recs []game.Record) func(viewer adjudicator.Side) []adjudicator.Trace {
	type step struct {
		k int
		g *game.Game
	}
	var once sync.Once
	var steps []step
	fold := func() {
		n := 0
		for _, r := range recs {
			if r.Type == game.TypeAdjudicated {
				n++
			}
		}
		if before == nil || n < 2 {
			return
		}
		g := before.Clone()
		for _, r := range recs {
			if err := g.Apply(game.Entry{Seq: g.Version + 1, Record: r}); err != nil {
				steps = nil
				return
			}
			if r.Type != game.TypeAdjudicated {
				continue
			}
			var a game.Adjudicated
			if json.Unmarshal(r.Payload, &a) != nil {
				steps = nil
				return
			}
			steps = append(steps, step{a.K, g.Clone()})
		}
	}
	return func(viewer adjudicator.Side) []adjudicator.Trace {
		once.Do(fold)
		if steps == nil {
			return nil
		}
		out := []adjudicator.Trace{} // several adjudications, nothing drawn: not the view's
		for _, s := range steps {
			for _, t := range s.g.View(viewer).Traces {
				t.Step = s.k
				out = append(out, t)
			}
		}
		return out
	}
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
	var traces []adjudicator.Trace
	if p.st.traces != nil {
		traces = p.st.traces(viewer)
	}
	atts := p.d.pictureSince(p.g, p.g.View(viewer), viewer, traces)
	p.drawn[viewer] = atts
	return atts
}

// changed is side's picture when the board it sees changed since before
// the results; nil when it did not (a results mail whose board did not
// change carries no picture: fewer, smaller mails).
func (p *pictures) changed(side adjudicator.Side) []compose.Attachment {
	if p.st.before != nil && sameBoard(p.st.before(side), p.g.View(side)) {
		return nil
	}
	return p.of(side)
}
