package referee

import (
	"slices"
	"testing"
)

// TestOrderLines: moves with a path read from → to, starting where the
// unit stood and moving it on; other orders keep their YAML; a pass is no
// line.
func TestOrderLines(t *testing.T) {
	at := map[string]string{"ORC-2": "0202"}
	got := orderLines("moves:\n    - move: ORC-2\n      path: [\"0303\", \"0403\"]\n      smash: \"0504\"\n    - move: INF-3\n      path: [\"0909\"]\nfires:\n    - fire: [ARH-1]\n      at: \"1108\"\n", at)
	want := []string{"move ORC-2: 0202 → 0303 → 0403 (smash: 0504)", "move INF-3: 0909", `{fire: [ARH-1], at: "1108"}`}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if at["ORC-2"] != "0403" || at["INF-3"] != "0909" {
		t.Errorf("the units are not moved on: %v", at)
	}
	if got := orderLines("- advance: R1\n- advance: R2\n", nil); !slices.Equal(got, []string{"- advance: R1", "- advance: R2"}) {
		t.Errorf("orders without a path: %q", got)
	}
	for _, pass := range []string{"{}\n", "[]\n", "null\n", ""} {
		if got := orderLines(pass, nil); len(got) != 0 {
			t.Errorf("a pass %q reads %q", pass, got)
		}
	}
}
