package game_test

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/testrules"
)

// The hide test ruleset (testrules.Hide) hides a treasure in secret
// (a sealed event under the key "treasure", from orders sealed under the
// same key), buries it (key "depth"), and reveals "treasure" when the
// seeker finds it; the depth waits for the game's end.

func newHide(t *testing.T) *table {
	t.Helper()
	rec, _, err := game.Create(game.NewGame{
		ID: "h1", Ruleset: testrules.Hide, Scenario: "hunt",
		Players: []game.Player{{Side: "hider", Address: "hider@example.org"}, {Side: "seeker", Address: "seeker@example.org"}},
		Time:    t0, Secret: secret(0),
	})
	if err != nil {
		t.Fatal(err)
	}
	tb := &table{t: t, secrets: map[int][]byte{0: secret(0)}, fresh: 1, vault: game.Vault{}}
	tb.append([]game.Record{rec})
	if tb.g, err = game.Load(tb.log, testrules.Lookup); err != nil {
		t.Fatal(err)
	}
	return tb
}

func hideOrders(phase, body string) string {
	return fmt.Sprintf("turn: 1\nphase: %s\norders: {%s}\n", phase, body)
}

// hidden plays the hide and the bury: the treasure in F, 2 deep.
func hidden(t *testing.T) *table {
	tb := newHide(t)
	tb.must("hider", hideOrders("hide", "at: F"))
	tb.must("hider", hideOrders("bury", "depth: 2"))
	return tb
}

// export is the log as an export has it: without the private parts.
func export(log []game.Entry) []game.Entry {
	out := make([]game.Entry, len(log))
	for i, e := range log {
		e.Private = nil
		out[i] = e
	}
	return out
}

// public is every byte of a log that leaves the referee: types, actors
// and payloads.
func public(log []game.Entry) string {
	var b strings.Builder
	for _, e := range export(log) {
		fmt.Fprintf(&b, "%d %s %s %s\n", e.Seq, e.Type, e.Actor, e.Payload)
	}
	return b.String()
}

// opening returns the opening of the state.sealed entry wrapping an event
// of type typ.
func opening(t *testing.T, log []game.Entry, typ string) (game.Entry, game.SecretOpening) {
	t.Helper()
	for _, e := range log {
		if e.Type != adjudicator.TypeSecret {
			continue
		}
		var op game.SecretOpening
		if err := json.Unmarshal(e.Private, &op); err != nil {
			t.Fatal(err)
		}
		if op.Type == typ {
			return e, op
		}
	}
	t.Fatalf("no sealed %s in the log", typ)
	return game.Entry{}, game.SecretOpening{}
}

func TestSealedEventRecord(t *testing.T) {
	tb := hidden(t)
	e, op := opening(t, tb.log, "hide.hidden")
	var se game.SealedEvent
	if err := json.Unmarshal(e.Payload, &se); err != nil {
		t.Fatal(err)
	}
	if want := `{"to":["hider"],"key":"treasure","sealed":"` + game.Digest(e.Private) + `"}`; string(e.Payload) != want {
		t.Errorf("payload %s, want %s", e.Payload, want)
	}
	if e.Schema != 1 || op.Schema != 1 || string(op.Event) != `{"at":"F"}` || len(op.Salt) != 2*game.SaltSize {
		t.Errorf("schema %d, opening %+v", e.Schema, op)
	}
	if st := tb.g.State.(*testrules.HideState); st.At != "F" || st.Depth != 2 || st.Phase != "seek" {
		t.Errorf("state %+v", st)
	}
}

