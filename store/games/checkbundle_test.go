package games_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/rulesets"
	"github.com/umpire-pbem/umpire/store/games"
)

// docs/checkbundle.py is a checker of audit bundles written from the
// bundle's README.txt and docs/dice.md alone. Running it on fresh bundles
// keeps the documentation and the code from drifting apart: a change of
// the format that the docs do not follow fails here.

const checkbundle = "../../docs/checkbundle.py"

// python3 returns the interpreter, or skips the test (.ci/run installs it).
func python3(t *testing.T) string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not on PATH: docs/checkbundle.py not run (.ci/run installs python3)")
	}
	return py
}

// runCheckbundle runs the checker on bundle b and returns its exit code and output.
func runCheckbundle(t *testing.T, py string, b []byte, args ...string) (int, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "bundle.tar")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.CommandContext(t.Context(), py, append([]string{checkbundle, path}, args...)...).CombinedOutput()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		return exit.ExitCode(), string(out)
	case err != nil:
		t.Fatalf("running %s: %v\n%s", checkbundle, err, out)
	}
	return 0, string(out)
}

func exportBundle(t *testing.T, s *games.Service, id string) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := s.Export(t.Context(), id, &buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// submitDue answers what side owes in game id with the test orders.
func submitDue(t *testing.T, s *games.Service, id string, side adjudicator.Side, request string) {
	t.Helper()
	g, err := s.Load(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	r, ok := g.Request(request)
	if !ok {
		t.Fatalf("%s is not due", request)
	}
	if _, err := s.Submit(t.Context(), games.SubmitRequest{Game: id, Side: side, Src: []byte(orders(r, g)), Via: "test"}); err != nil {
		t.Fatal(err)
	}
}

// raceBundles are bundles of the test ruleset with sealed parts: a hidden
// bid pending (a commitment not revealed), an adjudication whose scout
// roll is still sealed, a whole game over three dice chains with every
// sealed part revealed, and a game restored without its sealed openings.
func raceBundles(t *testing.T) map[string][]byte {
	out := map[string][]byte{}
	s := newService(t)
	if _, err := s.Create(t.Context(), games.CreateRequest{ID: "race-1", Ruleset: "race", Scenario: "sprint", ChainLength: 3,
		Options: map[string]string{"turns": "2", "scout": "yes"},
		Players: []games.Player{{Side: "red", Address: "red@example.org"}, {Side: "blue", Address: "blue@example.org"}}}); err != nil {
		t.Fatal(err)
	}
	submitDue(t, s, "race-1", "red", "t1.bid.red")
	out["hidden bid pending"] = exportBundle(t, s, "race-1")
	submitDue(t, s, "race-1", "blue", "t1.bid.blue")
	out["scout roll sealed"] = exportBundle(t, s, "race-1")
	// Restored from that bundle without the data file: the scout roll's
	// opening is lost (sealed.lost), the rest is revealed at the end.
	ns := newService(t)
	if _, err := ns.Import(t.Context(), bytes.NewReader(out["scout roll sealed"]), nil); err != nil {
		t.Fatal(err)
	}
	playOut(t, ns, "race-1")
	out["restored, an opening lost"] = exportBundle(t, ns, "race-1")
	if !bytes.Contains(out["restored, an opening lost"], []byte(`"type":"sealed.lost"`)) {
		t.Fatal("the restored game records no lost opening")
	}
	playOut(t, s, "race-1")
	out["whole game"] = exportBundle(t, s, "race-1")
	// A branch from the end of the first adjudication: the parent's dice
	// up to there (derived with the parent's id), a fresh chain after.
	s2 := newService(t)
	if _, err := s2.Create(t.Context(), games.CreateRequest{ID: "race-2", Ruleset: "race", Scenario: "sprint",
		Options: map[string]string{"turns": "2"},
		Players: []games.Player{{Side: "red", Address: "red@example.org"}, {Side: "blue", Address: "blue@example.org"}}}); err != nil {
		t.Fatal(err)
	}
	submitDue(t, s2, "race-2", "red", "t1.bid.red")
	submitDue(t, s2, "race-2", "blue", "t1.bid.blue")
	v, err := s2.Store.Version(t.Context(), "race-2")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s2.Branch(t.Context(), "race-2", v, "race-2-b1", nil); err != nil {
		t.Fatal(err)
	}
	playOut(t, s2, "race-2-b1")
	out["branch, played out"] = exportBundle(t, s2, "race-2-b1")
	out["parent, ended by the rollback"] = exportBundle(t, s2, "race-2")
	return out
}

// dragonRageBundle is scenario n2 played with docs/examples, then a melee
// that rolls a die.
func dragonRageBundle(t *testing.T) []byte {
	s := newService(t)
	s.Rules = rulesets.Lookup
	if _, err := s.Create(t.Context(), games.CreateRequest{ID: "drag-1", Ruleset: "dragonrage", Scenario: "n2",
		Players: []games.Player{{Side: "invader", Address: "a@example.org"}, {Side: "defender", Address: "b@example.org"}}}); err != nil {
		t.Fatal(err)
	}
	melee := "turn: 1\nphase: melee\norders:\n  - attack: \"0402\"\n    with: [CAV-1]\n"
	for _, o := range []struct{ side, file, src string }{
		{"defender", "n2-defender-setup.yaml", ""}, {"defender", "n2-defender-movement.yaml", ""},
		{"invader", "n2-invader-movement.yaml", ""}, {"invader", "", melee},
	} {
		src := []byte(o.src)
		if o.file != "" {
			var err error
			if src, err = os.ReadFile(filepath.Join("../../docs/examples", o.file)); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := s.Submit(t.Context(), games.SubmitRequest{Game: "drag-1", Side: adjudicator.Side(o.side), Src: src, Via: "test"}); err != nil {
			t.Fatalf("%s %s: %v", o.side, o.file, err)
		}
	}
	return exportBundle(t, s, "drag-1")
}

func TestCheckbundlePyAcceptsFreshBundles(t *testing.T) {
	py := python3(t)
	bundles := raceBundles(t)
	bundles["dragon rage"] = dragonRageBundle(t)
	for name, b := range bundles {
		t.Run(name, func(t *testing.T) {
			if a, err := games.VerifyBundle(bytes.NewReader(b), nil, games.Known{}); err != nil || !a.OK() {
				t.Fatalf("umpire's own verify: %+v %v", a, err)
			}
			code, out := runCheckbundle(t, py, b)
			if code != 0 || !strings.HasPrefix(out, "OK: ") {
				t.Fatalf("docs/checkbundle.py exits %d:\n%s", code, out)
			}
			if name == "whole game" && strings.HasSuffix(strings.TrimSpace(out), " 0 dice") {
				t.Errorf("no die recomputed: %s", out)
			}
		})
	}
}

func TestCheckbundlePyCatchesTampering(t *testing.T) {
	py := python3(t)
	good := raceBundles(t)["whole game"]
	files := untar(t, good)
	find := func(prefix string) int {
		for i, f := range files {
			if strings.HasPrefix(f.name, "race-1/"+prefix) {
				return i
			}
		}
		t.Fatalf("no %s in the bundle", prefix)
		return -1
	}
	edit := func(prefix string, change func([]byte) []byte) ([]byte, string) {
		out := append([]tarFile(nil), files...)
		i := find(prefix)
		out[i] = tarFile{out[i].name, change(bytes.Clone(out[i].body))}
		return retar(t, out), strings.TrimPrefix(out[i].name, "race-1/")
	}
	// The player's own records: the welcome mail's commitment and the
	// last event's number and hash.
	var head string
	evs := files[find("events.jsonl")].body
	if m := regexp.MustCompile(`"seq":(\d+),.*"hash":"([0-9a-f]{64})"}\n$`).FindSubmatch(evs); m != nil {
		head = string(m[1]) + ":" + string(m[2])
	}
	commitment := regexp.MustCompile(`"commitment": "([0-9a-f]{64})"`).FindSubmatch(files[find("game.json")].body)
	if head == "" || commitment == nil {
		t.Fatal("no head or commitment in the bundle")
	}
	if code, out := runCheckbundle(t, py, good, "--commitment", string(commitment[1]), "--head", head); code != 0 {
		t.Fatalf("with the right commitment and head: exit %d\n%s", code, out)
	}

	face := regexp.MustCompile(`\\"faces\\":\[(\d)`)
	cases := []struct {
		name, file string
		bundle     []byte
		args       []string
	}{
		{name: "die face changed", file: "events.jsonl"},
		{name: "orders changed", file: "orders/"},
		{name: "seed changed", file: "seeds.txt"},
		{name: "commitment not the player's", file: "events.jsonl", bundle: good, args: []string{"--commitment", strings.Repeat("ab", 32)}},
		{name: "history cut short", file: "events.jsonl", bundle: good, args: []string{"--head", "1000:" + strings.Repeat("ab", 32)}},
		{name: "bundle cut in the middle", file: "", bundle: good[:len(good)/2]},
	}
	cases[0].bundle, cases[0].file = edit("events.jsonl", func(b []byte) []byte {
		loc := face.FindSubmatchIndex(b)
		if loc == nil {
			t.Fatal("no public die in events.jsonl")
		}
		b[loc[2]] = '0' + (b[loc[2]]-'0')%6 + 1
		return b
	})
	cases[1].bundle, cases[1].file = edit("orders/", func(b []byte) []byte { return append(b, "# later\n"...) })
	cases[2].bundle, cases[2].file = edit("seeds.txt", func(b []byte) []byte {
		i := bytes.IndexByte(b, '\n') - 1 // the last hex digit of the first seed
		if b[i] == '0' {
			b[i] = '1'
		} else {
			b[i] = '0'
		}
		return b
	})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out := runCheckbundle(t, py, c.bundle, c.args...)
			if code != 1 || !strings.Contains(out, "FAILED: "+c.file) || strings.Contains(out, "Traceback") {
				t.Fatalf("exit %d, want 1 and a FAILED line naming %q:\n%s", code, c.file, out)
			}
		})
	}
}
