package game_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/testrules"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
)

var lookup = game.Lookup(func(name string) (adjudicator.Ruleset, bool) {
	if name == "race" {
		return testrules.Race, true
	}
	return nil, false
})

var t0 = time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)

// table is a game in memory with its log and dice secrets, standing in for
// the store.
type table struct {
	t       *testing.T
	g       *game.Game
	log     []game.Entry
	secrets map[int][]byte
	fresh   int
	vault   game.Vault
}

// salts is a reader of counting bytes: the salts of sealed parts in tests.
type salts struct{ n byte }

func (s *salts) Read(p []byte) (int, error) {
	for i := range p {
		s.n++
		p[i] = s.n
	}
	return len(p), nil
}

func secret(n int) []byte {
	s := make([]byte, dice.SeedSize)
	for i := range s {
		s[i] = byte(n*31 + i)
	}
	return s
}

func newTable(t *testing.T, chainLength int, opts map[string]string) *table {
	t.Helper()
	rec, _, err := game.Create(game.NewGame{
		ID: "g1", Ruleset: testrules.Race, Scenario: "sprint", Options: opts,
		Players: []game.Player{{Side: "red", Address: "red@example.org"}, {Side: "blue", Address: "blue@example.org"}},
		Time:    t0, Secret: secret(0), ChainLength: chainLength,
	})
	if err != nil {
		t.Fatal(err)
	}
	tb := &table{t: t, secrets: map[int][]byte{0: secret(0)}, fresh: 1, vault: game.Vault{}}
	tb.append([]game.Record{rec})
	g, err := game.Load(tb.log, lookup)
	if err != nil {
		t.Fatal(err)
	}
	tb.g = g
	return tb
}

func (tb *table) append(recs []game.Record) {
	for _, r := range recs {
		tb.log = append(tb.log, game.Entry{Seq: uint64(len(tb.log) + 1), Record: r})
	}
}

func (tb *table) submit(side, src string) (*game.Outcome, error) {
	tb.t.Helper()
	return tb.submitFrom("", side, src)
}

// submitFrom submits as the player at address from ("" for the side as a
// whole).
func (tb *table) submitFrom(from, side, src string) (*game.Outcome, error) {
	tb.t.Helper()
	out, err := tb.g.Submit(game.Input{
		From: from, Side: adjudicator.Side(side), Src: []byte(src), Time: t0.Add(time.Duration(len(tb.log)) * time.Minute), Via: "test",
		Secrets:    func(gen int) ([]byte, error) { return tb.secrets[gen], nil },
		NextSecret: secret(tb.fresh),
		Rand:       &salts{}, Unseal: tb.vault.Unseal,
	})
	if err != nil {
		return nil, err
	}
	tb.append(out.Records)
	tb.vault.Keep(out.Records)
	if out.NewSecret != nil {
		tb.secrets[out.NewChain] = out.NewSecret
		tb.fresh++
	}
	tb.g = out.Next
	return out, nil
}

func (tb *table) must(side, src string) *game.Outcome {
	tb.t.Helper()
	out, err := tb.submit(side, src)
	if err != nil {
		tb.t.Fatalf("%s: %v\n%s", side, err, src)
	}
	return out
}

func bid(turn, n int) string {
	return fmt.Sprintf("turn: %d\nphase: bid\norders:\n  bid: %d\n", turn, n)
}

func move(turn int, ids ...string) string {
	s := fmt.Sprintf("turn: %d\nphase: move\norders:\n", turn)
	for _, id := range ids {
		s += "  - advance: " + id + "\n"
	}
	return s
}

