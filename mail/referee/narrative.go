package referee

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/templates"
)

// The narrative of a results mail: for each adjudication since the
// reader's last results, what was played (each side's orders, as the log
// lets the reader read them), what happened and the dice. The orders come
// from the log's orders.accepted events, never from the sender's own
// in-memory copy: a side reads another side's orders only when their
// normalized text is public (orders due now) or revealed (hidden orders,
// revealed just before the adjudication that uses them).

// story is, for each adjudication (by its number K), the orders it used,
// in the order they were accepted: their public payloads, with what the
// log revealed of them.
type story struct {
	played map[int][]game.OrdersAccepted
	// from is where each unit stood before the first adjudication told,
	// as the reader's view showed it; nil when not known. Moves are drawn
	// from there ("0202 → 0303").
	from func(side adjudicator.Side) map[string]string
	// before is the board as each side saw it before the adjudications
	// told; nil when not known (then a picture is always attached).
	before func(side adjudicator.Side) adjudicator.View
	// traces are the traces of every adjudication told, as each side saw
	// them, for the picture (traces.go); nil when not known.
	traces *tracer
	// prior is the game before the adjudications told, when known: a map
	// of regions is compared with its own (traces.go).
	prior *game.Game
}

// pendingOrders is an accepted answer waiting for its adjudication.
type pendingOrders struct {
	seq uint64
	oa  game.OrdersAccepted
}

// storyWalker reads events in order and remembers what each
// adjudication used.
type storyWalker struct {
	pending []pendingOrders
	played  map[int][]game.OrdersAccepted
}

func newStoryWalker() *storyWalker { return &storyWalker{played: map[int][]game.OrdersAccepted{}} }

// waiting starts the walk with the answers a game holds now (before the
// records to be walked).
func (w *storyWalker) waiting(g *game.Game) {
	for _, p := range g.Pending {
		oa, err := p.Accepted()
		if err != nil {
			continue
		}
		w.pending = append(w.pending, pendingOrders{seq: p.Seq, oa: oa})
	}
}

// event reads one event of the log.
func (w *storyWalker) event(seq uint64, typ string, payload []byte) {
	switch typ {
	case game.TypeOrders:
		var oa game.OrdersAccepted
		if json.Unmarshal(payload, &oa) != nil {
			return
		}
		for i, p := range w.pending {
			if p.oa.Request == oa.Request { // replaced
				w.pending = append(w.pending[:i:i], w.pending[i+1:]...)
				break
			}
		}
		w.pending = append(w.pending, pendingOrders{seq: seq, oa: oa})
	case game.TypeRevealed:
		var rv game.Revealed
		if json.Unmarshal(payload, &rv) != nil {
			return
		}
		for i, p := range w.pending {
			if p.seq != rv.Of || p.oa.Sealed != rv.Commitment {
				continue
			}
			var op game.OrdersOpening
			if json.Unmarshal([]byte(rv.Opening), &op) == nil && op.Normalized != "" {
				w.pending[i].oa.Normalized = op.Normalized
			}
		}
	case game.TypeAdjudicated:
		var a game.Adjudicated
		if json.Unmarshal(payload, &a) != nil {
			return
		}
		var used []game.OrdersAccepted
		for _, p := range w.pending {
			for _, r := range a.Requests {
				if r == p.oa.Request {
					used = append(used, p.oa)
				}
			}
		}
		w.played[a.K] = used
		w.pending = nil
	}
}

// records walks records, the first of which will be event base+1.
func (w *storyWalker) records(base uint64, recs []game.Record) {
	for i, r := range recs {
		w.event(base+1+uint64(i), r.Type, r.Payload)
	}
}

// submissionStory is the story of the adjudications a submission made:
// before is the game it was made in, next the game after its records.
func submissionStory(before, next *game.Game, recs []game.Record) story {
	w := newStoryWalker()
	w.waiting(before)
	w.records(next.Version-uint64(len(recs)), recs)
	return story{played: w.played, from: func(side adjudicator.Side) map[string]string { return unitsAt(before.View(side)) },
		before: before.View, traces: tracerOf(before, recs), prior: before}
}

