package glory_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dragonrage"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/glory"
	"github.com/umpire-pbem/umpire/adjudicator/script"
	"github.com/umpire-pbem/umpire/adjudicator/script/scriptbench"
)

// Benchmarks of a Dragons of Glory game as the server plays it: each mail's
// orders parsed, checked, adjudicated, folded and hashed by the game
// package (adjudicator/game: events, dice from the committed chain, state
// hash), every submission of a whole game. The reference, measured in the
// same loop, is the whole Dragon Rage game "Raid" (Nurkott 2) played the
// same way by the script runner: the figure to read is the cost of one
// adjudication of each, and their ratio (docs/PERFORMANCE.md).
//
//	go test -run '^$' -bench Glory -benchtime 3x ./adjudicator/glory/

// mail is one recorded submission of a glory game.
type mail struct {
	side adjudicator.Side
	src  []byte
}

// recordGame plays scenario with the bot through the game package and
// returns its submissions and adjudications.
func recordGame(b *testing.B, m *adjudicator.Module, scenario string) ([]mail, int) {
	g, secret := newGloryGame(b, m, scenario)
	vault := game.Vault{}
	var mails []mail
	adjs := 0
	stats := &botStats{refused: map[string]int{}}
	for round := 0; !g.Over(); round++ {
		if round > 2000 {
			b.Fatalf("%s: not over after %d submissions", scenario, round)
		}
		st := g.State.(*glory.State)
		for _, q := range g.Due() {
			if _, ok := g.Answered(q.ID); ok {
				continue
			}
			_, text := botOrdersText(b, st, q, stats)
			src := []byte(fmt.Sprintf("turn: %d\nphase: %s\norders:\n%s", q.Turn, q.Phase, indent(string(text))))
			out := submit(b, g, q.Side, src, secret, vault)
			mails = append(mails, mail{q.Side, src})
			adjs += len(out.Results)
			g = out.Next
			break
		}
	}
	return mails, adjs
}

func indent(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		b.WriteString("  " + l + "\n")
	}
	return b.String()
}

func newGloryGame(b *testing.B, m *adjudicator.Module, scenario string) (*game.Game, []byte) {
	secret := make([]byte, dice.SeedSize)
	rec, _, err := game.Create(game.NewGame{ID: "bench", Ruleset: glory.Ruleset, Scenario: scenario, Module: m,
		Players: []game.Player{{Side: glory.Highlord}, {Side: glory.Whitestone}}, Time: time.Unix(1e9, 0).UTC(), Secret: secret})
	if err != nil {
		b.Fatal(err)
	}
	lookup := game.Lookup(func(name string) (adjudicator.Ruleset, bool) { return glory.Ruleset, name == "glory" })
	var src game.Source = lookup
	if m != nil {
		src = lookup.With(func(_ string, ref adjudicator.ModuleRef) (adjudicator.Module, error) {
			if ref.Digest != m.Digest() {
				return adjudicator.Module{}, game.ErrNoModule
			}
			return *m, nil
		})
	}
	g, err := game.Load([]game.Entry{{Seq: 1, Record: rec}}, src)
	if err != nil {
		b.Fatal(err)
	}
	return g, secret
}

// submit submits src for side; vault keeps the openings of sealed parts
// (the hidden orders of steps 1 to 4) as the data file would.
func submit(b *testing.B, g *game.Game, side adjudicator.Side, src, secret []byte, vault game.Vault) *game.Outcome {
	out, err := g.Submit(game.Input{Side: side, Src: src, Time: time.Unix(1e9, 0).UTC(),
		Secrets: func(int) ([]byte, error) { return secret, nil }, NextSecret: secret,
		Rand: rand.NewChaCha8([32]byte{7}), Unseal: vault.Unseal})
	if err != nil {
		b.Fatalf("%s: %v\n%s", side, err, src)
	}
	vault.Keep(out.Records)
	return out
}

// replay submits the recorded mails to a fresh game.
func replay(b *testing.B, m *adjudicator.Module, scenario string, mails []mail) {
	g, secret := newGloryGame(b, m, scenario)
	vault := game.Vault{}
	for _, ml := range mails {
		g = submit(b, g, ml.side, ml.src, secret, vault).Next
	}
	if !g.Over() {
		b.Fatal("the replayed game is not over")
	}
}

func BenchmarkGloryGame(b *testing.B) {
	src, err := os.ReadFile("../dragonrage/testdata/games/n2-raid.yaml")
	if err != nil {
		b.Fatal(err)
	}
	s0, err := script.Parse("n2-raid.yaml", src)
	if err != nil {
		b.Fatal(err)
	}
	// The reference is played as the subject is: mail by mail, by
	// submission only (scriptbench), no Verify or Replay of the log.
	ref, err := scriptbench.Record(s0, game.Lookup(func(n string) (adjudicator.Ruleset, bool) { return dragonrage.Ruleset, n == "dragonrage" }))
	if err != nil {
		b.Fatal(err)
	}
	type subject struct {
		name, scenario string
		m              *adjudicator.Module
	}
	subjects := []subject{{"demo-border-war", "border-war", nil}}
	if m, ok := tryImport(); ok {
		subjects = append(subjects, subject{"ansalon-kender-strike", "kender-strike", &m}, subject{"ansalon-campaign", "war-of-the-lance", &m})
	}
	for _, s := range subjects {
		b.Run(s.name, func(b *testing.B) {
			mails, adjs := recordGame(b, s.m, s.scenario)
			var refT, subT time.Duration
			refAdjs := ref.Adjudications()
			for b.Loop() {
				t0 := time.Now()
				if _, err := ref.Play(); err != nil {
					b.Fatalf("the reference game: %v", err)
				}
				t1 := time.Now()
				replay(b, s.m, s.scenario, mails)
				subT += time.Since(t1)
				refT += t1.Sub(t0)
			}
			perRef := float64(refT.Nanoseconds()) / float64(b.N*refAdjs)
			perSub := float64(subT.Nanoseconds()) / float64(b.N*adjs)
			b.ReportMetric(perSub/1e6, "ms/adjudication")
			b.ReportMetric(perRef/1e6, "ref-ms/adjudication")
			b.ReportMetric(perSub/perRef, "ratio")
			b.ReportMetric(float64(adjs), "adjudications")
		})
	}
}

// tryImport imports the fan data when it is beside the checkout.
func tryImport() (adjudicator.Module, bool) {
	if _, err := os.Stat(foundDir + "/ansalon_map.csv"); err != nil {
		return adjudicator.Module{}, false
	}
	m, _, err := glory.Ruleset.(adjudicator.ModuleImporter).ImportModule("ansalon", os.DirFS(foundDir))
	return m, err == nil
}
