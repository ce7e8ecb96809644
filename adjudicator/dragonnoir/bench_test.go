package dragonnoir_test

import (
	"os"
	"path"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir"
	"github.com/umpire-pbem/umpire/adjudicator/dragonrage"
	"github.com/umpire-pbem/umpire/adjudicator/dragonrage/board"
	"github.com/umpire-pbem/umpire/adjudicator/dragonrage/refpicture"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/render"
	"github.com/umpire-pbem/umpire/adjudicator/script"
	"github.com/umpire-pbem/umpire/adjudicator/script/scriptbench"
)

// Benchmarks of Dragon Noir 2 as the server plays it, each against a
// reference measured alternately in the same loop, so that both meet the
// same load (docs/PERFORMANCE.md):
//
//	go test -run '^$' -bench DragonNoir -benchtime 3x ./adjudicator/dragonnoir/
//
// BenchmarkDragonNoirGame plays each whole recorded game of testdata/games
// again, mail by mail, through the game package (scriptbench: orders
// parsed and checked, the adjudication decided with the recorded dice, its
// events folded and the state hashed), and the whole Dragon Rage game
// "Raid" (Nurkott 2) the same way, the reference. The figures to read are
// per adjudication: time, allocations, and the ratio of the two times.
//
// BenchmarkDragonNoirPictures draws the results mails' pictures of a
// position half way through each recorded game, one per side
// (render.GamePictures, as mail/referee does), against the Esirien picture
// of render's benchmarks (adjudicator/dragonrage/refpicture), per picture. Both are
// drawn once before timing, so the figures are of a game's later pictures
// (render's "warm": the map's layer kept), on a machine where the layers
// of three maps are kept.

// recordedGames parses every whole game under testdata/games.
func recordedGames(b *testing.B) []*script.Script {
	b.Helper()
	entries, err := os.ReadDir("testdata/games")
	if err != nil {
		b.Fatal(err)
	}
	var out []*script.Script
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".yaml") {
			continue
		}
		file := path.Join("testdata/games", e.Name())
		src, err := os.ReadFile(file)
		if err != nil {
			b.Fatal(err)
		}
		s, err := script.Parse(file, src)
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		b.Fatal("no whole game under testdata/games: run go test -run TestBotGames -update")
	}
	return out
}

// raid is the reference game, ready to be played again.
func raid(b *testing.B) *scriptbench.Game {
	b.Helper()
	src, err := os.ReadFile("../dragonrage/testdata/games/n2-raid.yaml")
	if err != nil {
		b.Fatal(err)
	}
	s, err := script.Parse("n2-raid.yaml", src)
	if err != nil {
		b.Fatal(err)
	}
	g, err := scriptbench.Record(s, game.Lookup(func(n string) (adjudicator.Ruleset, bool) { return dragonrage.Ruleset, n == "dragonrage" }))
	if err != nil {
		b.Fatal(err)
	}
	return g
}

// cost is what a segment of the loop spent: elapsed time and allocations.
type cost struct {
	t              time.Duration
	allocs, nbytes uint64
}

// measure runs f and adds what it cost to c. Reading the allocator's
// counters stops the world briefly; that pause falls outside both
// segments' times.
func (c *cost) measure(f func()) {
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	t0 := time.Now()
	f()
	d := time.Since(t0)
	runtime.ReadMemStats(&m1)
	c.t += d
	c.allocs += m1.Mallocs - m0.Mallocs
	c.nbytes += m1.TotalAlloc - m0.TotalAlloc
}

