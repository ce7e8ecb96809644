package dragonnoir_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir"
	"github.com/umpire-pbem/umpire/adjudicator/render"
)

var picturesDir = flag.String("pictures", "", "write the scenarios' pictures (PNG) to this directory, to look at them")

// TestScenarioPictures draws each scenario's opening position for each
// side and the referee, as the results mails do (render.FitBoard): every
// board of its assembly, its levels, the counters of several hexes, the
// webs, boats and hidden markers. A side's picture names no hidden marker
// (its tag is "?"), and no picture, not even the referee's, says which is
// the real one before it is revealed (PBEM-DN-14). Run with -pictures DIR
// to look at them.
func TestScenarioPictures(t *testing.T) {
	rs := dragonnoir.Ruleset
	hm := rs.(adjudicator.HexMaps)
	for _, sc := range rs.Info().Scenarios {
		s, err := rs.Setup(adjudicator.Setup{Scenario: sc.ID, Sides: sc.Sides})
		if err != nil {
			t.Fatal(err)
		}
		board, ok := rs.(adjudicator.GameBoards).BoardOf(s)
		if !ok {
			t.Fatalf("%s: no board", sc.ID)
		}
		for _, viewer := range []adjudicator.Side{dragonnoir.Adventurers, dragonnoir.Krobs, adjudicator.Referee} {
			v := rs.View(s, viewer)
			hidden := 0
			for _, h := range v.Hexes {
				if h.Kind != "hidden" {
					continue
				}
				hidden++
				if viewer != adjudicator.Referee && h.Label != "?" {
					t.Errorf("%s: the %s see the hidden marker on %s as %q", sc.ID, viewer, h.At, h.Label)
				}
				if strings.Contains(h.Label, "!") {
					t.Errorf("%s: the %s see which marker is real before it is revealed: %q", sc.ID, viewer, h.Label)
				}
			}
			if hidden < 3 {
				t.Errorf("%s: the %s see %d hidden markers", sc.ID, viewer, hidden)
			}
			n, err := render.FitBoard(board, v, render.Options{Game: sc.ID, Viewer: viewer, Sides: sc.Sides, Scale: 1, Style: hm.PictureStyle()})
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range n.Picture.Warnings {
				t.Errorf("%s %s: %s", sc.ID, viewer, w)
			}
			svg := string(n.Picture.SVG())
			if viewer != adjudicator.Referee {
				for _, id := range []string{"orb-1", "orb-2", "orb-3", "sun-1", "sun-2", "sun-3", "sun-4"} {
					if strings.Contains(svg, id) {
						t.Errorf("%s: the %s's picture names the hidden marker %s", sc.ID, viewer, id)
					}
				}
			}
			if *picturesDir != "" {
				name := sc.ID + "-" + string(viewer) + ".png"
				if viewer == adjudicator.Referee {
					name = sc.ID + "-referee.png"
				}
				if err := os.WriteFile(filepath.Join(*picturesDir, name), n.PNG, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}
