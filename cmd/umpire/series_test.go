package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/testrules"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
)

// nextOrders is the next answer due in race id, as a file, and its side;
// "" when the race is over.
func nextOrders(t *testing.T, c *cli, dir, id string) (side, file string) {
	t.Helper()
	st, err := store.OpenReadOnly(filepath.Join(c.data, "umpire.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	g, err := (&games.Service{Store: st, Rules: testLookup}).Load(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range g.Due() {
		if _, ok := g.Answered(r.ID); ok {
			continue
		}
		src := testrules.Answer(g.State, r)
		return string(r.Side), write(t, dir, "orders.yaml", src)
	}
	return "", ""
}

// TestSeriesFromTheCommandLine: a series is created, played, shown,
// verified and exported from the command line; each game it reaches is
// printed with its players' secrets when the command that reached it
// succeeds, and a game tampered with fails the series' verify.
func TestSeriesFromTheCommandLine(t *testing.T) {
	dir := t.TempDir()
	c := &cli{t: t, data: filepath.Join(dir, "data")}
	if code, _, errs := c.run("series", "new", "--ruleset", "race", "--player", "red=a@example.org"); code != 2 || !strings.Contains(errs, "not a series ruleset") {
		t.Fatalf("series new of a game: exit %d, %s", code, errs)
	}
	out := c.ok("series", "new", "--ruleset", "league", "--id", "lg", "--player", "red=red@example.org", "--player", "blue=blue@example.org", "--option", "games=2", "--option", "turns=1")
	if !regexp.MustCompile(`series lg reached game lg-r1 \(r1\): race, scenario sprint\n  secret for red \(red@example.org\): \S+\n  secret for blue \(blue@example.org\): \S+\n`).MatchString(out) {
		t.Fatalf("series new printed:\n%s", out)
	}
	reached := ""
	for _, id := range []string{"lg-r1", "lg-r2"} {
		for i := 0; ; i++ {
			side, file := nextOrders(t, c, dir, id)
			if side == "" {
				break
			}
			if i > 40 {
				t.Fatalf("%s does not end", id)
			}
			reached += c.ok("submit", id, side, file)
		}
	}
	if !strings.Contains(reached, "series lg reached game lg-r2 (r2)") {
		t.Fatalf("the submission that ended race 1 did not tell of race 2:\n%s", reached)
	}
	if out := c.ok("games"); !strings.Contains(out, "over: ") || !strings.Contains(out, "[r2 of series lg]") {
		t.Fatalf("games:\n%s", out)
	}
	show := c.ok("series", "show", "lg")
	if !strings.Contains(show, "games (2):") || !strings.Contains(show, "lg-r2  race, sprint  [red blue@example.org, blue red@example.org]  over: ") {
		t.Fatalf("series show:\n%s", show)
	}
	if out := c.ok("series", "verify", "lg", "--replay"); !strings.Contains(out, "links between series lg and its 2 games: OK") || !strings.Contains(out, "series verify lg: OK") {
		t.Fatalf("series verify:\n%s", out)
	}
	bundle := filepath.Join(dir, "lg.tar")
	c.ok("series", "export", "lg", "-o", bundle)
	if out := c.ok("series", "verify", bundle); !strings.Contains(out, "OK") {
		t.Fatalf("series verify bundle:\n%s", out)
	}
	if out := c.ok("verify", bundle); !strings.Contains(out, "OK") {
		t.Fatalf("verify of a series bundle:\n%s", out)
	}
	if out := c.ok("series", "log", "lg"); !strings.Contains(out, "series.child") {
		t.Fatalf("series log:\n%s", out)
	}
	// A tampered bundle: one event of a game dropped from its events.jsonl.
	b, err := os.ReadFile(bundle)
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(b), `"type":"turn.adjudicated"`, `"type":"turn.adjudicatet"`, 1)
	if bad == string(b) {
		t.Fatal("nothing to tamper with")
	}
	badFile := write(t, dir, "bad.tar", bad)
	if code, out, _ := c.run("series", "verify", badFile); code != 1 || !strings.Contains(out, "FAILED") {
		t.Fatalf("a tampered series bundle: exit %d\n%s", code, out)
	}
}
