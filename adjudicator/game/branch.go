package game

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// A rollback is a branch: a new game that starts with a copy of the
// parent's events up to a settled point, so that everything up to there —
// orders, adjudications, the dice, since the branch derives its dice with
// the parent's id — is the same and verifies the same; then a fresh dice
// chain, because the parent's later seeds were revealed in its log. The
// parent is kept, ended, for the record.

// BranchLog builds the log of game id, a branch of the game whose log is
// parent, from its event at (whose hash is head). secret is the new dice
// chain's secret.
func BranchLog(parent []Entry, lookup Source, at uint64, head, id string, now time.Time, secret []byte) ([]Record, error) {
	if !ValidID(id) {
		return nil, fmt.Errorf("game id %q: use lower-case letters, digits and dashes", id)
	}
	if at < 1 || at > uint64(len(parent)) {
		return nil, fmt.Errorf("the game has events 1 to %d; there is no event %d", len(parent), at)
	}
	pg, err := Load(parent[:at], lookup)
	if err != nil {
		return nil, err
	}
	if !pg.Settled() {
		return nil, fmt.Errorf("event %d is in the middle of a submission: roll back to the end of one (umpire log shows them)", at)
	}
	if pg.Over() {
		return nil, fmt.Errorf("the game is over at event %d: roll back to before its end", at)
	}
	var c Created
	if err := json.Unmarshal(parent[0].Payload, &c); err != nil {
		return nil, err
	}
	if c.Dice.Mode != DiceChain {
		return nil, fmt.Errorf("only a game with a committed dice chain can be rolled back")
	}
	if c.Parent != nil {
		// The series waits for the game it created, not for a branch of it.
		return nil, fmt.Errorf("game %s is game %s of series %s, which waits for its result: it cannot be rolled back; end it with the result the players agree on (command: end)", c.Game, c.Parent.Key, c.Parent.Game)
	}
	parentID := c.Game
	c.Dice.Game = c.DiceGame()
	c.Game = id
	c.Branch = &Branch{Of: parentID, At: at, Head: head}
	created, err := record(TypeCreated, now, ActorReferee, c)
	if err != nil {
		return nil, err
	}
	recs := []Record{created}
	for _, e := range parent[1:at] {
		r := e.Record
		r.Private = nil
		if r.Type == adjudicator.TypeSecret {
			// The branch's fold reads the sealed event from its opening,
			// the parent's (the caller copies the parent's openings).
			c, err := sealedOf(r.Payload)
			if err != nil {
				return nil, &LogError{Seq: e.Seq, Msg: err.Error()}
			}
			if r.Private, err = pg.openingOf(e.Seq, c, e.Private); err != nil {
				return nil, err
			}
			if r.Private == nil {
				return nil, errNotRevealed(e.Seq, "this ruleset event")
			}
		}
		recs = append(recs, r)
	}
	last := pg.Chains[len(pg.Chains)-1]
	ch, err := dice.NewChain(secret, last.ChainLength)
	if err != nil {
		return nil, err
	}
	ce, err := record(TypeChainExtended, now, ActorReferee, ChainExtended{Chain: len(pg.Chains), Commitment: hex.EncodeToString(ch.Commitment()), ChainLength: last.ChainLength, FromK: pg.K + 1})
	if err != nil {
		return nil, err
	}
	recs = append(recs, ce)
	if _, err := Load(Numbered(recs), lookup); err != nil {
		return nil, fmt.Errorf("the branch does not fold: %w", err)
	}
	return recs, nil
}
