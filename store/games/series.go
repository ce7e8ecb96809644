package games

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/store"
)

// Series (docs/architecture.md, "Series"): a series is a game whose
// ruleset reaches other games. Every write of a game goes through follow,
// which adds to the same transaction what the write causes elsewhere:
//
//   - a series' automatic answers (its start), given at once;
//   - the child games its series.child events reach, created with it;
//   - when the write ends a child game, the child's result recorded in its
//     series, and what the series then decides (standings, the next games).
//
// All of it is one store.AppendAll: a crash leaves both ends or neither.
// Locks are taken child first, then its series, never the other way, so
// two children ending at once cannot deadlock.

// SeriesMail builds the mails a series' adjudication on a child's result
// causes (the standings, to every player), given the series before and
// after it. Optional.
type SeriesMail func(ctx context.Context, before, after *game.Game, out *game.Outcome) ([]store.Message, error)

// ChildMail builds the welcome mails of a child game a series reached,
// given each side's secret in plain text. Optional.
type ChildMail func(series, child *game.Game, secrets map[adjudicator.Side]string) ([]store.Message, error)

// maxSeriesDepth bounds series within series (a tournament of campaigns).
const maxSeriesDepth = 4

// maxAuto bounds the automatic answers a series may ask for in a row.
const maxAuto = 8

// linked is what one write causes in other games.
type linked struct {
	batches []store.Batch
	games   []*game.Game // their folds after the batches, to cache
	unlocks []func()
}

func (l *linked) unlock() {
	if l == nil {
		return
	}
	for i := len(l.unlocks) - 1; i >= 0; i-- {
		l.unlocks[i]()
	}
	l.unlocks = nil
}

func (l *linked) remember(s *Service) {
	for _, g := range l.games {
		s.remember(g.Clone())
	}
}

func (l *linked) add(o *linked) {
	l.batches = append(l.batches, o.batches...)
	l.games = append(l.games, o.games...)
	l.unlocks = append(l.unlocks, o.unlocks...)
}

// follow completes b, the batch that takes a game to *after, with what it
// causes (see above); wasOver says whether the game was over before b (a
// new game: false). *after becomes the fold after b's events. The caller
// appends b and the linked batches in one AppendAll, then unlocks.
func (s *Service) follow(ctx context.Context, wasOver bool, after **game.Game, b *store.Batch, depth int) (*linked, error) {
	l := &linked{}
	if depth > maxSeriesDepth {
		return l, fmt.Errorf("%w: series nested more than %d deep", game.ErrInternal, maxSeriesDepth)
	}
	if IsSeries((*after).Rules) {
		if err := s.autoAnswers(ctx, after, b); err != nil {
			return l, err
		}
	}
	g := *after
	// The children this batch reaches.
	for i, e := range b.Events {
		if e.Type != adjudicator.TypeChildGame {
			continue
		}
		var c adjudicator.ChildGame
		if err := json.Unmarshal(e.Payload, &c); err != nil {
			return l, fmt.Errorf("%w: series %s: %v", game.ErrInternal, g.ID, err)
		}
		cl, err := s.child(ctx, g, &c, b.Expected+uint64(i)+1, depth)
		if err != nil {
			return l, err
		}
		l.add(cl)
	}
	// A child that ends reports to its series.
	if p := g.Created.Parent; p != nil && g.Over() && !wasOver {
		if b.Expected == 0 {
			// Its series is being written in this very transaction.
			return l, fmt.Errorf("%w: game %s of series %s is over as soon as it is created", game.ErrInternal, g.ID, p.Game)
		}
		pl, err := s.report(ctx, g, b, depth)
		if adjudicator.IsOrderError(err) {
			// The series' rules refuse the result (a ruleset bug): the
			// game's end is kept, the series waits, and the referee is
			// told; series verify names the game whose result is missing.
			pl.unlock()
			if s.OnResultRefused != nil {
				s.OnResultRefused(p.Game, g.ID, err)
			}
			return l, nil
		}
		l.add(pl)
		if err != nil {
			return l, err
		}
	}
	return l, nil
}

// seriesRulesets caches IsSeries by the ruleset's Go type (rulesets are
// stateless values, one type each).
var seriesRulesets sync.Map

// IsSeries reports whether a ruleset reaches other games (it emits
// series.child events).
func IsSeries(rs adjudicator.Ruleset) bool {
	key := reflect.TypeOf(rs)
	if v, ok := seriesRulesets.Load(key); ok {
		return v.(bool)
	}
	is := slices.ContainsFunc(rs.EventTypes(), func(t adjudicator.EventType) bool { return t.Name == adjudicator.TypeChildGame })
	seriesRulesets.Store(key, is)
	return is
}

