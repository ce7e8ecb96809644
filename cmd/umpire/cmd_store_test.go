package main

import (
	"bytes"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/store/postgres/pgtest"
)

// playedGame makes a game in c's data directory with a submission in it,
// and returns its id.
func playedGame(t *testing.T, c *cli, dir string) string {
	t.Helper()
	id := strings.Split(c.ok("new", "--ruleset", "race", "--scenario", "sprint", "--player", "red=red@example.org", "--player", "blue=blue@example.org", "--option", "turns=1"), "\n")[0]
	c.ok("submit", id, "red", write(t, dir, "red-bid.yaml", "turn: 1\nphase: bid\norders:\n  bid: 1\n"))
	return id
}

// TestStoreCopyBolt: a copy of a data file into a new directory matches
// it, and each game verifies on both sides; a second copy into the same
// target is refused.
func TestStoreCopyBolt(t *testing.T) {
	dir := t.TempDir()
	c := &cli{t: t, data: filepath.Join(dir, "data")}
	id := playedGame(t, c, dir)
	newDir := filepath.Join(dir, "new")
	out := c.ok("store", "copy", "--to", "bolt:"+newDir)
	for _, want := range []string{"copied 1 games", "verified the source: 1 of 1 games intact", "verified the target: 1 of 1 games intact", "the copy matches its source"} {
		if !strings.Contains(out, want) {
			t.Errorf("store copy printed no %q:\n%s", want, out)
		}
	}
	for _, d := range []string{c.data, newDir} {
		if out := (&cli{t: t, data: d}).ok("verify", id); !strings.Contains(out, "verify: OK") {
			t.Errorf("verify in %s:\n%s", d, out)
		}
	}
	// The same through --store: the games of the copy.
	if out := (&cli{t: t}).ok("games", "--store", "bolt:"+newDir); !strings.Contains(out, id) {
		t.Errorf("games --store bolt:%s:\n%s", newDir, out)
	}
	code, out, errs := c.run("store", "copy", "--to", newDir)
	if code != 1 || !strings.Contains(errs, "the target store is not empty: it holds game") {
		t.Errorf("a copy into a full store: exit %d\n%s%s", code, out, errs)
	}
	if out := c.ok("store", "status", "--verify"); !strings.Contains(out, "games: 1\n") || !strings.Contains(out, "verified: every game's hash chain is intact") {
		t.Errorf("store status:\n%s", out)
	}
}

// TestStoreMistakes: a password in a URL, a bbolt-only command given a
// PostgreSQL store, and copy without --to are refused, saying what to do.
func TestStoreMistakes(t *testing.T) {
	dir := t.TempDir()
	c := &cli{t: t, data: filepath.Join(dir, "data")}
	for _, cs := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"games", "--store", "postgres://u:hunter2@db.example.org/umpire"}, 2, "holds a password"},
		{[]string{"check", "--store", "postgres://u@db.example.org/umpire"}, 1, "umpire check is for the bbolt data file, not a PostgreSQL store (postgres://u@db.example.org/umpire): the database keeps its own pages sound; 'umpire store status --verify --store URL'"},
		{[]string{"compact", "--store", "postgres://u@db.example.org/umpire"}, 1, "umpire compact is for the bbolt data file"},
		{[]string{"upgrade", "--store", "postgres://u@db.example.org/umpire"}, 1, "umpire upgrade is for the bbolt data file"},
		{[]string{"recover", "--to", filepath.Join(dir, "x"), "--store", "postgres://u@db.example.org/umpire"}, 1, "umpire recover is for the bbolt data file"},
		{[]string{"store", "copy"}, 2, "give --to"},
		{[]string{"store", "copy", "--to", c.data}, 2, "--from and --to are the same store"},
		{[]string{"store", "status", "--store", "mysql://db/umpire"}, 2, "is not a store umpire knows"},
		{[]string{"store", "status", "--store-password-file", "pw"}, 2, "--store-password-file is for a PostgreSQL --store"},
		{[]string{"store", "fly"}, 2, "no store command \"fly\""},
		{[]string{"store", "status"}, 1, "no data file at"},
	} {
		code, out, errs := c.run(cs.args...)
		if code != cs.code || !strings.Contains(errs, cs.want) || strings.Contains(out+errs, "hunter2") {
			t.Errorf("umpire %s: exit %d, want %d with %q\n%s%s", strings.Join(cs.args, " "), code, cs.code, cs.want, out, errs)
		}
	}
	if out := c.ok("store", "migrate"); !strings.Contains(out, "up to date") {
		t.Errorf("store migrate of a bbolt file:\n%s", out)
	}
}

