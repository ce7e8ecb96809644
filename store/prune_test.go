package store_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/store"
)

// pruneBody is about a results mail with its picture.
const pruneBody = 200 << 10

// fillOutbox queues n messages of pruneBody bytes, their IDs starting with
// tag, ten to a transaction.
func fillOutbox(t testing.TB, s store.Store, tag string, n int, at time.Time) []string {
	t.Helper()
	body := bytes.Repeat([]byte("0123456789abcdef"), pruneBody/16)
	var ids []string
	for i := 0; i < n; i += 10 {
		var b store.Batch
		for j := i; j < min(i+10, n); j++ {
			id := fmt.Sprintf("%s-%04d@umpire", tag, j)
			ids = append(ids, id)
			b.Outbox = append(b.Outbox, store.Message{ID: id, Game: "g", From: "umpire@example.org", To: []string{"p@example.org"}, Raw: body, Created: at, NextAttempt: at})
		}
		if _, err := s.Append(context.Background(), b); err != nil {
			t.Fatal(err)
		}
	}
	return ids
}

// extent is how far into the file bbolt's pages reach (what the file must
// hold, without the room bbolt grows it by in advance), as umpire check
// reads it, and the file's size.
func extent(t testing.TB, path string) (pages, size int64) {
	t.Helper()
	rep, err := store.CheckFile(t.Context(), path, store.WithCheck(store.CheckPages))
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return int64(rep.Pages) * int64(rep.PageSize), fi.Size()
}

// TestPruneReusesSpace sends 200 mails of 200 KB into two data files (one
// a day), prunes one, and queues as many again into both: the pruned file
// takes the new mails into the pages the old bodies left, the other grows
// by all of them. (40 mails under the race detector, which makes the JSON
// of the bodies ten times slower.)
func TestPruneReusesSpace(t *testing.T) {
	n := 200
	if raceEnabled || testing.Short() {
		n = 40
	}
	ctx := t.Context()
	t0 := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	day := 24 * time.Hour
	var grew, grewFile [2]int64
	for i, pruned := range []bool{false, true} {
		path := filepath.Join(t.TempDir(), "umpire.db")
		s, err := store.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		for j, id := range fillOutbox(t, s, "first", n, t0) {
			if err := s.MarkSent(ctx, id, t0.Add(time.Duration(j)*day)); err != nil {
				t.Fatal(err)
			}
		}
		if pruned {
			// Keep the last 30 days, then drop them too.
			st, err := s.PruneSent(ctx, t0.Add(time.Duration(n-30)*day))
			if want := (store.PruneStats{Messages: n - 30, Bytes: int64(n-30) * pruneBody}); err != nil || st != want {
				t.Fatalf("PruneSent keeping 30 days = %+v, %v; want %+v", st, err, want)
			}
			st, err = s.PruneSent(ctx, t0.Add(time.Duration(n)*day))
			if want := (store.PruneStats{Messages: 30, Bytes: 30 * pruneBody}); err != nil || st != want {
				t.Fatalf("PruneSent of the rest = %+v, %v; want %+v", st, err, want)
			}
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		pages, size := extent(t, path)
		if s, err = store.Open(path); err != nil {
			t.Fatal(err)
		}
		fillOutbox(t, s, "second", n, t0.Add(time.Duration(n)*day))
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		pages2, size2 := extent(t, path)
		grew[i], grewFile[i] = pages2-pages, size2-size
		t.Logf("pruned %v: pages reach %d -> %d bytes (+%d), file %d -> %d bytes (+%d)", pruned, pages, pages2, grew[i], size, size2, grewFile[i])

		rep, err := store.CheckFile(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		if !rep.OK() || len(rep.Notes) > 0 {
			t.Fatalf("umpire check of the file: damage %v, notes %v", rep.Damage, rep.Notes)
		}
		want := store.OutboxReport{Messages: 2 * n, Pending: n, Sent: n}
		if pruned {
			want.Pruned = n
		}
		if rep.Outbox != want {
			t.Fatalf("umpire check counts %+v, want %+v", rep.Outbox, want)
		}
	}
	if grew[0] < int64(n)*pruneBody {
		t.Fatalf("the unpruned file's pages reach %d bytes further for %d bytes of mail", grew[0], n*pruneBody)
	}
	if grew[1] >= grew[0]/2 || grewFile[1] >= grewFile[0]/2 {
		t.Fatalf("after pruning the pages reach %d bytes further and the file grew by %d; without, by %d and %d: the freed pages were not reused", grew[1], grewFile[1], grew[0], grewFile[0])
	}
}

// BenchmarkPruneSent is a daily prune in a year-old outbox: 360 mails of
// 200 KB already pruned, and each round 30 more queued, sent, and pruned.
// It reports the prune's cost against queueing the same mails in the same
// round (prune/queue), and the outbox's listing (what `umpire outbox`
// reads) after it.
//
//	go test ./store -run '^$' -bench PruneSent -benchtime 5x -count 3
func BenchmarkPruneSent(b *testing.B) {
	ctx := context.Background()
	s := benchBolt(b)
	t0 := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	day := 24 * time.Hour
	sendAll := func(ids []string, at time.Time) {
		for _, id := range ids {
			if err := s.MarkSent(ctx, id, at); err != nil {
				b.Fatal(err)
			}
		}
	}
	sendAll(fillOutbox(b, s, "old", 360, t0), t0)
	if _, err := s.PruneSent(ctx, t0.Add(day)); err != nil {
		b.Fatal(err)
	}
	var queue, prune, list time.Duration
	for i := 0; b.Loop(); i++ {
		at := t0.Add(time.Duration(i+2) * day)
		start := time.Now()
		ids := fillOutbox(b, s, fmt.Sprint("day", i), 30, at)
		queue += time.Since(start)
		sendAll(ids, at)
		start = time.Now()
		st, err := s.PruneSent(ctx, at.Add(time.Hour))
		prune += time.Since(start)
		if err != nil || st.Messages != 30 {
			b.Fatalf("PruneSent = %+v, %v; want 30 messages", st, err)
		}
		start = time.Now()
		if _, err := s.Messages(ctx, ""); err != nil {
			b.Fatal(err)
		}
		list += time.Since(start)
	}
	n := float64(b.N)
	b.ReportMetric(float64(prune.Milliseconds())/n, "prune-ms")
	b.ReportMetric(float64(queue.Milliseconds())/n, "queue-ms")
	b.ReportMetric(float64(prune)/float64(queue), "prune/queue")
	b.ReportMetric(float64(list.Microseconds())/n/1000, "list-ms")
}