// autoAnswers gives the automatic answers the game asks for (a series'
// start), appending their records to b.
func (s *Service) autoAnswers(ctx context.Context, after **game.Game, b *store.Batch) error {
	for i := 0; ; i++ {
		g := *after
		var req *adjudicator.Request
		for _, r := range g.Due() {
			if r.Kind == adjudicator.KindAuto && r.Side == adjudicator.SeriesSide {
				req = &r
				break
			}
		}
		if req == nil {
			return nil
		}
		if i == maxAuto {
			return fmt.Errorf("%w: series %s asks for automatic answers without end", game.ErrInternal, g.ID)
		}
		src := fmt.Sprintf("game: %s\nside: %s\nturn: %d\nphase: %s\norders: {}\n", g.ID, adjudicator.SeriesSide, req.Turn, req.Phase)
		if _, err := s.seriesSubmit(ctx, after, b, []byte(src), false); err != nil {
			return fmt.Errorf("series %s, %s: %w", g.ID, req.Title, err)
		}
	}
}

// seriesSubmit submits src as umpire's own answer to *after, adds its
// outcome to b as Submit does (with mail, the SeriesMail mails too), and
// moves *after on.
func (s *Service) seriesSubmit(ctx context.Context, after **game.Game, b *store.Batch, src []byte, mail bool) (*game.Outcome, error) {
	g := *after
	in, err := s.input(ctx, g.ID, adjudicator.SeriesSide, src, adjudicator.ViaSeries)
	if err != nil {
		return nil, err
	}
	in.Time = s.now()
	in.Secrets = batchSecrets(b, in.Secrets)
	out, err := g.Submit(in)
	if err != nil {
		return nil, err
	}
	if err := addOutcome(b, out, in.Time); err != nil {
		return nil, err
	}
	if mail && s.SeriesMail != nil {
		msgs, err := s.SeriesMail(ctx, g, out.Next, out)
		if err != nil {
			return nil, err
		}
		b.Outbox = append(b.Outbox, msgs...)
	}
	*after = out.Next
	return out, nil
}

// batchSecrets looks a dice secret up in b first (a game created in this
// very transaction), then in the store.
func batchSecrets(b *store.Batch, stored game.SeedFor) game.SeedFor {
	return func(gen int) ([]byte, error) {
		if v, ok := b.Secrets[diceSecret(gen)]; ok {
			return v, nil
		}
		return stored(gen)
	}
}

// child builds the batch that creates the child game c of series g, whose
// series.child event is g's event seq. A child that exists already as c
// describes it is left alone (the same event seen again); one that differs
// is an error.
func (s *Service) child(ctx context.Context, g *game.Game, c *adjudicator.ChildGame, seq uint64, depth int) (*linked, error) {
	l := &linked{}
	if err := adjudicator.CheckChild(c); err != nil {
		return l, fmt.Errorf("%w: series %s: %v", game.ErrInternal, g.ID, err)
	}
	id := adjudicator.ChildID(g.ID, c.Key)
	parent := &game.Parent{Game: g.ID, Key: c.Key, Seq: seq}
	req := CreateRequest{ID: id, Ruleset: c.Ruleset, Scenario: c.Scenario, Position: []byte(c.Position),
		Options: childOptions(g, c), Referee: g.Created.Referee, Sealed: g.ChildSecrets(c.Key), Module: c.Module}
	for _, p := range c.Players {
		pl, ok := g.Player(p.Player)
		if !ok {
			return l, fmt.Errorf("%w: series %s reaches %s with a player %q it does not have", game.ErrInternal, g.ID, id, p.Player)
		}
		req.Players = append(req.Players, Player{Side: p.Side, Address: pl.Address})
	}
	if v, err := s.Store.Version(ctx, id); err == nil && v > 0 {
		evs, err := s.Store.Events(ctx, id, 1)
		if err != nil {
			return l, err
		}
		var have game.Created
		if err := json.Unmarshal(evs[0].Payload, &have); err != nil {
			return l, fmt.Errorf("game %s: %w", id, err)
		}
		if why := childDiffers(&have, req, parent); why != "" {
			return l, fmt.Errorf("series %s reaches game %s, which exists already and differs: %s", g.ID, id, why)
		}
		return l, nil
	}
	if s.ChildMail != nil {
		req.Mail = func(ng *game.Game, secrets map[adjudicator.Side]string) ([]store.Message, error) {
			return s.ChildMail(g, ng, secrets)
		}
	}
	p, err := s.prepare(ctx, req, parent)
	if err != nil {
		return l, fmt.Errorf("series %s cannot create game %s (%s): %w", g.ID, id, c.Title, err)
	}
	cg := p.game
	cl, err := s.follow(ctx, false, &cg, &p.batch, depth+1) // a child may be a series itself
	l.add(cl)
	if err != nil {
		return l, err
	}
	l.batches = append([]store.Batch{p.batch}, l.batches...)
	l.games = append(l.games, cg)
	return l, nil
}

