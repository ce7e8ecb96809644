package games_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/testrules"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
)

func modService(t testing.TB, st store.Store) *games.Service {
	if st == nil {
		st = store.NewMemory()
	}
	clock := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	return &games.Service{Store: st, Rules: testrules.Lookup, Now: func() time.Time { clock = clock.Add(time.Second); return clock }}
}

func trackModule(name string, squares string) adjudicator.Module {
	return adjudicator.Module{Name: name, Files: map[string][]byte{testrules.TrackFile: []byte(
		"track: " + squares + "\nrunners:\n  R1: 0\n  R2: 0\n  B1: 0\n  B2: 0\nsources:\n  track: user\n")}}
}

func createMod(t testing.TB, s *games.Service, id, module string) *games.Created {
	c, err := s.Create(context.Background(), games.CreateRequest{ID: id, Ruleset: "modrace", Scenario: "sprint", Module: module,
		Options: map[string]string{"turns": "2"},
		Players: []games.Player{{Side: "red", Address: "red@example.org"}, {Side: "blue", Address: "blue@example.org"}}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestModuleCreateRecordsRef(t *testing.T) {
	ctx := t.Context()
	s := modService(t, nil)
	c := createMod(t, s, "m1", "")
	short, _ := testrules.ModRace.(adjudicator.Modular).BuiltinModule("short")
	if want := short.Ref(); c.Game.Created.Module == nil || *c.Game.Created.Module != (adjudicator.ModuleRef{Name: "short", Digest: want.Digest}) {
		t.Fatalf("game.created names module %+v, want short %s", c.Game.Created.Module, want.Digest)
	}
	if got := c.Game.State.(*testrules.State).Track; got != 8 {
		t.Fatalf("the short module's track is %d squares, want 8", got)
	}
	if n, err := s.StoredVersions(ctx); err != nil || n != 1 {
		t.Fatalf("the store keeps %d module versions (%v), want the builtin one the game was created with", n, err)
	}
	// A ruleset not played from modules takes none.
	_, err := s.Create(ctx, games.CreateRequest{ID: "plain", Ruleset: "race", Scenario: "sprint", Module: "short",
		Players: []games.Player{{Side: "red", Address: "red@example.org"}}})
	if err == nil || !strings.Contains(err.Error(), "not played from module data") {
		t.Fatalf("race with a module: %v", err)
	}
	// An unknown name is refused with the names there are.
	_, err = s.Create(ctx, games.CreateRequest{ID: "m2", Ruleset: "modrace", Scenario: "sprint", Module: "shrot",
		Players: []games.Player{{Side: "red", Address: "red@example.org"}}})
	if err == nil || !strings.Contains(err.Error(), "short, long") {
		t.Fatalf("an unknown module: %v", err)
	}
}

// TestModuleRepointedReplays: a game keeps the files it was created with
// after its module's name points at edited files; a new game gets the new
// ones.
func TestModuleRepointedReplays(t *testing.T) {
	ctx := t.Context()
	st := store.NewMemory()
	s := modService(t, st)
	if _, err := s.AddModule(ctx, "modrace", trackModule("mine", "9"), "add", nil); err != nil {
		t.Fatal(err)
	}
	old := createMod(t, s, "old", "mine")
	playOut(t, s, "old")
	if _, err := s.AddModule(ctx, "modrace", trackModule("mine", "20"), "add", nil); err != nil {
		t.Fatal(err)
	}
	fresh := modService(t, st) // nothing cached
	g, err := fresh.Load(ctx, "old")
	if err != nil {
		t.Fatal(err)
	}
	if got := g.State.(*testrules.State).Track; got != 9 || g.Created.Module.Digest != old.Game.Created.Module.Digest {
		t.Fatalf("the old game folds with a track of %d (digest %s), want 9 (%s)", got, g.Created.Module.Digest, old.Game.Created.Module.Digest)
	}
	if a, err := fresh.Replay(ctx, "old"); err != nil || !a.OK() {
		t.Fatalf("replay after the name moved: %v %v", err, a.Problems)
	}
	if g := createMod(t, fresh, "new", "mine"); g.Game.State.(*testrules.State).Track != 20 {
		t.Fatalf("a new game of mine has a track of %d, want 20", g.Game.State.(*testrules.State).Track)
	}
	if n, _ := fresh.StoredVersions(ctx); n != 2 {
		t.Fatalf("%d module versions kept, want both of mine", n)
	}
	list, err := fresh.ListModules(ctx, []adjudicator.Ruleset{testrules.Race, testrules.ModRace})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range list {
		names = append(names, m.Name)
	}
	if strings.Join(names, " ") != "short long mine" || list[2].Summary != "track of 20 squares (user), 4 runners" || list[2].How != "add" {
		t.Fatalf("ListModules = %+v", list)
	}
}

func TestModuleAddRefused(t *testing.T) {
	ctx := t.Context()
	s := modService(t, nil)
	for _, tc := range []struct {
		m    adjudicator.Module
		want string
	}{
		{trackModule("short", "9"), "shipped with modrace"},
		{trackModule("Mine", "9"), "module name"},
		{trackModule("mine", "1"), "track.yaml:1: track is 1"},
		{adjudicator.Module{Name: "mine", Files: map[string][]byte{"track.yaml": []byte("track: 9\nrunners:\n  X1: 0\n")}}, "track.yaml:2: runner \"X1\""},
	} {
		if _, err := s.AddModule(ctx, "modrace", tc.m, "add", nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("AddModule(%s): %v, want %q", tc.m.Name, err, tc.want)
		}
	}
	if _, err := s.AddModule(ctx, "race", trackModule("mine", "9"), "add", nil); err == nil || !strings.Contains(err.Error(), "not played from module data") {
		t.Errorf("AddModule to race: %v", err)
	}
}

// TestModuleMissing: a log whose module files are nowhere does not load,
// and says which module and how to get it back.
func TestModuleMissing(t *testing.T) {
	ctx := t.Context()
	s := modService(t, nil)
	if _, err := s.AddModule(ctx, "modrace", trackModule("mine", "9"), "add", nil); err != nil {
		t.Fatal(err)
	}
	createMod(t, s, "g", "mine")
	evs, err := s.Store.Events(ctx, "g", 1)
	if err != nil {
		t.Fatal(err)
	}
	bare := store.NewMemory() // the events without the library
	b := store.Batch{Game: "g"}
	for _, e := range evs {
		b.Events = append(b.Events, e.NewEvent)
	}
	if _, err := bare.Append(ctx, b); err != nil {
		t.Fatal(err)
	}
	_, err = modService(t, bare).Load(ctx, "g")
	var le *game.LogError
	if !errors.Is(err, game.ErrNoModule) || !errors.As(err, &le) || !strings.Contains(err.Error(), `module "mine"`) || !strings.Contains(err.Error(), "umpire module add") {
		t.Fatalf("loading without the module: %v", err)
	}
}

// changeFile rewrites a bundle with one file's body changed.
func changeFile(t *testing.T, b []byte, name string, change func([]byte) []byte) []byte {
	files := untar(t, b)
	for i := range files {
		if files[i].name == name {
			files[i].body = change(files[i].body)
		}
	}
	return retar(t, files)
}

func TestModuleBundle(t *testing.T) {
	ctx := t.Context()
	s := modService(t, nil)
	if _, err := s.AddModule(ctx, "modrace", trackModule("mine", "9"), "add", nil); err != nil {
		t.Fatal(err)
	}
	createMod(t, s, "g", "mine")
	playOut(t, s, "g")
	bundle := exportBundle(t, s, "g")
	for _, want := range []string{"g/module.sha256", "g/module/track.yaml"} {
		if !bytes.Contains(bundle, []byte(want)) {
			t.Fatalf("the bundle has no %s", want)
		}
	}
	a, err := games.VerifyBundle(bytes.NewReader(bundle), testrules.Lookup, games.Known{})
	if err != nil || !a.OK() || a.Redecided == 0 {
		t.Fatalf("verify: %v %v (redecided %d)", err, a.Problems, a.Redecided)
	}

	// Imported into a data file that never saw the module, the game
	// loads and replays: the bundle carried its files.
	other := modService(t, nil)
	if _, err := other.Import(ctx, bytes.NewReader(bundle), nil); err != nil {
		t.Fatal(err)
	}
	if rp, err := other.Replay(ctx, "g"); err != nil || !rp.OK() {
		t.Fatalf("replay of the imported game: %v %v", err, rp.Problems)
	}
	if n, _ := other.StoredVersions(ctx); n != 1 {
		t.Fatalf("the import kept %d module versions, want 1", n)
	}

	for _, tc := range []struct {
		name, file, want string
		change           func([]byte) []byte
	}{
		{"file", "g/module/track.yaml", "module/track.yaml: its SHA-256 is", func(b []byte) []byte { return bytes.Replace(b, []byte("track: 9"), []byte("track: 7"), 1) }},
		{"manifest", "g/module.sha256", "module.sha256: hashes to", func(b []byte) []byte {
			return append(b, "0000000000000000000000000000000000000000000000000000000000000000  extra.yaml\n"...)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := changeFile(t, bundle, tc.file, tc.change)
			a, err := games.VerifyBundle(bytes.NewReader(bad), testrules.Lookup, games.Known{})
			if err != nil {
				t.Fatal(err)
			}
			if a.OK() || !strings.Contains(strings.Join(a.Problems, "\n"), tc.want) {
				t.Fatalf("a tampered %s verifies: %q", tc.file, a.Problems)
			}
			if _, err := modService(t, nil).Import(ctx, bytes.NewReader(bad), nil); err == nil {
				t.Fatal("a tampered bundle was imported")
			}
		})
	}
}
