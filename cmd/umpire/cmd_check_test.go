package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/testrules"
)

// twoGames makes a data directory with games g1 and g2, both played a
// little, and g2 exported to bundles/g2.tar. It returns the directory.
func twoGames(t *testing.T, dir string) string {
	t.Helper()
	data := filepath.Join(dir, "data")
	c := &cli{t: t, data: data}
	for _, id := range []string{"g1", "g2"} {
		c.ok("new", "--id", id, "--ruleset", "race", "--scenario", "sprint", "--player", "red=red@example.org", "--player", "blue=blue@example.org", "--option", "turns=2")
		c.ok("submit", id, "red", write(t, dir, "red.yaml", "turn: 1\nphase: bid\norders:\n  bid: 1\n"))
		c.ok("submit", id, "blue", write(t, dir, "blue.yaml", "turn: 1\nphase: bid\norders:\n  bid: 0\n"))
	}
	if err := os.MkdirAll(filepath.Join(dir, "bundles"), 0o700); err != nil {
		t.Fatal(err)
	}
	c.ok("export", "g2", "-o", filepath.Join(dir, "bundles", "g2.tar"))
	return data
}

// copyData copies a data directory's umpire.db (tests work on copies).
func copyData(t *testing.T, from, to string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(from, "umpire.db"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(to, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(to, "umpire.db"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	return to
}

// eventsPage returns the offset of the root page of game id's log (or of
// the games bucket's, when the log is small enough to be stored inline).
func eventsPage(t *testing.T, data, id string) int64 {
	t.Helper()
	db, err := bolt.Open(filepath.Join(data, "umpire.db"), 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var root uint64
	db.View(func(tx *bolt.Tx) error {
		gs := tx.Bucket([]byte("games"))
		root = uint64(gs.Bucket([]byte(id)).Bucket([]byte("events")).Root())
		if root == 0 {
			root = uint64(gs.Root())
		}
		return nil
	})
	if root == 0 {
		t.Fatal("no page to damage")
	}
	return int64(root) * int64(db.Info().PageSize)
}

func flipByte(t *testing.T, path string, off int64, xor byte) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b[off] ^= xor
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestDamagedPageHeader: one byte of a page header flipped, where g1's log
// is. Every command that reads the file says so clearly instead of
// crashing; serve refuses to start; check names g1 and exits 1.
func TestDamagedPageHeader(t *testing.T) {
	dir := t.TempDir()
	orig := twoGames(t, dir)
	data := copyData(t, orig, filepath.Join(dir, "damaged"))
	flipByte(t, filepath.Join(data, "umpire.db"), eventsPage(t, data, "g1")+7, 0x80) // the page number's high byte
	c := &cli{t: t, data: data}
	for _, args := range [][]string{{"show", "g2"}, {"verify", "g1"}, {"log", "g1"}, {"games"}} {
		code, out, errs := c.run(args...)
		if code != 1 || !strings.Contains(errs, "is damaged") || !strings.Contains(errs, "umpire check --data "+data) || !strings.Contains(errs, "umpire recover") {
			t.Errorf("umpire %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errs)
		}
	}
	code, out, errs := c.run("check")
	if code != 1 || !strings.Contains(out, "DAMAGED") || !strings.Contains(out, "umpire recover --data "+data) {
		t.Fatalf("check: exit %d\n%s%s", code, out, errs)
	}
	t.Logf("umpire check on a flipped page header:\n%s", out)
	// serve, with a context already ended: it must refuse before starting.
	var sout, serr bytes.Buffer
	a := &app{stdin: strings.NewReader(""), stdout: &sout, stderr: &serr,
		rules: func(n string) (adjudicator.Ruleset, bool) { return testrules.Race, n == "race" }, now: time.Now}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if code := a.run(ctx, []string{"serve", "--data", data, "--hub-imap", "127.0.0.1:0", "--hub-smtp", "127.0.0.1:0"}); code != 1 || !strings.Contains(serr.String(), "is damaged") || strings.Contains(sout.String(), "hub") {
		t.Fatalf("serve on a damaged file: exit %d\n%s%s", code, sout.String(), serr.String())
	}
}

// TestCheckAndRecover: g2's log changed in a copy of the file. check lists
// g1 intact and g2 damaged at the event; recover copies g1 exactly and
// rebuilds g2 from its bundle, with a fresh dice chain and new player
// secrets, and says what to tell the players; the new file checks sound
// and g2 verifies and plays on.
func TestCheckAndRecover(t *testing.T) {
	dir := t.TempDir()
	orig := twoGames(t, dir)
	c := &cli{t: t, data: orig}
	if out := c.ok("check"); !strings.Contains(out, "the data file is sound: 2 games") {
		t.Fatalf("check of a sound file:\n%s", out)
	}
	data := copyData(t, orig, filepath.Join(dir, "damaged"))
	// Change a byte of event 2's payload, through bolt: its hash no longer
	// fits.
	db, err := bolt.Open(filepath.Join(data, "umpire.db"), 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		ev := tx.Bucket([]byte("games")).Bucket([]byte("g2")).Bucket([]byte("events"))
		key := binary.BigEndian.AppendUint64(nil, 2)
		v := bytes.Clone(ev.Get(key))
		v[bytes.IndexByte(v, '{')+2] ^= 0x20
		if err := ev.Put(key, v); err != nil {
			return err
		}
		// and its private values are lost with it
		return tx.Bucket([]byte("secrets")).DeleteBucket([]byte("g2"))
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}

	c = &cli{t: t, data: data}
	code, out, errs := c.run("check")
	if code != 1 || !strings.Contains(out, "ok         g1") || !strings.Contains(out, "DAMAGED    g2  1 events intact") || !strings.Contains(out, "event 2: its content hashes to") {
		t.Fatalf("check: exit %d\n%s%s", code, out, errs)
	}
	t.Logf("umpire check:\n%s", out)

	newDir := filepath.Join(dir, "new")
	code, out, errs = c.run("recover", "--to", newDir, "--bundles", filepath.Join(dir, "bundles"))
	if code != 0 {
		t.Fatalf("recover: exit %d\n%s%s", code, out, errs)
	}
	t.Logf("umpire recover:\n%s", out)
	for _, want := range []string{"copied   g1", "REBUILT  g2", "g2.tar", "in the damaged file: game g2, event 2", "fresh chain 1",
		"new secret of blue's player", "new secret of red's player", "checked: sound", "Tell the players"} {
		if !strings.Contains(out, want) {
			t.Errorf("recover does not say %q", want)
		}
	}
	nc := &cli{t: t, data: newDir}
	if out := nc.ok("check"); !strings.Contains(out, "the data file is sound: 2 games") {
		t.Fatalf("check of the new file:\n%s", out)
	}
	// g1 is exactly as it was.
	oldLog, newLog := (&cli{t: t, data: orig}).ok("log", "g1", "--json"), nc.ok("log", "g1", "--json")
	if oldLog != newLog {
		t.Fatalf("g1 changed:\n%s\n%s", oldLog, newLog)
	}
	if out := nc.ok("verify", "g2"); !strings.Contains(out, "OK") {
		t.Fatalf("verify g2:\n%s", out)
	}
	// Importing the same bundle again is refused: g2 is there.
	if code, _, errs := nc.run("import", filepath.Join(dir, "bundles", "g2.tar")); code != 1 || !strings.Contains(errs, "already") {
		t.Fatalf("import of a game that is there: exit %d %s", code, errs)
	}
}

// TestImportCommand: a bundle into a new data file.
func TestImportCommand(t *testing.T) {
	dir := t.TempDir()
	twoGames(t, dir)
	c := &cli{t: t, data: filepath.Join(dir, "other")}
	out := c.ok("import", filepath.Join(dir, "bundles", "g2.tar"))
	if !strings.Contains(out, "imported g2") || !strings.Contains(out, "fresh chain") || !strings.Contains(out, "new secret of red's player") {
		t.Fatalf("import printed:\n%s", out)
	}
	if out := c.ok("verify", "g2"); !strings.Contains(out, "OK") {
		t.Fatalf("verify:\n%s", out)
	}
}

// TestFlipsNeverPanic: one byte of a copy of the data file flipped at a
// time, in every page header and at a seeded sample of other places; show
// and verify, which fold the game through the rules, never panic, and each
// either works or fails with a message. (Faults are the store's to prevent:
// store's TestDamageNeverCrashes runs its flips, and check's Salvage, in a
// child process; here a panic is caught in-process.)
func TestFlipsNeverPanic(t *testing.T) {
	dir := t.TempDir()
	orig := twoGames(t, dir)
	b, err := os.ReadFile(filepath.Join(orig, "umpire.db"))
	if err != nil {
		t.Fatal(err)
	}
	type flip struct {
		off int
		xor byte
	}
	var flips []flip
	for p := 0; p < len(b); p += 4096 {
		for i := range 16 {
			flips = append(flips, flip{p + i, []byte{0x01, 0x80}[i%2]})
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 100 {
		flips = append(flips, flip{r.IntN(len(b)), byte(1 + r.IntN(255))})
	}
	data := filepath.Join(dir, "flipped")
	if err := os.MkdirAll(data, 0o700); err != nil {
		t.Fatal(err)
	}
	c := &cli{t: t, data: data}
	refused := 0
	for _, f := range flips {
		d := bytes.Clone(b)
		d[f.off] ^= f.xor
		if err := os.WriteFile(filepath.Join(data, "umpire.db"), d, 0o600); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{{"show", "g1"}, {"verify", "g2"}} {
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Errorf("byte %d ^ %#x: umpire %s panicked: %v", f.off, f.xor, strings.Join(args, " "), p)
					}
				}()
				code, out, errs := c.run(args...)
				if code != 0 && code != 1 || code == 1 && errs == "" && out == "" {
					t.Errorf("byte %d ^ %#x: umpire %s: exit %d without a word", f.off, f.xor, strings.Join(args, " "), code)
				}
				if code == 1 && args[0] == "show" && strings.Contains(errs, "is damaged") {
					refused++
				}
			}()
		}
	}
	t.Logf("%d flips: show refused %d damaged files", len(flips), refused)
}