func BenchmarkDragonNoirGame(b *testing.B) {
	ref := raid(b)
	for _, s := range recordedGames(b) {
		b.Run(strings.TrimSuffix(path.Base(s.File()), ".yaml"), func(b *testing.B) {
			g, err := scriptbench.Record(s, lookup)
			if err != nil {
				b.Fatal(err)
			}
			var sub, rc cost
			for b.Loop() {
				rc.measure(func() { play(b, ref) })
				sub.measure(func() { play(b, g) })
			}
			n, rn := float64(b.N*g.Adjudications()), float64(b.N*ref.Adjudications())
			b.ReportMetric(float64(sub.t.Nanoseconds())/n/1e6, "ms/adjudication")
			b.ReportMetric(float64(sub.allocs)/n, "allocs/adjudication")
			b.ReportMetric(float64(sub.nbytes)/n/1024, "KiB/adjudication")
			b.ReportMetric(float64(rc.t.Nanoseconds())/rn/1e6, "ref-ms/adjudication")
			b.ReportMetric(float64(rc.allocs)/rn, "ref-allocs/adjudication")
			b.ReportMetric(float64(sub.t.Nanoseconds())/n/(float64(rc.t.Nanoseconds())/rn), "ratio")
			b.ReportMetric(float64(g.Adjudications()), "adjudications")
		})
	}
}

// play plays g again to its end.
func play(b *testing.B, g *scriptbench.Game) {
	end, err := g.Play()
	if err != nil {
		b.Fatal(err)
	}
	if !end.Over() {
		b.Fatal("the game played again is not over")
	}
}

// halfWay is the game after the middle mail of s: a position in play,
// with the last adjudication's traces.
func halfWay(b *testing.B, s *script.Script) *game.Game {
	b.Helper()
	var mid *game.Game
	run, err := script.Play(s, lookup, script.Options{Before: func(i int, g *game.Game) {
		if i == len(s.Steps)/2 {
			mid = g
		}
	}})
	if err != nil || !run.OK() || mid == nil {
		b.Fatalf("%s: %v %v", s.File(), err, run.Failures)
	}
	return mid
}

func BenchmarkDragonNoirPictures(b *testing.B) {
	esirien, ev, err := refpicture.Esirien()
	if err != nil {
		b.Fatal(err)
	}
	eopt := render.Options{Style: board.Style, Game: refpicture.Game, Viewer: refpicture.Viewer, ToMove: refpicture.ToMove(), Sides: refpicture.Sides()}
	for _, s := range recordedGames(b) {
		b.Run(strings.TrimSuffix(path.Base(s.File()), ".yaml"), func(b *testing.B) {
			g := halfWay(b, s)
			m, ok := dragonnoir.Ruleset.(adjudicator.GameBoards).BoardOf(g.State)
			if !ok {
				b.Fatalf("%s: no board", s.File())
			}
			sides := []adjudicator.Side{dragonnoir.Adventurers, dragonnoir.Krobs}
			size := 0
			ours := func() {
				size = 0
				for _, side := range sides {
					pics, err := render.GamePictures(m, g, side, 1, nil)
					if err != nil {
						b.Fatal(err)
					}
					for _, p := range pics {
						size += len(p.PNG)
					}
				}
			}
			reference := func() {
				pic, err := render.Board(esirien, ev, eopt)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := pic.PNG(); err != nil {
					b.Fatal(err)
				}
			}
			// Once each before timing: every picture of a game but its
			// first draws over the map's layer kept from the one before.
			ours()
			reference()
			var sub, rc cost
			for b.Loop() {
				sub.measure(ours)
				rc.measure(reference)
			}
			n, rn := float64(b.N*len(sides)), float64(b.N)
			b.ReportMetric(float64(sub.t.Nanoseconds())/n/1e6, "ms/picture")
			b.ReportMetric(float64(sub.allocs)/n, "allocs/picture")
			b.ReportMetric(float64(rc.t.Nanoseconds())/rn/1e6, "esirien-ms/picture")
			b.ReportMetric(float64(sub.t.Nanoseconds())/n/(float64(rc.t.Nanoseconds())/rn), "ratio")
			b.ReportMetric(float64(size)/float64(len(sides)), "PNG-bytes")
		})
	}
}
