package storetest

import (
	"bytes"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/store"
)

// The checks of store.Dumper and store.Loader, for a store that implements
// both: what `umpire store copy` relies on. A dump loaded into a fresh
// store of the same kind gives a store equal in everything Store can read.

// runDump runs the Dump/Load checks if the stores open gives implement
// both interfaces, and says so when they do not.
func runDump(t *testing.T, open func(t *testing.T) store.Store) {
	s := open(t)
	_, dumps := s.(store.Dumper)
	_, loads := s.(store.Loader)
	if !dumps || !loads {
		t.Logf("%T does not implement store.Dumper and store.Loader: the Dump/Load checks do not apply", s)
		return
	}
	tests := []struct {
		name string
		fn   func(*testing.T, func(*testing.T) store.Store)
	}{
		{"DumpLoadEqual", testDumpLoadEqual},
		{"DumpOrder", testDumpOrder},
		{"LoadInChunks", testLoadChunks},
		{"LoadBrokenChainWritesNothing", testLoadBrokenChain},
		{"LoadDuplicateWritesNothing", testLoadDuplicate},
		{"LoadInvalid", testLoadInvalid},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, open) })
	}
}

// dumpFill is what fill writes, to look each part up again.
type dumpFill struct {
	games   []string
	secrets map[string][]string // game → names
	marks   []string
	meta    []string
}

// fill writes games with events and secrets, marks, meta values and
// outbox messages in every status: pending after retries (attempts, a
// NextAttempt, a last error), pending as queued, sent, sent and pruned,
// failed.
func fill(t *testing.T, s store.Store) dumpFill {
	ctx := t.Context()
	f := dumpFill{
		games:   []string{"alpha", "beta", "gamma"},
		secrets: map[string][]string{"alpha": {"dice", "side:red"}, "gamma": {"dice"}, "secret-only": {"x"}},
		marks:   []string{"imap:7:1", "imap:7:2", "msgid:<a@b>"},
		meta:    []string{"imap/uidvalidity", "lib/map", "empty"},
	}
	for i, g := range f.games {
		evs := newEvents(i*10, 3+2*i)
		evs[0].Payload = bytes.Repeat([]byte{byte('a' + i)}, 3000) // bigger than one line, any byte
		evs[1].Payload = nil
		b := store.Batch{Game: g, Events: evs, Secrets: map[string][]byte{}}
		for _, name := range f.secrets[g] {
			b.Secrets[name] = []byte("secret of " + g + "/" + name)
		}
		mustAppend(t, s, b)
		mustAppend(t, s, store.Batch{Game: g, Expected: uint64(len(evs)), Events: newEvents(100, 2)})
	}
	mustAppend(t, s, store.Batch{Game: "secret-only", Secrets: map[string][]byte{"x": []byte("no events")}})
	mustAppend(t, s, store.Batch{Marks: f.marks, Meta: map[string][]byte{"imap/uidvalidity": []byte("42"), "lib/map": []byte("hexes"), "empty": nil}})
	mustAppend(t, s, store.Batch{Outbox: []store.Message{
		newMessage("queued", "alpha", base.Add(time.Hour)),
		newMessage("retried", "alpha", base),
		newMessage("sent", "beta", base),
		newMessage("pruned", "", base),
		newMessage("failed", "gamma", base),
		newMessage("due-now", "", time.Time{}),
	}})
	for _, step := range []error{
		s.Retry(ctx, "retried", base.Add(3*time.Hour), "421 try later"),
		s.Retry(ctx, "retried", base.Add(5*time.Hour), "421 still busy"),
		s.MarkSent(ctx, "sent", base.Add(2*time.Hour)),
		s.MarkSent(ctx, "pruned", base.Add(-48*time.Hour)),
		s.Fail(ctx, "failed", "550 no such user"),
	} {
		if step != nil {
			t.Fatalf("moving the outbox: %v", step)
		}
	}
	if st := prune(t, s, base.Add(-24*time.Hour)); st.Messages != 1 {
		t.Fatalf("PruneSent pruned %d messages, want 1", st.Messages)
	}
	return f
}