// Neither the hidden event, its salt, nor the orders that made it are in
// what leaves the referee before the reveal: a leak test for each secret.
func TestSealedNotInExport(t *testing.T) {
	tb := hidden(t)
	pub := public(tb.log)
	_, hid := opening(t, tb.log, "hide.hidden")
	_, bur := opening(t, tb.log, "hide.buried")
	for _, leak := range []string{string(hid.Event), string(bur.Event), hid.Salt, bur.Salt, `"at"`, "at: F", "depth: 2", `"depth":`, "hid the treasure in F", "2 deep"} {
		if strings.Contains(pub, leak) {
			t.Errorf("the export holds %q before its reveal:\n%s", leak, pub)
		}
	}
	// The seeker's view and the public report say nothing of F either.
	if v := tb.g.View("seeker"); len(v.Units) != 0 || v.Markers["depth"] != nil {
		t.Errorf("the seeker sees %+v", v)
	}
	for _, r := range []string{"F", "2 deep"} {
		for _, l := range adjudicator.Texts(adjudicator.For(allLines(t, tb.log), "seeker")) {
			if strings.Contains(l, r) {
				t.Errorf("the seeker reads %q", l)
			}
		}
	}
}

// allLines are the report lines of every adjudication, opened with the
// referee's private parts.
func allLines(t *testing.T, log []game.Entry) []adjudicator.Line {
	var out []adjudicator.Line
	for _, e := range log {
		if e.Type != game.TypeAdjudicated {
			continue
		}
		var a game.Adjudicated
		if err := json.Unmarshal(e.Payload, &a); err != nil {
			t.Fatal(err)
		}
		lines, _, err := game.Opened(a, e.Private)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, lines...)
	}
	return out
}

func TestSealedLoadWithPrivate(t *testing.T) {
	tb := hidden(t)
	g, err := game.Load(tb.log, testrules.Lookup)
	if err != nil {
		t.Fatal(err)
	}
	if !game.SameFold(g, tb.g) {
		t.Errorf("the fold of the stored log differs from the live game:\n%+v\n%+v", g.State, tb.g.State)
	}
	// The same through the Source's openings (the store's private part).
	src := game.WithOpenings(testrules.Lookup, func(id, c string) ([]byte, error) {
		if id != "h1" {
			t.Errorf("openings asked of game %q", id)
		}
		return tb.vault[c], nil
	})
	g, err = game.Load(export(tb.log), src)
	if err != nil {
		t.Fatal(err)
	}
	if !game.SameFold(g, tb.g) {
		t.Errorf("the fold with the Source's openings differs from the live game")
	}
	// And it goes on: the seeker searches with the game folded anew.
	tb.g = g
	tb.must("seeker", hideOrders("seek", "search: A"))
}

func TestSealedExportStops(t *testing.T) {
	tb := hidden(t)
	_, err := game.Load(export(tb.log), testrules.Lookup)
	if !errors.Is(err, game.ErrSealed) {
		t.Fatalf("an export with a sealed event loads: %v", err)
	}
	first, _ := opening(t, tb.log, "hide.hidden")
	var le *game.LogError
	if !errors.As(err, &le) || le.Seq != first.Seq {
		t.Errorf("stops at %v, want event %d", err, first.Seq)
	}
	if a := game.Verify(export(tb.log)); !a.OK() || a.Sealed < 4 {
		t.Errorf("verify: %+v", a)
	}
	a := game.Replay(export(tb.log), testrules.Lookup)
	if !a.OK() {
		t.Fatalf("replay: %v", a.Problems)
	}
	// The first adjudication's orders are sealed: nothing is decided
	// again, and the replay says how far it went.
	want := fmt.Sprintf("replayed to event %d; 4 sealed events are not revealed yet (they are when the game ends)", first.Seq-1)
	if a.ReplayedTo != first.Seq-1 || a.NotRevealed != 4 || a.Redecided != 0 || len(a.Notes) != 1 || a.Notes[0] != want {
		t.Errorf("replay: to %d, %d not revealed, %d redecided, notes %q; want %q", a.ReplayedTo, a.NotRevealed, a.Redecided, a.Notes, want)
	}
	// With the private parts, the referee replays it all.
	if a := game.Replay(tb.log, testrules.Lookup); !a.OK() || a.Redecided != 2 || a.Notes != nil {
		t.Errorf("the referee's replay: %+v", a)
	}
}