// pgSpec splits a test database URL into the URL without its password
// and a password file, as an operator gives them.
func pgSpec(t *testing.T, dir string) (string, string) {
	t.Helper()
	u, err := url.Parse(pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	pw, _ := u.User.Password()
	u.User = url.User(u.User.Username())
	file := filepath.Join(dir, "db.pw")
	if err := os.WriteFile(file, []byte(pw+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return u.String(), file
}

// TestStoreCopyPostgres: bolt → PostgreSQL → bolt, each copy verified, and
// the game verifies and is played on in PostgreSQL through --store.
func TestStoreCopyPostgres(t *testing.T) {
	dir := t.TempDir()
	pg, pw := pgSpec(t, dir)
	c := &cli{t: t, data: filepath.Join(dir, "data")}
	id := playedGame(t, c, dir)
	code, _, errs := c.run("games", "--store", pg, "--store-password-file", pw)
	if code != 1 || !strings.Contains(errs, "umpire store migrate") {
		t.Errorf("games on a database never migrated: exit %d\n%s", code, errs)
	}
	if out := c.ok("store", "migrate", "--store", pg, "--store-password-file", pw); !strings.Contains(out, "applied ") {
		t.Errorf("store migrate:\n%s", out)
	}
	if out := c.ok("store", "migrate", "--store", pg, "--store-password-file", pw); !strings.Contains(out, "up to date") {
		t.Errorf("store migrate again:\n%s", out)
	}
	if out := c.ok("store", "copy", "--to", pg, "--to-password-file", pw); !strings.Contains(out, "the copy matches its source") {
		t.Errorf("copy to PostgreSQL:\n%s", out)
	}
	onPG := &cli{t: t}
	if out := onPG.ok("verify", id, "--store", pg, "--store-password-file", pw); !strings.Contains(out, "verify: OK") {
		t.Errorf("verify on PostgreSQL:\n%s", out)
	}
	onPG.ok("submit", id, "blue", write(t, dir, "blue-bid.yaml", "turn: 1\nphase: bid\norders:\n  bid: 0\n"), "--store", pg, "--store-password-file", pw)
	out := onPG.ok("store", "status", "--verify", "--store", pg, "--store-password-file", pw)
	if !strings.Contains(out, "store: PostgreSQL") || !strings.Contains(out, "games: 1\n") || !strings.Contains(out, "verified: every game") {
		t.Errorf("store status on PostgreSQL:\n%s", out)
	}
	back := filepath.Join(dir, "back")
	if out := c.ok("store", "copy", "--from", pg, "--from-password-file", pw, "--to", back); !strings.Contains(out, "the copy matches its source") {
		t.Errorf("copy back from PostgreSQL:\n%s", out)
	}
	if out := (&cli{t: t, data: back}).ok("verify", id); !strings.Contains(out, "verify: OK") {
		t.Errorf("verify of the copy back:\n%s", out)
	}
	onBolt, onDB := (&cli{t: t, data: back}).ok("log", id), onPG.ok("log", id, "--store", pg, "--store-password-file", pw)
	if onBolt != onDB || strings.Count(onBolt, "\n") <= strings.Count(c.ok("log", id), "\n") {
		t.Errorf("the copy back is not the game as played on in PostgreSQL:\n%s\nPostgreSQL:\n%s", onBolt, onDB)
	}
	// umpire serve's start-up check on the database: every chain verified.
	spec, err := specOf(pg, pw, "store")
	if err != nil {
		t.Fatal(err)
	}
	var logged bytes.Buffer
	st, err := openForServe(t.Context(), spec, slog.New(slog.NewTextHandler(&logged, nil)))
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	if !strings.Contains(logged.String(), "every hash chain intact") || !strings.Contains(logged.String(), "games=1") {
		t.Errorf("serve's check logged:\n%s", logged.String())
	}
	secret := strings.TrimSpace(mustRead(t, pw))
	for _, o := range []string{out, onPG.ok("games", "--store", pg, "--store-password-file", pw)} {
		if strings.Contains(o, secret) {
			t.Errorf("the database password printed: %s", o)
		}
	}
}