func dumpAll(t *testing.T, s store.Store) []store.Item {
	t.Helper()
	var items []store.Item
	if err := s.(store.Dumper).Dump(t.Context(), func(it store.Item) error {
		items = append(items, it)
		return nil
	}); err != nil {
		t.Fatalf("Dump: %v", err)
	}
	return items
}

func load(t *testing.T, s store.Store, items []store.Item) error {
	t.Helper()
	return s.(store.Loader).Load(t.Context(), items)
}

// sameStores fails unless b holds what a does, as Store reads it.
func sameStores(t *testing.T, a, b store.Store, f dumpFill) {
	t.Helper()
	ctx := t.Context()
	ga, err := a.Games(ctx)
	if err != nil {
		t.Fatal(err)
	}
	gb, err := b.Games(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ga, gb) || !slices.Equal(ga, f.games) {
		t.Fatalf("Games: %v, then %v; want %v", ga, gb, f.games)
	}
	for _, g := range ga {
		if va, vb := version(t, a, g), version(t, b, g); va != vb {
			t.Fatalf("game %s: Version %d, then %d", g, va, vb)
		}
		ea, eb := mustEvents(t, a, g, 1), mustEvents(t, b, g, 1)
		if len(ea) != len(eb) {
			t.Fatalf("game %s: %d events, then %d", g, len(ea), len(eb))
		}
		for i := range ea {
			sameEvent(t, "loaded event of "+g, eb[i], ea[i])
		}
		if err := store.Verify(ctx, b, g); err != nil {
			t.Fatalf("Verify of the loaded game: %v", err)
		}
	}
	for g, names := range f.secrets {
		for _, n := range names {
			va, err := a.Secret(ctx, g, n)
			if err != nil {
				t.Fatal(err)
			}
			vb, err := b.Secret(ctx, g, n)
			if err != nil || !bytes.Equal(va, vb) {
				t.Fatalf("Secret(%s, %s) = %q, %v; want %q", g, n, vb, err, va)
			}
		}
	}
	for _, m := range append(slices.Clone(f.marks), "imap:7:3") {
		ma, err := a.Marked(ctx, m)
		if err != nil {
			t.Fatal(err)
		}
		if mb, err := b.Marked(ctx, m); err != nil || ma != mb {
			t.Fatalf("Marked(%s) = %v, %v; want %v", m, mb, err, ma)
		}
	}
	ka, _ := a.MetaKeys(ctx, "")
	kb, err := b.MetaKeys(ctx, "")
	if err != nil || !slices.Equal(ka, kb) || len(ka) != len(f.meta) {
		t.Fatalf("MetaKeys = %v, %v; want %v", kb, err, ka)
	}
	for _, k := range ka {
		va, _ := a.Meta(ctx, k)
		if vb, err := b.Meta(ctx, k); err != nil || !bytes.Equal(va, vb) {
			t.Fatalf("Meta(%s) = %q, %v; want %q", k, vb, err, va)
		}
	}
	for _, g := range []string{"", "alpha", "beta", "gamma", "none"} {
		sameMessages(t, "Messages("+g+")", func(s store.Store) ([]store.Message, error) { return s.Messages(ctx, g) }, a, b)
	}
	for _, now := range []time.Time{base.Add(-time.Hour), base.Add(2 * time.Hour), base.Add(100 * time.Hour)} {
		sameMessages(t, "Due("+now.String()+")", func(s store.Store) ([]store.Message, error) { return s.Due(ctx, now, 0) }, a, b)
	}
}

