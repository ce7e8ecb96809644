package game_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
)

// pick is a ruleset made for the seat tests: side "b" first chooses which
// side to play ("play: a" or "play: b"); then both sides write a note, in
// secret; each side's report tells it its own note. A choice of "a" swaps
// the players (adjudicator.PlayersSwap).
type pick struct{}

type pickState struct {
	Phase string `json:"phase"` // choose, write, over
}

type pickChosen struct {
	By   adjudicator.Side `json:"by"`
	Side adjudicator.Side `json:"side"`
}

func (*pickChosen) EventType() string { return "pick.chosen" }

func (e *pickChosen) SwapsPlayers() (a, b adjudicator.Side, ok bool) {
	return e.By, e.Side, e.By != e.Side
}

type pickPhase struct {
	Phase string `json:"phase"`
}

func (*pickPhase) EventType() string { return "pick.phase" }

var pickRules adjudicator.Ruleset = pick{}

func (pick) Info() adjudicator.Info {
	sides := []adjudicator.Side{"a", "b"}
	return adjudicator.Info{Name: "pick", Title: "Pick", Version: "1.0.0", Sides: sides,
		Scenarios: []adjudicator.ScenarioInfo{{ID: "one", Title: "one", Sides: sides}}}
}

func (pick) Setup(adjudicator.Setup) (adjudicator.State, error) {
	return &pickState{Phase: "choose"}, nil
}

func (pick) Due(s adjudicator.State) []adjudicator.Request {
	switch s.(*pickState).Phase {
	case "choose":
		return []adjudicator.Request{{ID: "choose", Side: "b", Kind: "decision", Turn: 1, Phase: "choose",
			Title: "side choice", Choice: []string{"play: b", "play: a"}}}
	case "write":
		return []adjudicator.Request{
			{ID: "write.a", Side: "a", Kind: "orders", Turn: 1, Phase: "write", Title: "a's note", Hidden: true},
			{ID: "write.b", Side: "b", Kind: "orders", Turn: 1, Phase: "write", Title: "b's note", Hidden: true},
		}
	}
	return nil
}

type pickOrders struct {
	Play string `yaml:"play,omitempty"`
	Note string `yaml:"note,omitempty"`
}

func (pick) ParseOrders(_ adjudicator.State, req adjudicator.Request, n *yaml.Node) (adjudicator.Orders, error) {
	var o pickOrders
	if err := n.Decode(&o); err != nil {
		return nil, adjudicator.Errorf(n, adjudicator.CodeBadValue, "%v", err)
	}
	if req.Phase == "choose" && o.Play != "a" && o.Play != "b" {
		return nil, adjudicator.Errorf(n, adjudicator.CodeBadValue, "play a or b")
	}
	return &o, nil
}

func (pick) Decide(r *adjudicator.Resolution, subs []adjudicator.Submission) error {
	if subs[0].Request.Phase == "choose" {
		side := adjudicator.Side(subs[0].Orders.(*pickOrders).Play)
		r.Emit(&pickChosen{By: subs[0].Side, Side: side})
		r.Sayf("the player of b plays %s", side)
		r.Emit(&pickPhase{Phase: "write"})
		return nil
	}
	for _, s := range subs {
		r.Tellf(adjudicator.To(s.Side), "%s wrote %q", s.Side, s.Orders.(*pickOrders).Note)
	}
	r.Emit(&pickPhase{Phase: "over"})
	return nil
}

func (pick) Evolve(s adjudicator.State, ev adjudicator.Event) adjudicator.State {
	if e, ok := ev.(*pickPhase); ok {
		s.(*pickState).Phase = e.Phase
	}
	return s
}

func (pick) Clone(s adjudicator.State) adjudicator.State { c := *s.(*pickState); return &c }

func (pick) View(s adjudicator.State, viewer adjudicator.Side) adjudicator.View {
	return adjudicator.View{Turn: 1, Phase: s.(*pickState).Phase, Over: s.(*pickState).Phase == "over"}
}

func (pick) EventTypes() []adjudicator.EventType {
	return []adjudicator.EventType{
		{Name: "pick.chosen", Schema: 1, New: func() adjudicator.Event { return new(pickChosen) }},
		{Name: "pick.phase", Schema: 1, New: func() adjudicator.Event { return new(pickPhase) }},
	}
}

var lookupPick = game.Lookup(func(name string) (adjudicator.Ruleset, bool) { return pickRules, name == "pick" })

// seats is a game of pick with each player's secret kept under his seat,
// as the data file keeps the check values.
type seats struct {
	t       *testing.T
	g       *game.Game
	log     []game.Entry
	vault   game.Vault
	secrets map[adjudicator.Side]string // seat → secret
	asked   []adjudicator.Side          // the seats CheckSecret was asked about
}

