// Package games is where the pure engine meets storage: it loads a game by
// folding its log from a store.Store, creates games (drawing the dice
// secret), turns a submission into one atomic append (the events, the mails
// they cause, the intake mark), and audits, replays and exports games.
//
// It is the single writer for the games of one process: submissions to the
// same game are serialised, and a conflicting append (another writer got
// there first) is retried on the fresh log. It never talks to the network.
package games

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/mail/address"
	"github.com/umpire-pbem/umpire/store"
)

// Service keeps games in a store.
type Service struct {
	Store store.Store
	Rules game.Lookup
	Rand  io.Reader        // secrets; crypto/rand when nil
	Now   func() time.Time // the clock; time.Now when nil
	// ClockStall and ClockMargin: see DefaultClockStall (0 for the defaults).
	ClockStall, ClockMargin time.Duration
	// OnDefaultRefused is told when a ruleset's default answer does not
	// parse (a ruleset bug; the game then waits). Optional.
	OnDefaultRefused func(game string, r adjudicator.Request, err error)
	// SeriesMail and ChildMail build the mails of what a series does by
	// itself (series.go): its adjudications on a child's result, and the
	// welcome of each child game it reaches. Optional.
	SeriesMail SeriesMail
	ChildMail  ChildMail
	// OnResultRefused is told when a series' rules refuse the result of
	// one of its games (a ruleset bug): the game's end is kept and the
	// series waits. Optional.
	OnResultRefused func(series, game string, err error)

	// SnapshotEvery: when the store keeps snapshots (store.Snapshots),
	// a game's fold is written down every this many events, and a load
	// folds only the events after the last one. 0 means
	// DefaultSnapshotEvery; a negative value turns snapshots off.
	SnapshotEvery int

	mu     sync.Mutex
	locks  map[string]*sync.Mutex
	cache  map[string]*game.Game // the last folded state of each game
	snapAt map[string]uint64     // the event of each game's last snapshot, when known
}

// DefaultSnapshotEvery is how many events a game's log grows between two
// snapshots of its fold: a load after a restart folds at most that many
// events after reading the snapshot (docs/PERFORMANCE.md).
const DefaultSnapshotEvery = 512

// ErrUnknownGame says that no game has that id.
var ErrUnknownGame = errors.New("unknown game")

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now().UTC()
	}
	return time.Now().UTC()
}

func (s *Service) randReader() io.Reader {
	if s.Rand == nil {
		return rand.Reader
	}
	return s.Rand
}

func (s *Service) random(n int) ([]byte, error) {
	b := make([]byte, n)
	if _, err := io.ReadFull(s.randReader(), b); err != nil {
		return nil, fmt.Errorf("drawing a secret: %w", err)
	}
	return b, nil
}

// lock serialises writers of one game.
func (s *Service) lock(id string) func() {
	s.mu.Lock()
	if s.locks == nil {
		s.locks = map[string]*sync.Mutex{}
	}
	l := s.locks[id]
	if l == nil {
		l = &sync.Mutex{}
		s.locks[id] = l
	}
	s.mu.Unlock()
	l.Lock()
	return l.Unlock
}

// Entries reads a game's log as the engine sees it.
func (s *Service) Entries(ctx context.Context, id string) ([]game.Entry, []store.Event, error) {
	evs, err := s.Store.Events(ctx, id, 1)
	if errors.Is(err, store.ErrUnknownGame) || (err == nil && len(evs) == 0) {
		return nil, nil, fmt.Errorf("%w %q (umpire games lists them)", ErrUnknownGame, id)
	}
	if err != nil {
		return nil, nil, err
	}
	return ToEntries(evs), evs, nil
}

// ToEntries converts stored events for the engine.
func ToEntries(evs []store.Event) []game.Entry {
	out := make([]game.Entry, len(evs))
	for i, e := range evs {
		out[i] = toEntry(e)
	}
	return out
}

func toEntry(e store.Event) game.Entry {
	return game.Entry{Seq: e.Seq, Record: game.Record{Type: e.Type, Schema: e.Schema, Time: e.Time, Actor: e.Actor, Payload: e.Payload}}
}

