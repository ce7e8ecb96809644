package game_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/testrules"
)

const (
	ann  = "ann@example.org" // red's captain
	bea  = "bea@example.org" // red's second player
	blue = "blue@example.org"
)

// newTeamTable is a race where red is played by ann (captain) and bea.
func newTeamTable(t *testing.T, opts map[string]string, beaParts ...string) *table {
	t.Helper()
	rec, _, err := game.Create(game.NewGame{
		ID: "g1", Ruleset: testrules.Race, Scenario: "sprint", Options: opts,
		Players: []game.Player{{Side: "red", Address: ann}, {Side: "blue", Address: blue}, {Side: "red", Address: bea, Parts: beaParts}},
		Time:    t0, Secret: secret(0),
	})
	if err != nil {
		t.Fatal(err)
	}
	tb := &table{t: t, secrets: map[int][]byte{0: secret(0)}, fresh: 1, vault: game.Vault{}}
	tb.append([]game.Record{rec})
	if tb.g, err = game.Load(tb.log, lookup); err != nil {
		t.Fatal(err)
	}
	return tb
}

func (tb *table) mustFrom(from, side, src string) *game.Outcome {
	tb.t.Helper()
	out, err := tb.submitFrom(from, side, src)
	if err != nil {
		tb.t.Fatalf("%s for %s: %v\n%s", from, side, err, src)
	}
	return out
}

// refused checks that from's orders are refused with code, naming want,
// and that the game is unchanged.
func (tb *table) refused(from, side, src, code, want string) {
	tb.t.Helper()
	v := tb.g.Version
	_, err := tb.submitFrom(from, side, src)
	var oe *adjudicator.OrderError
	if !errors.As(err, &oe) || oe.Code != code || !strings.Contains(err.Error(), want) {
		tb.t.Fatalf("%s for %s: got %v, want a %s refusal naming %q", from, side, err, code, want)
	}
	if tb.g.Version != v {
		tb.t.Fatal("a refused submission changed the game")
	}
}

func TestTeamSeatsAndSides(t *testing.T) {
	tb := newTeamTable(t, nil)
	if got := tb.g.Sides(); !slices.Equal(got, []adjudicator.Side{"red", "blue"}) {
		t.Errorf("sides %v", got)
	}
	team := tb.g.Team("red")
	if len(team) != 2 || team[0].Address != ann || team[0].SeatName() != "red" || team[1].SeatName() != "red/2" {
		t.Errorf("red's team %+v", team)
	}
	if p, captain, ok := tb.g.Member("red", "BEA@example.org"); !ok || captain || p.SeatName() != "red/2" {
		t.Errorf("bea: %+v %v %v", p, captain, ok)
	}
	if _, _, ok := tb.g.Member("blue", bea); ok {
		t.Error("bea plays blue")
	}
	if p, ok := tb.g.Player("red"); !ok || p.Address != ann {
		t.Errorf("red's player (its captain) %+v", p)
	}
	// The game.created of a team names no seat: they are folded.
	if strings.Contains(string(tb.log[0].Payload), "seat") {
		t.Errorf("game.created names seats: %s", tb.log[0].Payload)
	}
}

func TestTeamCaptainOnly(t *testing.T) {
	tb := newTeamTable(t, nil)
	tb.refused(bea, "red", bid(1, 2), game.CodeNotYours, "captain, "+ann)
	out := tb.mustFrom(ann, "red", bid(1, 2))
	if out.Accepted.By != ann || out.Accepted.Seat != "" || out.Accepted.Parts != nil {
		t.Errorf("accepted %+v", out.Accepted)
	}
	tb.mustFrom(blue, "blue", bid(1, 1))
	if tb.g.K != 1 {
		t.Fatalf("K=%d after both bids", tb.g.K)
	}
	// A stranger to the side is refused.
	tb.refused(blue, "red", move(1, "R1"), adjudicator.CodeUnknownSide, "not a player of red")
}

func TestTeamAnyAsOnePlayer(t *testing.T) {
	tb := newTeamTable(t, map[string]string{"team.orders": "any"})
	out := tb.mustFrom(bea, "red", bid(1, 2))
	if out.Accepted.By != bea || out.Accepted.Seat != "red/2" {
		t.Errorf("accepted %+v", out.Accepted)
	}
	// The team's answer is one, as a lone player's: the same text again is a
	// duplicate, other orders need "replace: true".
	tb.refused(ann, "red", bid(1, 2), adjudicator.CodeDuplicate, "already received")
	tb.refused(ann, "red", bid(1, 3), adjudicator.CodeAlreadySent, "replace: true")
	tb.mustFrom(ann, "red", "replace: true\n"+bid(1, 3))
	if len(tb.g.Pending) != 1 {
		t.Fatalf("pending %d, want the one answer of red", len(tb.g.Pending))
	}
	tb.mustFrom(blue, "blue", bid(1, 1))
	if st := tb.g.State.(*testrules.State); st.Energy["red"] != 3 {
		t.Errorf("red's energy %d: the replacing bid of 3 was not the one used", st.Energy["red"])
	}
}

