package postgres_test

import (
	"slices"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/store"
)

// Keys and opaque strings are bytes, not text: a NUL or invalid UTF-8
// round-trips, and order is Go's string order (bytewise).
func TestBytesRoundTripAndOrder(t *testing.T) {
	s := open(t)
	ctx := t.Context()
	odd := []string{"a\x00b", "a\xff", "a", "\xff\xfe", "a\x00", "é", "b"}
	for _, g := range odd {
		ev := event(1)
		ev.Type, ev.Actor = "type\x00"+g, "actor\xff"+g
		b := store.Batch{Game: g, Events: []store.NewEvent{ev}, Marks: []string{"mark:" + g},
			Secrets: map[string][]byte{"name\x00" + g: []byte(g)}, Meta: map[string][]byte{"p\xff" + g: []byte(g)},
			Outbox: []store.Message{{ID: "id\x00" + g, Game: g, From: "from\xff" + g, To: []string{g, "\x00"}, Raw: []byte(g), Created: time.Unix(5, 0)}}}
		if _, err := s.Append(ctx, b); err != nil {
			t.Fatalf("game %q: %v", g, err)
		}
		evs, err := s.Events(ctx, g, 1)
		if err != nil || len(evs) != 1 || evs[0].Type != ev.Type || evs[0].Actor != ev.Actor {
			t.Fatalf("events of %q: %+v, %v", g, evs, err)
		}
		if ok, err := s.Marked(ctx, "mark:"+g); !ok || err != nil {
			t.Fatalf("mark of %q: %v, %v", g, ok, err)
		}
		if v, err := s.Secret(ctx, g, "name\x00"+g); err != nil || string(v) != g {
			t.Fatalf("secret of %q: %q, %v", g, v, err)
		}
		ms, err := s.Messages(ctx, g)
		if err != nil || len(ms) != 1 || ms[0].ID != "id\x00"+g || ms[0].From != "from\xff"+g || !slices.Equal(ms[0].To, []string{g, "\x00"}) {
			t.Fatalf("messages of %q: %+v, %v", g, ms, err)
		}
		if due, err := s.DueFrom(ctx, time.Unix(6, 0), 0, "from\xff"+g); err != nil || len(due) != 1 || due[0].ID != "id\x00"+g {
			t.Fatalf("DueFrom of %q: %+v, %v", g, due, err)
		}
	}
	want := slices.Sorted(slices.Values(odd))
	if games, err := s.Games(ctx); err != nil || !slices.Equal(games, want) {
		t.Fatalf("Games = %q, %v; want %q", games, err, want)
	}
	var wantMeta []string
	for _, g := range want {
		wantMeta = append(wantMeta, "p\xff"+g)
	}
	if keys, err := s.MetaKeys(ctx, "p\xff"); err != nil || !slices.Equal(keys, wantMeta) {
		t.Fatalf("MetaKeys(p\\xff) = %q, %v; want %q", keys, err, wantMeta)
	}
	if keys, err := s.MetaKeys(ctx, "p\xffa\x00"); err != nil || !slices.Equal(keys, []string{"p\xffa\x00", "p\xffa\x00b"}) {
		t.Fatalf("MetaKeys(p\\xffa\\x00) = %q, %v", keys, err)
	}
	if keys, err := s.MetaKeys(ctx, "q"); err != nil || len(keys) != 0 {
		t.Fatalf("MetaKeys(q) = %q, %v", keys, err)
	}
}
