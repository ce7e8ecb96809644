package game

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

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

// queueItems opens a side's queue: the text it was sent in and the
// entries not used yet.
func (g *Game) queueItems(in Input, out *Outcome, q *Queue) (Envelope, []Queued, error) {
	b, err := open(in, out, q.Sealed)
	if err != nil {
		return Envelope{}, nil, err
	}
	var op OrdersOpening
	if err := json.Unmarshal(b, &op); err != nil {
		return Envelope{}, nil, fmt.Errorf("%w: queued orders: %v", ErrInternal, err)
	}
	_, env, err := readEnvelope([]byte(op.Text))
	if err != nil {
		return Envelope{}, nil, fmt.Errorf("%w: queued orders: %v", ErrInternal, err)
	}
	var rest []Queued
	for _, it := range op.Queue {
		if it.Index > q.Used {
			rest = append(rest, it)
		}
	}
	return env, rest, nil
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
		env, items, err := g.queueItems(in, out, q)
		if err != nil {
			return false, err
		}
		j := slices.IndexFunc(items, func(it Queued) bool { return it.Turn == r.Turn && it.Phase == r.Phase })
		if j < 0 {
			if len(items) > 0 && items[len(items)-1].Turn < r.Turn {
				if err := g.dropQueue(in, out, r, fmt.Sprintf("turn %d is over", items[len(items)-1].Turn)); err != nil {
					return false, err
				}
			}
			continue
		}
		ok, err := g.useQueued(in, out, r, q, env, items, j)
		if err != nil {
			return false, err
		}
		used = used || ok
	}
	return used, nil
}

// useQueued parses entry j of items for request r and records it, or drops
// the queue if it no longer fits.
func (g *Game) useQueued(in Input, out *Outcome, r adjudicator.Request, q *Queue, env Envelope, items []Queued, j int) (bool, error) {
	it := items[j]
	mine := adjudicator.To(r.Side)
	for _, skipped := range items[:j] {
		out.Notes = append(out.Notes, adjudicator.Line{To: mine,
			Text: fmt.Sprintf("the %s's orders sent ahead for turn %d, phase %s were not needed: that phase was passed", r.Side, skipped.Turn, skipped.Phase)})
	}
	if it.Index < 0 || it.Index >= len(env.Then) {
		return false, fmt.Errorf("%w: queued orders %d are not in the stored text", ErrInternal, it.Index)
	}
	if r.SealKey != "" {
		// Its text would be revealed when its last entry is used.
		return false, g.dropQueue(in, out, r, fmt.Sprintf("the orders for turn %d, phase %s stay secret after their adjudication and cannot be sent ahead: send them now", it.Turn, it.Phase))
	}
	node := &env.Then[it.Index].Orders
	orders, err := g.Rules.ParseOrders(g.State, r, node)
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
	text, err := encodeOrders(node)
	if err != nil {
		return false, err
	}
	acc := OrdersAccepted{
		Request: r.ID, Side: r.Side, Seat: g.seatIfMoved(r.Side), Kind: r.Kind, Turn: r.Turn, Phase: r.Phase,
		Orders: text, Normalized: string(norm), Digest: Digest([]byte(text)),
		Via: "queued", Queued: true, QueueOf: q.Seq, QueueIndex: it.Index, QueueDone: j == len(items)-1,
	}
	var op *OrdersOpening
	if r.Hidden {
		op = &OrdersOpening{Digest: acc.Digest, Orders: text, Normalized: acc.Normalized}
	}
	rec, err := acceptedRecord(in, acc, op, r.Hidden)
	if err != nil {
		return false, err
	}
	if err := g.append(out, rec); err != nil {
		return false, err
	}
	out.Notes = append(out.Notes, adjudicator.Line{Text: fmt.Sprintf("the %s's orders sent ahead for %s were used", r.Side, r.Title)})
	if j == len(items)-1 {
		// Every entry is used: the text may now be read by all.
		if err := g.revealIfSealed(in, out, q.Seq, q.Sealed); err != nil {
			return false, err
		}
	}
	return true, nil
}

// revealIfSealed reveals the commitment c of event seq unless it is revealed.
func (g *Game) revealIfSealed(in Input, out *Outcome, seq uint64, c string) error {
	ref := SealedRef{Seq: seq, Commitment: c}
	if !slices.Contains(g.Unrevealed, ref) {
		return nil
	}
	return g.reveal(in, out, ref)
}

// dropQueue records that a side's queue is given up, and why; the reason
// is told to that side alone.
func (g *Game) dropQueue(in Input, out *Outcome, r adjudicator.Request, why string) error {
	op := QueueDroppedOpening{Reason: why}
	var err error
	if op.Salt, err = salt(in); err != nil {
		return err
	}
	private, c, err := seal(op)
	if err != nil {
		return err
	}
	rec, err := record(TypeQueueDropped, in.Time, ActorEngine, QueueDropped{Side: r.Side, Turn: r.Turn, Phase: r.Phase, Sealed: c})
	if err != nil {
		return err
	}
	rec.Private = private
	if err := g.append(out, rec); err != nil {
		return err
	}
	out.Notes = append(out.Notes, adjudicator.Line{To: adjudicator.To(r.Side), Text: fmt.Sprintf("the %s is asked for %s as usual: %s", r.Side, r.Title, why)})
	return nil
}
