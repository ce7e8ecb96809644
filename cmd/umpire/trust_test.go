package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoSecretInLogOrBundle: the players' secrets, sent with the orders,
// are in neither `umpire log --json` (as the referee or as a side) nor the
// export bundle; a tampered bundle fails verify naming the file; verify
// takes what a player kept.
func TestNoSecretInLogOrBundle(t *testing.T) {
	dir := t.TempDir()
	c := &cli{t: t, data: filepath.Join(dir, "data")}
	out := c.ok("new", "--ruleset", "race", "--scenario", "sprint", "--option", "turns=1", "--player", "red=red@example.org", "--player", "blue=blue@example.org")
	lines := strings.Split(out, "\n")
	id := lines[0]
	commitment := strings.Fields(strings.TrimPrefix(lines[1], "dice commitment: "))[0]
	secrets := map[string]string{}
	for _, l := range lines {
		if side, sec, ok := strings.Cut(strings.TrimPrefix(l, "secret for "), ": "); ok && strings.HasPrefix(l, "secret for ") {
			secrets[side] = strings.TrimSpace(sec)
		}
	}
	if len(secrets) != 2 {
		t.Fatalf("no secrets in:\n%s", out)
	}
	c.ok("submit", id, "red", write(t, dir, "red.yaml", "secret: "+secrets["red"]+"\nturn: 1\nphase: bid\norders:\n  bid: 1\n"))
	c.ok("submit", id, "blue", write(t, dir, "blue.yaml", "secret: "+secrets["blue"]+"\nturn: 1\nphase: bid\norders:\n  bid: 0\n"))
	bundle := filepath.Join(dir, "b.tar")
	c.ok("export", id, "-o", bundle)
	raw, err := os.ReadFile(bundle)
	if err != nil {
		t.Fatal(err)
	}
	texts := map[string]string{
		"log --json":          c.ok("log", id, "--json"),
		"log --json --as red": c.ok("log", id, "--json", "--as", "red"),
		"log --as blue":       c.ok("log", id, "--as", "blue"),
		"bundle":              string(raw),
	}
	for what, text := range texts {
		for side, sec := range secrets {
			if strings.Contains(text, sec) {
				t.Errorf("%s holds %s's secret", what, side)
			}
		}
	}
	if out := c.ok("verify", bundle, "--commitment", commitment); !strings.Contains(out, "OK") {
		t.Errorf("verify:\n%s", out)
	}
	code, out, _ := c.run("verify", bundle, "--commitment", strings.Repeat("0", 64))
	if code != 1 || !strings.Contains(out, "FAILED: events.jsonl: the dice commitment is") {
		t.Errorf("verify against another commitment: exit %d\n%s", code, out)
	}
	bad := filepath.Join(dir, "bad.tar")
	os.WriteFile(bad, []byte(strings.Replace(string(raw), "bid: 1", "bid: 3", 1)), 0o644)
	code, out, _ = c.run("verify", bad)
	if code != 1 || !strings.Contains(out, "FAILED: orders/") {
		t.Errorf("verify of a tampered orders file: exit %d\n%s", code, out)
	}
}