func TestSimultaneousThenAlternating(t *testing.T) {
	tb := newTable(t, 0, nil)
	out := tb.must("red", bid(1, 2))
	if len(out.Results) != 0 {
		t.Fatal("adjudicated before both sides bid")
	}
	out = tb.must("blue", bid(1, 1))
	if len(out.Results) != 1 {
		t.Fatalf("both bids in, %d adjudications", len(out.Results))
	}
	a := out.Results[0]
	if a.K != 1 || a.Seed == "" || a.Index != 1 || len(a.Rolls) != 0 {
		t.Errorf("adjudication 1: %+v", a.Adjudicated)
	}
	due := tb.g.Due()
	if len(due) != 1 || due[0].Side != "red" || due[0].Phase != "move" {
		t.Fatalf("after bids, due %+v; red bid more and should move", due)
	}
	out = tb.must("red", move(1, "R1", "R2"))
	rolls := out.Results[0].Rolls
	if len(rolls) != 2 || rolls[0].Label != "advance R1" || rolls[0].Outcome == "" {
		t.Fatalf("rolls %+v", rolls)
	}
	// The rolls are the committed ones: recompute them from the revealed seed.
	seed, _ := dice.ParseSeed(out.Results[0].Seed)
	for _, r := range rolls {
		if want := dice.Face(seed, "g1", 2, r.Label, r.N, 6); r.Faces[0] != want {
			t.Errorf("%s rolled %d, the seed gives %d", r.Label, r.Faces[0], want)
		}
	}
	if a := game.Verify(tb.log); !a.OK() || a.Adjudications != 2 || a.Dice != 2 || a.Seeds != 2 {
		t.Errorf("verify: %+v", a)
	}
	if a := game.Replay(tb.log, lookup); !a.OK() || a.Redecided != 2 {
		t.Errorf("replay: %+v", a)
	}
	// Folding the stored log gives the same game as following it live.
	g2, err := game.Load(tb.log, lookup)
	if err != nil {
		t.Fatal(err)
	}
	if game.StateHash(g2.State) != game.StateHash(tb.g.State) || g2.Version != tb.g.Version || g2.K != tb.g.K {
		t.Error("the folded log and the live game differ")
	}
}

// TestDecisionInterrupt: a runner stopping on a trap square pauses the turn
// until the other side decides.
func TestDecisionInterrupt(t *testing.T) {
	tb := newTable(t, 0, nil)
	tb.must("red", bid(1, 3))
	tb.must("blue", bid(1, 0))
	// Find a position where red's move lands on square 5: move R1 from 0
	// with scripted what-if dice is not possible on a chain game, so use a
	// scripted game instead.
	rec, _, err := game.Create(game.NewGame{ID: "g2", Ruleset: testrules.Race, Position: []byte("runners: {R1: 1, B1: 0}\n"),
		Players: []game.Player{{Side: "red"}, {Side: "blue"}}, Time: t0, Faces: []int{4, 1}})
	if err != nil {
		t.Fatal(err)
	}
	g, err := game.Load([]game.Entry{{Seq: 1, Record: rec}}, lookup)
	if err != nil {
		t.Fatal(err)
	}
	script := &dice.Script{Faces: []int{4, 1}}
	vault := game.Vault{}
	step := func(side, src string) *game.Outcome {
		out, err := g.Submit(game.Input{Side: adjudicator.Side(side), Src: []byte(src), Time: t0, Dice: script, Rand: &salts{}, Unseal: vault.Unseal})
		if err != nil {
			t.Fatalf("%s: %v", side, err)
		}
		g = out.Next
		vault.Keep(out.Records)
		return out
	}
	step("red", bid(1, 1))
	step("blue", bid(1, 0))
	out := step("red", move(1, "R1"))
	if !strings.Contains(strings.Join(adjudicator.Texts(out.Results[0].Full), "\n"), "trapped") {
		t.Fatalf("report %v", out.Results[0].Report)
	}
	due := g.Due()
	if len(due) != 1 || due[0].Side != "blue" || due[0].Kind != "decision" || due[0].Prompt == "" {
		t.Fatalf("due %+v; blue must decide", due)
	}
	if _, err := g.Submit(game.Input{Side: "red", Src: []byte(move(1, "R2")), Time: t0, Dice: script}); code(err) != adjudicator.CodeNotYourTurn {
		t.Errorf("red moving during blue's decision: %v", err)
	}
	// The same orders sent again are answered as a resend, not a mistake.
	_, err = g.Submit(game.Input{Side: "red", Src: []byte(move(1, "R1")), Time: t0, Dice: script})
	if code(err) != adjudicator.CodeDuplicate || !strings.Contains(err.Error(), "already accepted on") || !strings.Contains(err.Error(), "turn 1, move") {
		t.Errorf("red's move sent again: %v", err)
	}
	step("blue", "turn: 1\nphase: trap\norders:\n  R1: push\n")
	if v := g.View(""); v.Units[1].At != "3" {
		t.Errorf("R1 at %s after the push, want 3", v.Units[1].At)
	}
	if due := g.Due(); due[0].Side != "blue" || due[0].Phase != "move" {
		t.Errorf("after the decision, due %+v; blue moves", due)
	}
}

