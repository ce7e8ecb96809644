package games_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/testrules"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
)

// TestChildSecrets: a series hands its child a sealed part of the child's
// position (a league whose games are hunts: the league places the
// treasure, for the hider alone). The child reads it when it is created,
// neither log nor bundle shows it before its time, the seeker's view does
// not hold it, and once both games are over `series verify` finds the part
// the child read equal to the one its series sealed.
func TestChildSecrets(t *testing.T) {
	ctx := context.Background()
	s := newSeriesService(t, store.NewMemory())
	if _, err := s.Create(ctx, games.CreateRequest{ID: "lh", Ruleset: "league", Scenario: "league",
		Options: map[string]string{"games": "1", "child": "hide"},
		Players: []games.Player{{Side: "red", Address: "red@example.org"}, {Side: "blue", Address: "blue@example.org"}}}); err != nil {
		t.Fatal(err)
	}
	const at = "H" // testrules.League places hunt 1's treasure in Regions[7]
	child, err := s.Load(ctx, "lh-r1")
	if err != nil {
		t.Fatal(err)
	}
	due := child.Due()
	if len(due) != 1 || due[0].Side != "hider" || due[0].Phase != "bury" {
		t.Fatalf("the hunt waits for %+v, not the hider's burial: it did not read its sealed part", due)
	}
	if hs := child.State.(*testrules.HideState); hs.At != at {
		t.Fatalf("the hunt's treasure is in %q, want %s", hs.At, at)
	}
	series, err := s.Load(ctx, "lh")
	if err != nil {
		t.Fatal(err)
	}
	want := []adjudicator.ChildSecret{{Child: "r1", Side: "hider", Name: "treasure", Value: at}}
	if got := series.ChildSecrets("r1"); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("the series sealed %+v, want %+v", got, want)
	}
	if got := child.ChildSecrets("r1"); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("the hunt read %+v, want %+v", got, want)
	}
	for _, v := range []adjudicator.Side{"seeker", adjudicator.Observer} {
		for _, u := range child.Rules.View(child.State, v).Units {
			t.Errorf("%s sees %+v", v, u)
		}
	}
	// Neither log holds the part in the clear.
	for _, id := range []string{"lh", "lh-r1"} {
		evs, err := s.Store.Events(ctx, id, 1)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			if e.Type == adjudicator.TypeChildSecret || bytes.Contains(e.Payload, []byte("treasure\",\"value")) || bytes.Contains(e.Payload, []byte("value: "+at)) {
				t.Errorf("%s: event %d (%s) shows the sealed part: %s", id, e.Seq, e.Type, e.Payload)
			}
		}
	}
	var mid bytes.Buffer
	if err := s.ExportSeries(ctx, "lh", &mid); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(mid.Bytes(), []byte("value: "+at)) || bytes.Contains(mid.Bytes(), []byte(`"value":"`+at)) {
		t.Error("the mid-series bundle shows the sealed part")
	}
	if a, err := games.VerifySeriesBundle(bytes.NewReader(mid.Bytes()), seriesLookup, games.Known{}); err != nil || !a.OK() {
		t.Fatalf("mid-series verify: %v %v", a.Problems(), err)
	}

	// The hunt is played out: the seeker finds the treasure and digs.
	submit := func(side adjudicator.Side, turn int, phase, body string) {
		t.Helper()
		src := fmt.Sprintf("turn: %d\nphase: %s\norders: {%s}\n", turn, phase, body)
		if _, err := s.Submit(ctx, games.SubmitRequest{Game: "lh-r1", Side: side, Src: []byte(src), Via: "test"}); err != nil {
			t.Fatalf("%s %s: %v", side, phase, err)
		}
	}
	submit("hider", 1, "bury", "depth: 2")
	submit("seeker", 1, "seek", "search: "+at)
	submit("seeker", 1, "dig", "depth: 2")
	if series, err = s.Load(ctx, "lh"); err != nil || !series.Over() {
		t.Fatalf("the league is not over: %v", err)
	}
	a, err := s.VerifySeries(ctx, "lh", games.Known{}, true)
	if err != nil || !a.OK() {
		t.Fatalf("verify: %v %v", a.Problems(), err)
	}
	var end bytes.Buffer
	if err := s.ExportSeries(ctx, "lh", &end); err != nil {
		t.Fatal(err)
	}
	ba, err := games.VerifySeriesBundle(bytes.NewReader(end.Bytes()), seriesLookup, games.Known{})
	if err != nil || !ba.OK() || strings.Join(ba.Order, ",") != "lh-r1" {
		t.Fatalf("bundle: %v %v", ba.Problems(), err)
	}
}
