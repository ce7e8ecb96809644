package store

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// pruneBody is about a results mail with its picture.
const pruneBody = 200 << 10

// fillOutbox queues n messages of pruneBody bytes, their IDs starting with
// tag, ten to a transaction.
func fillOutbox(t testing.TB, s *Bolt, tag string, n int, at time.Time) []string {
	t.Helper()
	body := bytes.Repeat([]byte("0123456789abcdef"), pruneBody/16)
	var ids []string
	for i := 0; i < n; i += 10 {
		var b Batch
		for j := i; j < min(i+10, n); j++ {
			id := fmt.Sprintf("%s-%04d@umpire", tag, j)
			ids = append(ids, id)
			b.Outbox = append(b.Outbox, Message{ID: id, Game: "g", From: "umpire@example.org", To: []string{"p@example.org"}, Raw: body, Created: at, NextAttempt: at})
		}
		if _, err := s.Append(context.Background(), b); err != nil {
			t.Fatal(err)
		}
	}
	return ids
}

// highWater is how far into the file bbolt's pages reach: what the file
// must hold, without the room bbolt grows it by in advance.
func highWater(t testing.TB, s *Bolt) int64 {
	t.Helper()
	var n int64
	if err := s.db.View(func(tx *bolt.Tx) error { n = tx.Size(); return nil }); err != nil {
		t.Fatal(err)
	}
	return n
}

func fileSize(t testing.TB, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// TestPruneReusesSpace sends 200 mails of 200 KB into two data files,
// prunes one, and queues as many again into both: the pruned file takes
// the new mails into the pages the old bodies left, the other grows by all
// of them.
func TestPruneReusesSpace(t *testing.T) {
	const n = 200
	ctx := t.Context()
	t0 := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	var grew [2]int64
	var grewFile [2]int64
	for i, pruned := range []bool{false, true} {
		path := filepath.Join(t.TempDir(), "umpire.db")
		s, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		ids := fillOutbox(t, s, "first", n, t0)
		for j, id := range ids {
			// One a day for 200 days.
			if err := s.MarkSent(ctx, id, t0.Add(time.Duration(j)*24*time.Hour)); err != nil {
				t.Fatal(err)
			}
		}
		if pruned {
			// Keep the last 30 days, then drop them too.
			st, err := s.PruneSent(ctx, t0.Add((n-30)*24*time.Hour))
			if err != nil || st.Messages != n-30 || st.Bytes != (n-30)*pruneBody {
				t.Fatalf("PruneSent keeping 30 days = %+v, %v; want %d messages of %d bytes", st, err, n-30, pruneBody)
			}
			st, err = s.PruneSent(ctx, t0.Add(n*24*time.Hour))
			if err != nil || st.Messages != 30 {
				t.Fatalf("PruneSent of the rest = %+v, %v; want 30 messages", st, err)
			}
		}
		hw, size := highWater(t, s), fileSize(t, path)
		fillOutbox(t, s, "second", n, t0.Add(n*24*time.Hour))
		grew[i], grewFile[i] = highWater(t, s)-hw, fileSize(t, path)-size
		t.Logf("pruned %v: pages reach %d -> %d bytes (+%d), file %d -> %d bytes (+%d)", pruned, hw, hw+grew[i], grew[i], size, size+grewFile[i], grewFile[i])

		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		rep, err := CheckFile(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		if !rep.OK() || len(rep.Notes) > 0 {
			t.Fatalf("umpire check of the file: damage %v, notes %v", rep.Damage, rep.Notes)
		}
		want := OutboxReport{Messages: 2 * n, Pending: n, Sent: n}
		if pruned {
			want.Pruned = n
		}
		if rep.Outbox != want {
			t.Fatalf("umpire check counts %+v, want %+v", rep.Outbox, want)
		}
	}
	if grew[0] < n*pruneBody {
		t.Fatalf("the unpruned file grew by %d bytes for %d bytes of mail", grew[0], n*pruneBody)
	}
	if grew[1] >= grew[0]/2 || grewFile[1] >= grewFile[0]/2 {
		t.Fatalf("after pruning the pages reached %d bytes further and the file grew by %d, without pruning by %d and %d: the freed pages were not reused", grew[1], grewFile[1], grew[0], grewFile[0])
	}
}
