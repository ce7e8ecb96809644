package templates

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEveryTemplateRenders(t *testing.T) {
	s := Default()
	g := Game{ID: "race-1", Ruleset: "race"}
	due := []Due{{Side: "red", Title: "turn 1, bids", Turn: 1, Phase: "bid", Mine: true}}
	data := map[string]any{
		Welcome:  WelcomeData{Game: g, Side: "red", Secret: "abc", Sides: []string{"red", "blue"}, Map: "turn 1", Due: due, Skeleton: "game: race-1\n"},
		Ack:      AckData{Game: g, Side: "red", Title: "turn 1, bids", Normalized: "bid: 1\n", Waiting: due},
		Rejected: RejectedData{Game: g, Errors: []ErrorLine{{Line: 3, Column: 2, Code: "x", Msg: "bad", Text: "  bdi: 1"}}, Where: "your mail"},
		Results:  ResultsData{Game: g, Side: "red", Adjudications: []Adjudication{{K: 1, Rolls: []string{"advance R1: 1d6=4"}}}, Map: "turn 1", Due: due},
		Decision: DecisionData{Game: g, Side: "red", Due: due[0]},
		Referee:  RefereeData{Game: g, Command: "show", OK: true, Text: "ok"},
		SetupDue: SetupData{Game: g, Side: "red", Phase: "setup", Units: []string{"R1"}, Zones: []SetupZone{{Name: "start", Hexes: "0101-0103"}}, Skeleton: "turn: 0\n"},
	}
	for name, d := range data {
		out, err := s.Render(name, d)
		if err != nil || strings.TrimSpace(out) == "" {
			t.Errorf("%s: %v\n%s", name, err, out)
		}
	}
	out, _ := s.Render(Rejected, data[Rejected])
	if !strings.Contains(out, "line 3, column 2: bad [x]") || !strings.Contains(out, "|   bdi: 1") {
		t.Errorf("rejected:\n%s", out)
	}
}

func TestOverlay(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "ack.tmpl"), []byte("Got it, {{.Side}}.\n"), 0o644)
	s, err := Overlay(dir)
	if err != nil {
		t.Fatal(err)
	}
	if out, _ := s.Render(Ack, AckData{Side: "red"}); out != "Got it, red.\n" {
		t.Errorf("overlay: %q", out)
	}
	if out, _ := s.Render(Referee, RefereeData{Command: "show", OK: true}); !strings.HasPrefix(out, "Done: show") {
		t.Errorf("built-in kept: %q", out)
	}
	os.WriteFile(filepath.Join(dir, "akc.tmpl"), []byte("x"), 0o644)
	if _, err := Overlay(dir); err == nil || !strings.Contains(err.Error(), `"akc"`) {
		t.Errorf("misspelt override: %v", err)
	}
}
