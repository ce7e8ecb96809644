// Package scriptbench plays a recorded whole game (a game script) again
// the way the server plays mails: each step submitted to the game package
// (orders parsed and checked, the adjudication decided, its events folded
// and the state hashed), and nothing else — no expectations checked, no
// Verify or Replay of the log, which script.Play adds and which a player
// never waits for. Benchmarks of every ruleset use it for the game they
// measure and for the reference they measure it against (Dragon Rage's
// Raid), so that both are timed doing the same work.
//
// It only plays; timing is the benchmark's. Like the rest of the engine it
// never reads files, the clock or a global random source: the script comes
// in parsed, its dice are the script's own.
package scriptbench

import (
	"crypto/sha256"
	"fmt"
	"reflect"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/script"
)

// Game is a whole recorded game ready to be played again, any number of
// times. It is not safe for concurrent use.
type Game struct {
	script  *script.Script
	lookup  game.Lookup
	created game.Entry
	adjs    int
	want    adjudicator.View
}

// Record plays s once with script.Play, which must succeed with every
// expectation met, and keeps what Play needs: the game's creation (the
// same record the script made) and the number of adjudications. It fails
// if playing the game again by Play does not reach the same position, so a
// benchmark never times a game that went elsewhere.
func Record(s *script.Script, lookup game.Lookup) (*Game, error) {
	run, err := script.Play(s, lookup, script.Options{})
	if err != nil {
		return nil, err
	}
	if !run.OK() {
		return nil, fmt.Errorf("%s does not play to its recorded end: %v", s.File(), run.Failures)
	}
	g := &Game{script: s, lookup: lookup, created: run.Log[0], want: run.View}
	for _, e := range run.Log {
		if e.Type == game.TypeAdjudicated {
			g.adjs++
		}
	}
	if g.adjs == 0 {
		return nil, fmt.Errorf("%s has no adjudication: nothing to measure", s.File())
	}
	end, err := g.Play()
	if err != nil {
		return nil, err
	}
	if v := end.View(adjudicator.Referee); !reflect.DeepEqual(v, g.want) {
		return nil, fmt.Errorf("%s: played again step by step, the game ends in another position than script.Play's (turn %d %q, not turn %d %q)",
			s.File(), v.Turn, v.Result, g.want.Turn, g.want.Result)
	}
	return g, nil
}

// Adjudications is how many adjudications one Play makes.
func (g *Game) Adjudications() int { return g.adjs }

// Play creates the game anew and submits every step of the script in
// order with the script's dice, as the server would receive the mails,
// and returns the game after the last. A refused step is an error (the
// whole games this is for refuse nothing).
func (g *Game) Play() (*game.Game, error) {
	cur, err := game.Start(g.created, g.lookup)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", g.script.File(), err)
	}
	secrets := map[int][]byte{0: g.secret(cur.ID)}
	vault := game.Vault{}
	salts := script.Salts("umpire-scriptbench-salt", secrets[0])
	in := game.Input{Via: "script", Rand: salts, Unseal: vault.Unseal,
		Secrets: func(gen int) ([]byte, error) { return secrets[gen], nil }}
	if g.script.Dice != nil {
		in.Dice = &dice.Script{Faces: g.script.Dice}
	}
	for i, st := range g.script.Steps {
		in.Side, in.Src = adjudicator.Side(st.Side), []byte(st.Orders)
		in.Time = g.created.Time.Add(time.Duration(i+1) * time.Minute)
		in.NextSecret = dice.Hash(secrets[len(secrets)-1])
		out, err := cur.Submit(in)
		if err != nil {
			return nil, fmt.Errorf("%s: step %d (%s) was refused: %v", g.script.File(), i+1, st.Side, err)
		}
		vault.Keep(out.Records)
		if out.NewSecret != nil {
			secrets[out.NewChain] = out.NewSecret
		}
		cur = out.Next
	}
	return cur, nil
}

// secret is the dice secret script.Play gives a game without scripted
// dice: the SHA-256 of the script's seed, or of "umpire script " and the
// game's ID. Were the two to part, the first adjudication would find the
// secret does not match the game's commitment, and Record would say so.
func (g *Game) secret(id string) []byte {
	seed := g.script.Seed
	if seed == "" {
		seed = "umpire script " + id
	}
	h := sha256.Sum256([]byte(seed))
	return h[:]
}