func sameMessages(t *testing.T, what string, get func(store.Store) ([]store.Message, error), a, b store.Store) {
	t.Helper()
	ma, err := get(a)
	if err != nil {
		t.Fatal(err)
	}
	mb, err := get(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(ma) != len(mb) {
		t.Fatalf("%s: %v, then %v", what, messageIDs(ma), messageIDs(mb))
	}
	for i := range ma {
		sameButBody(t, what, mb[i], ma[i])
		if !bytes.Equal(ma[i].Raw, mb[i].Raw) || ma[i].Pruned != mb[i].Pruned {
			t.Fatalf("%s: message %s has body %d bytes pruned %v, then %d bytes pruned %v", what, ma[i].ID, len(ma[i].Raw), ma[i].Pruned, len(mb[i].Raw), mb[i].Pruned)
		}
		for _, tm := range []time.Time{mb[i].Created, mb[i].NextAttempt, mb[i].SentAt} {
			if !tm.IsZero() && tm.Location() != time.UTC {
				t.Fatalf("%s: message %s has a time %v not in UTC", what, mb[i].ID, tm)
			}
		}
	}
}

// testDumpLoadEqual: a dump loaded into a fresh store gives an equal one,
// and the first store is unchanged by being dumped.
func testDumpLoadEqual(t *testing.T, open func(*testing.T) store.Store) {
	a := open(t)
	f := fill(t, a)
	items := dumpAll(t, a)
	b := open(t)
	if err := load(t, b, items); err != nil {
		t.Fatalf("Load of %d items: %v", len(items), err)
	}
	sameStores(t, a, b, f)
	// The loaded outbox goes on as the first would: a retried message is
	// pruned only once sent, a failed one may be retried.
	if err := b.Retry(t.Context(), "failed", base, "fixed the address"); err != nil {
		t.Fatal(err)
	}
	if err := b.Retry(t.Context(), "pruned", base, ""); !errors.Is(err, store.ErrPruned) {
		t.Fatalf("Retry of a loaded pruned message: %v, want ErrPruned", err)
	}
	if _, err := b.Append(t.Context(), store.Batch{Game: "alpha", Expected: version(t, a, "alpha"), Events: newEvents(200, 1)}); err != nil {
		t.Fatalf("Append after Load: %v", err)
	}
	if _, err := b.Append(t.Context(), store.Batch{Marks: []string{f.marks[0]}}); !errors.Is(err, store.ErrDuplicate) {
		t.Fatalf("Append of a loaded mark: %v, want ErrDuplicate", err)
	}
	if _, err := b.Append(t.Context(), store.Batch{Outbox: []store.Message{newMessage("sent", "", base)}}); !errors.Is(err, store.ErrDuplicate) {
		t.Fatalf("queueing a loaded message ID again: %v, want ErrDuplicate", err)
	}
}

// testDumpOrder: each game's events in order (games in lexical order) and
// its secrets, then marks, meta values and messages in queue order; every
// item has exactly one part.
func testDumpOrder(t *testing.T, open func(*testing.T) store.Store) {
	a := open(t)
	fill(t, a)
	items := dumpAll(t, a)
	stage := 0 // 0 games, 1 marks, 2 meta, 3 messages
	lastGame := ""
	var seq uint64
	var msgs []string
	for i, it := range items {
		if err := store.CheckItem(&it); err != nil {
			t.Fatalf("item %d: %v", i, err)
		}
		var st int
		switch {
		case it.Event != nil, it.Secret != nil:
			st = 0
		case it.Mark != "":
			st = 1
		case it.Meta != nil:
			st = 2
		default:
			st = 3
			msgs = append(msgs, it.Message.ID)
		}
		if st < stage {
			t.Fatalf("item %d (%+v) comes after a later kind", i, it)
		}
		stage = st
		if st != 0 {
			continue
		}
		if it.Game != lastGame {
			if it.Game < lastGame {
				t.Fatalf("item %d: game %q after %q", i, it.Game, lastGame)
			}
			lastGame, seq = it.Game, 0
		}
		if it.Event != nil {
			if it.Event.Seq != seq+1 {
				t.Fatalf("item %d: event %d of %s after %d (or after its secrets)", i, it.Event.Seq, it.Game, seq)
			}
			seq++
		} else {
			seq = 1 << 62 // no event after a secret
		}
	}
	all, err := a.Messages(t.Context(), "")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(msgs, messageIDs(all)) {
		t.Fatalf("dumped messages %v, queued %v", msgs, messageIDs(all))
	}
}

// testLoadChunks: loading a dump a few items at a time, a game's events
// spread over calls, gives the same store.
func testLoadChunks(t *testing.T, open func(*testing.T) store.Store) {
	a := open(t)
	f := fill(t, a)
	items := dumpAll(t, a)
	b := open(t)
	for chunk := range slices.Chunk(items, 3) {
		if err := load(t, b, chunk); err != nil {
			t.Fatalf("Load of a chunk: %v", err)
		}
	}
	sameStores(t, a, b, f)
}

// emptyStore fails unless s holds nothing that fill writes.
func emptyStore(t *testing.T, s store.Store, f dumpFill, what string) {
	t.Helper()
	ctx := t.Context()
	if gs, err := s.Games(ctx); err != nil || len(gs) > 0 {
		t.Fatalf("%s: Games = %v, %v", what, gs, err)
	}
	if ms, err := s.Messages(ctx, ""); err != nil || len(ms) > 0 {
		t.Fatalf("%s: Messages = %v, %v", what, messageIDs(ms), err)
	}
	if ks, err := s.MetaKeys(ctx, ""); err != nil || len(ks) > 0 {
		t.Fatalf("%s: MetaKeys = %v, %v", what, ks, err)
	}
	for _, m := range f.marks {
		if ok, err := s.Marked(ctx, m); err != nil || ok {
			t.Fatalf("%s: Marked(%s) = %v, %v", what, m, ok, err)
		}
	}
	for g, names := range f.secrets {
		for _, n := range names {
			if _, err := s.Secret(ctx, g, n); !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("%s: Secret(%s, %s): %v, want ErrNotFound", what, g, n, err)
			}
		}
	}
}