// unitsAt maps each unit of a view to where it stands.
func unitsAt(v adjudicator.View) map[string]string {
	at := map[string]string{}
	for _, u := range v.Units {
		if u.At != "" && !u.Gone {
			at[u.ID] = u.At
		}
	}
	return at
}

// title says what an adjudication answered: "turn 1, bid (red and blue)".
func (s story) title(k int) string {
	used := s.played[k]
	if len(used) == 0 {
		return ""
	}
	var sides []string
	for _, oa := range used {
		sides = append(sides, string(oa.Side))
	}
	return fmt.Sprintf("turn %d, %s (%s)", used[0].Turn, used[0].Phase, strings.Join(sides, " and "))
}

// playedFor is what adjudication k used, as viewer may read it; seat is
// the seat of viewer's player (game.Game.Seat): the orders he sent are
// his, whichever side he played then. at is where viewer last saw each
// unit; moves told update it.
func (s story) playedFor(k int, viewer, seat adjudicator.Side, at map[string]string) []templates.Played {
	var out []templates.Played
	for _, oa := range s.played[k] {
		p := templates.Played{Side: string(oa.Side), Mine: viewer != adjudicator.Referee && seat == oa.Sender()}
		if oa.Side == adjudicator.SeriesSide {
			// What umpire answered for a series: a game's result in one
			// line (the whole of it is in the log), a start in none.
			p.Lines = seriesLines(oa)
			p.Pass = len(p.Lines) == 0
			out = append(out, p)
			continue
		}
		if oa.Normalized == "" {
			p.Sealed = true // not public, not revealed: never shown
		} else {
			p.Lines = orderLines(oa.Normalized, at)
			p.Pass = len(p.Lines) == 0
		}
		out = append(out, p)
	}
	return out
}

// seriesLines is a series' recorded answer for people: a game's result
// as "game lg-r1 ended: red wins (its event 16, hash 6deb…)".
func seriesLines(oa game.OrdersAccepted) []string {
	if oa.Kind != adjudicator.KindResult {
		return nil
	}
	var r adjudicator.ChildResult
	if err := yaml.Unmarshal([]byte(oa.Normalized), &r); err != nil || r.Game == "" {
		return textLines(oa.Normalized)
	}
	head := r.Head
	if len(head) > 12 {
		head = head[:12] + "…"
	}
	return []string{fmt.Sprintf("game %s ended: %s (its log's event %d, hash %s)", r.Game, r.Result, r.Events, head)}
}

// orderLines are normalized orders for people, one action a line. When
// the orders give paths (a move's "path:"), each such action reads
// "move ORC-2: 0202 → 0303 → 0403", starting from where at says the unit
// stood (and at is moved on); other actions are shown in YAML's short
// form. Orders without paths are their YAML lines. A pass is no line.
func orderLines(normalized string, at map[string]string) []string {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(normalized), &doc); err != nil || len(doc.Content) == 0 {
		return textLines(normalized)
	}
	root := doc.Content[0]
	if empty(root) {
		return nil
	}
	if !hasPath(root) {
		return textLines(normalized)
	}
	var out []string
	switch root.Kind {
	case yaml.SequenceNode:
		for _, it := range root.Content {
			out = append(out, action(it, at))
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(root.Content); i += 2 {
			k, v := root.Content[i], root.Content[i+1]
			if v.Kind != yaml.SequenceNode {
				out = append(out, k.Value+": "+short(v))
				continue
			}
			for _, it := range v.Content {
				out = append(out, action(it, at))
			}
		}
	default:
		return textLines(normalized)
	}
	return out
}

