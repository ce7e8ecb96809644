package dragonnoir_test

import (
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir"
	"github.com/umpire-pbem/umpire/adjudicator/game"
)

// builtin is the shipped module, a copy the test may change.
func builtin(t *testing.T) adjudicator.Module {
	t.Helper()
	m, ok := dragonnoir.Ruleset.(adjudicator.Modular).BuiltinModule("assumed")
	if !ok {
		t.Fatal("the builtin module assumed is missing")
	}
	m.Files = maps.Clone(m.Files)
	return m
}

// withModule is the ruleset with one more builtin module, as a group's
// library adds one (umpire module add).
type withModule struct {
	adjudicator.Ruleset
	m adjudicator.Module
}

func (r withModule) BuiltinModules() []string { return []string{"assumed", r.m.Name} }
func (r withModule) BuiltinModule(name string) (adjudicator.Module, bool) {
	if name == r.m.Name {
		return r.m, true
	}
	return dragonnoir.Ruleset.(adjudicator.Modular).BuiltinModule(name)
}
func (r withModule) CheckModule(m adjudicator.Module) error {
	return dragonnoir.Ruleset.(adjudicator.Modular).CheckModule(m)
}

// clubCombat is a group's own Combat Table: the same as the assumed one
// but for a 5 at 1-1, which kills the defender, entered from its copy.
func clubCombat(t *testing.T, m adjudicator.Module) adjudicator.Module {
	t.Helper()
	src := string(m.Files["combat.yaml"])
	old := `    rows: [DW, DS, DR, "-", "-", AR, "-", AR, AS, AW]
    assumed: true`
	if !strings.Contains(src, old) {
		t.Fatal("the assumed combat.yaml changed: update clubCombat")
	}
	src = strings.Replace(src, old, `    rows: [DW, DS, DR, "-", DK, AR, "-", AR, AS, AW]
    user: true`, 1)
	m.Name = "club"
	m.Files["combat.yaml"] = []byte(src)
	return m
}

// TestUserCombatTable: a group replaces the Combat Table by its own file;
// the module checks, a game created with it uses it (the same attack and
// die kill instead of nothing), and the game keeps its module: game.created records the
// digest, the log replays exactly with those files and refuses to replay
// without them rather than fall back on the builtin table.
func TestUserCombatTable(t *testing.T) {
	club := clubCombat(t, builtin(t))
	if err := game.CheckModule(dragonnoir.Ruleset, club); err != nil {
		t.Fatalf("the club module does not check: %v", err)
	}
	rs := withModule{dragonnoir.Ruleset, club}
	l := func(name string) (adjudicator.Ruleset, bool) { return rs, name == "dragonnoir" }
	assumedRun := playCase(t, "testdata/combat/DN-COMBAT-1-1-five.yaml", lookup)
	if got := assumedRun.View.Units; !alive(got, "warrior-1") {
		t.Fatalf("with the assumed table a 5 at 1-1 does nothing; the view is %v", got)
	}
	src := strings.Replace(readFile(t, "testdata/combat/DN-COMBAT-1-1-five.yaml"), "ruleset: dragonnoir\n", "ruleset: dragonnoir\nmodule: club\n", 1)
	src = src[:strings.Index(src, "expect:")] + "expect:\n  gone: [warrior-1]\n"
	clubRun := playText(t, src, l)
	if !slices.Contains(allLines(clubRun), "combat on warrior-1 by konrad: 1d10=4, +1 makes 5 at 1-1: DK: defender killed (assumed table)") {
		t.Errorf("the club's 5 at 1-1 is not read as DK: %q", allLines(clubRun))
	}
	var c game.Created
	if err := json.Unmarshal(clubRun.Log[0].Payload, &c); err != nil {
		t.Fatal(err)
	}
	if c.Module == nil || c.Module.Digest != club.Digest() || c.Module.Name != "club" {
		t.Fatalf("game.created names module %+v, want club %s", c.Module, club.Digest())
	}
	if a := game.Replay(clubRun.Log, game.Lookup(lookup).With(game.FilesOf(club))); !a.OK() {
		t.Errorf("the log does not replay with the club's files: %v", a.Problems)
	}
	if _, err := game.Load(clubRun.Log, game.Lookup(lookup)); !errors.Is(err, game.ErrNoModule) {
		t.Errorf("loading the game without the club's files: %v, want ErrNoModule", err)
	}
}

func alive(us []adjudicator.UnitView, id string) bool {
	for _, u := range us {
		if u.ID == id {
			return !u.Gone
		}
	}
	return false
}