// revealedOf returns the opening each sealed.revealed event reveals, by
// the event it opens.
func revealedOf(t *testing.T, log []game.Entry) map[uint64]string {
	out := map[uint64]string{}
	for _, e := range log {
		if e.Type == game.TypeRevealed {
			var rv game.Revealed
			if err := json.Unmarshal(e.Payload, &rv); err != nil {
				t.Fatal(err)
			}
			out[rv.Of] = rv.Opening
		}
	}
	return out
}

func TestRevealByKey(t *testing.T) {
	tb := hidden(t)
	n := len(tb.log)
	out := tb.must("seeker", hideOrders("seek", "search: F"))
	// The adjudication's events, turn.adjudicated, then the reveals of
	// the key "treasure": the event and the orders it came from.
	got := []string{}
	for _, r := range out.Records {
		got = append(got, r.Type)
	}
	if want := "orders.accepted hide.searched hide.phase turn.adjudicated sealed.revealed sealed.revealed"; strings.Join(got, " ") != want {
		t.Errorf("records %v, want %s", got, want)
	}
	hid, _ := opening(t, tb.log, "hide.hidden")
	bur, _ := opening(t, tb.log, "hide.buried")
	rev := revealedOf(t, tb.log[n:])
	if rev[hid.Seq] != string(hid.Private) || rev[hid.Seq-1] == "" || len(rev) != 2 {
		t.Errorf("revealed %v; want event %d and the hide orders", rev, hid.Seq)
	}
	if !strings.Contains(rev[hid.Seq-1], "at: F") {
		t.Errorf("the hide orders revealed are %q", rev[hid.Seq-1])
	}
	pub := public(tb.log)
	for _, leak := range []string{"depth: 2", `{"depth":2}`, "2 deep"} {
		if strings.Contains(pub, leak) {
			t.Errorf("the export holds %q, which is still sealed", leak)
		}
	}
	if v := tb.g.View("seeker"); len(v.Units) != 1 || v.Units[0].At != "F" {
		t.Errorf("the seeker sees %+v", v.Units)
	}
	// The export now replays the hide and stops at the bury.
	a := game.Replay(export(tb.log), testrules.Lookup)
	if !a.OK() || a.Redecided != 1 || a.ReplayedTo != bur.Seq-1 || a.NotRevealed != 2 {
		t.Errorf("replay: %+v (buried at %d)", a, bur.Seq)
	}
	if a := game.Verify(export(tb.log)); !a.OK() || a.Revealed != 2 {
		t.Errorf("verify: %+v", a)
	}
}

// play plays the game to its end: found in F, dug 2 deep.
func played(t *testing.T) *table {
	tb := hidden(t)
	tb.must("seeker", hideOrders("seek", "search: C"))
	tb.must("seeker", strings.Replace(hideOrders("seek", "search: F"), "turn: 1", "turn: 2", 1))
	tb.must("seeker", strings.Replace(hideOrders("dig", "depth: 2"), "turn: 1", "turn: 2", 1))
	if !tb.g.Over() {
		t.Fatal("the game is not over")
	}
	return tb
}

func TestSealedEndRevealsAll(t *testing.T) {
	tb := played(t)
	if len(tb.g.Unrevealed) != 0 {
		t.Errorf("still sealed at the end: %v", tb.g.Unrevealed)
	}
	ex := export(tb.log)
	if a := game.Verify(ex); !a.OK() || a.Sealed != 0 {
		t.Errorf("verify: %+v", a)
	}
	a := game.Replay(ex, testrules.Lookup)
	if !a.OK() || a.Redecided != 5 || a.Notes != nil || a.ReplayedTo != 0 {
		t.Errorf("replay: %+v", a)
	}
	g, err := game.Load(ex, testrules.Lookup)
	if err != nil {
		t.Fatal(err)
	}
	if game.StateHash(g.State) != game.StateHash(tb.g.State) || g.View(adjudicator.Referee).Winner != "seeker" {
		t.Errorf("the export folds to %+v, the game is %+v", g.State, tb.g.State)
	}
}

