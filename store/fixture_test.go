package store_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/store"
)

var update = flag.Bool("update", false, "rewrite testdata/v1/umpire.db")

// The fixture is a bolt file written by format version 1. It is generated
// once (go test ./store -run TestFixtureV1 -update) and then kept as it is:
// whatever the store's code becomes, it must still read this file.
const fixtureV1 = "testdata/v1/umpire.db"

var fixtureTime = time.Date(2025, 4, 1, 18, 0, 0, 500, time.UTC)

var fixtureEvents = []store.NewEvent{
	{Type: "game.created", Schema: 1, Time: fixtureTime, Actor: "referee", Payload: []byte(`{"name":"fixture"}`)},
	{Type: "orders.submitted", Schema: 2, Time: fixtureTime.Add(time.Hour), Actor: "side:invader", Payload: []byte(`{"orders":["A1-B2"]}`)},
	{Type: "turn.resolved", Schema: 1, Time: fixtureTime.Add(25 * time.Hour), Actor: "engine", Payload: nil},
}

// The hashes as version 1 computed them.
var fixtureHashes = []string{
	"64fbfe675e348c9f2d9d4ac546cede1890d22cb9238cc6c067d34e25cc559840",
	"ca6af7cc4ddcce6d2105be59c71c7d071cbc8d7191c5d3a6997f3dd3193b2c40",
	"91d4a5412111f56ba122f2ea388e3f30851ffa7aa13911d90ca4fdf264d839c6",
}

func writeFixture(t *testing.T, path string) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	os.Remove(path)
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_, err = s.Append(t.Context(), store.Batch{
		Game:    "fixture",
		Events:  fixtureEvents,
		Outbox:  []store.Message{{ID: "msg-1@umpire", Game: "fixture", From: "umpire@example.org", To: []string{"p@example.org"}, Raw: []byte("Subject: hi\r\n\r\nhi\r\n"), Created: fixtureTime, NextAttempt: fixtureTime}},
		Marks:   []string{"imap:1:1"},
		Secrets: map[string][]byte{"seed": []byte("fixture-seed")},
		Meta:    map[string][]byte{"uidvalidity": []byte("1")},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Retry(t.Context(), "msg-1@umpire", fixtureTime.Add(time.Minute), "421 busy"); err != nil {
		t.Fatal(err)
	}
}

func TestFixtureV1(t *testing.T) {
	if *update {
		writeFixture(t, fixtureV1)
	}
	// Work on a copy: opening for writing must not touch testdata.
	data, err := os.ReadFile(fixtureV1)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "umpire.db")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	for name, open := range map[string]func(string, ...store.Option) (*store.Bolt, error){
		"Open": store.Open, "OpenReadOnly": store.OpenReadOnly,
	} {
		t.Run(name, func(t *testing.T) {
			s, err := open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			checkFixture(t, s)
		})
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(after, data) {
		t.Errorf("opening and reading the fixture changed the file")
	}
}

func checkFixture(t *testing.T, s store.Store) {
	ctx := t.Context()
	evs, err := s.Events(ctx, "fixture", 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != len(fixtureEvents) {
		t.Fatalf("%d events, want %d", len(evs), len(fixtureEvents))
	}
	for i, e := range evs {
		want := fixtureEvents[i]
		if e.Seq != uint64(i+1) || e.Type != want.Type || e.Schema != want.Schema || !e.Time.Equal(want.Time) ||
			e.Actor != want.Actor || !bytes.Equal(e.Payload, want.Payload) {
			t.Errorf("event %d: %+v, want %+v", i+1, e, want)
		}
		if e.Hash.String() != fixtureHashes[i] {
			t.Errorf("event %d: hash %s, want %s", i+1, e.Hash, fixtureHashes[i])
		}
	}
	if err := store.Verify(ctx, s, "fixture"); err != nil {
		t.Error(err)
	}
	if v, err := s.Secret(ctx, "fixture", "seed"); err != nil || string(v) != "fixture-seed" {
		t.Errorf("secret = %q, %v", v, err)
	}
	if v, err := s.Meta(ctx, "uidvalidity"); err != nil || string(v) != "1" {
		t.Errorf("meta = %q, %v", v, err)
	}
	if ok, err := s.Marked(ctx, "imap:1:1"); err != nil || !ok {
		t.Errorf("mark = %v, %v", ok, err)
	}
	due, err := s.Due(ctx, fixtureTime.Add(time.Minute), 0)
	if err != nil || len(due) != 1 {
		t.Fatalf("Due = %+v, %v", due, err)
	}
	m := due[0]
	if m.ID != "msg-1@umpire" || m.Game != "fixture" || m.From != "umpire@example.org" || len(m.To) != 1 || m.To[0] != "p@example.org" ||
		string(m.Raw) != "Subject: hi\r\n\r\nhi\r\n" || !m.Created.Equal(fixtureTime) || m.Status != store.Pending ||
		m.Attempts != 1 || m.LastError != "421 busy" || !m.NextAttempt.Equal(fixtureTime.Add(time.Minute)) {
		t.Errorf("message: %+v", m)
	}
}
