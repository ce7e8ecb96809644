package games_test

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir/conquete"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/rulesets"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
)

// La Conquête's audits: the short campaign of conquete's TestCampaignByMail
// (three turns, the Battle of La Croisée played to its end as a Dragon Noir
// game, chain dice) in bbolt, verified and replayed as a series with its
// Battle — from the data file (umpire verify/replay of a series) and from
// its exported bundle (what anyone given the bundle runs) — against the
// hash floor of the campaign's and its Battle's logs together (hashFloor),
// timed alternately in the same loop.
//
//	go test -run '^$' -bench Conquete -benchtime 20x -count 5 -benchmem ./store/games/

// conqueteOrders is what the players mail (turn/phase/side → orders, in
// order); everything else is the side's default answer.
func conqueteOrders() map[string][]string {
	return map[string][]string{
		"1/setup/rebels": {`counters: [konrad, zacharie, laberne, gotmar, godiva, lucifer, jon, arlon, aldus, grast, thrugg, zed]
messenger: {ally: elfes}
troops:
  R1: [konrad, godiva, lucifer, grast]
  R2: [zacharie, thrugg, gotmar, aldus]
  R3: [laberne, jon, arlon, zed]`},
		"1/setup/reptilians": {`relations: {barbares: E, druides: N, elfes: A, ermite: N, gobelins: A, licornes: E, nains-gris: N}
troops:
  R1: [lord, chief-ysshal, rept-armoured-1, rept-armoured-2, rept-armoured-3, rept-armoured-4]
  R2: [chief-thessk, rept-warrior-4, rept-warrior-5, rept-warrior-6, rept-warrior-7, rept-warrior-8]
  R3: [rept-scout-1, rept-scout-2, rept-scout-3]
  R5: [raptor-1, raptor-2, raptor-3, raptor-4]
  R6: [sorcerer]
  R4: {at: le-pont, counters: [chief-sarrak, rept-warrior-1, rept-warrior-2, rept-warrior-3]}`},
		"1/reorganisation/reptilians": {`stealthy: [R3]`},
		"1/movement/rebels":           {"move: R1\npath: [le-moulin]", "move: R2\npath: [le-moulin]", "move: R3\npath: [le-moulin]"},
		"1/movement/reptilians":       {"move: R3\npath: [le-pont, carrefour-du-dragon]", "move: R6\npath: [le-pont, la-croisee]"},
		"1/reveal/reptilians":         {"reveal: [R3]"},
		"2/movement/rebels":           {"move: R3\npath: [conseil-des-ents]"},
		"3/movement/rebels":           {"move: R3\npath: [la-croisee]"},
	}
}

// benchBytes is a stream of bytes that never changes (secrets and seeds).
type benchBytes struct{ n byte }

func (d *benchBytes) Read(p []byte) (int, error) {
	for i := range p {
		d.n = d.n*31 + 17
		p[i] = d.n
	}
	return len(p), nil
}

// answerOne answers one request due in g: with the orders script gives
// (or, when script is nil, the orders mine gives), else the side's
// default. It reports false when nothing was due to answer.
func answerOne(b *testing.B, s *games.Service, g *game.Game, mine func(r adjudicator.Request) (string, bool)) bool {
	for _, r := range g.Due() {
		if _, answered := g.Answered(r.ID); answered || r.Side == adjudicator.SeriesSide || r.Kind == adjudicator.KindResult {
			continue
		}
		orders, ok := mine(r)
		if ok {
			var ind strings.Builder
			for l := range strings.SplitSeq(strings.TrimRight(orders, "\n"), "\n") {
				ind.WriteString("  " + l + "\n")
			}
			orders = fmt.Sprintf("turn: %d\nphase: %s\norders:\n%s", r.Turn, r.Phase, ind.String())
		} else if d, ok := g.DefaultAnswer(r); ok {
			orders = string(d)
		} else {
			b.Fatalf("%s: nothing to answer %s with", g.ID, r.Title)
		}
		if _, err := s.Submit(context.Background(), games.SubmitRequest{Game: g.ID, Side: r.Side, Src: []byte(orders), Via: "bench"}); err != nil {
			b.Fatalf("%s: %s answers %s with\n%s\nrefused: %v", g.ID, r.Side, r.Title, orders, err)
		}
		return true
	}
	return false
}