// The state hashes of adjudications made while state was sealed are
// salted: they differ from the plain hash of the state, and check once
// everything is revealed (Replay above); those made after every reveal
// are plain.
func TestSealedStateHash(t *testing.T) {
	tb := played(t)
	k := 0
	for i, e := range tb.log {
		if e.Type != game.TypeAdjudicated {
			continue
		}
		k++
		var a game.Adjudicated
		if err := json.Unmarshal(e.Payload, &a); err != nil {
			t.Fatal(err)
		}
		g, err := game.Load(tb.log[:i+1], testrules.Lookup)
		if err != nil {
			t.Fatal(err)
		}
		// The depth stays sealed to the end (revealed after the last
		// adjudication): every hash of this game is salted.
		if plain := game.StateHash(g.State); a.StateHash == plain {
			t.Errorf("adjudication %d: the state hash is the plain one while state is sealed", k)
		}
	}
	// A guess of the hidden square cannot be tested against the hash:
	// the hash after the hide, with the treasure put in each region,
	// never matches without the salts.
	i := indexOfType(tb.log, game.TypeAdjudicated, 1)
	var a game.Adjudicated
	json.Unmarshal(tb.log[i].Payload, &a)
	g, _ := game.Load(tb.log[:i+1], testrules.Lookup)
	for _, r := range testrules.Regions {
		st := *g.State.(*testrules.HideState)
		st.At = r
		if game.StateHash(&st) == a.StateHash {
			t.Errorf("guessing %s matches the state hash", r)
		}
	}
	// And a game with nothing sealed hashes as it always did.
	race := newTable(t, 0, nil)
	race.must("red", bid(1, 2))
	race.must("blue", bid(1, 1))
	var ra game.Adjudicated
	json.Unmarshal(race.log[len(race.log)-1].Payload, &ra)
	if ra.StateHash != game.StateHash(race.g.State) {
		t.Errorf("a race's state hash is %s, not the plain %s", ra.StateHash, game.StateHash(race.g.State))
	}
}

// indexOfType is the index of the n-th entry (from 1) of type typ.
func indexOfType(log []game.Entry, typ string, n int) int {
	for i, e := range log {
		if e.Type == typ {
			if n--; n == 0 {
				return i
			}
		}
	}
	return -1
}

func TestSealedTampered(t *testing.T) {
	tb := played(t)
	hid, _ := opening(t, tb.log, "hide.hidden")
	// An export whose reveal of the hidden event says G instead of F.
	ex := export(tb.log)
	for i, e := range ex {
		var rv game.Revealed
		if e.Type != game.TypeRevealed || json.Unmarshal(e.Payload, &rv) != nil || rv.Of != hid.Seq {
			continue
		}
		rv.Opening = strings.Replace(rv.Opening, `"at":"F"`, `"at":"G"`, 1)
		ex[i].Payload, _ = json.Marshal(rv)
	}
	if _, err := game.Load(ex, testrules.Lookup); err == nil || errors.Is(err, game.ErrSealed) || !strings.Contains(err.Error(), "changed") {
		t.Errorf("a tampered reveal loads: %v", err)
	}
	if a := game.Replay(ex, testrules.Lookup); a.OK() {
		t.Error("a tampered reveal replays")
	}
	if a := game.Verify(ex); a.OK() {
		t.Error("a tampered reveal verifies")
	}
	// A referee's data file whose opening was changed.
	log := append([]game.Entry(nil), tb.log...)
	i := int(hid.Seq - 1)
	log[i].Private = bytes.Replace(log[i].Private, []byte(`"at":"F"`), []byte(`"at":"G"`), 1)
	if _, err := game.Load(log, testrules.Lookup); err == nil || !strings.Contains(err.Error(), "changed") {
		t.Errorf("a changed opening loads: %v", err)
	}
	// A payload whose commitment was changed has no opening at all.
	log = export(tb.log)
	log[i].Payload = bytes.Replace(log[i].Payload, []byte(hid.Payload[len(hid.Payload)-66:len(hid.Payload)-2]), []byte(hex.EncodeToString(make([]byte, 32))), 1)
	if _, err := game.Load(log, testrules.Lookup); err == nil {
		t.Error("a changed commitment loads")
	}
}