// childOptions are a child's options: those its series gives it, and the
// series' clock (deadline.*) unless the child sets its own.
func childOptions(g *game.Game, c *adjudicator.ChildGame) map[string]string {
	opts := maps.Clone(c.Options)
	if opts == nil {
		opts = map[string]string{}
	}
	for k, v := range g.Created.Clock {
		if _, ok := opts[k]; !ok {
			opts[k] = v
		}
	}
	return opts
}

// childDiffers says how an existing child's game.created differs from what
// its series asks for ("" when it does not).
func childDiffers(have *game.Created, want CreateRequest, parent *game.Parent) string {
	switch {
	case have.Parent == nil || *have.Parent != *parent:
		return "it is not the game this series event created"
	case have.Ruleset != want.Ruleset || have.Scenario != want.Scenario || have.Position != string(want.Position):
		return "another ruleset, scenario or position"
	case want.Module != "" && (have.Module == nil || have.Module.Name != want.Module):
		return "another module"
	}
	rules, clock := game.SplitOptions(want.Options)
	if !maps.Equal(have.Options, rules) || !maps.Equal(have.Clock, clock) {
		return "other options"
	}
	if len(have.Players) != len(want.Players) {
		return "other players"
	}
	for i, p := range have.Players {
		if p.Side != want.Players[i].Side || p.Address != want.Players[i].Address {
			return "other players"
		}
	}
	return ""
}

// report records the result of child game g, which b ends, in its series:
// the series' batch (locked until the caller unlocks) and what follows it.
func (s *Service) report(ctx context.Context, g *game.Game, b *store.Batch, depth int) (*linked, error) {
	l := &linked{}
	pid := g.Created.Parent.Game
	l.unlocks = append(l.unlocks, s.lock(pid))
	res, err := s.resultOf(ctx, g, b)
	if err != nil {
		return l, err
	}
	pg, err := s.Load(ctx, pid)
	if err != nil {
		return l, fmt.Errorf("the series of game %s: %w", g.ID, err)
	}
	if pg.Over() {
		return l, nil // a series ended by its referee: nothing waits for the result
	}
	if _, due := pg.Request(adjudicator.ResultKey(res.Key)); !due {
		return l, nil // nor does a series that no longer waits for this child
	}
	pb := store.Batch{Game: pid, Expected: pg.Version}
	src, err := resultOrders(pg, res)
	if err != nil {
		return l, err
	}
	after := pg
	if _, err := s.seriesSubmit(ctx, &after, &pb, src, true); err != nil {
		return l, fmt.Errorf("recording the result of %s in series %s: %w", g.ID, pid, err)
	}
	fl, err := s.follow(ctx, false, &after, &pb, depth+1)
	l.add(fl)
	if err != nil {
		return l, err
	}
	l.batches = append([]store.Batch{pb}, l.batches...)
	l.games = append(l.games, after)
	return l, nil
}

// childSecrets answers the request by which game *after, just created,
// reads the sealed parts of its position (adjudicator.ChildSecretsRequest)
// with parts, those its series sealed for it; the answer stays sealed in
// the child's log. A child that does not ask gets none: parts sealed for it
// all the same are a ruleset bug.
func (s *Service) childSecrets(ctx context.Context, after **game.Game, b *store.Batch, parts []adjudicator.ChildSecret) error {
	g := *after
	req, ok := g.Request(adjudicator.ChildSecretsID)
	if !ok || req.Side != adjudicator.SeriesSide {
		if len(parts) > 0 {
			return fmt.Errorf("%w: its series sealed %d parts of its position for it, and its ruleset does not read them", game.ErrInternal, len(parts))
		}
		return nil
	}
	n, err := adjudicator.ChildSecretsOrders(parts)
	if err != nil {
		return err
	}
	src, err := yaml.Marshal(map[string]any{"game": g.ID, "side": string(adjudicator.SeriesSide), "turn": req.Turn, "phase": req.Phase, "orders": n})
	if err != nil {
		return err
	}
	_, err = s.seriesSubmit(ctx, after, b, src, false)
	return err
}