// walkAwayBattle plays a Battle to its end: the Reptilians set up at the
// west end of the centre and walk a hex a turn west, leaving the map
// toward Le Pont; the rest is each side's default.
func walkAwayBattle(b *testing.B, s *games.Service, id string) {
	for range 300 {
		g, err := s.Load(context.Background(), id)
		if err != nil {
			b.Fatal(err)
		}
		if g.Over() {
			return
		}
		answerOne(b, s, g, func(r adjudicator.Request) (string, bool) {
			if r.Side != conquete.ChildReptilians {
				return "", false
			}
			var place, moves []string
			row := 5
			for _, u := range g.View(conquete.ChildReptilians).Units {
				if u.Side != conquete.ChildReptilians || u.Gone {
					continue
				}
				switch {
				case r.Phase == "setup":
					place = append(place, fmt.Sprintf("%s: \"05%02d\"", u.ID, row))
					row++
				case r.Phase == "krobs" && len(u.At) == 4:
					var c, rr int
					fmt.Sscanf(u.At, "%02d%02d", &c, &rr)
					m := fmt.Sprintf("{unit: %s, path: [\"%02d%02d\"]", u.ID, c-1, rr)
					if c-1 == 1 {
						m += ", leave: le-pont"
					}
					moves = append(moves, m+"}")
				}
			}
			switch {
			case len(place) > 0:
				return "place: {" + strings.Join(place, ", ") + "}", true
			case len(moves) > 0:
				return "moves: [" + strings.Join(moves, ", ") + "]", true
			}
			return "", false
		})
	}
	b.Fatalf("the Battle %s does not end", id)
}

// conqueteCampaign plays the short campaign "val" to its end into a new
// bbolt file and returns the file's path and the games in it: the
// campaign, then its Battles.
func conqueteCampaign(b *testing.B) (string, []string) {
	var ids []string
	path := filepath.Join(b.TempDir(), "conquete.db")
	st, err := store.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	var mu sync.Mutex
	clock := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	s := &games.Service{Store: st, Rules: rulesets.Lookup, Rand: &benchBytes{}, Now: func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		clock = clock.Add(time.Minute)
		return clock
	}}
	ids = append(ids, "val")
	if _, err := s.Create(ctx, games.CreateRequest{ID: "val", Ruleset: conquete.Name, Scenario: conquete.ScenarioID,
		Options: map[string]string{"length": "1-apres-midi"}, Referee: "referee@example.org",
		Players: []games.Player{{Side: conquete.Rebels, Address: "rebels@example.org"}, {Side: conquete.Reptilians, Address: "reptilians@example.org"}}}); err != nil {
		b.Fatal(err)
	}
	script := conqueteOrders()
	for range 400 {
		g, err := s.Load(ctx, "val")
		if err != nil {
			b.Fatal(err)
		}
		if g.Over() {
			return path, append(ids, conqueteBattles(b, s)...)
		}
		var battle string
		for _, r := range g.Due() {
			if r.Kind == adjudicator.KindResult {
				battle = adjudicator.ChildID("val", strings.TrimPrefix(r.ID, "result."))
			}
		}
		if battle != "" {
			walkAwayBattle(b, s, battle)
			continue
		}
		if !answerOne(b, s, g, func(r adjudicator.Request) (string, bool) {
			key := fmt.Sprintf("%d/%s/%s", r.Turn, r.Phase, r.Side)
			if q := script[key]; len(q) > 0 {
				script[key] = q[1:]
				return q[0], true
			}
			return "", false
		}) {
			b.Fatalf("the campaign waits for %v and nobody can answer", g.Due())
		}
	}
	b.Fatal("the campaign does not end")
	return "", nil
}

