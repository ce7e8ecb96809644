package store_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/umpire-pbem/umpire/store"
)

// damagedFile writes a small data file with every kind of record: games of
// one event (an inline bucket), a few dozen and a few hundred events (leaf
// and branch pages), secrets, outbox messages in every status, marks and
// meta. Every game has a secret, as every real game has.
func damagedFile(t testing.TB, path string) {
	t.Helper()
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	for g, n := range map[string]int{"big": 120, "mid": 20, "one": 1} {
		var v uint64
		for i := 0; uint64(i) < uint64(n); i += 10 {
			k := min(10, n-i)
			_, err := s.Append(ctx, store.Batch{Game: g, Expected: v, Events: benchEvents(k),
				Secrets: map[string][]byte{fmt.Sprint("dice/", i/50): fmt.Appendf(nil, "secret of %s %d", g, i)},
				Outbox:  []store.Message{{ID: fmt.Sprintf("%s-%d@umpire", g, i), Game: g, To: []string{"p@example.org"}, Raw: []byte("Subject: x\r\n\r\nresults\r\n"), Created: t0, NextAttempt: t0}},
				Marks:   []string{fmt.Sprintf("imap:1:%s-%d", g, i)}})
			if err != nil {
				t.Fatal(err)
			}
			v += uint64(k)
		}
	}
	if err := s.MarkSent(ctx, "big-0@umpire", t0); err != nil {
		t.Fatal(err)
	}
	if err := s.Fail(ctx, "mid-0@umpire", "550 no such user"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Append(ctx, store.Batch{Meta: map[string][]byte{"uidvalidity": []byte("7")}}); err != nil {
		t.Fatal(err)
	}
}

func TestCheckFileSound(t *testing.T) {
	path := filepath.Join(t.TempDir(), "umpire.db")
	damagedFile(t, path)
	r, err := store.CheckFile(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	if !r.OK() || len(r.Notes) > 0 || len(r.Games) != 3 || r.Marks != 15 || r.Meta != 1 || len(r.Bolt) != 0 {
		t.Fatalf("report of a sound file: %+v", r)
	}
	if o := r.Outbox; o.Messages != 15 || o.Sent != 1 || o.Failed != 1 || o.Pending != 13 {
		t.Fatalf("outbox %+v", o)
	}
	if g := r.Game("big"); g == nil || g.Events != 120 || !g.Intact() || !slices.Equal(g.Secrets, []string{"dice/0", "dice/1", "dice/2"}) {
		t.Fatalf("game big: %+v", g)
	}
	sal, err := store.Salvage(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := store.OpenReadOnly(path, store.WithCheck(store.CheckAll))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, g := range []string{"big", "mid", "one"} {
		evs, err := s.Events(t.Context(), g, 1)
		if err != nil || !equalEvents(evs, sal.Events[g]) {
			t.Fatalf("salvaged events of %s differ (%v)", g, err)
		}
	}
	msgs, _ := s.Messages(t.Context(), "")
	if len(msgs) != len(sal.Messages) {
		t.Fatalf("salvaged %d messages, the store has %d", len(sal.Messages), len(msgs))
	}
	for i := range msgs {
		if msgs[i].ID != sal.Messages[i].ID || msgs[i].Status != sal.Messages[i].Status || !bytes.Equal(msgs[i].Raw, sal.Messages[i].Raw) {
			t.Fatalf("message %d: salvaged %+v, stored %+v", i, sal.Messages[i], msgs[i])
		}
	}
	if sec := sal.Secrets["big"]["dice/1"]; string(sec) != "secret of big 90" {
		t.Fatalf("salvaged secret %q", sec)
	}
}

func equalEvents(a, b []store.Event) bool {
	return slices.EqualFunc(a, b, func(x, y store.Event) bool {
		return x.Seq == y.Seq && x.Hash == y.Hash && x.Prev == y.Prev && x.Type == y.Type && x.Schema == y.Schema &&
			x.Time.Equal(y.Time) && x.Actor == y.Actor && bytes.Equal(x.Payload, y.Payload)
	})
}

// TestCheckNamesTheDamage: a changed event is found and named, Open with
// CheckAll refuses the file with advice, and the pages-only Open still
// opens it (its reads find the damage).
func TestCheckNamesTheDamage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "umpire.db")
	damagedFile(t, path)
	tamperEvent(t, path, "mid", 7)
	r, err := store.CheckFile(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	g := r.Game("mid")
	if r.OK() || g == nil || g.Intact() || g.Events != 6 || g.Damage[0].Seq != 7 || !strings.Contains(g.Damage[0].Problem, "was changed") {
		t.Fatalf("report: %+v", r)
	}
	if !r.Game("big").Intact() || !r.Game("one").Intact() {
		t.Fatalf("intact games reported damaged: %+v", r.Games)
	}
	_, err = store.Open(path, store.WithCheck(store.CheckAll))
	var ce *store.CorruptError
	if !errors.As(err, &ce) || !errors.Is(err, store.ErrCorrupt) {
		t.Fatalf("Open(CheckAll) of a damaged file: %v", err)
	}
	for _, want := range []string{"game mid, event 7", "umpire check --data " + filepath.Dir(path), "umpire recover"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not say %q: %v", want, err)
		}
	}
	s, err := store.Open(path)
	if err != nil {
		t.Fatalf("Open(CheckPages) of a file whose pages are sound: %v", err)
	}
	defer s.Close()
	if err := store.Verify(t.Context(), s, "mid"); !errors.Is(err, store.ErrCorrupt) {
		t.Fatalf("Verify: %v", err)
	}
}

// tamperEvent changes one byte of an event's payload (benchPayload's turn
// 12 becomes 13) through a raw bolt handle, leaving its stored hash as it
// was.
func tamperEvent(t *testing.T, path, game string, seq uint64) {
	rawUpdate(t, path, func(tx *bolt.Tx) error {
		ev := tx.Bucket([]byte("games")).Bucket([]byte(game)).Bucket([]byte("events"))
		key := binary.BigEndian.AppendUint64(nil, seq)
		v := bytes.Replace(ev.Get(key), []byte(`"turn":12`), []byte(`"turn":13`), 1)
		return ev.Put(key, v)
	})
}

// The damage test flips bytes of a copy of a small data file, one case at
// a time, and after each flip opens the copy, reads everything, checks it
// and salvages it. bbolt can fault on a damaged file (SIGSEGV or SIGBUS:
// the process dies, no recover() helps), so the cases run in a child
// process, this test binary again; when it dies the parent records the
// case it was in and starts a new child after it.
const damageEnv = "UMPIRE_STORE_DAMAGE_CHILD"

// damageCase is one flip: the byte at Off is XORed with Xor.
type damageCase struct {
	Off int64 `json:"off"`
	Xor byte  `json:"xor"`
}

// damageCases lists the flips: every byte of every page header (two ways:
// the lowest bit, which turns a page number into its neighbour, and the
// highest, which sends it far away), every byte of both meta pages, the
// first entry of every page, and a seeded sample of all the rest.
func damageCases(size int64, pageSize int64, sample int) []damageCase {
	var out []damageCase
	for p := int64(0); p < size; p += pageSize {
		for i := range int64(16) {
			out = append(out, damageCase{p + i, 0x01}, damageCase{p + i, 0x80})
		}
		n := int64(16)
		if p < 2*pageSize {
			n = 64 // the meta fields
		}
		for i := int64(16); i < 16+n; i++ {
			out = append(out, damageCase{p + i, 0x04})
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range sample {
		out = append(out, damageCase{r.Int64N(size), byte(1 + r.IntN(255))})
	}
	return out
}

func TestDamageNeverCrashes(t *testing.T) {
	dir := t.TempDir()
	orig := filepath.Join(dir, "orig.db")
	damagedFile(t, orig)
	cases := damageCases(usedSize(t, orig), 4096, 200)
	if testing.Short() || raceEnabled {
		// Every eighth case, so that each kind of flip is still tried.
		var some []damageCase
		for i := 0; i < len(cases); i += 8 {
			some = append(some, cases[i])
		}
		cases = some
	}
	res := runDamage(t, dir, cases, "checked")
	t.Logf("%d flips of a %d-byte file: %d refused on open, %d opened (damage found on reading in %d of them)", len(cases), usedSize(t, orig), res.refused, res.opened, res.foundOnRead)
	for _, f := range res.failures {
		t.Error(f)
	}
	if res.refused == 0 || res.opened == 0 {
		t.Errorf("every flip gave the same outcome: the test does not test")
	}
}

// usedSize is the size of the pages bbolt counts in the file (it grows the
// file ahead of them): flips past them change nothing.
func usedSize(t *testing.T, path string) int64 {
	r, err := store.CheckFile(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	return int64(r.Pages) * int64(r.PageSize)
}

// TestDamageHarnessCatchesCrashes proves that the harness can fail: bbolt
// read directly, as the store did before it checked, crashes on flips of
// the high byte of a page's first entry (its position, its key size, its
// value size or child page), and the harness sees each one.
func TestDamageHarnessCatchesCrashes(t *testing.T) {
	dir := t.TempDir()
	orig := filepath.Join(dir, "orig.db")
	damagedFile(t, orig)
	var cases []damageCase
	for p := int64(2 * 4096); p < min(usedSize(t, orig), 12*4096); p += 4096 {
		for _, b := range []int64{7, 11, 15} {
			cases = append(cases, damageCase{p + 16 + b, 0x80})
		}
	}
	res := runDamage(t, dir, cases, "raw")
	t.Logf("bbolt read directly: %d of %d flips crashed the process or panicked", len(res.failures), len(cases))
	if len(res.failures) == 0 {
		t.Fatal("no flip made bbolt fail: the harness would not notice a crash")
	}
}

type damageResult struct {
	refused, opened, foundOnRead int
	failures                     []string
}

// runDamage runs the cases in children until all are done.
func runDamage(t *testing.T, dir string, cases []damageCase, mode string) damageResult {
	t.Helper()
	b, _ := json.Marshal(cases)
	if err := os.WriteFile(filepath.Join(dir, "cases.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	var res damageResult
	for start := 0; start < len(cases); {
		cmd := exec.Command(os.Args[0], "-test.run=^TestDamageChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), damageEnv+"="+strings.Join([]string{dir, strconv.Itoa(start), mode}, ","))
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		current, done := -1, false
		lines := bufio.NewScanner(out)
		for lines.Scan() {
			f := strings.SplitN(lines.Text(), " ", 3)
			switch f[0] {
			case "case":
				current, _ = strconv.Atoi(f[1])
			case "refused":
				res.refused++
			case "opened":
				res.opened++
			case "found":
				res.foundOnRead++
			case "fail":
				res.failures = append(res.failures, strings.Join(f[1:], " "))
			case "done":
				done = true
			}
		}
		err = cmd.Wait()
		if done && err == nil {
			break
		}
		if current < 0 {
			t.Fatalf("the child failed before its first case: %v\n%s", err, stderr.String())
		}
		c := cases[current]
		res.failures = append(res.failures, fmt.Sprintf("case %d (byte %d of page %d ^ %#x): the child died: %v: %s", current, c.Off, c.Off/4096, c.Xor, err, lastLines(stderr.String(), 6)))
		start = current + 1
	}
	return res
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "goroutine ") || strings.HasPrefix(l, "[signal") {
			return strings.Join(lines[max(0, i-n):i+1], " | ")
		}
	}
	return strings.Join(lines[max(0, len(lines)-n):], " | ")
}

// TestDamageChild is the child's body; run normally, it does nothing.
func TestDamageChild(t *testing.T) {
	env := os.Getenv(damageEnv)
	if env == "" {
		return
	}
	f := strings.Split(env, ",")
	dir, mode := f[0], f[2]
	start, _ := strconv.Atoi(f[1])
	var cases []damageCase
	b, err := os.ReadFile(filepath.Join(dir, "cases.json"))
	if err == nil {
		err = json.Unmarshal(b, &cases)
	}
	orig, err2 := os.ReadFile(filepath.Join(dir, "orig.db"))
	if err != nil || err2 != nil {
		fmt.Fprintln(os.Stderr, err, err2)
		os.Exit(3)
	}
	want := readAll(filepath.Join(dir, "orig.db"))
	path := filepath.Join(dir, "umpire.db")
	say := func(format string, args ...any) { fmt.Fprintf(os.Stdout, format+"\n", args...) }
	if err := os.WriteFile(path, orig, 0o600); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	for i := start; i < len(cases); i++ {
		c := cases[i]
		say("case %d", i)
		flip(path, c.Off, orig[c.Off]^c.Xor)
		if mode == "raw" {
			func() {
				defer func() {
					if r := recover(); r != nil {
						say("fail case %d: bbolt panicked: %v", i, r)
					}
				}()
				rawReadAll(path)
			}()
		} else {
			for _, p := range damageChild(path, want) {
				say("fail case %d (byte %d ^ %#x): %s", i, c.Off, c.Xor, p)
			}
		}
		// Nothing above may write to the file: opening a file, sound or
		// damaged, must never change it.
		b, err := os.ReadFile(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		b[c.Off] = orig[c.Off]
		if !bytes.Equal(b, orig) {
			say("fail case %d (byte %d ^ %#x): the file was written to", i, c.Off, c.Xor)
			if err := os.WriteFile(path, orig, 0o600); err != nil {
				os.Exit(3)
			}
		}
		flip(path, c.Off, orig[c.Off])
	}
	say("done")
	os.Exit(0)
}

// flip writes byte b at off.
func flip(path string, off int64, b byte) {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err == nil {
		_, err = f.WriteAt([]byte{b}, off)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
}

// rawReadAll reads every bucket and value with bbolt alone and runs its
// check, as nothing guarded it before.
func rawReadAll(path string) {
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second, ReadOnly: true})
	if err != nil {
		return
	}
	defer db.Close()
	var walk func(b *bolt.Bucket)
	walk = func(b *bolt.Bucket) {
		_ = b.ForEach(func(k, v []byte) error {
			if v == nil {
				if c := b.Bucket(k); c != nil {
					walk(c)
				}
			}
			return nil
		})
	}
	_ = db.View(func(tx *bolt.Tx) error {
		_ = tx.ForEach(func(_ []byte, b *bolt.Bucket) error { walk(b); return nil })
		for range tx.Check() {
		}
		return nil
	})
}

// snapshot is everything read from a file through the store.
type snapshot struct {
	err      error // from Open
	games    []string
	events   map[string][]store.Event
	errs     map[string]error // per game: reading or verifying its log
	other    []error          // from the other reads
	messages int
}

func readAll(path string, opts ...store.Option) *snapshot {
	ctx := context.Background()
	sn := &snapshot{events: map[string][]store.Event{}, errs: map[string]error{}}
	s, err := store.Open(path, opts...)
	if err != nil {
		sn.err = err
		return sn
	}
	defer s.Close()
	sn.games, err = s.Games(ctx)
	sn.other = append(sn.other, err)
	for _, g := range sn.games {
		evs, err := s.Events(ctx, g, 1)
		if err == nil {
			err = store.Verify(ctx, s, g)
		}
		sn.events[g], sn.errs[g] = evs, err
		_, err = s.Version(ctx, g)
		sn.other = append(sn.other, err)
		for _, name := range []string{"dice/0", "dice/1"} {
			if _, err := s.Secret(ctx, g, name); !errors.Is(err, store.ErrNotFound) {
				sn.other = append(sn.other, err)
			}
		}
		msgs, err := s.Messages(ctx, g)
		sn.other = append(sn.other, err)
		sn.messages += len(msgs)
	}
	_, err = s.Messages(ctx, "")
	sn.other = append(sn.other, err)
	_, err = s.Due(ctx, time.Now().Add(time.Hour), 0)
	sn.other = append(sn.other, err)
	_, err = s.Marked(ctx, "imap:1:big-0")
	sn.other = append(sn.other, err)
	if _, err = s.Meta(ctx, "uidvalidity"); !errors.Is(err, store.ErrNotFound) {
		sn.other = append(sn.other, err)
	}
	return sn
}

// damageChild runs one case and returns what went wrong. A panic is caught
// here; a fault kills the child, which the parent notices.
func damageChild(path string, want *snapshot) (problems []string) {
	defer func() {
		if r := recover(); r != nil {
			problems = append(problems, fmt.Sprintf("panic: %v", r))
		}
	}()
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	say := func(s string) { fmt.Fprintln(os.Stdout, s) }

	got := readAll(path)
	typed := func(err error) bool {
		return err == nil || errors.Is(err, store.ErrCorrupt) || errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrUnknownGame)
	}
	if got.err != nil {
		say("refused")
		var ce *store.CorruptError
		if !errors.As(got.err, &ce) || !strings.Contains(got.err.Error(), "umpire check") {
			bad("Open: %v, want a *CorruptError with advice", got.err)
		}
	} else {
		say("opened")
		found := false
		if !slices.Equal(got.games, want.games) {
			bad("Open succeeded but lists games %q, not %q", got.games, want.games)
		}
		for _, g := range got.games {
			switch err := got.errs[g]; {
			case err != nil:
				found = true
				if !typed(err) {
					bad("game %s: untyped error %v", g, err)
				}
			case !equalEvents(got.events[g], want.events[g]):
				bad("game %s: the log was changed and nothing noticed", g)
			}
		}
		for _, err := range got.other {
			if err != nil {
				found = true
				if !typed(err) {
					bad("untyped error %v", err)
				}
			}
		}
		if found {
			say("found")
		}
	}
	// What `umpire check` and `umpire recover` do: a game reported intact
	// must be exactly the original.
	sal, err := store.Salvage(context.Background(), path)
	if err != nil {
		bad("Salvage: %v", err)
		return problems
	}
	if got.err != nil && sal.OK() {
		bad("Open refused the file but Salvage finds nothing wrong (Open: %v)", got.err)
	}
	for _, g := range want.games {
		r := sal.Game(g)
		switch {
		case r == nil && sal.OK():
			bad("game %s is missing but the report finds nothing wrong", g)
		case r != nil && r.Intact() && !equalEvents(sal.Events[g], want.events[g]):
			bad("game %s is reported intact but its salvaged log differs (%d events of %d)", g, len(sal.Events[g]), len(want.events[g]))
		}
	}
	for _, r := range sal.Games {
		if r.Intact() && !slices.Contains(want.games, r.Game) {
			bad("a game %q that was never written is reported intact", r.Game)
		}
	}
	return problems
}

// TestDamageCasesCoverTheFile: the flips reach every page.
func TestDamageCasesCoverTheFile(t *testing.T) {
	cases := damageCases(20*4096, 4096, 10)
	seen := map[int64]bool{}
	for _, c := range cases {
		seen[c.Off/4096] = true
		if c.Xor == 0 {
			t.Fatal("a case that flips nothing")
		}
	}
	if len(seen) != 20 {
		t.Fatalf("cases touch %d of 20 pages", len(seen))
	}
}
