package games

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/testrules"
	"github.com/umpire-pbem/umpire/store"
)

var leagueLookup = testrules.Lookup

// playedLeague is a league of two races played out, and its bundle.
func playedLeague(t *testing.T) []byte {
	t.Helper()
	ctx := context.Background()
	clock := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
	s := &Service{Store: store.NewMemory(), Rules: leagueLookup, Now: func() time.Time { clock = clock.Add(time.Second); return clock }}
	if _, err := s.Create(ctx, CreateRequest{ID: "lg", Ruleset: "league", Scenario: "league", Options: map[string]string{"games": "2"},
		Players: []Player{{Side: "red", Address: "red@example.org"}, {Side: "blue", Address: "blue@example.org"}}}); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"lg-r1", "lg-r2"} {
		for i := 0; ; i++ {
			g, err := s.Load(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if g.Over() {
				break
			}
			if i > 50 {
				t.Fatalf("%s does not end", id)
			}
			for _, r := range g.Due() {
				if _, ok := g.Answered(r.ID); ok {
					continue
				}
				src := testrules.Answer(g.State, r)
				if _, err := s.Submit(ctx, SubmitRequest{Game: id, Side: r.Side, Src: []byte(src), Via: "test"}); err != nil {
					t.Fatalf("%s: %v", id, err)
				}
				break
			}
		}
	}
	var buf bytes.Buffer
	if err := s.ExportSeries(ctx, "lg", &buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// rewrite replaces child cid's bundle by one made from its events changed
// by change, the hash chain computed again: a forger's consistent rewrite,
// which the game's own checks cannot see.
func rewrite(t *testing.T, bundle []byte, cid string, change func([]store.Event) []store.Event) *Bundle {
	t.Helper()
	b, err := ReadBundle(bytes.NewReader(bundle))
	if err != nil {
		t.Fatal(err)
	}
	_, kids, _, _ := splitSeries(b)
	evs, err := kids[cid].Events()
	if err != nil {
		t.Fatal(err)
	}
	evs = change(evs)
	var prev store.Hash
	for i := range evs {
		evs[i].Seq = uint64(i + 1)
		evs[i].Prev = prev
		evs[i].Hash = store.ChainHash(prev, evs[i].Seq, evs[i].NewEvent)
		prev = evs[i].Hash
	}
	files, err := buildBundle(evs, time.Time{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := &Bundle{Root: b.Root}
	for _, f := range b.Files {
		if !strings.HasPrefix(f.name, seriesChildDir+cid+"/") {
			out.Files = append(out.Files, f)
		}
	}
	for _, f := range files {
		out.Files = append(out.Files, bundleFile{name: seriesChildDir + cid + "/" + f.name, body: f.body})
	}
	// The child's own files are consistent: only the links can tell.
	own, _ := verifyOne(&Bundle{Root: cid, Files: files}, nil, Known{})
	if !own.OK() {
		t.Fatalf("the forged game does not verify on its own: %v", own.Problems)
	}
	return out
}

// TestSeriesTamperedChild: a game of a series rewritten consistently (its
// own chain and files recomputed) fails the series' verify at the link that
// names it.
func TestSeriesTamperedChild(t *testing.T) {
	bundle := playedLeague(t)
	if a := verifySeries(mustRead(t, bundle), leagueLookup, Known{}); !a.OK() {
		t.Fatalf("the untouched series: %v", a.Problems())
	}
	cases := []struct {
		name, want string
		change     func([]store.Event) []store.Event
	}{
		{"last event dropped", "lg-r2: the series' event", func(evs []store.Event) []store.Event { return evs[:len(evs)-1] }},
		{"another player", "lg-r1: its game.created is not what the series' event", func(evs []store.Event) []store.Event {
			var c game.Created
			_ = json.Unmarshal(evs[0].Payload, &c)
			c.Players[0].Address = "mallory@example.org"
			evs[0].Payload, _ = json.Marshal(c)
			return evs
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cid := "lg-r2"
			if strings.HasPrefix(tc.want, "lg-r1") {
				cid = "lg-r1"
			}
			a := verifySeries(rewrite(t, bundle, cid, tc.change), leagueLookup, Known{})
			if a.OK() || !strings.Contains(strings.Join(a.Links, "\n"), tc.want) {
				t.Fatalf("want a link problem %q, got %v", tc.want, a.Problems())
			}
		})
	}
	// A game the series never reached, slipped into the bundle.
	b := mustRead(t, bundle)
	var extra []bundleFile
	for _, f := range b.Files {
		if rest, ok := strings.CutPrefix(f.name, seriesChildDir+"lg-r1/"); ok {
			extra = append(extra, bundleFile{name: seriesChildDir + "lg-r9/" + rest, body: f.body})
		}
	}
	b.Files = append(b.Files, extra...)
	if a := verifySeries(b, leagueLookup, Known{}); !strings.Contains(strings.Join(a.Problems(), "\n"), "lg-r9: the series never reached this game") {
		t.Fatalf("an extra game: %v", a.Problems())
	}
}

func mustRead(t *testing.T, bundle []byte) *Bundle {
	t.Helper()
	b, err := ReadBundle(bytes.NewReader(bundle))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