func toNew(recs []game.Record) []store.NewEvent {
	out := make([]store.NewEvent, len(recs))
	for i, r := range recs {
		out[i] = store.NewEvent{Type: r.Type, Schema: r.Schema, Time: r.Time, Actor: r.Actor, Payload: r.Payload}
	}
	return out
}

// Load returns a game's current state: the cached fold when the log has not
// grown since, else the log folded anew. The caller may change it freely.
func (s *Service) Load(ctx context.Context, id string) (*game.Game, error) {
	if !game.ValidID(id) {
		return nil, fmt.Errorf("%w %q", ErrUnknownGame, id)
	}
	s.mu.Lock()
	cached := s.cache[id]
	s.mu.Unlock()
	if cached != nil {
		if v, err := s.Store.Version(ctx, id); err == nil && v == cached.Version {
			return cached.Clone(), nil
		}
	}
	g, err := s.fold(ctx, id)
	if err != nil {
		return nil, err
	}
	s.remember(g)
	return g.Clone(), nil
}

func (s *Service) remember(g *game.Game) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cache == nil {
		s.cache = map[string]*game.Game{}
	}
	s.cache[g.ID] = g
}

// snapshots returns the store's snapshots, or nil when there are none to
// use.
func (s *Service) snapshots() (store.Snapshots, int) {
	every := s.SnapshotEvery
	if every == 0 {
		every = DefaultSnapshotEvery
	}
	sn, ok := s.Store.(store.Snapshots)
	if !ok || every < 0 {
		return nil, 0
	}
	return sn, every
}

// fromSnapshot returns the game as its snapshot has it, or nil when there
// is none it can use (then the whole log is folded).
func (s *Service) fromSnapshot(ctx context.Context, id string) *game.Game {
	sn, _ := s.snapshots()
	if sn == nil {
		return nil
	}
	snap, err := sn.Snapshot(ctx, id)
	if err != nil {
		return nil
	}
	g, err := game.RestoreSnapshot(snap.Data, s.source(ctx))
	if err != nil || g.ID != id || g.Version != snap.Seq {
		return nil
	}
	s.mu.Lock()
	if s.snapAt == nil {
		s.snapAt = map[string]uint64{}
	}
	s.snapAt[id] = snap.Seq
	s.mu.Unlock()
	return g
}

// keepSnapshot writes g's fold down when the log grew by SnapshotEvery
// events since the last snapshot. g must be the fold of the stored log up
// to g.Version. A snapshot that cannot be written (a ruleset whose state
// does not round-trip, a read-only store) is only a cache missed.
func (s *Service) keepSnapshot(ctx context.Context, g *game.Game) {
	sn, every := s.snapshots()
	if sn == nil {
		return
	}
	s.mu.Lock()
	last := s.snapAt[g.ID]
	due := g.Version >= last+uint64(every)
	if due {
		if s.snapAt == nil {
			s.snapAt = map[string]uint64{}
		}
		s.snapAt[g.ID] = g.Version // tried once per SnapshotEvery events, whatever comes of it
	}
	s.mu.Unlock()
	if !due {
		return
	}
	if b, err := g.Snapshot(); err == nil {
		_ = sn.PutSnapshot(ctx, g.ID, g.Version, b)
	}
}

// fold folds a game's log from the store: from its snapshot on when there
// is one, else from the first event.
func (s *Service) fold(ctx context.Context, id string) (*game.Game, error) {
	if !game.ValidID(id) {
		return nil, fmt.Errorf("%w %q", ErrUnknownGame, id)
	}
	g := s.fromSnapshot(ctx, id)
	from := uint64(1)
	if g != nil {
		from = g.Version + 1
	}
	err := s.Store.Scan(ctx, id, from, func(e store.Event) error {
		en := toEntry(e)
		if g == nil {
			var err error
			g, err = game.Start(en, s.source(ctx))
			return err
		}
		return g.Apply(en)
	})
	if errors.Is(err, store.ErrUnknownGame) || (err == nil && g == nil) {
		return nil, fmt.Errorf("%w %q (umpire games lists them)", ErrUnknownGame, id)
	}
	if err != nil {
		return nil, err
	}
	s.keepSnapshot(ctx, g)
	return g, nil
}