func code(err error) string {
	var e *adjudicator.OrderError
	if errors.As(err, &e) {
		return e.Code
	}
	var es adjudicator.OrderErrors
	if errors.As(err, &es) && len(es) > 0 {
		return es[0].Code
	}
	if err == nil {
		return "<nil>"
	}
	return "untyped: " + err.Error()
}

func TestBadInput(t *testing.T) {
	tb := newTable(t, 0, nil)
	tb.must("red", bid(1, 2))
	cases := []struct {
		name, side, src, code string
		line                  int
		has                   string
	}{
		{"unknown side", "green", bid(1, 1), adjudicator.CodeUnknownSide, 0, "red, blue"},
		{"side mismatch", "blue", "side: red\n" + bid(1, 1), adjudicator.CodeUnknownSide, 1, "submitted for side"},
		{"other game", "blue", "game: g9\n" + bid(1, 1), adjudicator.CodeUnknownGame, 1, "g9"},
		{"no turn", "blue", "phase: bid\norders:\n  bid: 1\n", adjudicator.CodeMissingField, 1, "turn: 1"},
		{"past turn", "blue", bid(0, 1), adjudicator.CodeWrongTurn, 1, "expects turn 1"},
		{"wrong phase", "blue", "turn: 1\nphase: move\norders:\n  - advance: B1\n", adjudicator.CodeWrongTurn, 2, "phase bid"},
		{"malformed", "blue", "turn: 1\nphase: bid\norders: [\n", adjudicator.CodeSyntax, 0, "not valid YAML"},
		{"unknown field", "blue", "turn: 1\nphase: bid\nordres:\n  bid: 1\n", adjudicator.CodeUnknownField, 3, `"orders"`},
		{"unknown order field", "blue", "turn: 1\nphase: bid\norders:\n  bdi: 1\n", adjudicator.CodeUnknownField, 4, `"bid"`},
		{"alias bomb", "blue", "turn: 1\nphase: bid\nx: &a [1,1,1,1,1,1,1,1]\ny: [*a,*a,*a,*a,*a,*a]\norders:\n  bid: 1\n", adjudicator.CodeAlias, 3, "anchors"},
		{"rule error", "blue", bid(1, 9), "bad-bid", 4, "from 0 to your energy, 6"},
		{"no orders", "blue", "turn: 1\nphase: bid\n", adjudicator.CodeMissingField, 1, "orders:"},
		{"duplicate", "red", bid(1, 2), adjudicator.CodeDuplicate, 0, "already received"},
		{"already sent", "red", bid(1, 1), adjudicator.CodeAlreadySent, 0, "replace: true"},
		{"empty", "blue", "", adjudicator.CodeEmpty, 1, "empty"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := len(tb.log)
			_, err := tb.submit(c.side, c.src)
			if code(err) != c.code {
				t.Fatalf("got %v (%s), want code %s", err, code(err), c.code)
			}
			var e *adjudicator.OrderError
			errors.As(err, &e)
			if e == nil {
				var es adjudicator.OrderErrors
				errors.As(err, &es)
				e = es[0]
			}
			if (c.line != 0 && e.Line != c.line) || !strings.Contains(e.Msg, c.has) {
				t.Errorf("got %q at line %d; want line %d containing %q", e.Msg, e.Line, c.line, c.has)
			}
			if len(tb.log) != before {
				t.Error("a rejected submission was appended")
			}
		})
	}
	// Replacing pending orders is allowed when asked for.
	out := tb.must("red", "replace: true\n"+bid(1, 1))
	if oa := out.Accepted; !oa.Replaces || !strings.Contains(oa.Normalized, "bid: 1") {
		t.Errorf("replacement not recorded: %+v", oa)
	}
	if p, _ := tb.g.Answered("t1.bid.red"); p.Seq != uint64(len(tb.log)) || p.Sealed == "" {
		t.Errorf("the replacement is not the pending answer, sealed: %+v", p)
	}
	// Several errors in one move are all reported, each with its line.
	tb.must("blue", bid(1, 0))
	_, err := tb.submit("red", move(1, "R3", "B1", "R1", "R1"))
	var es adjudicator.OrderErrors
	if !errors.As(err, &es) || len(es) != 3 {
		t.Fatalf("got %v, want three errors", err)
	}
	for i, want := range []struct {
		code string
		line int
		has  string
	}{{adjudicator.CodeUnknownUnit, 4, `did you mean "R1"`}, {"not-yours", 5, "blue's"}, {"twice", 7, "twice"}} {
		if es[i].Code != want.code || es[i].Line != want.line || !strings.Contains(es[i].Msg, want.has) {
			t.Errorf("error %d: %s at line %d, want %s at %d containing %q", i, es[i].Code, es[i].Line, want.code, want.line, want.has)
		}
	}
}

