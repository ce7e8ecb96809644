package dragonnoir_test

import (
	"os"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
	"github.com/umpire-pbem/umpire/adjudicator/render"
	"github.com/umpire-pbem/umpire/adjudicator/script"
)

// gameFiles plays every whole game under testdata/games (recorded by
// TestBotGames -update), calling see before each mail and after the last.
func gameFiles(t *testing.T, see func(file string, i int, g *game.Game)) map[string]*script.Run {
	t.Helper()
	entries, err := os.ReadDir("testdata/games")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*script.Run{}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".yaml") {
			continue
		}
		file := path.Join("testdata/games", e.Name())
		s, err := script.Parse(file, []byte(readFile(t, file)))
		if err != nil {
			t.Fatal(err)
		}
		var opt script.Options
		if see != nil {
			opt.Before = func(i int, g *game.Game) { see(file, i, g) }
		}
		run, err := script.Play(s, lookup, opt)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		out[file] = run
	}
	return out
}

// TestWholeGames replays the recorded whole games: each scenario of the
// builtin module has one, played from its first Adventurer mail to one of
// its victory conditions, never a concession, and the replay reaches the
// same end with the same dice (TestScripts plays them too, with Verify and
// Replay of their logs).
func TestWholeGames(t *testing.T) {
	d, err := dragonnoir.LoadModule(builtin(t))
	if err != nil {
		t.Fatal(err)
	}
	played := map[string]bool{}
	for file, run := range gameFiles(t, nil) {
		s := run.Script
		if !run.OK() {
			t.Errorf("%s no longer replays to its recorded end: %s (if a rule changed on purpose, run go test -run TestBotGames -update and look at the games)", file, strings.Join(run.Failures, "; "))
			continue
		}
		sc, ok := d.Scenario(s.Scenario)
		if !ok {
			t.Errorf("%s: no scenario %q", file, s.Scenario)
			continue
		}
		v := run.View
		won := slices.ContainsFunc(sc.Victory, func(x dragonnoir.Victory) bool { return x.Text == v.Result && adjudicator.Side(x.Side) == v.Winner })
		if !v.Over || v.Winner == "" || !won {
			t.Errorf("%s does not end by a victory condition of %s: over %v, winner %q, %q", file, sc.ID, v.Over, v.Winner, v.Result)
		}
		if len(s.Steps) == 0 || !strings.Contains(s.Steps[0].Orders, "phase: adventurers") || !strings.Contains(s.Steps[0].Orders, "turn: 1") {
			t.Errorf("%s: a whole game starts with the Adventurers' mail of turn 1", file)
		}
		if run.DiceLeft != 0 {
			t.Errorf("%s: %d recorded dice are left over", file, run.DiceLeft)
		}
		played[sc.ID] = true
		t.Logf("%s: turn %d, the %s win: %s (%d mails, %d dice)", file, v.Turn, v.Winner, v.Result, len(s.Steps), len(s.Dice))
	}
	for _, sc := range d.Scenarios {
		if !played[sc.ID] {
			t.Errorf("scenario %s has no whole game under testdata/games: run go test -run TestBotGames -update", sc.ID)
		}
	}
}

// TestHiddenMarkersNeverLeak follows the recorded games mail by mail: a
// hidden marker face down is "?" in each side's view and unnamed in its
// picture, and nobody — the referee included — can tell which is the real
// one before it is revealed; in the log (what every export holds, and the
// sealed parts too), no entry says a marker is real, or names a marker at
// all, before the event that turns it over (PBEM-DN-14, HID-1 … 3).
func TestHiddenMarkersNeverLeak(t *testing.T) {
	reveals := 0
	runs := gameFiles(t, func(file string, i int, g *game.Game) {
		st := g.State.(*dragonnoir.State)
		faceDown := false
		for _, viewer := range []adjudicator.Side{dragonnoir.Adventurers, dragonnoir.Krobs, adjudicator.Referee} {
			v := dragonnoir.Ruleset.View(st, viewer)
			for _, h := range st.Hidden {
				l, _, _ := hex.ParseLoc(h.At)
				label := ""
				for _, m := range v.Hexes {
					if m.Kind == "hidden" && m.At == l.Hex.String() {
						label = m.Label
					}
				}
				want := h.ID
				switch {
				case !h.Shown && viewer != adjudicator.Referee:
					want = "?"
				case h.Shown && h.Real:
					want += "!"
				}
				if label != want {
					t.Errorf("%s, before mail %d: the %s see %s (shown %v) as %q, want %q", file, i+1, viewer, h.ID, h.Shown, label, want)
				}
				faceDown = faceDown || !h.Shown
			}
		}
		if i%6 != 0 || !faceDown {
			return
		}
		board, _ := dragonnoir.Ruleset.(adjudicator.GameBoards).BoardOf(st)
		pic, err := render.Board(board, dragonnoir.Ruleset.View(st, dragonnoir.Adventurers), render.Options{Viewer: dragonnoir.Adventurers, Style: dragonnoir.Ruleset.(adjudicator.HexMaps).PictureStyle(), Scale: 0.5})
		if err != nil {
			t.Fatal(err)
		}
		svg := string(pic.SVG())
		for _, h := range st.Hidden {
			if !h.Shown && strings.Contains(svg, h.ID) {
				t.Errorf("%s, before mail %d: the Adventurers' picture names %s, face down", file, i+1, h.ID)
			}
		}
	})
	for file, run := range runs {
		st := run.Game.State.(*dragonnoir.State)
		for _, h := range st.Hidden {
			first := -1
			for i, e := range run.Log {
				if strings.Contains(string(e.Payload), `"`+h.ID+`"`) || strings.Contains(string(e.Payload), h.ID+" ") || strings.Contains(string(e.Private), h.ID) {
					first = i
					break
				}
			}
			if first < 0 {
				continue // never turned over
			}
			e := run.Log[first]
			if e.Type != "dragonnoir.revealed" || !strings.Contains(string(e.Payload), `"marker":"`+h.ID+`"`) {
				t.Errorf("%s: %s is first named by event %d (%s), before it is turned over: %s", file, h.ID, e.Seq, e.Type, e.Payload)
			}
			reveals++
		}
		for i, e := range run.Log {
			if strings.Contains(string(e.Payload), `"real":true`) {
				if e.Type != "dragonnoir.revealed" {
					t.Errorf("%s: event %d (%s) says a marker is real", file, e.Seq, e.Type)
				}
				for _, x := range run.Log[:i] {
					if strings.Contains(string(x.Private), "real") {
						t.Errorf("%s: the sealed part of event %d speaks of the real marker before it is found", file, x.Seq)
					}
				}
			}
		}
	}
	if reveals == 0 {
		t.Error("no recorded game turns a marker over: the test proves nothing")
	}
}
