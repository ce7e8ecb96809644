package campaign_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonrage/campaign"
	"github.com/umpire-pbem/umpire/adjudicator/game"
)

// played is a game played in memory through the engine, keeping its log.
type played struct {
	t     *testing.T
	g     *game.Game
	log   []game.Entry
	vault game.Vault
	n     byte
}

var t0 = time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)

func create(t *testing.T, n game.NewGame) *played {
	t.Helper()
	n.Time, n.Secret = t0, bytes.Repeat([]byte{7}, 32)
	rec, _, err := game.Create(n)
	if err != nil {
		t.Fatal(err)
	}
	p := &played{t: t, log: []game.Entry{{Seq: 1, Record: rec}}, vault: game.Vault{}}
	if p.g, err = game.Load(p.log, lookup); err != nil {
		t.Fatal(err)
	}
	return p
}

func (p *played) Read(b []byte) (int, error) {
	for i := range b {
		p.n++
		b[i] = p.n
	}
	return len(b), nil
}

func (p *played) submit(side adjudicator.Side, via, src string) {
	p.t.Helper()
	out, err := p.g.Submit(game.Input{Side: side, Src: []byte(src), Time: t0.Add(time.Duration(len(p.log)) * time.Minute), Via: via,
		Secrets: func(int) ([]byte, error) { return bytes.Repeat([]byte{7}, 32), nil }, NextSecret: bytes.Repeat([]byte{9}, 32),
		Rand: p, Unseal: p.vault.Unseal})
	if err != nil {
		p.t.Fatalf("%s: %v\n%s", side, err, src)
	}
	for _, r := range out.Records {
		p.log = append(p.log, game.Entry{Seq: uint64(len(p.log) + 1), Record: r})
	}
	p.vault.Keep(out.Records)
	p.g = out.Next
}

// children are the series.child events of a log.
func (p *played) children() []adjudicator.ChildGame {
	var out []adjudicator.ChildGame
	for _, e := range p.log {
		if e.Type == adjudicator.TypeChildGame {
			var c adjudicator.ChildGame
			if err := json.Unmarshal(e.Payload, &c); err != nil {
				p.t.Fatal(err)
			}
			out = append(out, c)
		}
	}
	return out
}

// TestRealChildResult plays game 1 of a campaign as the games service
// would: the child is created from the series.child event, played (the
// invader concedes at the build, after the defender's army, Elowyn's
// included, is in), and its result, read from its final Observer view as
// store/games does (ChildResultOf) and written out as YAML, is the series'
// answer; the campaign scores it and reaches game 2.
func TestRealChildResult(t *testing.T) {
	players := []game.Player{{Side: campaign.Invader, Address: "i@example.org"}, {Side: campaign.Defender, Address: "d@example.org"}}
	series := create(t, game.NewGame{ID: "camp", Ruleset: campaign.Ruleset, Scenario: campaign.ScenarioID,
		Options: map[string]string{"map": "nurkott", "elowyn": "on"}, Players: players})
	series.submit(adjudicator.SeriesSide, adjudicator.ViaSeries, "turn: 1\nphase: start\norders: {}\n")
	cs := series.children()
	if len(cs) != 1 {
		t.Fatalf("%d children after the start", len(cs))
	}
	c := cs[0]
	rs, _ := lookup(c.Ruleset)
	child := create(t, game.NewGame{ID: adjudicator.ChildID("camp", c.Key), Ruleset: rs, Scenario: c.Scenario, Options: c.Options, Players: players,
		Parent: &game.Parent{Game: "camp", Key: c.Key, Seq: 3}})
	child.submit(campaign.Defender, "test", "turn: 0\nphase: build\norders:\n  ORC: 10\n  GOB: 5\n")
	child.submit(campaign.Invader, "test", "turn: 0\nphase: build\norders:\n  concede: true\n")
	if !child.g.Over() {
		t.Fatal("the child is not over")
	}
	v := child.g.View(adjudicator.Observer)
	v.Traces = nil
	res := &adjudicator.ChildResult{Key: c.Key, Game: child.g.ID, Winner: v.Winner, Result: v.Result, View: v,
		Head: "0f", Events: child.g.Version,
		Players: []adjudicator.ChildPlayer{{Side: campaign.Invader, Player: campaign.Invader}, {Side: campaign.Defender, Player: campaign.Defender}}}
	body, err := yaml.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var n yaml.Node
	if err := yaml.Unmarshal(body, &n); err != nil {
		t.Fatal(err)
	}
	src, err := yaml.Marshal(map[string]any{"side": "series", "turn": 1, "phase": "result", "orders": n.Content[0]})
	if err != nil {
		t.Fatal(err)
	}
	series.submit(adjudicator.SeriesSide, adjudicator.ViaSeries, string(src))
	sv := series.g.View(adjudicator.Observer)
	// The defender won at 60/60: +10, the invader +5 (DR-TABLE-CAMPAIGN).
	if sv.Score[campaign.Invader] != 65 || sv.Score[campaign.Defender] != 70 || sv.Turn != 2 {
		t.Errorf("after game 1: %v, game %d", sv.Score, sv.Turn)
	}
	cs = series.children()
	if len(cs) != 2 || cs[1].Options["points"] != "65/70" || cs[1].Options["elowyn"] != "on" || cs[1].Scenario != "points-nurkott" {
		t.Errorf("game 2: %+v", cs)
	}
	if a := game.Verify(series.log); !a.OK() {
		t.Errorf("the series' log does not verify: %v", a.Problems)
	}
	if a := game.Replay(series.log, lookup); !a.OK() {
		t.Errorf("the series' log does not replay: %v", a.Problems)
	}
	if due := series.g.Due(); len(due) != 1 || due[0].ID != adjudicator.ResultKey("g2") {
		t.Errorf("due %s", fmt.Sprint(due))
	}
}