func TestSecret(t *testing.T) {
	tb := newTable(t, 0, nil)
	check := func(side adjudicator.Side, s string) (bool, error) { return side == "red" && s == "r3d", nil }
	in := game.Input{Side: "red", Src: []byte("secret: xyzzy-guess\n" + bid(1, 1)), Time: t0, CheckSecret: check, Rand: &salts{}}
	_, err := tb.g.Submit(in)
	if code(err) != "bad-secret" {
		t.Errorf("wrong secret: %v", err)
	}
	if err != nil && strings.Contains(err.Error(), "xyzzy") {
		t.Errorf("the error quotes the secret sent: %v", err)
	}
	in.Src = []byte("game: g1\nsecret: r3d\n" + bid(1, 1))
	out, err := tb.g.Submit(in)
	if err != nil {
		t.Fatalf("right secret refused: %v", err)
	}
	// The bid is hidden: sealed in the record, and the opening holds the
	// text less the secret line.
	rec := out.Records[0]
	if bytes.Contains(rec.Payload, []byte("r3d")) || bytes.Contains(rec.Private, []byte("r3d")) {
		t.Errorf("the secret is stored:\n%s\n%s", rec.Payload, rec.Private)
	}
	if out.Accepted.Text != "game: g1\n"+bid(1, 1) || !out.Accepted.SecretRemoved {
		t.Errorf("text kept: %q (secret removed: %v)", out.Accepted.Text, out.Accepted.SecretRemoved)
	}
}

func TestRemoveSecret(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"game: g\nsecret: abc\nturn: 1\n", "game: g\nturn: 1\n"},
		{"secret: abc # mine\norders: []\n", "orders: []\n"},
		{"game: g\nsecret: |\n  abc\n  def\nturn: 1\n", "game: g\nturn: 1\n"},
		{"{game: g, secret: abc, turn: 1}\n", `{game: g, secret: "(removed)", turn: 1}` + "\n"},
		{"{game: g, secret: \"abc\"}\n", `{game: g, secret: "(removed)"}` + "\n"},
		{"game: g\nturn: 1\n", "game: g\nturn: 1\n"},
		{"game: g\nsecret: abc", "game: g\n"},
	} {
		root, err := yamlx.Parse([]byte(c.in))
		if err != nil {
			t.Fatal(err)
		}
		got, _ := game.RemoveSecret([]byte(c.in), root)
		if string(got) != c.want {
			t.Errorf("%q: got %q, want %q", c.in, got, c.want)
		}
	}
}

// playToEnd plays a whole game with fixed choices and returns the table.
func playToEnd(t *testing.T, chainLength int) *table {
	return playToEndWith(t, chainLength, map[string]string{"turns": "3"})
}

