package games_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/testrules"
	"github.com/umpire-pbem/umpire/store/games"
)

// TestCheckbundlePyModuleFiles: docs/checkbundle.py, written from
// docs/trust.md alone, accepts the bundle of a game played from module data
// (module.sha256 and module/…) and names a module file that was changed.
func TestCheckbundlePyModuleFiles(t *testing.T) {
	py := python3(t)
	s := newService(t)
	s.Rules = testrules.Lookup
	if _, err := s.Create(t.Context(), games.CreateRequest{ID: "mod-1", Ruleset: "modrace", Scenario: "sprint", Module: "long", Options: map[string]string{"turns": "1"},
		Players: []games.Player{{Side: "red", Address: "red@example.org"}, {Side: "blue", Address: "blue@example.org"}}}); err != nil {
		t.Fatal(err)
	}
	good := exportBundle(t, s, "mod-1")
	if !bytes.Contains(good, []byte("module.sha256")) {
		t.Fatal("the bundle of a game played from module data carries no module.sha256")
	}
	if code, out := runCheckbundle(t, py, good); code != 0 || !strings.HasPrefix(out, "OK: ") {
		t.Fatalf("docs/checkbundle.py exits %d on a fresh module bundle:\n%s", code, out)
	}
	files := untar(t, good)
	for i, f := range files {
		if strings.HasPrefix(f.name, "mod-1/module/") {
			bad := append([]tarFile(nil), files...)
			bad[i] = tarFile{f.name, append(bytes.Clone(f.body), "# edited\n"...)}
			code, out := runCheckbundle(t, py, retar(t, bad))
			name := strings.TrimPrefix(f.name, "mod-1/")
			if code == 0 || !strings.Contains(out, name) {
				t.Fatalf("a changed %s: exit %d, and the output does not name it:\n%s", name, code, out)
			}
			return
		}
	}
	t.Fatal("no module file in the bundle")
}