func TestTeamSplit(t *testing.T) {
	tb := newTeamTable(t, map[string]string{"team.orders": "split"}, "r2")
	if got := tb.g.PartsOf(tb.g.Team("red")[0]); !slices.Equal(got, []string{"r1"}) {
		t.Errorf("the captain commands %v, want the part given to nobody, r1", got)
	}
	// A bid is not split: the captain's.
	tb.refused(bea, "red", bid(1, 2), game.CodeNotYours, ann)
	tb.mustFrom(ann, "red", bid(1, 2))
	tb.mustFrom(blue, "blue", bid(1, 1))
	req := tb.g.Due()[0]
	if req.Side != "red" || req.Phase != "move" {
		t.Fatalf("due %+v", req)
	}
	// Ann may not move bea's runner; bea may not move ann's.
	tb.refused(ann, "red", move(1, "R2"), game.CodeNotYours, "r2, which is "+bea+"'s part")
	tb.refused(bea, "red", move(1, "R1", "R2"), game.CodeNotYours, "r1, which is "+ann+"'s part")
	out := tb.mustFrom(ann, "red", move(1, "R1"))
	if len(out.Results) != 0 || !slices.Equal(out.Accepted.Parts, []string{"r1"}) {
		t.Fatalf("ann's part: %d adjudications, parts %v", len(out.Results), out.Accepted.Parts)
	}
	if _, ok := tb.g.Answered(req.ID); ok {
		t.Fatal("answered with bea's part missing")
	}
	if w := tb.g.Waiting(req); len(w) != 1 || w[0].Address != bea {
		t.Fatalf("waiting for %+v, want bea", w)
	}
	// Ann's part again: a duplicate; other orders for it need replace.
	tb.refused(ann, "red", move(1, "R1"), adjudicator.CodeDuplicate, "already received")
	tb.refused(ann, "red", move(1), adjudicator.CodeAlreadySent, "replace")
	before := tb.g.State.(*testrules.State)
	r2 := position(before, "R2")
	out = tb.mustFrom(bea, "red", move(1)) // bea holds r2 back
	if len(out.Results) != 1 {
		t.Fatalf("every part answered, %d adjudications", len(out.Results))
	}
	if got := out.Results[0].Requests; !slices.Equal(got, []string{req.ID}) {
		t.Errorf("adjudicated requests %v", got)
	}
	st := tb.g.State.(*testrules.State)
	if position(st, "R1") == 0 || position(st, "R2") != r2 {
		t.Errorf("after the merge R1 at %d, R2 at %d: want R1 moved and R2 held", position(st, "R1"), position(st, "R2"))
	}
	// The log replays and refolds to the same game.
	if a := game.Replay(tb.log, lookup); !a.OK() {
		t.Fatalf("replay: %+v", a)
	}
	g, err := game.Load(tb.log, lookup)
	if err != nil || game.StateHash(g.State) != game.StateHash(tb.g.State) {
		t.Fatalf("refold: %v", err)
	}
}

// TestTeamSplitDefault: an answer for the whole side (the clock's default,
// the referee's command line) answers for the parts not answered yet.
func TestTeamSplitDefault(t *testing.T) {
	tb := newTeamTable(t, map[string]string{"team.orders": "split"}, "r2")
	tb.mustFrom(ann, "red", bid(1, 2))
	tb.mustFrom(blue, "blue", bid(1, 1))
	tb.mustFrom(ann, "red", move(1, "R1"))
	out := tb.must("red", move(1, "R1", "R2")) // only R2's order is taken from it
	if len(out.Results) != 1 || !slices.Equal(out.Accepted.Parts, []string{"r2"}) {
		t.Fatalf("%d adjudications, default for %v", len(out.Results), out.Accepted.Parts)
	}
	st := tb.g.State.(*testrules.State)
	if position(st, "R1") == 0 || position(st, "R2") == 0 {
		t.Errorf("R1 at %d, R2 at %d: want both moved", position(st, "R1"), position(st, "R2"))
	}
}

func position(st *testrules.State, id string) int {
	for _, r := range st.Runners {
		if r.ID == id {
			return r.At
		}
	}
	return -1
}

func TestTeamCreateRejects(t *testing.T) {
	split := map[string]string{"team.orders": "split"}
	for name, c := range map[string]struct {
		opts    map[string]string
		players []game.Player
		want    string
	}{
		"unknown part": {split, []game.Player{{Side: "red", Address: ann}, {Side: "red", Address: bea, Parts: []string{"r9"}}}, "no part \"r9\"; its parts are r1, r2"},
		"part twice": {split, []game.Player{{Side: "red", Address: ann, Parts: []string{"r2"}}, {Side: "red", Address: bea, Parts: []string{"r2"}}},
			"part r2 is given to " + ann + " and to " + bea},
		"teammate without part":    {split, []game.Player{{Side: "red", Address: ann}, {Side: "red", Address: bea}}, "give the player " + bea + " his parts"},
		"teammate without address": {nil, []game.Player{{Side: "red", Address: ann}, {Side: "red"}}, "give each of them his address"},
		"parts without split":      {nil, []game.Player{{Side: "red", Address: ann, Parts: []string{"r1"}}}, "team.orders=split"},
	} {
		_, _, err := game.Create(game.NewGame{ID: "g1", Ruleset: testrules.Race, Scenario: "sprint", Options: c.opts, Players: c.players, Secret: secret(0)})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", name, err, c.want)
		}
	}
}

