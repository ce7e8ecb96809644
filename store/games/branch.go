package games

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/store"
)

// Branched is a rollback done.
type Branched struct {
	Game       *game.Game // the branch
	Parent     string
	At         uint64
	Commitment string // of the branch's fresh dice chain, from its next adjudication
}

var sealedRE = regexp.MustCompile(`"sealed":"([0-9a-f]{64})"`)

// Branch rolls game parent back to its event at: a new game id (drawn from
// the parent's when "") starts with the parent's events up to there, the
// same players, secrets and dice, then a fresh dice chain; the parent ends,
// saying where it goes on. mail builds the notices, given both games.
//
// The parent's end and the branch are two transactions (two games): a
// Branch cut between them by a crash is done again with the same id, and
// marks are written with the branch, the second.
func (s *Service) Branch(ctx context.Context, parent string, at uint64, id string, mail func(branch, parent *game.Game) ([]store.Message, error), marks ...string) (*Branched, error) {
	_, evs, err := s.Entries(ctx, parent)
	if err != nil {
		return nil, err
	}
	if id == "" {
		for n := 1; ; n++ {
			id = fmt.Sprintf("%s-b%d", parent, n)
			if v, err := s.Store.Version(ctx, id); err != nil || v == 0 {
				break
			}
		}
	}
	if v, err := s.Store.Version(ctx, id); err == nil && v > 0 {
		return nil, fmt.Errorf("a game %q exists already", id)
	}
	if at < 1 || at > uint64(len(evs)) {
		return nil, fmt.Errorf("game %s has events 1 to %d; there is no event %d", parent, len(evs), at)
	}
	secret, err := s.random(dice.SeedSize)
	if err != nil {
		return nil, err
	}
	recs, err := game.BranchLog(ToEntries(evs), s.source(ctx), at, evs[at-1].Hash.String(), id, s.now(), secret)
	if err != nil {
		return nil, err
	}
	// The private part it needs: every dice secret, each player's check
	// value, the openings of what the copied events sealed.
	pg, err := game.Load(ToEntries(evs[:at]), s.source(ctx))
	if err != nil {
		return nil, err
	}
	private := map[string][]byte{diceSecret(len(pg.Chains)): secret}
	names := []string{}
	for gen := range pg.Chains {
		names = append(names, diceSecret(gen))
	}
	for _, p := range pg.Created.Players {
		names = append(names, playerSecret(p.SeatName()))
	}
	for _, e := range evs[:at] {
		for _, m := range sealedRE.FindAllSubmatch(e.Payload, -1) {
			names = append(names, sealedSecret(string(m[1])))
		}
	}
	for _, n := range names {
		if v, err := s.Store.Secret(ctx, parent, n); err == nil {
			private[n] = v
		}
	}
	b := store.Batch{Game: id, Expected: 0, Events: toNew(recs), Secrets: private, Marks: marks}
	bg, err := game.Load(game.Numbered(recs), s.source(ctx))
	if err != nil {
		return nil, err
	}
	// The branch's requests get their deadlines from now.
	clock, _, err := clockRecords(bg, game.Tick{Now: s.now()})
	if err != nil {
		return nil, err
	}
	b.Events = append(b.Events, toNew(clock)...)
	var ce game.ChainExtended
	json.Unmarshal(recs[len(recs)-1].Payload, &ce)
	// The parent ends, saying where it goes on; its notices go with it.
	var parentAfter *game.Game
	result := fmt.Sprintf("rolled back to event %d: the game goes on as %s", at, id)
	if _, err := s.Act(ctx, parent, func(g *game.Game) ([]game.Record, error) {
		parentAfter = g
		if g.Ended != nil && g.Ended.Result == result {
			return nil, nil // ended by this very rollback, cut by a crash
		}
		rec, err := g.EndRecord(s.now(), result, "")
		return []game.Record{rec}, err
	}, nil); err != nil {
		return nil, err
	}
	if mail != nil {
		if b.Outbox, err = mail(bg, parentAfter); err != nil {
			return nil, err
		}
	}
	defer s.lock(id)()
	if _, err := s.Store.Append(ctx, b); err != nil {
		return nil, fmt.Errorf("writing the branch %s (game %s is ended already; create the branch again with the same id): %w", id, parent, err)
	}
	g, err := s.Load(ctx, id)
	if err != nil {
		return nil, err
	}
	return &Branched{Game: g, Parent: parent, At: at, Commitment: ce.Commitment}, nil
}