// action is one item of orders: a move along a path, or its short form.
func action(n *yaml.Node, at map[string]string) string {
	path := field(n, "path")
	if n.Kind != yaml.MappingNode || path == nil || path.Kind != yaml.SequenceNode || len(n.Content) < 2 {
		return short(n)
	}
	verb, unit := n.Content[0].Value, n.Content[1].Value
	var hexes []string
	if from, ok := at[unit]; ok && from != "" && from != "off-map" {
		hexes = append(hexes, from)
	}
	for _, h := range path.Content {
		hexes = append(hexes, h.Value)
	}
	line := verb + " " + unit + ": " + strings.Join(hexes, " → ")
	if len(path.Content) > 0 && at != nil {
		at[unit] = path.Content[len(path.Content)-1].Value
	}
	var rest []string
	for i := 2; i+1 < len(n.Content); i += 2 {
		if k := n.Content[i].Value; k != "path" {
			rest = append(rest, k+": "+short(n.Content[i+1]))
		}
	}
	if len(rest) > 0 {
		line += " (" + strings.Join(rest, ", ") + ")"
	}
	return line
}

func field(n *yaml.Node, key string) *yaml.Node {
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

func hasPath(n *yaml.Node) bool {
	if field(n, "path") != nil {
		return true
	}
	for _, c := range n.Content {
		if hasPath(c) {
			return true
		}
	}
	return false
}

func empty(n *yaml.Node) bool {
	switch n.Kind {
	case yaml.MappingNode, yaml.SequenceNode:
		return len(n.Content) == 0
	case yaml.ScalarNode:
		return n.Tag == "!!null" || n.Value == ""
	}
	return false
}

// short is a node in YAML's one-line (flow) form.
func short(n *yaml.Node) string {
	if n.Kind == yaml.ScalarNode {
		return n.Value
	}
	c := *n
	c.Style |= yaml.FlowStyle
	b, err := yaml.Marshal(&c)
	if err != nil {
		return n.Value
	}
	return strings.TrimSpace(string(b))
}

func textLines(s string) []string {
	s = strings.TrimRight(s, "\n")
	switch strings.TrimSpace(s) {
	case "", "{}", "[]", "null":
		return nil
	}
	return strings.Split(s, "\n")
}

// logStory is the story of the adjudications in g's stored log and in
// recs, to be appended after it (g has them folded in already): what each
// used, read from the log. Where units stood before is not known.
func (d *Desk) logStory(ctx context.Context, g *game.Game, recs []game.Record) (story, error) {
	base := g.Version - uint64(len(recs))
	w := newStoryWalker()
	// What an adjudication used was accepted after the one before it: the
	// walk starts after the last stored adjudication (the one before it
	// too, when recs hold none and the last is to be told).
	n := 1
	if len(recs) == 0 {
		n = 2
	}
	evs, err := d.tail(ctx, g.ID, base, func(e store.Event) bool {
		if e.Type == game.TypeAdjudicated {
			n--
		}
		return n == 0
	})
	if err != nil {
		return story{}, err
	}
	for _, e := range evs {
		w.event(e.Seq, e.Type, e.Payload)
	}
	w.records(base, recs)
	return story{played: w.played}, nil
}

// tail is the stored events of game id up to event base that follow the
// last one for which stop says true (every one up to base when none
// does), read backwards a stretch at a time: what a mail needs of a long
// log is its end. stop sees the events from the last backwards.
func (d *Desk) tail(ctx context.Context, id string, base uint64, stop func(store.Event) bool) ([]store.Event, error) {
	const stretch = 256
	var out []store.Event
	errStop := errors.New("stop")
	for end := base; end > 0; {
		from := uint64(1)
		if end > stretch {
			from = end - stretch + 1
		}
		var evs []store.Event
		err := d.Games.Store.Scan(ctx, id, from, func(e store.Event) error {
			if e.Seq > end {
				return errStop
			}
			evs = append(evs, e)
			return nil
		})
		if err != nil && !errors.Is(err, errStop) {
			return nil, err
		}
		for i := len(evs) - 1; i >= 0; i-- {
			if stop(evs[i]) {
				return append(evs[i+1:], out...), nil
			}
		}
		out = append(evs, out...)
		end = from - 1
	}
	return out, nil
}
