package games_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
)

// FuzzVerifyBundle feeds verify what a stranger could hand a referee as a
// bundle: it must never panic, and a bundle it passes must be one whose
// events chain and whose every file the events give.
func FuzzVerifyBundle(f *testing.F) {
	s := newService(f)
	create(f, s, 2)
	playOut(f, s, "race-1")
	var buf bytes.Buffer
	if err := s.Export(context.Background(), "race-1", &buf); err != nil {
		f.Fatal(err)
	}
	good := buf.Bytes()
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add(bytes.Replace(good, []byte(`"seq":3`), []byte(`"seq":4`), 1))
	f.Add([]byte{})
	// A series' bundle: the series' files and each game's under games/.
	ss := newSeriesService(f, store.NewMemory())
	createLeague(f, ss, "lg", 1)
	playOut(f, ss, "lg-r1")
	buf.Reset()
	if err := ss.ExportSeries(context.Background(), "lg", &buf); err != nil {
		f.Fatal(err)
	}
	series := bytes.Clone(buf.Bytes())
	f.Add(series)
	f.Add(bytes.Replace(series, []byte("lg/games/lg-r1/"), []byte("lg/games/lg-r2/"), 1))
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := games.VerifyBundle(bytes.NewReader(b), seriesLookup, games.Known{})
		if err != nil || !a.OK() {
			return
		}
		// Passed: it must read back as a whole bundle of chained events.
		bd, err := games.ReadBundle(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("verified, but does not read: %v", err)
		}
		evs, err := bd.Events()
		if err != nil || games.CheckChain(evs) != nil {
			t.Fatalf("verified, but its events do not chain: %v", err)
		}
	})
}