// resultOrders is the text umpire records as a child's result.
func resultOrders(series *game.Game, res *adjudicator.ChildResult) ([]byte, error) {
	req, _ := series.Request(adjudicator.ResultKey(res.Key))
	body, err := yaml.Marshal(res)
	if err != nil {
		return nil, err
	}
	var n yaml.Node
	if err := yaml.Unmarshal(body, &n); err != nil {
		return nil, err
	}
	env := map[string]any{"game": series.ID, "side": string(adjudicator.SeriesSide), "turn": req.Turn, "phase": req.Phase, "orders": n.Content[0]}
	return yaml.Marshal(env)
}

// resultOf reads child game g's result: g is its fold after b, the batch
// that ends it (not yet stored), so its last event's hash is computed
// here, as the store will.
func (s *Service) resultOf(ctx context.Context, g *game.Game, b *store.Batch) (*adjudicator.ChildResult, error) {
	head, err := s.HeadAfter(ctx, g.ID, b.Expected, b.Events)
	if err != nil {
		return nil, err
	}
	c, err := s.childEvent(ctx, g.Created.Parent)
	if err != nil {
		return nil, err
	}
	return ChildResultOf(g, head.String(), c), nil
}

// HeadAfter is the hash game id's log will end with once evs, not stored
// yet, follow its event base (0 for a new game): what a mail names as the
// log's head, or a series records of a game that ends, before the store
// writes the events.
func (s *Service) HeadAfter(ctx context.Context, id string, base uint64, evs []store.NewEvent) (store.Hash, error) {
	var head store.Hash
	if base > 0 {
		stored, err := s.Store.Events(ctx, id, base)
		if err != nil {
			return head, err
		}
		if len(stored) == 0 || stored[0].Seq != base {
			return head, fmt.Errorf("game %s: event %d is not in the store", id, base)
		}
		head = stored[0].Hash
	}
	for i, e := range evs {
		head = store.ChainHash(head, base+uint64(i)+1, e)
	}
	return head, nil
}

// childEvent reads the series.child event a child's parent link names.
func (s *Service) childEvent(ctx context.Context, p *game.Parent) (*adjudicator.ChildGame, error) {
	evs, err := s.Store.Events(ctx, p.Game, p.Seq)
	if err != nil {
		return nil, fmt.Errorf("series %s: %w", p.Game, err)
	}
	if len(evs) == 0 || evs[0].Type != adjudicator.TypeChildGame {
		return nil, fmt.Errorf("series %s has no series.child event %d", p.Game, p.Seq)
	}
	var c adjudicator.ChildGame
	if err := json.Unmarshal(evs[0].Payload, &c); err != nil {
		return nil, fmt.Errorf("series %s, event %d: %w", p.Game, p.Seq, err)
	}
	if c.Key != p.Key {
		return nil, fmt.Errorf("series %s, event %d creates %q, not %q", p.Game, p.Seq, c.Key, p.Key)
	}
	return &c, nil
}

// ChildResultOf is how child game g ended, as its series records it: g is
// the fold of its whole log, head its last event's hash, and c the
// series.child event that created it (which series player holds which
// seat).
func ChildResultOf(g *game.Game, head string, c *adjudicator.ChildGame) *adjudicator.ChildResult {
	v := g.View(adjudicator.Observer)
	v.Traces = nil // what the last adjudication did is not how the game ended
	for i := range v.Units {
		// Display aids, not results: the printed values follow from the
		// type, and nothing is ready in a game that is over.
		v.Units[i].Values, v.Units[i].Ready = "", false
	}
	if g.Ended != nil {
		// Ended outside its rules (the referee's end, a forfeit): the
		// winner is the other side of the one that lost, if one did.
		v.Winner = ""
		if sides := g.Sides(); g.Ended.Loser != "" && len(sides) == 2 {
			v.Winner = sides[0]
			if sides[0] == g.Ended.Loser {
				v.Winner = sides[1]
			}
		}
	}
	r := &adjudicator.ChildResult{Key: c.Key, Game: g.ID, Winner: v.Winner, Result: v.Result, View: v, Head: head, Events: g.Version}
	for _, side := range g.Sides() {
		seat := g.Seat(side)
		for _, p := range c.Players {
			if p.Side == seat {
				r.Players = append(r.Players, adjudicator.ChildPlayer{Side: side, Player: p.Player})
			}
		}
	}
	return r
}