// withoutEvents is items with every event left out.
func withoutEvents(items []store.Item) []store.Item {
	var out []store.Item
	for _, it := range items {
		if it.Event == nil {
			out = append(out, it)
		}
	}
	return out
}

// testLoadBrokenChain: an event that does not follow its game's last one,
// or whose hash is not its content's, is ErrCorrupt and nothing of the
// call is written, whatever else it held.
func testLoadBrokenChain(t *testing.T, open func(*testing.T) store.Store) {
	a := open(t)
	f := fill(t, a)
	items := dumpAll(t, a)
	rest := withoutEvents(items)
	var evs []store.Item
	for _, it := range items {
		if it.Event != nil && it.Game == "beta" {
			evs = append(evs, it)
		}
	}
	tamper := func(change func(e *store.Event)) []store.Item {
		bad := slices.Clone(evs)
		e := *bad[2].Event
		change(&e)
		bad[2].Event = &e
		return append(slices.Clone(rest), bad...)
	}
	cases := map[string][]store.Item{
		"payload changed":    tamper(func(e *store.Event) { e.Payload = []byte(`{"i":"changed"}`) }),
		"hash changed":       tamper(func(e *store.Event) { e.Hash[0] ^= 1 }),
		"prev changed":       tamper(func(e *store.Event) { e.Prev[31] ^= 1 }),
		"time changed":       tamper(func(e *store.Event) { e.Time = e.Time.Add(time.Nanosecond) }),
		"a gap":              append(slices.Clone(rest), append(slices.Clone(evs[:2]), evs[3:]...)...),
		"twice":              append(slices.Clone(rest), append(slices.Clone(evs), evs[len(evs)-1])...),
		"not from the first": append(slices.Clone(rest), evs[1:]...),
	}
	b := open(t)
	for name, bad := range cases {
		if err := load(t, b, bad); !errors.Is(err, store.ErrCorrupt) {
			t.Fatalf("Load with an event chain %s: %v, want ErrCorrupt", name, err)
		}
		emptyStore(t, b, f, "after a refused Load ("+name+")")
	}
	// A whole game, then the same game again from its first event.
	if err := load(t, b, evs); err != nil {
		t.Fatal(err)
	}
	if err := load(t, b, append(slices.Clone(rest), evs[0])); !errors.Is(err, store.ErrCorrupt) {
		t.Fatalf("Load of a game's first event into a store that has the game: %v, want ErrCorrupt", err)
	}
	if gs, _ := b.Games(t.Context()); !slices.Equal(gs, []string{"beta"}) {
		t.Fatalf("Games after a refused Load: %v", gs)
	}
	if ms, _ := b.Messages(t.Context(), ""); len(ms) > 0 {
		t.Fatalf("a refused Load wrote messages %v", messageIDs(ms))
	}
}