// LoadAt folds a game's log up to and including event seq.
func (s *Service) LoadAt(ctx context.Context, id string, seq uint64) (*game.Game, error) {
	entries, _, err := s.Entries(ctx, id)
	if err != nil {
		return nil, err
	}
	if seq < 1 || seq > uint64(len(entries)) {
		return nil, fmt.Errorf("game %s has events 1 to %d; there is no event %d", id, len(entries), seq)
	}
	return game.Load(entries[:seq], s.source(ctx))
}

// LoadTurn folds a game's log up to the last event of turn t, as the View
// reports turns (the state when turn t+1 began, or the end).
func (s *Service) LoadTurn(ctx context.Context, id string, t int) (*game.Game, error) {
	entries, _, err := s.Entries(ctx, id)
	if err != nil {
		return nil, err
	}
	g, err := game.Start(entries[0], s.source(ctx))
	if err != nil {
		return nil, err
	}
	if v := g.View(adjudicator.Referee); v.Turn > t {
		return nil, fmt.Errorf("game %s starts at turn %d", id, v.Turn)
	}
	for _, e := range entries[1:] {
		next := g.Clone()
		if err := next.Apply(e); err != nil {
			return nil, err
		}
		if next.View(adjudicator.Referee).Turn > t {
			return g, nil
		}
		g = next
	}
	return g, nil
}

// Player is a side's player as the referee names them at creation.
type Player struct {
	Side    adjudicator.Side
	Address string
	Parts   []string // the parts of the side he commands (team.orders=split)
}

// CreateRequest is a new game.
type CreateRequest struct {
	ID          string // "" to draw one
	Ruleset     string
	Scenario    string
	Position    []byte
	Options     map[string]string
	Players     []Player
	Referee     string
	ChainLength int
	// Module names the module a game of a ruleset played from module data
	// is created with: a name of the store's library, else one the
	// ruleset ships; "" for the ruleset's first builtin module.
	Module string
	Marks  []string // intake marks written with the game (the mail that asked for it)
	// Sealed are the sealed parts of the position a series hands its child
	// (adjudicator.ChildSecret): the answer to the child's request for them.
	Sealed []adjudicator.ChildSecret
	// Mail builds the messages to queue with the game (welcome mails),
	// given the game and each player's secret in plain text, by his seat
	// (game.Player.SeatName: the side for its first player, "SIDE/2"… for
	// the others of a team).
	Mail func(g *game.Game, secrets map[adjudicator.Side]string) ([]store.Message, error)
}

// Created is a game just created.
type Created struct {
	Game       *game.Game
	Commitment string
	Secrets    map[adjudicator.Side]string // each player's secret by his seat (game.Player.SeatName), shown once
}

// Create makes a new game: it draws the dice secret and the players'
// secrets, and writes the game.created event, the secret and any welcome
// mails in one transaction. A series (a campaign, a tournament) that
// starts by itself makes its first adjudication, and creates the games it
// reaches, in the same transaction (series.go).
func (s *Service) Create(ctx context.Context, req CreateRequest) (*Created, error) {
	mail := req.Mail
	req.Mail = nil // built below, once a series has started
	p, err := s.prepare(ctx, req, nil)
	if err != nil {
		return nil, err
	}
	id := p.game.ID
	defer s.lock(id)()
	if v, err := s.Store.Version(ctx, id); err == nil && v > 0 {
		return nil, fmt.Errorf("a game %q exists already", id)
	}
	g := p.game
	l, err := s.follow(ctx, false, &g, &p.batch, 0)
	defer l.unlock()
	if err != nil {
		return nil, err
	}
	if mail != nil {
		// The welcome tells the game as it stands after the batch: a
		// series that started at once waits for its first games.
		msgs, err := mail(g, p.secrets)
		if err != nil {
			return nil, err
		}
		p.batch.Outbox = append(p.batch.Outbox, msgs...)
	}
	if _, err := s.Store.AppendAll(ctx, append([]store.Batch{p.batch}, l.batches...)); err != nil {
		if errors.Is(err, store.ErrConflict) {
			return nil, fmt.Errorf("a game %q exists already", id)
		}
		return nil, err
	}
	l.remember(s)
	g, err = s.Load(ctx, id)
	if err != nil {
		return nil, err
	}
	return &Created{Game: g, Commitment: p.commitment, Secrets: p.secrets}, nil
}