func TestTeamSplitNeedsASplitter(t *testing.T) {
	_, _, err := game.Create(game.NewGame{ID: "pick-1", Ruleset: pickRules, Scenario: "one", Options: map[string]string{"team.orders": "split"},
		Players: []game.Player{{Side: "a", Address: ann}, {Side: "b", Address: blue}}, Secret: secret(0)})
	if err == nil || !strings.Contains(err.Error(), "cannot split") {
		t.Fatalf("got %v", err)
	}
}

// TestTeamReplaceOne replaces bea alone: ann stays red's captain.
func TestTeamReplaceOne(t *testing.T) {
	tb := newTeamTable(t, nil)
	rec, err := tb.g.ReplaceMemberRecord(t0, "red", bea, "cid@example.org", "away for good")
	if err != nil {
		t.Fatal(err)
	}
	tb.append([]game.Record{rec})
	team := tb.g.Team("red")
	if len(team) != 2 || team[0].Address != ann || team[1].Address != "cid@example.org" || team[1].SeatName() != "red/2" {
		t.Fatalf("red's team after the replacement %+v", team)
	}
	if _, err := tb.g.ReplaceMemberRecord(t0, "red", "nobody@example.org", "x@example.org", ""); err == nil {
		t.Error("replaced a player the side does not have")
	}
	if _, err := tb.g.ReplaceMemberRecord(t0, "red", "", "cid@example.org", ""); err == nil {
		t.Error("made cid captain while he plays red already")
	}
	g, err := game.Load(tb.log, lookup)
	if err != nil || g.Team("red")[1].Address != "cid@example.org" || g.Team("red")[0].Address != ann {
		t.Fatalf("refold: %v %+v", err, g.Team("red"))
	}
}

// TestTeamSwap: a side choice moves the whole team, each player with his
// seat and secret, the captain still first; a teammate's secret speaks for
// the side his team plays now.
func TestTeamSwap(t *testing.T) {
	rec, _, err := game.Create(game.NewGame{ID: "pick-1", Ruleset: pickRules, Scenario: "one",
		Players: []game.Player{{Side: "a", Address: "alice@example.org"}, {Side: "b", Address: "bob@example.org"}, {Side: "a", Address: "amy@example.org"}},
		Time:    t0, Secret: secret(0)})
	if err != nil {
		t.Fatal(err)
	}
	s := &seats{t: t, vault: game.Vault{}, secrets: map[adjudicator.Side]string{"a": "alice-secret", "b": "bob-secret", "a/2": "amy-secret"}}
	s.log = []game.Entry{{Seq: 1, Record: rec}}
	if s.g, err = game.Load(s.log, lookupPick); err != nil {
		t.Fatal(err)
	}
	s.must("b", "bob-secret", "turn: 1\nphase: choose\norders:\n  play: a\n")
	team := s.g.Team("b")
	if len(team) != 2 || team[0].Address != "alice@example.org" || team[0].SeatName() != "a" || team[1].Address != "amy@example.org" || team[1].SeatName() != "a/2" {
		t.Fatalf("b's team after the swap %+v", team)
	}
	if a := s.g.Team("a"); len(a) != 1 || a[0].Address != "bob@example.org" {
		t.Fatalf("a's team after the swap %+v", a)
	}
	if got := s.g.Sides(); !slices.Equal(got, []adjudicator.Side{"a", "b"}) {
		t.Errorf("sides %v", got)
	}
	// Amy is not b's captain: her orders are refused, after her own secret
	// (seat a/2) was checked.
	s.asked = nil
	in := game.Input{From: "amy@example.org", Side: "b", Src: []byte("secret: amy-secret\nturn: 1\nphase: write\norders:\n  note: amy's\n"), Time: t0, Via: "test",
		CheckSecret: func(seat adjudicator.Side, given string) (bool, error) {
			s.asked = append(s.asked, seat)
			return s.secrets[seat] == given, nil
		}, Rand: &salts{}, Unseal: s.vault.Unseal}
	if _, err := s.g.Submit(in); code(err) != game.CodeNotYours || !strings.Contains(err.Error(), "alice@example.org") {
		t.Fatalf("amy for b: %v", err)
	}
	if !slices.Equal(s.asked, []adjudicator.Side{"a/2"}) {
		t.Errorf("secrets asked %v, want amy's seat a/2", s.asked)
	}
	g, err := game.Load(s.log, lookupPick)
	if err != nil || g.Team("b")[1].SeatName() != "a/2" {
		t.Fatalf("refold: %v", err)
	}
}