// testLoadDuplicate: a mark or message ID repeated within a call, or
// already stored, is ErrDuplicate and nothing of the call is written.
func testLoadDuplicate(t *testing.T, open func(*testing.T) store.Store) {
	a := open(t)
	f := fill(t, a)
	items := dumpAll(t, a)
	var mark, msg store.Item
	for _, it := range items {
		switch {
		case it.Mark != "" && mark.Mark == "":
			mark = it
		case it.Message != nil && msg.Message == nil:
			msg = it
		}
	}
	b := open(t)
	for name, bad := range map[string][]store.Item{
		"mark":    append(slices.Clone(items), mark),
		"message": append(slices.Clone(items), msg),
	} {
		var de *store.DuplicateError
		if err := load(t, b, bad); !errors.Is(err, store.ErrDuplicate) || !errors.As(err, &de) || de.Kind != name {
			t.Fatalf("Load with a %s twice: %v, want a *DuplicateError of kind %s", name, err, name)
		}
		emptyStore(t, b, f, "after a refused Load (a "+name+" twice)")
	}
	if err := load(t, b, []store.Item{mark}); err != nil {
		t.Fatal(err)
	}
	if err := load(t, b, []store.Item{{Meta: &store.KV{Key: "k", Value: []byte("v")}}, mark}); !errors.Is(err, store.ErrDuplicate) {
		t.Fatalf("Load of a stored mark: %v, want ErrDuplicate", err)
	}
	if _, err := b.Meta(t.Context(), "k"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a refused Load wrote meta: %v", err)
	}
}

// testLoadInvalid: an item that can never be loaded is ErrInvalid.
func testLoadInvalid(t *testing.T, open func(*testing.T) store.Store) {
	b := open(t)
	e := store.Event{Seq: 1, NewEvent: newEvent(0)}
	e.Hash = store.ChainHash(store.Hash{}, 1, e.NewEvent)
	noType := e
	noType.Type = ""
	bad := map[string]store.Item{
		"nothing":             {},
		"two parts":           {Mark: "m", Meta: &store.KV{Key: "k"}},
		"event without game":  {Event: &e},
		"event without type":  {Game: "g", Event: &noType},
		"secret without game": {Secret: &store.KV{Key: "k"}},
		"empty meta key":      {Meta: &store.KV{}},
		"unknown status":      {Message: &store.Message{ID: "x", Status: "lost"}},
		"message without ID":  {Message: &store.Message{Status: store.Pending}},
	}
	for name, it := range bad {
		if err := load(t, b, []store.Item{{Mark: "ok"}, it}); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("Load of an item with %s: %v, want ErrInvalid", name, err)
		}
	}
	if ok, _ := b.Marked(t.Context(), "ok"); ok {
		t.Fatal("a refused Load wrote a mark")
	}
	if err := load(t, b, nil); err != nil {
		t.Fatalf("Load of nothing: %v", err)
	}
}