func playToEndWith(t *testing.T, chainLength int, opts map[string]string) *table {
	tb := newTable(t, chainLength, opts)
	for !tb.g.Over() {
		due := tb.g.Due()
		for _, r := range due {
			var src string
			switch r.Phase {
			case "bid":
				src = bid(r.Turn, 1)
			case "move":
				if r.Side == "red" {
					src = move(r.Turn, "R1", "R2")
				} else {
					src = move(r.Turn, "B1", "B2")
				}
			case "trap":
				src = fmt.Sprintf("turn: %d\nphase: trap\norders:\n", r.Turn)
				for _, id := range tb.g.State.(*testrules.State).Trapped {
					src += "  " + id + ": push\n"
				}
			}
			tb.must(string(r.Side), src)
		}
	}
	return tb
}

func TestWholeGameAndChainExtension(t *testing.T) {
	tb := playToEnd(t, 3)
	a := game.Verify(tb.log)
	if !a.OK() {
		t.Fatalf("verify: %v", a.Problems)
	}
	if a.Chains < 2 || a.Adjudications < 4 {
		t.Fatalf("expected several chains of length 3: %+v", a)
	}
	if r := game.Replay(tb.log, lookup); !r.OK() || r.Redecided != a.Adjudications {
		t.Fatalf("replay: %+v", r)
	}
	// The extension is committed in the same batch as the adjudication that
	// used the last seed: before any orders its dice will resolve.
	for i, e := range tb.log {
		if e.Type == game.TypeChainExtended && tb.log[i-1].Type != game.TypeAdjudicated {
			t.Errorf("chain extended at event %d, not right after an adjudication", e.Seq)
		}
	}
	if v := tb.g.View(""); !v.Over || v.Winner == "" {
		t.Errorf("game not over: %+v", v)
	}
	if _, err := tb.submit("red", bid(4, 1)); code(err) != adjudicator.CodeGameOver {
		t.Errorf("orders after the end: %v", err)
	}
}

// TestVerifyCatchesTampering changes a stored roll, a seed and an event,
// and expects each to be found.
func TestVerifyCatchesTampering(t *testing.T) {
	tb := playToEnd(t, 0)
	tamper := func(typ string, edit func(m map[string]any)) []game.Entry {
		log := append([]game.Entry(nil), tb.log...)
		for i := range log {
			if log[i].Type != typ {
				continue
			}
			var m map[string]any
			json.Unmarshal(log[i].Payload, &m)
			if typ == game.TypeAdjudicated && len(m["rolls"].([]any)) == 0 {
				continue
			}
			edit(m)
			log[i].Payload, _ = json.Marshal(m)
			return log
		}
		t.Fatalf("no %s to tamper with", typ)
		return nil
	}
	faked := tamper(game.TypeAdjudicated, func(m map[string]any) {
		r := m["rolls"].([]any)[0].(map[string]any)
		f := r["faces"].([]any)
		f[0] = float64(int(f[0].(float64))%6 + 1)
		r["total"] = f[0]
	})
	if a := game.Verify(faked); a.OK() || !strings.Contains(strings.Join(a.Problems, "\n"), "the seed gives") {
		t.Errorf("a changed die was not caught: %v", a.Problems)
	}
	badSeed := tamper(game.TypeAdjudicated, func(m map[string]any) {
		m["seed"] = strings.Repeat("ab", 32)
	})
	// One bad seed is reported once: the seeds after it still check
	// against the chain.
	if a := game.Verify(badSeed); len(a.Problems) != 1 || !strings.Contains(a.Problems[0], "is not seed 1 of chain 0") {
		t.Errorf("a substituted seed was not caught once: %v", a.Problems)
	} else if want := game.Verify(tb.log); a.Seeds != want.Seeds-1 {
		t.Errorf("after a bad seed %d seeds checked, want %d", a.Seeds, want.Seeds-1)
	}
	moved := tamper("race.advanced", func(m map[string]any) { m["to"] = float64(11) })
	if a := game.Replay(moved, lookup); a.OK() {
		t.Error("a changed event was not caught by replay")
	}
}

