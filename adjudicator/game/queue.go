package game

import (
	"errors"
	"fmt"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
)

// Orders sent ahead. A player may follow the orders due now with a "then:"
// list of orders for the phases that come after, for the same side:
//
//	turn: 3
//	phase: movement
//	orders: [...]
//	then:
//	  - phase: fire
//	    orders: [...]
//	  - phase: melee
//	    orders: [...]
//
// Each entry is checked (and used) only when its phase comes due, against
// the state then: if it no longer fits (the dice changed things), it and
// the rest of the list are dropped, the side is asked as usual, and the
// notes say why. An entry for a phase that was passed is skipped. A later
// text with its own "then:" replaces the list.

// checkThen checks the shape of a "then:" list; the orders in it are
// checked when their phase comes due.
func checkThen(env Envelope, req adjudicator.Request, root *yaml.Node) ([]Queued, error) {
	if len(env.Then) == 0 {
		return nil, nil
	}
	node, list := yamlx.Key(root, "then"), yamlx.Value(root, "then")
	seen := map[string]bool{fmt.Sprintf("%d/%s", req.Turn, req.Phase): true}
	var out []Queued
	for i, t := range env.Then {
		at := node
		if list != nil && i < len(list.Content) {
			at = list.Content[i]
		}
		turn := req.Turn
		if t.Turn != nil {
			turn = *t.Turn
		}
		switch {
		case t.Phase == "":
			return nil, adjudicator.Errorf(at, adjudicator.CodeMissingField, "each entry under \"then:\" names its phase: add \"phase: ...\"")
		case t.Orders.Kind == 0:
			return nil, adjudicator.Errorf(at, adjudicator.CodeMissingField, "the entry for phase %s under \"then:\" has no \"orders:\"", t.Phase)
		case turn < req.Turn:
			return nil, adjudicator.Errorf(at, adjudicator.CodeWrongTurn, "orders sent ahead are for this turn or later, not turn %d", turn)
		}
		key := fmt.Sprintf("%d/%s", turn, t.Phase)
		if seen[key] {
			return nil, adjudicator.Errorf(at, adjudicator.CodeDuplicate, "turn %d, phase %s is given twice", turn, t.Phase)
		}
		seen[key] = true
		out = append(out, Queued{Index: i, Turn: turn, Phase: t.Phase})
	}
	return out, nil
}

// useQueues answers due requests from the sides' queues. It reports
// whether it answered any.
func (g *Game) useQueues(in Input, out *Outcome) (bool, error) {
	used := false
	for _, r := range g.Due() {
		if _, answered := g.Answered(r.ID); answered {
			continue
		}
		q := g.Queues[r.Side]
		if q == nil {
			continue
		}
		j := -1
		for i, it := range q.Items {
			if it.Turn == r.Turn && it.Phase == r.Phase {
				j = i
				break
			}
		}
		if j < 0 {
			last := q.Items[len(q.Items)-1]
			if last.Turn < r.Turn {
				if err := g.dropQueue(in, out, r, fmt.Sprintf("turn %d is over", last.Turn)); err != nil {
					return false, err
				}
			}
			continue
		}
		ok, err := g.useQueued(in, out, r, q, j)
		if err != nil {
			return false, err
		}
		used = used || ok
	}
	return used, nil
}

// useQueued parses entry j of q for request r and records it, or drops
// the queue if it no longer fits.
func (g *Game) useQueued(in Input, out *Outcome, r adjudicator.Request, q *Queue, j int) (bool, error) {
	oa, err := q.Accepted()
	if err != nil {
		return false, fmt.Errorf("%w: queued orders: %v", ErrInternal, err)
	}
	_, env, err := readEnvelope([]byte(oa.Raw))
	if err != nil {
		return false, fmt.Errorf("%w: queued orders: %v", ErrInternal, err)
	}
	it := q.Items[j]
	for _, skipped := range q.Items[:j] {
		out.Notes = append(out.Notes, fmt.Sprintf("the %s's orders sent ahead for turn %d, phase %s were not needed: that phase was passed", r.Side, skipped.Turn, skipped.Phase))
	}
	orders, err := g.Rules.ParseOrders(g.State, r, &env.Then[it.Index].Orders)
	if err != nil {
		var oe *adjudicator.OrderError
		var oes adjudicator.OrderErrors
		if !errors.As(err, &oe) && !errors.As(err, &oes) {
			return false, err
		}
		return false, g.dropQueue(in, out, r, fmt.Sprintf("the orders sent ahead for turn %d, phase %s no longer fit: %v", it.Turn, it.Phase, err))
	}
	norm, err := yaml.Marshal(orders)
	if err != nil {
		return false, fmt.Errorf("%w: orders do not encode: %v", ErrInternal, err)
	}
	acc := OrdersAccepted{
		Request: r.ID, Side: r.Side, Kind: r.Kind, Turn: r.Turn, Phase: r.Phase,
		Raw: oa.Raw, Normalized: string(norm), Digest: Digest([]byte(oa.Raw)),
		Via: "queued", MessageID: oa.MessageID, Queued: true, QueueIndex: it.Index,
	}
	rec, err := record(TypeOrders, in.Time, SideActor(r.Side), acc)
	if err != nil {
		return false, err
	}
	if err := g.Apply(Entry{Seq: g.Version + 1, Record: rec}); err != nil {
		return false, fmt.Errorf("%w: %v", ErrInternal, err)
	}
	out.Records = append(out.Records, rec)
	out.Notes = append(out.Notes, fmt.Sprintf("the %s's orders sent ahead for %s were used", r.Side, r.Title))
	return true, nil
}

// dropQueue records that a side's queue is given up, and why.
func (g *Game) dropQueue(in Input, out *Outcome, r adjudicator.Request, why string) error {
	rec, err := record(TypeQueueDropped, in.Time, ActorEngine, QueueDropped{Side: r.Side, Turn: r.Turn, Phase: r.Phase, Reason: why})
	if err != nil {
		return err
	}
	if err := g.Apply(Entry{Seq: g.Version + 1, Record: rec}); err != nil {
		return fmt.Errorf("%w: %v", ErrInternal, err)
	}
	out.Records = append(out.Records, rec)
	out.Notes = append(out.Notes, fmt.Sprintf("the %s is asked for %s as usual: %s", r.Side, r.Title, why))
	return nil
}