// Orders with a SealKey are absent from the log until revealed, even
// after their adjudication, and their texts are indexed once revealed.
func TestSealKeyOrders(t *testing.T) {
	tb := newHide(t)
	out := tb.must("hider", hideOrders("hide", "at: F"))
	var oa game.OrdersAccepted
	json.Unmarshal(out.Records[0].Payload, &oa)
	if oa.SealKey != "treasure" || oa.Sealed == "" || oa.Text != "" || oa.Normalized != "" {
		t.Errorf("accepted %+v", oa)
	}
	for _, r := range out.Records {
		if r.Type == game.TypeRevealed {
			t.Errorf("orders with a SealKey were revealed at their adjudication")
		}
	}
	if strings.Contains(public(tb.log), "at: F") {
		t.Error("the hide orders are in the log")
	}
	// A resend is refused as a duplicate once the orders are revealed.
	tb.must("hider", hideOrders("bury", "depth: 2"))
	tb.must("seeker", hideOrders("seek", "search: F"))
	if _, err := tb.submit("hider", hideOrders("hide", "at: F")); err == nil || !strings.Contains(err.Error(), "already accepted") {
		t.Errorf("a resend of revealed orders: %v", err)
	}
	// Orders sent ahead are not taken with orders that stay sealed.
	tb = newHide(t)
	_, err := tb.submit("hider", hideOrders("hide", "at: F")+"then:\n  - phase: bury\n    orders: {depth: 1}\n")
	var oe *adjudicator.OrderError
	if !errors.As(err, &oe) || oe.Code != adjudicator.CodeUnknownField || !strings.Contains(oe.Msg, "secret") {
		t.Errorf("then: with sealed orders: %v", err)
	}
}

// A snapshot of a game with sealed state comes back whole, and the game
// goes on from it.
func TestSealedSnapshot(t *testing.T) {
	tb := hidden(t)
	b, err := tb.g.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	g, err := game.RestoreSnapshot(b, testrules.Lookup)
	if err != nil {
		t.Fatal(err)
	}
	if !game.SameFold(g, tb.g) {
		t.Fatal("the snapshot does not come back whole")
	}
	tb.g = g
	tb.must("seeker", hideOrders("seek", "search: F"))
	tb.must("seeker", hideOrders("dig", "depth: 1"))
	if w := tb.g.View("seeker").Winner; w != "hider" {
		t.Errorf("winner %q", w)
	}
	if a := game.Replay(export(tb.log), testrules.Lookup); !a.OK() || a.Notes != nil {
		t.Errorf("replay: %+v", a)
	}
}

// A branch of a game with sealed state folds from the parent's openings.
func TestSealedBranch(t *testing.T) {
	tb := hidden(t)
	recs, err := game.BranchLog(tb.log, testrules.Lookup, uint64(len(tb.log)), "head", "h2", t0, secret(7))
	if err != nil {
		t.Fatal(err)
	}
	g, err := game.Load(game.Numbered(recs), testrules.Lookup)
	if err != nil {
		t.Fatal(err)
	}
	if st := g.State.(*testrules.HideState); st.At != "F" || st.Depth != 2 {
		t.Errorf("branch state %+v", st)
	}
}