// TestAuditsCatchTamperedAdjudications changes one field of a recorded
// turn.adjudicated (a die, the seed, the state hash, the event count, the
// adjudication number) and expects replay and verify each to find it.
func TestAuditsCatchTamperedAdjudications(t *testing.T) {
	tb := playToEnd(t, 0)
	tamper := func(edit func(m map[string]any)) []game.Entry {
		log := append([]game.Entry(nil), tb.log...)
		for i := range log {
			if log[i].Type != game.TypeAdjudicated {
				continue
			}
			var m map[string]any
			if err := json.Unmarshal(log[i].Payload, &m); err != nil {
				t.Fatal(err)
			}
			if len(m["rolls"].([]any)) == 0 {
				continue
			}
			edit(m)
			log[i].Payload, _ = json.Marshal(m)
			return log
		}
		t.Fatal("no adjudication with rolls to tamper with")
		return nil
	}
	has := func(a *game.Audit, want string) bool { return strings.Contains(strings.Join(a.Problems, "\n"), want) }
	die := tamper(func(m map[string]any) {
		r := m["rolls"].([]any)[0].(map[string]any)
		f := r["faces"].([]any)
		f[0] = float64(int(f[0].(float64))%6 + 1)
		r["total"] = f[0]
	})
	if a := game.Replay(die, lookup); !has(a, "the rolls differ") {
		t.Errorf("replay: a changed die was not caught: %v", a.Problems)
	}
	seed := tamper(func(m map[string]any) { m["seed"] = strings.Repeat("ab", 32) })
	if a := game.Replay(seed, lookup); a.OK() {
		t.Error("replay: a substituted seed was not caught")
	}
	hash := tamper(func(m map[string]any) { m["state_hash"] = strings.Repeat("0", 64) })
	// Both checks see it: the decision's state and the fold's of the
	// recorded events.
	if a := game.Replay(hash, lookup); !has(a, "the state now hashes to") || !has(a, "state after adjudication") || !has(a, "the log says "+strings.Repeat("0", 64)) {
		t.Errorf("replay: a changed state hash was not caught: %v", a.Problems)
	}
	count := tamper(func(m map[string]any) { m["events"] = m["events"].(float64) + 1 })
	if a := game.Replay(count, lookup); !has(a, "events, the log has") {
		t.Errorf("replay: a changed event count was not caught: %v", a.Problems)
	}
	k := tamper(func(m map[string]any) { m["k"] = m["k"].(float64) + 1 })
	if a := game.Replay(k, lookup); a.OK() {
		t.Error("replay: a changed adjudication number was not caught")
	}
	if a := game.Verify(k); !has(a, "was expected") {
		t.Errorf("verify: a changed adjudication number was not caught: %v", a.Problems)
	}
	if a := game.Verify(die); !has(a, "the seed gives") {
		t.Errorf("verify: a changed die was not caught: %v", a.Problems)
	}
	if a := game.Verify(seed); !has(a, "is not seed") {
		t.Errorf("verify: a substituted seed was not caught: %v", a.Problems)
	}
	// Verify does not read the report, but refuses one json does not read.
	report := tamper(func(m map[string]any) { m["report"] = []any{map[string]any{"text": 5.0}} })
	if a := game.Verify(report); !has(a, "bad turn.adjudicated") {
		t.Errorf("verify: a report of the wrong kind was not caught: %v", a.Problems)
	}
	if a := game.Replay(report, lookup); a.OK() {
		t.Error("replay: a report of the wrong kind was not caught")
	}
	if a := game.Replay(tb.log, lookup); !a.OK() {
		t.Fatalf("the untouched log: %v", a.Problems)
	}
}