// conqueteBattles lists the campaign's Battles, as its verification finds
// them.
func conqueteBattles(b *testing.B, s *games.Service) []string {
	a, err := s.VerifySeries(context.Background(), "val", games.Known{}, false)
	if err != nil || !a.OK() {
		b.Fatal(err, a.Problems())
	}
	if len(a.Order) == 0 {
		b.Fatal("the campaign fought no Battle")
	}
	return a.Order
}

// BenchmarkConquete: the short campaign, its Battle included, verified
// (hash chains, seeds, dice, the links between the campaign and its
// Battle) and replayed (every adjudication decided again), from bbolt
// (VerifySeries, ReplaySeries: umpire verify and replay of a series) and
// from its exported bundle (ExportVerify: the export written, then read
// back, verified and replayed, as whoever is given the bundle does),
// each against the hash floor of the campaign's and the Battle's logs;
// then each game's own replay (CampaignReplay, Battle1Replay) against its
// own floor.
func BenchmarkConquete(b *testing.B) {
	path, ids := conqueteCampaign(b)
	st, err := store.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	var floors []*floorWork
	events, dice := 0, 0
	for _, id := range ids {
		evs, err := st.Events(ctx, id, 1)
		if err != nil {
			b.Fatal(err)
		}
		var log []game.Entry
		for _, e := range evs {
			log = append(log, game.Entry{Seq: e.Seq, Record: game.Record{Type: e.Type, Schema: e.Schema, Time: e.Time, Actor: e.Actor, Payload: e.Payload}})
		}
		w := floorOf(b, log)
		floors = append(floors, w)
		events, dice = events+len(log), dice+len(w.dice)
	}
	floor := func() {
		for _, w := range floors {
			w.hashFloor()
		}
	}
	svc := &games.Service{Store: st, Rules: rulesets.Lookup}
	metrics := func(b *testing.B) {
		b.ReportMetric(float64(events), "events")
		b.ReportMetric(float64(dice), "dice")
		b.ReportMetric(float64(len(ids)-1), "battles")
	}
	b.Run("VerifySeries", func(b *testing.B) {
		b.ReportAllocs()
		ratio(b, "verify", floor, func() {
			if a, err := svc.VerifySeries(ctx, "val", games.Known{}, false); err != nil || !a.OK() {
				b.Fatal(err, a.Problems())
			}
		})
		metrics(b)
	})
	b.Run("ReplaySeries", func(b *testing.B) {
		b.ReportAllocs()
		ratio(b, "replay", floor, func() {
			a, err := svc.VerifySeries(ctx, "val", games.Known{}, true)
			if err != nil || !a.OK() {
				b.Fatal(err, a.Problems())
			}
			for _, id := range ids[1:] {
				if c := a.Children[id]; c == nil || c.Redecided == 0 {
					b.Fatalf("the Battle %s was not replayed", id)
				}
			}
		})
		metrics(b)
	})
	b.Run("ExportVerify", func(b *testing.B) {
		b.ReportAllocs()
		size := 0
		ratio(b, "bundle", floor, func() {
			var buf bytes.Buffer
			if err := svc.ExportSeries(ctx, "val", &buf); err != nil {
				b.Fatal(err)
			}
			size = buf.Len()
			a, err := games.VerifySeriesBundle(&buf, rulesets.Lookup, games.Known{})
			if err != nil || !a.OK() || len(a.Children) != len(ids)-1 {
				b.Fatal(err, a.Problems())
			}
		})
		metrics(b)
		b.ReportMetric(float64(size), "bundle-bytes")
	})
	// Each game on its own (umpire replay of one game): which of the
	// campaign and its Battle costs what, against its own floor.
	for i, id := range ids {
		name := "Campaign"
		if i > 0 {
			name = fmt.Sprintf("Battle%d", i)
		}
		b.Run(name+"Replay", func(b *testing.B) {
			ratio(b, "replay", floors[i].hashFloor, func() {
				if a, err := svc.Replay(ctx, id); err != nil || !a.OK() {
					b.Fatal(err, a.Problems)
				}
			})
			b.ReportMetric(float64(len(floors[i].events)), "events")
		})
	}
}
