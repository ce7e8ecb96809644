package games_test

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir/conquete/conquetetest"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/rulesets"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
)

// La Conquête's audits: the short campaign of conquete's TestCampaignByMail
// (package conquetetest: three turns, the Battle of La Croisée played to its end as a Dragon Noir
// game, chain dice) in bbolt, verified and replayed as a series with its
// Battle — from the data file (umpire verify/replay of a series) and from
// its exported bundle (what anyone given the bundle runs) — against the
// hash floor of the campaign's and its Battle's logs together (hashFloor),
// timed alternately in the same loop.
//
//	go test -run '^$' -bench Conquete -benchtime 20x -count 5 -benchmem ./store/games/

// conqueteCampaign plays the short campaign (conquetetest's) to its end
// into a new bbolt file and returns the file's path and the games in it:
// the campaign, then its Battles.
func conqueteCampaign(b *testing.B) (string, []string) {
	path := filepath.Join(b.TempDir(), "conquete.db")
	st, err := store.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	s := &games.Service{Store: st, Rules: rulesets.Lookup, Rand: &conquetetest.Bytes{}, Now: conquetetest.Clock()}
	if err := createConquete(ctx, s, conquetetest.Options()); err != nil {
		b.Fatal(err)
	}
	battles, err := conqueteDriver(ctx, s).Play(conquetetest.ID, conquetetest.NewCampaign().Next)
	if err != nil {
		b.Fatal(err)
	}
	if len(battles) == 0 {
		b.Fatal("the campaign fought no Battle")
	}
	return path, append([]string{conquetetest.ID}, battles...)
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
			if a, err := svc.VerifySeries(ctx, conquetetest.ID, games.Known{}, false); err != nil || !a.OK() {
				b.Fatal(err, a.Problems())
			}
		})
		metrics(b)
	})
	b.Run("ReplaySeries", func(b *testing.B) {
		b.ReportAllocs()
		ratio(b, "replay", floor, func() {
			a, err := svc.VerifySeries(ctx, conquetetest.ID, games.Known{}, true)
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
			if err := svc.ExportSeries(ctx, conquetetest.ID, &buf); err != nil {
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