// TestVerifyCatchesTamperedHiddenRoll: a roll for red alone is sealed in
// its adjudication and revealed at the end; a die changed in the revealed
// opening (its commitments made to match) is caught by its seed.
func TestVerifyCatchesTamperedHiddenRoll(t *testing.T) {
	tb := playToEndWith(t, 0, map[string]string{"turns": "3", "scout": "yes"})
	if a := game.Verify(tb.log); !a.OK() || a.Revealed == 0 || a.Sealed != 0 {
		t.Fatalf("the untouched log: %+v", a)
	}
	log := append([]game.Entry(nil), tb.log...)
	for i := range log {
		if log[i].Type != game.TypeRevealed {
			continue
		}
		var rv game.Revealed
		if err := json.Unmarshal(log[i].Payload, &rv); err != nil {
			t.Fatal(err)
		}
		var op game.AdjudicationOpening
		if json.Unmarshal([]byte(rv.Opening), &op) != nil || len(op.Rolls) == 0 {
			continue
		}
		op.Rolls[0].Faces[0] = op.Rolls[0].Faces[0]%6 + 1
		op.Rolls[0].Total = op.Rolls[0].Faces[0]
		b, _ := json.Marshal(op)
		rv.Opening, rv.Commitment = string(b), game.Digest(b)
		log[i].Payload, _ = json.Marshal(rv)
		adj := &log[rv.Of-1]
		var m map[string]any
		if err := json.Unmarshal(adj.Payload, &m); err != nil || adj.Type != game.TypeAdjudicated {
			t.Fatalf("event %d is not an adjudication: %v", rv.Of, err)
		}
		m["sealed"] = rv.Commitment
		adj.Payload, _ = json.Marshal(m)
		a := game.Verify(log)
		if len(a.Problems) != 1 || !strings.Contains(a.Problems[0], "the seed gives") {
			t.Errorf("a changed hidden die was not caught once: %v", a.Problems)
		}
		return
	}
	t.Fatal("no revealed hidden roll to tamper with")
}

func TestReplayNotesVersion(t *testing.T) {
	tb := playToEnd(t, 0)
	old := testrules.Version
	testrules.Version = "9.9.9"
	defer func() { testrules.Version = old }()
	a := game.Replay(tb.log, lookup)
	if len(a.VersionChanges) == 0 {
		t.Error("a different ruleset version was not noted")
	}
}

