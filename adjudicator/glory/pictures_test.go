package glory_test

import (
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/glory"
	"github.com/umpire-pbem/umpire/adjudicator/render"
)

// TestAnsalonPictures: the pictures of a game on the imported map of
// Ansalon (65 x 53 hexes) — the crop of where the last adjudication
// happened and the overview of the whole map, for each side and the
// referee, as the results mails draw them (render.FitBoard) — are each
// under 250 KB, and with hidden stacks a side's pictures name none of the
// other side's counters. (The referee's crop of a turn of the campaign is
// where a first drawing at counter size weighed 263 KB: FitBoard draws it
// again smaller.)
func TestAnsalonPictures(t *testing.T) {
	m, _ := importFound(t)
	// Turn 3 of the campaign, once an adjudication has moved and fought.
	st, _ := playBotUntil(t, &m, "war-of-the-lance", func(st *glory.State) bool {
		attacks := 0
		for _, tr := range st.Traces {
			if tr.Kind == "attack" {
				attacks++
			}
		}
		return st.Turn >= 3 && len(st.Traces) > 5 && attacks > 0
	})
	st.Options.Hidden = true
	hm := glory.Ruleset.(adjudicator.HexMaps)
	board, ok := glory.Ruleset.(adjudicator.GameBoards).BoardOf(st)
	if !ok || len(board.Hexes()) <= render.BigMap {
		t.Fatalf("the imported map has %d hexes: not a big map", len(board.Hexes()))
	}
	cropped := 0
	for _, viewer := range []adjudicator.Side{glory.Highlord, glory.Whitestone, adjudicator.Referee} {
		v := glory.Ruleset.View(st, viewer)
		modes := []render.Mode{render.Overview}
		if len(v.Traces) > 0 { // what the viewer may see of the last adjudication
			modes = append(modes, render.Crop)
			cropped++
		}
		for _, mode := range modes {
			n, err := render.FitBoard(board, v, render.Options{Game: "ansalon", Viewer: viewer, Sides: []adjudicator.Side{glory.Highlord, glory.Whitestone}, Scale: 1, Style: hm.PictureStyle(), Mode: mode})
			if err != nil {
				t.Fatal(err)
			}
			pic, png := n.Picture, n.PNG
			if len(png) >= 250_000 {
				t.Errorf("%s %s: %d bytes (%dx%d), over 250 KB", viewer, mode, len(png), pic.Width, pic.Height)
			}
			t.Logf("%s %s: %d bytes, %dx%d", viewer, mode, len(png), pic.Width, pic.Height)
		}
		if viewer == adjudicator.Referee {
			if cropped == 0 {
				t.Fatal("the last adjudication left no trace to crop on")
			}
			continue
		}
		for _, u := range v.Units {
			if u.Side != viewer && u.Type != render.Hidden && u.At != "" && !u.Gone && !strings.HasPrefix(u.At, "off") {
				t.Errorf("%s sees the enemy counter %s at %s with hidden stacks on", viewer, u.ID, u.At)
			}
		}
	}
}
