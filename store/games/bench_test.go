package games_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/rulesets"
	"github.com/umpire-pbem/umpire/adjudicator/script"
	"github.com/umpire-pbem/umpire/adjudicator/testrules"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
)

// Benchmarks of what users run, each against a reference measured in the
// same run (docs/PERFORMANCE.md, "Core"):
//
//   - "scan": a copying scan of the game's events (Bolt.CopyEvents: every
//     key and value copied out of bbolt, nothing decoded);
//   - "floor": the hashing no audit can skip (hashFloor): the SHA-256
//     chain hash of every event, one SHA-256 per revealed seed, and one
//     HMAC-SHA256 per die.
//
// The race (the test ruleset) makes the long logs; a whole Dragon Rage game
// gives the costs per event of a real ruleset.

// recorded is a game played in memory: its log, the settled lengths (the
// log after each submission) and what the store must hold for it.
type recorded struct {
	log     []game.Entry
	settled []int
	secret  []byte
	vault   game.Vault
}

var (
	bigOnce sync.Once
	bigRec  *recorded
)

// bigGame plays a race on a very long track until the log holds at least
// 100,000 events, in memory.
func bigGame(b *testing.B) *recorded {
	bigOnce.Do(func() {
		secret := make([]byte, dice.SeedSize)
		rec, _, err := game.Create(game.NewGame{ID: "big", Ruleset: testrules.Race, Scenario: "sprint",
			Options: map[string]string{"track": "1000000000", "turns": "1000000"},
			Players: []game.Player{{Side: "red"}, {Side: "blue"}}, Time: time.Unix(1e9, 0).UTC(), Secret: secret})
		if err != nil {
			b.Fatal(err)
		}
		r := &recorded{log: []game.Entry{{Seq: 1, Record: rec}}, secret: secret, vault: game.Vault{}}
		salts := rand.NewChaCha8([32]byte{1})
		g, err := game.Load(r.log, lookup)
		if err != nil {
			b.Fatal(err)
		}
		for len(r.log) < 100000 {
			for _, q := range g.Due() {
				if _, ok := g.Answered(q.ID); ok {
					continue
				}
				out, err := g.Submit(game.Input{Side: q.Side, Src: []byte(orders(q, g)), Time: time.Unix(1e9, 0).UTC(),
					Secrets: func(int) ([]byte, error) { return secret, nil }, NextSecret: secret,
					Rand: salts, Unseal: r.vault.Unseal})
				if err != nil {
					b.Fatal(err)
				}
				r.vault.Keep(out.Records)
				for _, rec := range out.Records {
					r.log = append(r.log, game.Entry{Seq: uint64(len(r.log) + 1), Record: rec})
				}
				r.settled = append(r.settled, len(r.log))
				g = out.Next
				break
			}
		}
		bigRec = r
	})
	return bigRec
}

// prefix is the longest settled log of at most n events.
func (r *recorded) prefix(n int) []game.Entry {
	best := 1
	for _, l := range r.settled {
		if l <= n {
			best = l
		}
	}
	return r.log[:best]
}