// prepared is a game ready to be written: its first batch (game.created,
// the first deadlines, the secrets, the welcome mails) and its fold.
type prepared struct {
	game       *game.Game
	batch      store.Batch
	commitment string
	secrets    map[adjudicator.Side]string
}

// prepare draws a new game's secrets and builds its first batch; parent
// links it to the series that reaches it.
func (s *Service) prepare(ctx context.Context, req CreateRequest, parent *game.Parent) (*prepared, error) {
	for _, p := range req.Players { // the last line of defence: every entry point checks first
		if err := address.Check(p.Address); err != nil {
			return nil, fmt.Errorf("player of %s: %w", p.Side, err)
		}
	}
	if err := address.Check(req.Referee); req.Referee != "" && err != nil {
		return nil, fmt.Errorf("referee: %w", err)
	}
	rs, ok := s.Rules(req.Ruleset)
	if !ok {
		return nil, fmt.Errorf("no ruleset %q in this build (umpire rulesets lists them)", req.Ruleset)
	}
	var mod *adjudicator.Module
	if req.Module != "" {
		m, _, err := s.FindModule(ctx, req.Ruleset, req.Module)
		if err != nil {
			return nil, err
		}
		mod = &m
	}
	id := req.ID
	if id == "" {
		b, err := s.random(4)
		if err != nil {
			return nil, err
		}
		id = req.Ruleset[:min(len(req.Ruleset), 4)] + "-" + hex.EncodeToString(b)
	}
	secret, err := s.random(dice.SeedSize)
	if err != nil {
		return nil, err
	}
	private := map[string][]byte{diceSecret(0): secret}
	var players []game.Player
	for _, p := range req.Players {
		players = append(players, game.Player{Side: p.Side, Address: p.Address, Parts: p.Parts})
	}
	rec, c, err := game.Create(game.NewGame{ID: id, Ruleset: rs, Scenario: req.Scenario, Position: req.Position, Options: req.Options,
		Players: players, Referee: req.Referee, Time: s.now(), Secret: secret, ChainLength: req.ChainLength, Parent: parent, Module: mod})
	if err != nil {
		return nil, err
	}
	if _, err := loadZone(c.Clock["deadline.zone"]); err != nil {
		return nil, err
	}
	recs := []game.Record{rec}
	g, err := game.Load([]game.Entry{{Seq: 1, Record: rec}}, s.source(ctx))
	if err != nil {
		return nil, err
	}
	// Each player gets his own secret, kept under his seat: the side's
	// name for its first player, "SIDE/2"… for his teammates.
	secrets := map[adjudicator.Side]string{}
	for _, p := range g.Created.Players {
		sec, verifier, err := s.drawPlayerSecret()
		if err != nil {
			return nil, err
		}
		secrets[p.SeatName()] = sec
		private[playerSecret(p.SeatName())] = verifier
	}
	// A series whose options name its children's modules: each must be
	// found now, not when the series reaches its first child.
	if cm, ok := rs.(adjudicator.ChildModules); ok {
		for _, u := range cm.ChildModules(g.State) {
			if _, _, err := s.FindModule(ctx, u.Ruleset, u.Module); err != nil {
				return nil, fmt.Errorf("option %s=%s: %w", u.Option, u.Module, err)
			}
		}
	}
	b := store.Batch{Game: id, Expected: 0, Events: toNew(recs), Secrets: private, Marks: req.Marks}
	// A game whose position has sealed parts reads them first (a series'
	// child: series.go).
	if err := s.childSecrets(ctx, &g, &b, req.Sealed); err != nil {
		return nil, err
	}
	// The first requests get their deadlines with the game.
	clock, _, err := clockRecords(g, game.Tick{Now: rec.Time})
	if err != nil {
		return nil, err
	}
	b.Events = append(b.Events, toNew(clock)...)
	s.keepModule(ctx, &b, g.Module) // the module's files, with the game that records their digest
	if req.Mail != nil {
		msgs, err := req.Mail(g, secrets)
		if err != nil {
			return nil, err
		}
		b.Outbox = msgs
	}
	return &prepared{game: g, batch: b, commitment: c.Dice.Commitment, secrets: secrets}, nil
}
