package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSystemdUnit: the unit file docs/hosting.md gives runs a command this
// umpire has, with flags it knows, and is the same text as the page shows.
// The unit's configuration file does not exist here, so the command must
// fail on reading it, not on its usage.
func TestSystemdUnit(t *testing.T) {
	unit, err := os.ReadFile(filepath.Join("..", "..", "docs", "umpire@.service"))
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join("..", "..", "docs", "hosting.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), "```ini\n"+string(unit)+"```") {
		t.Error("docs/umpire@.service differs from the unit docs/hosting.md shows: keep them the same")
	}
	var exec string
	for _, line := range strings.Split(string(unit), "\n") {
		if v, ok := strings.CutPrefix(line, "ExecStart="); ok {
			exec = v
		}
	}
	args := strings.Fields(exec)
	if len(args) < 2 || filepath.Base(args[0]) != "umpire" {
		t.Fatalf("ExecStart=%q does not run umpire", exec)
	}
	cfg := filepath.Join(t.TempDir(), "club.yaml")
	for i, a := range args {
		args[i] = strings.ReplaceAll(a, "/etc/umpire/%i.yaml", cfg)
	}
	code, _, errs := runApp(strings.NewReader(""), nil, args[1:]...)
	if code == 2 || strings.Contains(errs, "usage:") {
		t.Fatalf("umpire %s: a usage error (exit %d):\n%s", strings.Join(args[1:], " "), code, errs)
	}
	if code == 0 || !strings.Contains(errs, cfg) {
		t.Fatalf("umpire %s: exit %d, want a failure naming the missing %s:\n%s", strings.Join(args[1:], " "), code, cfg, errs)
	}
}