func TestCreateRejects(t *testing.T) {
	base := game.NewGame{ID: "g1", Ruleset: testrules.Race, Scenario: "sprint", Players: []game.Player{{Side: "red"}}, Secret: secret(0)}
	for name, edit := range map[string]func(n *game.NewGame){
		"bad id":       func(n *game.NewGame) { n.ID = "G 1" },
		"no players":   func(n *game.NewGame) { n.Players = nil },
		"unknown side": func(n *game.NewGame) { n.Players = []game.Player{{Side: "green"}} },
		"side twice":   func(n *game.NewGame) { n.Players = []game.Player{{Side: "red"}, {Side: "red"}} },
		"same player twice": func(n *game.NewGame) {
			n.Players = []game.Player{{Side: "red", Address: "a@x.org"}, {Side: "red", Address: "A@x.org"}}
		},
		"parts without split": func(n *game.NewGame) {
			n.Players = []game.Player{{Side: "red", Address: "a@x.org", Parts: []string{"r1"}}}
		},
		"bad team option": func(n *game.NewGame) { n.Options = map[string]string{"team.orders": "vote"} },
		"bad scenario":    func(n *game.NewGame) { n.Scenario = "marathon" },
		"bad option":      func(n *game.NewGame) { n.Options = map[string]string{"laps": "3"} },
		"short secret":    func(n *game.NewGame) { n.Secret = []byte("x") },
		"bad positions":   func(n *game.NewGame) { n.Scenario = ""; n.Position = []byte("runners: {X1: 0}\n") },
	} {
		n := base
		edit(&n)
		if _, _, err := game.Create(n); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestWhatIf(t *testing.T) {
	tb := playToEnd(t, 0)
	// Adjudication 2 is red's first move: two dice.
	res, err := game.WhatIf(tb.log, lookup, 2, []int{6, 6})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rolls) < 2 || res.Rolls[0].Total != 6 || res.Rolls[1].Total != 6 {
		t.Fatalf("what-if rolls %v", res.Rolls)
	}
	if _, err := game.WhatIf(tb.log, lookup, 999, nil); err == nil {
		t.Error("a what-if past the end was accepted")
	}
	// Nothing changed: the log still verifies.
	if a := game.Verify(tb.log); !a.OK() {
		t.Error(a.Problems)
	}
}

// Orders sent ahead ("then:") answer the side's later requests when they
// come due, checked against the state then.
func TestOrdersSentAhead(t *testing.T) {
	ahead := func(turn, bid int, move string) string {
		return fmt.Sprintf("turn: %d\nphase: bid\norders:\n  bid: %d\nthen:\n  - phase: move\n    orders:\n      - advance: %s\n", turn, bid, move)
	}
	t.Run("used at once", func(t *testing.T) {
		tb := newTable(t, 0, nil)
		out := tb.must("red", ahead(1, 2, "R1"))
		if len(out.Queued) != 1 || out.Queued[0].Phase != "move" {
			t.Fatalf("queued %+v", out.Queued)
		}
		out = tb.must("blue", bid(1, 1))
		if len(out.Results) != 2 {
			t.Fatalf("%d adjudications; the bids and red's move sent ahead make 2", len(out.Results))
		}
		if !strings.Contains(strings.Join(adjudicator.Texts(out.Notes), "\n"), "red's orders sent ahead for turn 1, blue") && !strings.Contains(strings.Join(adjudicator.Texts(out.Notes), "\n"), "were used") {
			t.Errorf("notes %v", out.Notes)
		}
		if due := tb.g.Due(); due[0].Side != "blue" || due[0].Phase != "move" {
			t.Errorf("due %+v; blue moves next", due)
		}
		if a := game.Replay(tb.log, lookup); !a.OK() {
			t.Errorf("replay: %v", a.Problems)
		}
		if a := game.Verify(tb.log); !a.OK() {
			t.Errorf("verify: %v", a.Problems)
		}
	})
	t.Run("used when due later", func(t *testing.T) {
		tb := newTable(t, 0, nil)
		tb.must("red", ahead(1, 0, "R1"))
		out := tb.must("blue", bid(1, 1))
		if len(out.Results) != 1 {
			t.Fatalf("%d adjudications; blue moves first, so red's move waits", len(out.Results))
		}
		out = tb.must("blue", "turn: 1\nphase: move\norders: []\n") // no runner moves: no trap can interrupt
		if len(out.Results) != 2 || !strings.Contains(strings.Join(adjudicator.Texts(out.Notes), "\n"), "were used") {
			t.Fatalf("blue's move should bring red's move sent ahead: %d adjudications, notes %v", len(out.Results), out.Notes)
		}
		if a := game.Replay(tb.log, lookup); !a.OK() {
			t.Errorf("replay: %v", a.Problems)
		}
	})
	t.Run("dropped when it no longer fits", func(t *testing.T) {
		tb := newTable(t, 0, nil)
		tb.must("red", ahead(1, 2, "B1"))
		out := tb.must("blue", bid(1, 1))
		if len(out.Results) != 1 {
			t.Fatalf("%d adjudications, want only the bids", len(out.Results))
		}
		notes := strings.Join(adjudicator.Texts(out.Notes), "\n")
		if !strings.Contains(notes, "asked for turn 1, red moves as usual") || !strings.Contains(notes, "B1 is blue's") {
			t.Errorf("notes %q", notes)
		}
		if due := tb.g.Due(); due[0].Side != "red" || len(tb.g.Queues) != 0 {
			t.Errorf("due %+v, queues %v", due, tb.g.Queues)
		}
		if a := game.Replay(tb.log, lookup); !a.OK() {
			t.Errorf("replay: %v", a.Problems)
		}
	})
	t.Run("refused shapes", func(t *testing.T) {
		tb := newTable(t, 0, nil)
		for src, want := range map[string]string{
			"turn: 1\nphase: bid\norders: {bid: 1}\nthen:\n  - orders: []\n":                         adjudicator.CodeMissingField,
			"turn: 1\nphase: bid\norders: {bid: 1}\nthen:\n  - phase: move\n":                        adjudicator.CodeMissingField,
			"turn: 1\nphase: bid\norders: {bid: 1}\nthen:\n  - phase: bid\n    orders: {bid: 2}\n":   adjudicator.CodeDuplicate,
			"turn: 1\nphase: bid\norders: {bid: 1}\nthen:\n  - {turn: 0, phase: move, orders: []}\n": adjudicator.CodeWrongTurn,
			"turn: 1\nphase: bid\norders: {bid: 1}\nthen:\n  - phase: move\n    ordres: []\n":        adjudicator.CodeUnknownField,
		} {
			if _, err := tb.submit("red", src); code(err) != want {
				t.Errorf("%q: got %v, want %s", src, err, want)
			}
		}
	})
}
