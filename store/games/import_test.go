package games_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
)

// serviceAt is a service on a bolt file of its own at path.
func serviceAt(t *testing.T, path string) *games.Service {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	clock := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	return &games.Service{Store: st, Rules: lookup, Now: func() time.Time { clock = clock.Add(time.Second); return clock }}
}

func createRace(t *testing.T, s *games.Service, id string, chain int) {
	t.Helper()
	_, err := s.Create(context.Background(), games.CreateRequest{ID: id, Ruleset: "race", Scenario: "sprint", ChainLength: chain,
		Options: map[string]string{"turns": "3"},
		Players: []games.Player{{Side: "red", Address: "red@example.org"}, {Side: "blue", Address: "blue@example.org"}},
		Mail: func(_ *game.Game, _ map[adjudicator.Side]string) ([]store.Message, error) {
			return []store.Message{{ID: id + "-welcome@umpire", Game: id, To: []string{"red@example.org"}, Raw: []byte("Subject: welcome\r\n\r\nhi\r\n")}}, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
}

// play submits n answers to what is due (fewer if the game ends).
func play(t *testing.T, s *games.Service, id string, n int) {
	t.Helper()
	ctx := context.Background()
	for range n {
		g, err := s.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		due := g.Due()
		if len(due) == 0 {
			return
		}
		r := due[0]
		for _, d := range due {
			if _, answered := g.Answered(d.ID); !answered {
				r = d
				break
			}
		}
		if _, err := s.Submit(ctx, games.SubmitRequest{Game: id, Side: r.Side, Src: []byte(orders(r, g)), Via: "test"}); err != nil {
			t.Fatalf("%s %s: %v", r.Side, r.Title, err)
		}
	}
}

func export(t *testing.T, s *games.Service, id, path string) {
	t.Helper()
	var buf bytes.Buffer
	if err := s.Export(context.Background(), id, &buf); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
}

// damage changes a copy of a data file through a raw bolt handle: the
// payload of one event (its stored hash left as it was), and, when
// loseSecrets, the game's private values.
func damage(t *testing.T, path, id string, seq uint64, loseSecrets bool) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.Update(func(tx *bolt.Tx) error {
		ev := tx.Bucket([]byte("games")).Bucket([]byte(id)).Bucket([]byte("events"))
		key := binary.BigEndian.AppendUint64(nil, seq)
		v := bytes.Clone(ev.Get(key))
		i := bytes.IndexByte(v, '{')
		v[i+1] ^= 0x20 // the payload's first key changes case
		if err := ev.Put(key, v); err != nil {
			return err
		}
		if loseSecrets {
			return tx.Bucket([]byte("secrets")).DeleteBucket([]byte(id))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

func sameEvents(a, b []store.Event) bool {
	return slices.EqualFunc(a, b, func(x, y store.Event) bool {
		return x.Seq == y.Seq && x.Hash == y.Hash && x.Prev == y.Prev && x.Type == y.Type && bytes.Equal(x.Payload, y.Payload)
	})
}

// TestRecover: three games, one exported; a copy of the file has that game's
// log broken and its private values lost. Recover copies the intact games
// exactly, rebuilds the damaged one from its bundle with a fresh dice chain
// and new player secrets, and the rebuilt game verifies and plays on.
func TestRecover(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	orig := filepath.Join(dir, "orig", "umpire.db")
	s := serviceAt(t, orig)
	for _, id := range []string{"race-1", "race-2", "race-3"} {
		createRace(t, s, id, 2)
	}
	play(t, s, "race-1", 5)
	play(t, s, "race-2", 6)
	play(t, s, "race-3", 3)
	bundles := filepath.Join(dir, "bundles")
	export(t, s, "race-2", filepath.Join(bundles, "race-2.tar"))
	play(t, s, "race-2", 2) // the bundle is older than the file
	want := map[string][]store.Event{}
	secrets := map[string][]byte{}
	for _, id := range []string{"race-1", "race-2", "race-3"} {
		want[id], _ = s.Store.Events(ctx, id, 1)
		g, _ := s.Load(ctx, id)
		name := "dice/" + string(rune('0'+len(g.Chains)-1))
		secrets[id], _ = s.Store.Secret(ctx, id, name)
	}
	if err := s.Store.Close(); err != nil {
		t.Fatal(err)
	}

	damaged := filepath.Join(dir, "damaged", "umpire.db")
	copyFile(t, orig, damaged)
	damage(t, damaged, "race-2", 3, true)
	sal, err := store.Salvage(ctx, damaged)
	if err != nil {
		t.Fatal(err)
	}
	if sal.OK() || sal.Game("race-2").Intact() || !sal.Game("race-1").Intact() || !sal.Game("race-3").Intact() {
		t.Fatalf("salvage: %+v", sal.Report)
	}

	ns := serviceAt(t, filepath.Join(dir, "new", "umpire.db"))
	rec, err := games.Recover(ctx, sal, ns, bundles)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Copied) != 2 || len(rec.Restored) != 1 || len(rec.Lost) != 0 {
		t.Fatalf("recovery: %+v", rec)
	}
	// The intact games: the same events, hashes and private values.
	for _, id := range []string{"race-1", "race-3"} {
		got, _ := ns.Store.Events(ctx, id, 1)
		if !sameEvents(got, want[id]) {
			t.Errorf("%s: the copied log differs", id)
		}
		g, _ := ns.Load(ctx, id)
		sec, err := ns.Store.Secret(ctx, id, "dice/"+string(rune('0'+len(g.Chains)-1)))
		if err != nil || !bytes.Equal(sec, secrets[id]) {
			t.Errorf("%s: the dice secret was not kept: %v", id, err)
		}
		if ok, err := ns.CheckSecret(ctx, id, "red", "not the secret"); ok || err != nil {
			t.Errorf("%s: the player's check value was not kept: %v %v", id, ok, err)
		}
	}
	for _, r := range rec.Copied {
		if r.Changed() {
			t.Errorf("%s: an intact game was changed: %+v", r.Game, r)
		}
	}

	// The damaged game: the bundle's events, then a fresh dice chain.
	r := rec.Restored[0]
	if r.Game != "race-2" || !strings.Contains(r.From, "race-2.tar") || r.NewChain == nil || len(r.NewSecrets) != 2 || len(r.Kept) != 0 {
		t.Fatalf("restored: %+v", r)
	}
	got, _ := ns.Store.Events(ctx, "race-2", 1)
	n := len(got) - 1
	if !sameEvents(got[:n], want["race-2"][:n]) || n >= len(want["race-2"]) {
		t.Fatalf("race-2: restored %d events, not the bundle's", n)
	}
	last := got[n]
	if last.Type != game.TypeChainExtended || last.Actor != game.ActorReferee || r.ChainSeq != last.Seq || r.Head != last.Hash {
		t.Fatalf("race-2: the last event is %+v", last)
	}
	if a, err := ns.Verify(ctx, "race-2", games.Known{}); err != nil || !a.OK() {
		t.Fatalf("race-2 does not verify: %+v %v", a, err)
	}
	for side, sec := range r.NewSecrets {
		if ok, err := ns.CheckSecret(ctx, "race-2", side, sec); !ok || err != nil {
			t.Errorf("the new secret of %s does not check: %v", side, err)
		}
	}
	// It plays on with the new chain, and still verifies and replays.
	play(t, ns, "race-2", 4)
	if a, err := ns.Verify(ctx, "race-2", games.Known{}); err != nil || !a.OK() {
		t.Fatalf("race-2 played on does not verify: %+v %v", a, err)
	}
	if a, err := ns.Replay(ctx, "race-2"); err != nil || !a.OK() {
		t.Fatalf("race-2 played on does not replay: %+v %v", a, err)
	}

	// The outbox and the marks came along; race-2's pending mail is held.
	msgs, _ := ns.Store.Messages(ctx, "")
	if len(msgs) != 3 || rec.Messages != 3 || rec.Held != 1 {
		t.Fatalf("outbox: %d messages, recovery %+v", len(msgs), rec)
	}
	for _, m := range msgs {
		if (m.Game == "race-2") != (m.Status == store.Failed) {
			t.Errorf("message %s of %s is %s", m.ID, m.Game, m.Status)
		}
	}
	// The new file is sound through and through.
	ns.Store.Close()
	if rep, err := store.CheckFile(ctx, filepath.Join(dir, "new", "umpire.db")); err != nil || !rep.OK() || len(rep.Games) != 3 {
		t.Fatalf("the new file: %+v %v", rep, err)
	}
}

// TestRecoverFromIntactBeginning: when the damage is near the end of a log
// and its bundle is older, the log's intact beginning is longer and extends
// the bundle: it is used, with the private values the file still has.
func TestRecoverFromIntactBeginning(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	orig := filepath.Join(dir, "orig", "umpire.db")
	s := serviceAt(t, orig)
	createRace(t, s, "race-1", 0)
	play(t, s, "race-1", 2)
	bundles := filepath.Join(dir, "bundles")
	export(t, s, "race-1", filepath.Join(bundles, "race-1.tar"))
	play(t, s, "race-1", 3)
	want, _ := s.Store.Events(ctx, "race-1", 1)
	s.Store.Close()
	damaged := filepath.Join(dir, "damaged", "umpire.db")
	copyFile(t, orig, damaged)
	damage(t, damaged, "race-1", uint64(len(want)), false)
	sal, err := store.Salvage(ctx, damaged)
	if err != nil {
		t.Fatal(err)
	}
	ns := serviceAt(t, filepath.Join(dir, "new", "umpire.db"))
	rec, err := games.Recover(ctx, sal, ns, bundles)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Restored) != 1 {
		t.Fatalf("recovery %+v", rec)
	}
	r := rec.Restored[0]
	if !strings.Contains(r.From, "intact events 1 to") || !strings.Contains(r.From, "extend") || r.NewChain != nil || len(r.NewSecrets) != 0 || r.Events != len(want)-1 {
		t.Fatalf("restored %+v", r)
	}
	got, _ := ns.Store.Events(ctx, "race-1", 1)
	if !sameEvents(got, want[:len(want)-1]) {
		t.Fatal("the restored log is not the intact beginning")
	}
	if a, err := ns.Verify(ctx, "race-1", games.Known{}); err != nil || !a.OK() {
		t.Fatalf("verify: %+v %v", a, err)
	}
}

// TestImport: a bundle into another data file, a tampered bundle refused,
// and a game that is there already refused.
func TestImport(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := serviceAt(t, filepath.Join(dir, "a", "umpire.db"))
	createRace(t, s, "race-1", 0)
	play(t, s, "race-1", 3)
	path := filepath.Join(dir, "race-1.tar")
	export(t, s, "race-1", path)
	want, _ := s.Store.Events(ctx, "race-1", 1)

	ns := serviceAt(t, filepath.Join(dir, "b", "umpire.db"))
	b, _ := os.ReadFile(path)
	bad := bytes.Replace(b, []byte(`"actor":"engine"`), []byte(`"actor":"enginE"`), 1)
	if bytes.Equal(bad, b) {
		t.Fatal("nothing to tamper with")
	}
	if _, err := ns.Import(ctx, bytes.NewReader(bad), nil); err == nil || !strings.Contains(err.Error(), "does not verify") {
		t.Fatalf("a tampered bundle: %v", err)
	}
	if ids, _ := ns.Store.Games(ctx); len(ids) != 0 {
		t.Fatal("a refused bundle left a game behind")
	}
	r, err := ns.Import(ctx, bytes.NewReader(b), nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.NewChain == nil || len(r.NewSecrets) != 2 || r.OldEvents != len(want) || r.OldHead != want[len(want)-1].Hash {
		t.Fatalf("imported %+v", r)
	}
	got, _ := ns.Store.Events(ctx, "race-1", 1)
	if !sameEvents(got[:len(want)], want) {
		t.Fatal("the imported log differs from the bundle")
	}
	play(t, ns, "race-1", 4)
	if a, err := ns.Verify(ctx, "race-1", games.Known{}); err != nil || !a.OK() {
		t.Fatalf("verify after playing on: %+v %v", a, err)
	}
	if _, err := ns.Import(ctx, bytes.NewReader(b), nil); err == nil || !strings.Contains(err.Error(), "already") {
		t.Fatalf("importing a game twice: %v", err)
	}
}

// TestImportCutsLostHiddenOrders: a bundle made while red's secret bid waits
// for blue's holds the bid sealed; without the data file its text is lost,
// so the import goes back to before it and red is asked again.
func TestImportCutsLostHiddenOrders(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := serviceAt(t, filepath.Join(dir, "a", "umpire.db"))
	createRace(t, s, "race-1", 0)
	if _, err := s.Submit(ctx, games.SubmitRequest{Game: "race-1", Side: "red", Src: []byte("turn: 1\nphase: bid\norders:\n  bid: 1\n")}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "race-1.tar")
	export(t, s, "race-1", path)
	b, _ := os.ReadFile(path)
	ns := serviceAt(t, filepath.Join(dir, "b", "umpire.db"))
	r, err := ns.Import(ctx, bytes.NewReader(b), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Cut) != 1 || !strings.Contains(r.Cut[0], "red must send them again") {
		t.Fatalf("imported %+v", r)
	}
	g, err := ns.Load(ctx, "race-1")
	if err != nil {
		t.Fatal(err)
	}
	if _, answered := g.Answered(g.Due()[0].ID); answered || len(g.Unrevealed) != 0 {
		t.Fatal("red's lost bid still counts")
	}
	play(t, ns, "race-1", 2)
	if a, err := ns.Verify(ctx, "race-1", games.Known{}); err != nil || !a.OK() {
		t.Fatalf("verify: %+v %v", a, err)
	}
}

// TestRecoverUnreadableFile: both meta pages destroyed, nothing can be read;
// the game comes back from its bundle alone, and one without a bundle is
// not invented.
func TestRecoverUnreadableFile(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	orig := filepath.Join(dir, "orig", "umpire.db")
	s := serviceAt(t, orig)
	createRace(t, s, "race-1", 0)
	play(t, s, "race-1", 2)
	bundles := filepath.Join(dir, "bundles")
	export(t, s, "race-1", filepath.Join(bundles, "race-1.tar"))
	want, _ := s.Store.Events(ctx, "race-1", 1)
	s.Store.Close()
	damaged := filepath.Join(dir, "damaged", "umpire.db")
	copyFile(t, orig, damaged)
	b, _ := os.ReadFile(damaged)
	for _, off := range []int{20, 4096 + 20} { // each meta page's version
		b[off] ^= 0xff
	}
	os.WriteFile(damaged, b, 0o600)
	sal, err := store.Salvage(ctx, damaged)
	if err != nil {
		t.Fatal(err)
	}
	if sal.OK() || len(sal.Games) != 0 {
		t.Fatalf("salvage of an unreadable file: %+v", sal.Report)
	}
	ns := serviceAt(t, filepath.Join(dir, "new", "umpire.db"))
	rec, err := games.Recover(ctx, sal, ns, bundles)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Restored) != 1 || rec.Restored[0].Damage != "game race-1: it is not in the damaged file" || rec.Restored[0].NewChain == nil {
		t.Fatalf("recovery %+v", rec)
	}
	got, _ := ns.Store.Events(ctx, "race-1", 1)
	if !sameEvents(got[:len(want)], want) {
		t.Fatal("the rebuilt log is not the bundle's")
	}
}