func newSeats(t *testing.T) *seats {
	t.Helper()
	rec, _, err := game.Create(game.NewGame{ID: "pick-1", Ruleset: pickRules, Scenario: "one",
		Players: []game.Player{{Side: "a", Address: "alice@example.org"}, {Side: "b", Address: "bob@example.org"}},
		Time:    t0, Secret: secret(0)})
	if err != nil {
		t.Fatal(err)
	}
	s := &seats{t: t, vault: game.Vault{}, secrets: map[adjudicator.Side]string{"a": "alice-secret", "b": "bob-secret"}}
	s.log = []game.Entry{{Seq: 1, Record: rec}}
	if s.g, err = game.Load(s.log, lookupPick); err != nil {
		t.Fatal(err)
	}
	return s
}

func (s *seats) append(recs []game.Record) {
	for _, r := range recs {
		s.log = append(s.log, game.Entry{Seq: uint64(len(s.log) + 1), Record: r})
	}
	s.vault.Keep(recs)
}

// send submits src for side with secret, as a mail would.
func (s *seats) send(side adjudicator.Side, sec, src string) (*game.Outcome, error) {
	out, err := s.g.Submit(game.Input{Side: side, Src: []byte("secret: " + sec + "\n" + src), Time: t0.Add(time.Duration(len(s.log)) * time.Minute), Via: "test",
		CheckSecret: func(seat adjudicator.Side, given string) (bool, error) {
			s.asked = append(s.asked, seat)
			return s.secrets[seat] == given, nil
		},
		Secrets: func(int) ([]byte, error) { return secret(0), nil }, NextSecret: secret(1), Rand: &salts{}, Unseal: s.vault.Unseal})
	if err != nil {
		return nil, err
	}
	s.append(out.Records)
	s.g = out.Next
	return out, nil
}

func (s *seats) must(side adjudicator.Side, sec, src string) *game.Outcome {
	s.t.Helper()
	out, err := s.send(side, sec, src)
	if err != nil {
		s.t.Fatalf("%s: %v", side, err)
	}
	return out
}

// binding is who plays what, and under which seat, as "a=ADDR(SEAT) b=…".
func binding(g *game.Game) string {
	var parts []string
	for _, side := range g.Sides() {
		p, _ := g.Player(side)
		parts = append(parts, fmt.Sprintf("%s=%s(%s)", side, p.Address, g.Seat(side)))
	}
	return strings.Join(parts, " ")
}

