package dragonrage_test

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonrage"
)

var majorLine = regexp.MustCompile(`(?m)^(  [A-Z]+-[0-9]+): "____ ([A-Z]+)"   # (.*), then its facing$`)

// fillMajors replaces the hex placeholder of every major monster's line
// of a skeleton by a hex of its zone (from the far end, five apart),
// keeping the facing the skeleton suggests, as a newcomer would.
func fillMajors(t *testing.T, skeleton string, zones []adjudicator.Zone) (string, int) {
	t.Helper()
	hexes := map[string][]string{}
	for _, z := range zones {
		hexes[z.Name] = z.Hexes
	}
	n := 0
	out := majorLine.ReplaceAllStringFunc(skeleton, func(line string) string {
		m := majorLine.FindStringSubmatch(line)
		hs := hexes[strings.Split(m[3], " or ")[0]]
		if len(hs) <= 5*n {
			t.Fatalf("no hex left for %s", line)
		}
		n++
		return m[1] + ": \"" + hs[len(hs)-1-5*(n-1)] + " " + m[2] + "\""
	})
	return out, n
}

// TestSetupSkeletonMajors: at Esirien 1 and 4 the invader's setup skeleton
// shows each major monster's line with a facing ("____ S"), explains it
// with an example from its own zone, and, filled in as the mail says, is
// accepted with the monsters facing as written (DR-SCEN-4, DR-HEX-7,
// DR-MAJOR-2). Written without the hex it is refused, with what to fix.
func TestSetupSkeletonMajors(t *testing.T) {
	for _, tc := range []struct {
		scenario string
		majors   []string
	}{
		{"e1", []string{"DRAGON-1", "DRAGON-2"}},
		{"e4", []string{"DRAGON-1", "YDRAGON-1"}},
	} {
		g, submit := newGame(t, tc.scenario)
		zones, skel, ok := setupHelp(t, g, "defender")
		if !ok {
			t.Fatalf("%s: no setup help for the defender", tc.scenario)
		}
		if strings.Contains(skel, "hexside it faces") {
			t.Errorf("%s: the defender, with no major monster, is told about facings:\n%s", tc.scenario, skel)
		}
		if err := submit("defender", []byte(fill(t, skel, zones))); err != nil {
			t.Fatalf("%s: the defender's filled skeleton: %v", tc.scenario, err)
		}
		zones, skel, ok = setupHelp(t, g, "invader")
		if !ok {
			t.Fatalf("%s: no setup help for the invader", tc.scenario)
		}
		for _, want := range []string{
			"line is its hex, a space, and the hexside it faces (DR-HEX-7)",
			tc.majors[0] + `: "`, "the six facings are N, NE, SE, S, SW and NW",
		} {
			if !strings.Contains(skel, want) {
				t.Errorf("%s: the skeleton has no %q:\n%s", tc.scenario, want, skel)
			}
		}
		for _, id := range tc.majors {
			if !strings.Contains(skel, "  "+id+`: "____ S"   # invader-setup, then its facing`) {
				t.Errorf("%s: no facing in %s's line:\n%s", tc.scenario, id, skel)
			}
		}
		// Sent as it is, every placeholder is refused as a bad hex.
		err := submit("invader", []byte(skel))
		var es adjudicator.OrderErrors
		if !errors.As(err, &es) || len(es) == 0 {
			t.Fatalf("%s: the bare skeleton: %v", tc.scenario, err)
		}
		for _, e := range es {
			if e.Code != "bad-hex" || !strings.Contains(e.Msg, "____") {
				t.Errorf("%s: the bare skeleton: %s: %s", tc.scenario, e.Code, e.Msg)
			}
		}
		filled, n := fillMajors(t, skel, zones)
		if n != len(tc.majors) {
			t.Fatalf("%s: %d major monsters' lines, want %d:\n%s", tc.scenario, n, len(tc.majors), skel)
		}
		filled = fill(t, filled, zones)
		if err := submit("invader", []byte(filled)); err != nil {
			t.Fatalf("%s: the filled skeleton is refused: %v\n%s", tc.scenario, err, filled)
		}
		v := dragonrage.Ruleset.View(g.State, adjudicator.Referee)
		for _, id := range tc.majors {
			for _, u := range v.Units {
				if u.ID == id && (u.Facing != "S" || u.At == "" || u.At == "off-map") {
					t.Errorf("%s: %s is at %q facing %q, want on the map facing S", tc.scenario, id, u.At, u.Facing)
				}
			}
		}
	}
}
