package dragonnoir_test

import (
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir"
)

// ours is the builtin module with every assumed table entry marked as a
// group's own (user), as if the group had checked each against its copy.
// Boards keep their own provenance: the map format has no "user".
func ours(t *testing.T) adjudicator.Module {
	t.Helper()
	m := builtin(t)
	m.Name = "ours"
	for p, b := range m.Files {
		if strings.HasPrefix(p, "boards/") || strings.HasPrefix(p, "assemblies/") {
			continue
		}
		m.Files[p] = []byte(strings.ReplaceAll(string(b), "assumed: true", "user: true"))
	}
	if err := dragonnoir.Ruleset.(adjudicator.Modular).CheckModule(m); err != nil {
		t.Fatalf("the all-user module does not check: %v", err)
	}
	return m
}

// TestAssumedMark: every report line and roll that used an assumed value
// ends with "(assumed table)", and only those. The same turn is played on
// the builtin module and on the same tables marked user: the two reports
// are the same line for line, except that the lines of the first that
// rest on a table end with the mark, and no line of the second has it.
func TestAssumedMark(t *testing.T) {
	const path = "testdata/turn/DN-TURN-3-whole-turn.yaml"
	m := ours(t)
	a := allLines(playCase(t, path, lookup))
	rs := withModule{dragonnoir.Ruleset, m}
	src := strings.Replace(readFile(t, path), "ruleset: dragonnoir\n", "ruleset: dragonnoir\nmodule: ours\n", 1)
	u := allLines(playText(t, src, func(name string) (adjudicator.Ruleset, bool) { return rs, name == "dragonnoir" }))
	if len(a) != len(u) {
		t.Fatalf("%d lines on the assumed module, %d on ours:\n%s\n---\n%s", len(a), len(u), strings.Join(a, "\n"), strings.Join(u, "\n"))
	}
	marked := 0
	for i := range a {
		if strings.Contains(u[i], dragonnoir.AssumedMark) {
			t.Errorf("a line says assumed on a module with nothing assumed in its tables: %q", u[i])
		}
		switch {
		case a[i] == u[i]:
		case a[i] == u[i]+dragonnoir.AssumedMark:
			marked++
		default:
			t.Errorf("the lines differ by more than the mark:\n%q\n%q", a[i], u[i])
		}
	}
	for _, want := range []string{"shoots at", "moves", "odds", "combat on", "offensive fire by"} {
		found := false
		for _, l := range a {
			if strings.Contains(l, want) && strings.HasSuffix(l, dragonnoir.AssumedMark) {
				found = true
			}
		}
		if !found {
			t.Errorf("no line with %q says it used an assumed table", want)
		}
	}
	if marked < 8 {
		t.Errorf("only %d lines marked: is the mark still applied?", marked)
	}
}