// TestPlayersSwap plays a side choice that swaps the players: from the
// event on, bob plays a with his own secret and alice plays b with hers;
// what belongs to a player (when he wants results, his orders sent ahead)
// goes with him; the fold, a replay, an audit and a snapshot all give the
// same binding.
func TestPlayersSwap(t *testing.T) {
	s := newSeats(t)
	// Alice wants results only when something is due from her.
	rec, err := s.g.ResultsPrefRecord(t0, "a", game.ResultsDue, game.SideActor("a"))
	if err != nil {
		t.Fatal(err)
	}
	s.append([]game.Record{rec})
	if got := binding(s.g); got != "a=alice@example.org(a) b=bob@example.org(b)" {
		t.Fatalf("before the choice: %s", got)
	}
	// Bob chooses a, and sends ahead his note for the side he will play.
	s.must("b", "bob-secret", "turn: 1\nphase: choose\norders:\n  play: a\nthen:\n  - phase: write\n    orders:\n      note: bob's\n")
	want := "a=bob@example.org(b) b=alice@example.org(a)"
	if got := binding(s.g); got != want {
		t.Fatalf("after the choice: %s, want %s", got, want)
	}
	if side, ok := s.g.SideOfSeat("b"); !ok || side != "a" {
		t.Errorf("the player named for b plays %q, %v; want a", side, ok)
	}
	if s.g.ResultsWhen("b") != game.ResultsDue || s.g.ResultsWhen("a") != game.ResultsEvery {
		t.Errorf("alice's results preference stayed with side a: a %s, b %s", s.g.ResultsWhen("a"), s.g.ResultsWhen("b"))
	}
	// Bob's note sent ahead went with him: it answered a's request.
	if _, ok := s.g.Answered("write.a"); !ok {
		t.Fatalf("bob's note sent ahead did not answer a's request; pending %+v", s.g.Pending)
	}
	if _, ok := s.g.Answered("write.b"); ok {
		t.Fatal("b's request is answered, but alice has sent nothing")
	}

	// Alice's secret no longer speaks for a; hers speaks for b.
	s.asked = nil
	_, err = s.send("a", "alice-secret", "turn: 1\nphase: write\norders:\n  note: alice's\n")
	if code(err) != game.CodeBadSecret {
		t.Fatalf("alice's secret for side a: %v, want %s", err, game.CodeBadSecret)
	}
	if len(s.asked) != 1 || s.asked[0] != "b" {
		t.Errorf("the check value asked for side a is %v, want bob's seat b", s.asked)
	}
	out := s.must("b", "alice-secret", "turn: 1\nphase: write\norders:\n  note: alice's\n")
	if len(out.Results) != 1 {
		t.Fatalf("%d adjudications, want 1", len(out.Results))
	}
	for side, want := range map[adjudicator.Side]string{"a": `a wrote "bob's"`, "b": `b wrote "alice's"`} {
		lines := adjudicator.Texts(adjudicator.For(out.Results[0].Full, side))
		if len(lines) != 1 || lines[0] != want {
			t.Errorf("side %s reads %q, want %q", side, lines, want)
		}
	}

	// Each orders.accepted says whose they were: the seat of the sender
	// when he plays another side than his seat.
	senders := map[string]string{}
	for _, e := range s.log {
		if e.Type == game.TypeOrders {
			var oa game.OrdersAccepted
			if err := json.Unmarshal(e.Payload, &oa); err != nil {
				t.Fatal(err)
			}
			senders[oa.Request] = fmt.Sprintf("%s from %s", oa.Side, oa.Sender())
		}
	}
	if want := map[string]string{"choose": "b from b", "write.a": "a from b", "write.b": "b from a"}; fmt.Sprint(senders) != fmt.Sprint(want) {
		t.Errorf("the orders' senders are %v, want %v", senders, want)
	}

	// The log alone gives the same binding, as do an audit and a snapshot.
	g, err := game.Load(s.log, lookupPick)
	if err != nil {
		t.Fatal(err)
	}
	if got := binding(g); got != want {
		t.Errorf("the log folds to %s, want %s", got, want)
	}
	if a := game.Verify(s.log); !a.OK() {
		t.Errorf("verify: %v", a.Problems)
	}
	if a := game.Replay(s.log, lookupPick); !a.OK() {
		t.Errorf("replay: %v", a.Problems)
	}
	b, err := g.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	back, err := game.RestoreSnapshot(b, lookupPick)
	if err != nil {
		t.Fatal(err)
	}
	if got := binding(back); got != want {
		t.Errorf("the snapshot gives %s, want %s", got, want)
	}
	// The fold before the choice still has the players where they were
	// named: a branch or a view of the past is bound as the game was then.
	before, err := game.Load(s.log[:3], lookupPick)
	if err != nil {
		t.Fatal(err)
	}
	if got := binding(before); got != "a=alice@example.org(a) b=bob@example.org(b)" {
		t.Errorf("before the choice the log folds to %s", got)
	}
}

// TestPlayersKeepSides: a choice of the side already played moves nobody.
func TestPlayersKeepSides(t *testing.T) {
	s := newSeats(t)
	s.must("b", "bob-secret", "turn: 1\nphase: choose\norders:\n  play: b\n")
	if got := binding(s.g); got != "a=alice@example.org(a) b=bob@example.org(b)" {
		t.Errorf("after keeping b: %s", got)
	}
	s.must("b", "bob-secret", "turn: 1\nphase: write\norders:\n  note: x\n")
}

// TestSeatsRefused: a game.created may not name seats (players take them
// from their sides), nor may a new game, and a swap of a side the game
// does not have leaves the log unfoldable rather than guessing.
func TestSeatsRefused(t *testing.T) {
	_, _, err := game.Create(game.NewGame{ID: "pick-2", Ruleset: pickRules, Scenario: "one",
		Players: []game.Player{{Side: "a", Address: "x@example.org", Seat: "b"}, {Side: "b"}}, Time: t0, Secret: secret(0)})
	if err == nil {
		t.Error("a new game with a player seated at another side was created")
	}
	s := newSeats(t)
	bad := s.log[0]
	bad.Payload = []byte(strings.Replace(string(bad.Payload), `"side":"a",`, `"side":"a","seat":"b",`, 1))
	if _, err := game.Load([]game.Entry{bad}, lookupPick); err == nil || !strings.Contains(err.Error(), "seat") {
		t.Errorf("a game.created naming a seat: %v", err)
	}
	s.must("b", "bob-secret", "turn: 1\nphase: choose\norders:\n  play: a\n")
	log := append([]game.Entry(nil), s.log...)
	for i, e := range log {
		if e.Type == "pick.chosen" {
			log[i].Payload = []byte(`{"by":"b","side":"c"}`)
		}
	}
	var le *game.LogError
	if _, err := game.Load(log, lookupPick); !errors.As(err, &le) {
		t.Errorf("a swap with side c folded: %v", err)
	}
}