// toBolt writes a log to a new bbolt file as game id, with its dice
// secrets and openings under the names store/games gives them
// (secrets.go), as if it had been played there.
func toBolt(b *testing.B, id string, log []game.Entry, r *recorded) *store.Bolt {
	st, err := store.Open(filepath.Join(b.TempDir(), "umpire.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	writeLog(b, st, id, log, r)
	return st
}

func writeLog(b *testing.B, st store.Store, id string, log []game.Entry, r *recorded) {
	ctx := context.Background()
	secrets := map[string][]byte{}
	chains := 1
	for _, e := range log {
		if e.Type == game.TypeChainExtended {
			chains++
		}
	}
	for gen := range chains {
		secrets[fmt.Sprintf("dice/%d", gen)] = r.secret
	}
	for c, opening := range r.vault {
		secrets["sealed/"+c] = opening
	}
	for i := 0; i < len(log); i += 5000 {
		batch := store.Batch{Game: id, Expected: uint64(i)}
		if i == 0 {
			batch.Secrets = secrets
		}
		for _, e := range log[i:min(i+5000, len(log))] {
			pl := e.Payload
			if e.Seq == 1 && id != "big" {
				pl = renamed(b, pl, id)
			}
			batch.Events = append(batch.Events, store.NewEvent{Type: e.Type, Schema: e.Schema, Time: e.Time, Actor: e.Actor, Payload: pl})
		}
		if _, err := st.Append(ctx, batch); err != nil {
			b.Fatal(err)
		}
	}
}

// renamed gives a game.created payload another game id.
func renamed(b *testing.B, payload []byte, id string) []byte {
	var c game.Created
	if err := json.Unmarshal(payload, &c); err != nil {
		b.Fatal(err)
	}
	c.Game = id
	out, err := json.Marshal(c)
	if err != nil {
		b.Fatal(err)
	}
	return out
}

// snapshotBehind stores the snapshot a daemon keeping one every 512 events
// has on average: 256 events behind the end of the log (at a settled point).
func snapshotBehind(b *testing.B, st *store.Bolt, log []game.Entry, r *recorded) {
	at := len(r.prefix(len(log) - games.DefaultSnapshotEvery/2))
	g, err := game.Load(log[:at], lookup)
	if err != nil {
		b.Fatal(err)
	}
	data, err := g.Snapshot()
	if err != nil {
		b.Fatal(err)
	}
	if err := st.PutSnapshot(context.Background(), "big", uint64(at), data); err != nil {
		b.Fatal(err)
	}
}

// copyScan is the reference of a load: every event of the game read out of
// bbolt, key and value copied, nothing decoded.
func copyScan(b *testing.B, st *store.Bolt, id string) int {
	n := 0
	err := st.CopyEvents(context.Background(), id, 1, func(k, v []byte) error {
		n += len(k) + len(v)
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return n
}

// ratio times ref and subject alternately, b.N times each, and reports
// both and their ratio: the machine is shared, so only ratios measured
// side by side mean much.
func ratio(b *testing.B, name string, ref func(), subject func()) {
	var tRef, tSub time.Duration
	for b.Loop() {
		t := time.Now()
		ref()
		tRef += time.Since(t)
		t = time.Now()
		subject()
		tSub += time.Since(t)
	}
	b.ReportMetric(float64(tRef.Microseconds())/1000/float64(b.N), "ref-ms")
	b.ReportMetric(float64(tSub.Microseconds())/1000/float64(b.N), name+"-ms")
	b.ReportMetric(float64(tSub)/float64(tRef), name+"/ref")
}

// BenchmarkLoad100k: loading a 100k-event game from bbolt against a copying
// scan of its events. Fold: no snapshot, the whole log folded (a game's
// first load ever, and what the audits read); Snapshot: what a load does
// once the game has a snapshot (every 512 events): read it, fold the rest.
func BenchmarkLoad100k(b *testing.B) {
	r := bigGame(b)
	st := toBolt(b, "big", r.log, r)
	ctx := context.Background()
	scan := func() { copyScan(b, st, "big") }
	b.Run("Fold", func(b *testing.B) {
		ratio(b, "load", scan, func() {
			if _, err := (&games.Service{Store: st, Rules: lookup, SnapshotEvery: -1}).Load(ctx, "big"); err != nil {
				b.Fatal(err)
			}
		})
		b.ReportMetric(float64(len(r.log)), "events")
	})
	b.Run("Snapshot", func(b *testing.B) {
		snapshotBehind(b, st, r.log, r)
		sn, err := st.Snapshot(ctx, "big")
		if err != nil {
			b.Fatal(err)
		}
		ratio(b, "load", scan, func() {
			if _, err := (&games.Service{Store: st, Rules: lookup}).Load(ctx, "big"); err != nil {
				b.Fatal(err)
			}
		})
		b.ReportMetric(float64(len(sn.Data)), "snapshot-bytes")
		b.ReportMetric(float64(uint64(len(r.log))-sn.Seq), "events-after")
	})
}

// floorWork is what hashFloor hashes, taken from a log beforehand.
type floorWork struct {
	events []store.NewEvent
	seeds  [][]byte
	dice   []floorDie
}

type floorDie struct {
	seed  []byte
	game  string
	k     int
	label string
	n     int
	faces int
}

func floorOf(b *testing.B, log []game.Entry) *floorWork {
	w := &floorWork{}
	var created game.Created
	for _, e := range log {
		w.events = append(w.events, store.NewEvent{Type: e.Type, Schema: e.Schema, Time: e.Time, Actor: e.Actor, Payload: e.Payload})
		switch e.Type {
		case game.TypeCreated:
			if err := json.Unmarshal(e.Payload, &created); err != nil {
				b.Fatal(err)
			}
		case game.TypeAdjudicated:
			var a game.Adjudicated
			if err := json.Unmarshal(e.Payload, &a); err != nil {
				b.Fatal(err)
			}
			if a.Seed == "" {
				continue // scripted dice: no seed, nothing for an audit to hash
			}
			seed, err := dice.ParseSeed(a.Seed)
			if err != nil {
				b.Fatal(err)
			}
			w.seeds = append(w.seeds, seed)
			for _, roll := range a.Rolls {
				count, faces, err := game.ParseDice(roll.Dice)
				if err != nil {
					b.Fatal(err)
				}
				for i := range count {
					w.dice = append(w.dice, floorDie{seed, created.DiceGame(), a.K, roll.Label, roll.N + i, faces})
				}
			}
		}
	}
	return w
}

// hashFloor is the least an audit of the log must compute: the chain hash
// of every event, SHA-256 of every revealed seed (to check it against the
// one before) and the HMAC-SHA256 of every die.
func (w *floorWork) hashFloor() {
	var prev store.Hash
	for i, e := range w.events {
		prev = store.ChainHash(prev, uint64(i+1), e)
	}
	for _, s := range w.seeds {
		dice.Hash(s)
	}
	for _, d := range w.dice {
		dice.Face(d.seed, d.game, d.k, d.label, d.n, d.faces)
	}
}

// BenchmarkAudit100k: umpire replay (decide every adjudication again from
// the stored log) and umpire verify (hash chain, seeds, dice), both read
// from bbolt through the Service, against the hash floor of the same log.
func BenchmarkAudit100k(b *testing.B) {
	r := bigGame(b)
	benchAudit(b, toBolt(b, "big", r.log, r), "big", floorOf(b, r.log), len(r.log))
}

func benchAudit(b *testing.B, st store.Store, id string, w *floorWork, events int) {
	ctx := context.Background()
	svc := &games.Service{Store: st, Rules: allRules}
	b.Run("Replay", func(b *testing.B) {
		ratio(b, "replay", w.hashFloor, func() {
			if a, err := svc.Replay(ctx, id); err != nil || !a.OK() {
				b.Fatal(err, a.Problems)
			}
		})
		b.ReportMetric(float64(events), "events")
	})
	b.Run("Verify", func(b *testing.B) {
		ratio(b, "verify", w.hashFloor, func() {
			if a, err := svc.Verify(ctx, id, games.Known{}); err != nil || !a.OK() {
				b.Fatal(err, a.Problems)
			}
		})
		b.ReportMetric(float64(len(w.dice)), "dice")
	})
}

func allRules(name string) (adjudicator.Ruleset, bool) {
	if name == "race" {
		return testrules.Race, true
	}
	return rulesets.Lookup(name)
}

// dragonRage plays Nurkott 2 (adjudicator/dragonrage/testdata/games), a
// whole game whose orders hold whatever the dice, with dice from a
// committed chain rather than the script's.
func dragonRage(b *testing.B, id string) *recorded {
	return wholeGame(b, id, "n2-raid.yaml", true)
}

// wholeGame plays a whole game of adjudicator/dragonrage/testdata/games:
// with chain dice (chain), or with the script's own, for a game whose
// orders follow its dice (a Dragon's game: who is left to attack depends
// on every roll).
func wholeGame(b *testing.B, id, file string, chain bool) *recorded {
	src, err := os.ReadFile("../../adjudicator/dragonrage/testdata/games/" + file)
	if err != nil {
		b.Fatal(err)
	}
	s, err := script.Parse(id+".yaml", src)
	if err != nil {
		b.Fatal(err)
	}
	s.Expect = nil
	if chain {
		s.Dice = nil
	}
	run, err := script.Play(s, allRules, script.Options{})
	if err != nil || !run.OK() {
		b.Fatal(err, run.Failures)
	}
	if (run.Game.Created.Dice.Mode == game.DiceChain) != chain || !run.View.Over {
		b.Fatalf("the Dragon Rage game %s is not a whole game", file)
	}
	return &recorded{log: run.Log, settled: []int{len(run.Log)}}
}

// BenchmarkDragonRage: a whole game of Dragon Rage (Nurkott 2, 99 events,
// played to its end with chain dice) loaded, replayed and verified, against
// the same references: the costs per event of a real ruleset.
func BenchmarkDragonRage(b *testing.B) {
	benchWholeGame(b, "n2", dragonRage(b, "n2"))
}

// benchWholeGame loads, replays and verifies a recorded whole game from
// bbolt against the copying scan and the hash floor of its log.
func benchWholeGame(b *testing.B, id string, r *recorded) {
	st, err := store.Open(filepath.Join(b.TempDir(), "umpire.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	var evs []store.NewEvent
	for _, e := range r.log {
		evs = append(evs, store.NewEvent{Type: e.Type, Schema: e.Schema, Time: e.Time, Actor: e.Actor, Payload: e.Payload})
	}
	if _, err := st.Append(ctx, store.Batch{Game: id, Events: evs}); err != nil {
		b.Fatal(err)
	}
	b.Run("Load", func(b *testing.B) {
		ratio(b, "load", func() { copyScan(b, st, id) }, func() {
			if _, err := (&games.Service{Store: st, Rules: allRules}).Load(ctx, id); err != nil {
				b.Fatal(err)
			}
		})
		b.ReportMetric(float64(len(r.log)), "events")
	})
	benchAudit(b, st, id, floorOf(b, r.log), len(r.log))
}

// BenchmarkDragonRageDragons: Esirien 1, two Dragons against the city, a
// whole game with its own scripted dice (its orders follow them), loaded
// and replayed against the same references: what the major monsters'
// rules cost per adjudication, next to Nurkott 6's giants. Its dice are
// scripted, so the hash floor has no dice to hash: read the ratios with
// BenchmarkDragonRage's.
func BenchmarkDragonRageDragons(b *testing.B) {
	benchWholeGame(b, "e1", wholeGame(b, "e1", "e1-dragon-rage.yaml", false))
}

// scaleGames are race games of about 1k, 10k and 100k events in bbolt,
// each in its own file, as a daemon would find them after a restart.
func scaleGames(b *testing.B) ([]string, []*store.Bolt) {
	r := bigGame(b)
	names := []string{"1k", "10k", "100k"}
	var sts []*store.Bolt
	for i, n := range []int{1000, 10000, 100000} {
		log := r.prefix(n)
		st := toBolt(b, "big", log, r)
		snapshotBehind(b, st, log, r)
		_ = names[i]
		sts = append(sts, st)
	}
	return names, sts
}

// nextOrders is a submission for what the game waits for.
func nextOrders(b *testing.B, svc *games.Service) games.SubmitRequest {
	g, err := svc.Load(context.Background(), "big")
	if err != nil {
		b.Fatal(err)
	}
	for _, q := range g.Due() {
		if _, ok := g.Answered(q.ID); !ok {
			return games.SubmitRequest{Game: "big", Side: q.Side, Src: []byte(orders(q, g)), Via: "bench"}
		}
	}
	b.Fatal("nothing due")
	return games.SubmitRequest{}
}

// BenchmarkScale: one submission (validated, adjudicated when it completes
// a phase, appended with one fsync) and one show (load and view) on race
// games of 1k, 10k and 100k events, taken in turn in each iteration; the
// metrics are each size's time and its ratio to the 1k game's. Cold: a new
// Service, nothing cached (the first mail after a restart); Warm: the
// Service that served the game before.
func BenchmarkScale(b *testing.B) {
	names, sts := scaleGames(b)
	ctx := context.Background()
	now := time.Unix(2e9, 0)
	clock := func() time.Time { now = now.Add(time.Second); return now }
	warm := make([]*games.Service, len(sts))
	for i, st := range sts {
		warm[i] = &games.Service{Store: st, Rules: lookup, Now: clock}
	}
	run := func(b *testing.B, op func(i int)) {
		total := make([]time.Duration, len(sts))
		for b.Loop() {
			for i := range sts {
				t := time.Now()
				op(i)
				total[i] += time.Since(t)
			}
		}
		for i, name := range names {
			b.ReportMetric(float64(total[i].Microseconds())/1000/float64(b.N), name+"-ms")
			if i > 0 {
				b.ReportMetric(float64(total[i])/float64(total[0]), name+"/1k")
			}
		}
	}
	submit := func(svc *games.Service, req games.SubmitRequest) {
		if _, err := svc.Submit(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("SubmitCold", func(b *testing.B) {
		run(b, func(i int) {
			b.StopTimer()
			req := nextOrders(b, warm[i])
			b.StartTimer()
			submit(&games.Service{Store: sts[i], Rules: lookup, Now: clock}, req)
		})
	})
	b.Run("SubmitWarm", func(b *testing.B) {
		run(b, func(i int) {
			b.StopTimer()
			req := nextOrders(b, warm[i])
			b.StartTimer()
			submit(warm[i], req)
		})
	})
	b.Run("ShowCold", func(b *testing.B) {
		run(b, func(i int) {
			g, err := (&games.Service{Store: sts[i], Rules: lookup}).Load(ctx, "big")
			if err != nil {
				b.Fatal(err)
			}
			g.View(adjudicator.Referee)
		})
	})
}

// BenchmarkCachedGames: the memory a Service keeps per idle game it has
// served. 200 Dragon Rage games (Nurkott 6 played to its end with chain
// dice) are stored; "Loaded": a new Service loads them all; "Played": the
// games were played through this Service, so it also keeps what a
// submission builds (the dice chains). The metric is the live heap the
// Service holds (after a GC) divided by the number of games.
func BenchmarkCachedGames(b *testing.B) {
	const n = 200
	ctx := context.Background()
	st := store.NewMemory()
	for i := range n {
		id := fmt.Sprintf("drag-%03d", i)
		writeLog(b, st, id, dragonRage(b, id).log, &recorded{secret: make([]byte, dice.SeedSize), vault: game.Vault{}})
	}
	heap := func() uint64 {
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	b.Run("Loaded", func(b *testing.B) {
		var per float64
		for b.Loop() {
			before := heap()
			svc := &games.Service{Store: st, Rules: allRules}
			for i := range n {
				if _, err := svc.Load(ctx, fmt.Sprintf("drag-%03d", i)); err != nil {
					b.Fatal(err)
				}
			}
			after := heap()
			per = (float64(after) - float64(before)) / n
			runtime.KeepAlive(svc)
		}
		b.ReportMetric(per, "B/game")
	})
	b.Run("Played", func(b *testing.B) {
		src, err := os.ReadFile("../../adjudicator/dragonrage/testdata/games/n2-raid.yaml")
		if err != nil {
			b.Fatal(err)
		}
		sc, err := script.Parse("n2.yaml", src)
		if err != nil {
			b.Fatal(err)
		}
		var per float64
		for b.Loop() {
			st := store.NewMemory()
			before := heap()
			svc := &games.Service{Store: st, Rules: allRules}
			steps := 0
			for i := range n {
				id := fmt.Sprintf("drag-%03d", i)
				_, err := svc.Create(ctx, games.CreateRequest{ID: id, Ruleset: "dragonrage", Scenario: "n2",
					Players: []games.Player{{Side: "invader", Address: "i@example.org"}, {Side: "defender", Address: "d@example.org"}}})
				if err != nil {
					b.Fatal(err)
				}
				for _, step := range sc.Steps {
					if _, err := svc.Submit(ctx, games.SubmitRequest{Game: id, Side: adjudicator.Side(step.Side), Src: []byte(step.Orders), Via: "bench"}); err != nil {
						break // the dice went otherwise than the script's: the game stops here
					}
					steps++
				}
			}
			withService := heap()
			runtime.KeepAlive(svc)
			svc = nil
			without := heap()
			per = (float64(withService) - float64(without)) / n
			b.ReportMetric(float64(steps)/n, "steps/game")
			b.ReportMetric((float64(without)-float64(before))/n, "store-B/game")
			runtime.KeepAlive(st)
		}
		b.ReportMetric(per, "B/game")
	})
}
