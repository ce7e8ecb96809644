package conquete_test

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir/conquete"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir/conquete/conquetetest"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/rulesets"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
)

// The proof the issue asks for: a short campaign played through the games
// service on a memory store, as by mail — the two secret setups, the
// turns with their negotiations, a stealthy move later revealed, a Battle
// created as a child game of Dragon Noir and played to its end, its
// result changing the campaign — then the campaign's bundle exported and
// verified with its Battles, and, before the campaign's end, an export
// that holds none of its sealed content.

// campaignPlay is a campaign played by mail: conquetetest's mails, and
// for the rest each side's default. battle plays each Battle's game to its
// end (nil: conquetetest.WalkAway by mail).
type campaignPlay struct {
	t      *testing.T
	s      *games.Service
	id     string
	battle func(cp *campaignPlay, child string)
	// midway, if set, sees the campaign when a Battle begins (the
	// campaign running, waiting for it).
	midway  func(cp *campaignPlay)
	battles []string // the Battles' games, in order
}

func newCampaignService() *games.Service {
	return &games.Service{Store: store.NewMemory(), Rules: rulesets.Lookup, Rand: &conquetetest.Bytes{}, Now: conquetetest.Clock()}
}

func (cp *campaignPlay) load(id string) *game.Game {
	cp.t.Helper()
	g, err := cp.s.Load(context.Background(), id)
	if err != nil {
		cp.t.Fatal(err)
	}
	return g
}

// driver plays the service's games by mail; battle, if set, plays each
// Battle's game to its end, else each is played with conquetetest.WalkAway.
func (cp *campaignPlay) driver(battle func(child string) error) *conquetetest.Driver {
	return &conquetetest.Driver{
		Load: func(id string) (*game.Game, error) { return cp.s.Load(context.Background(), id) },
		Submit: func(id string, side adjudicator.Side, orders string) error {
			_, err := cp.s.Submit(context.Background(), games.SubmitRequest{Game: id, Side: side, Src: []byte(orders), Via: "test"})
			return err
		},
		Battle: battle,
	}
}

// run plays the campaign to its end.
func (cp *campaignPlay) run() {
	cp.t.Helper()
	var err error
	cp.battles, err = cp.driver(func(child string) error {
		if cp.midway != nil {
			cp.midway(cp)
		}
		if cp.battle != nil {
			cp.battle(cp, child)
			return nil
		}
		_, err := cp.driver(nil).Play(child, conquetetest.WalkAway)
		return err
	}).Play(cp.id, conquetetest.NewCampaign().Next)
	if err != nil {
		cp.t.Fatal(err)
	}
}

// reportOf is every report line of game id's adjudications, with its
// audience, as its log keeps them.
func reportOf(t *testing.T, s *games.Service, id string) []adjudicator.Line {
	t.Helper()
	evs, err := s.Store.Events(context.Background(), id, 1)
	if err != nil {
		t.Fatal(err)
	}
	var out []adjudicator.Line
	for _, e := range evs {
		var a game.Adjudicated
		if e.Type != game.TypeAdjudicated || json.Unmarshal(e.Payload, &a) != nil {
			continue
		}
		out = append(out, a.Report...)
	}
	return out
}

// campaignLog is the campaign's own files of a series bundle (not its
// games', nor its module's data), as text.
func campaignLog(t *testing.T, bundle []byte, id string) string {
	t.Helper()
	var b strings.Builder
	tr := tar.NewReader(bytes.NewReader(bundle))
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(h.Name, id+"/") || strings.HasPrefix(h.Name, id+"/games/") || strings.HasPrefix(h.Name, id+"/module/") {
			continue
		}
		body, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "== %s\n%s\n", h.Name, body)
	}
	return b.String()
}

// sealedContent lists what of the campaign's secrets a text shows: the
// Rebels' messenger (HID-9), the Reptilians' relations (HID-10), the
// setups' army sheets and the stealthy troop's counters and moves
// (HID-11, HID-12).
func sealedContent(text string) []string {
	var out []string
	for _, s := range []string{`"ally":"elfes"`, `ally: elfes`, `"relations"`, `relations:`, `"value":"A"`, `"value":"E"`,
		`barbares: E`, `rept-scout-1`, `rept-scout`, `move: R3`, `stealthy: [R3]`} {
		if strings.Contains(text, s) {
			out = append(out, s)
		}
	}
	return out
}

var _ = conquete.Name

// startCampaign creates the campaign "val", three turns long.
func startCampaign(t *testing.T, s *games.Service, options map[string]string) {
	t.Helper()
	_, err := s.Create(context.Background(), games.CreateRequest{ID: "val", Ruleset: conquete.Name, Scenario: conquete.ScenarioID, Options: options,
		Referee: "referee@example.org", Players: []games.Player{{Side: conquete.Rebels, Address: "rebels@example.org"},
			{Side: conquete.Reptilians, Address: "reptilians@example.org"}}})
	if err != nil {
		t.Fatal(err)
	}
}

// checkCampaign checks what every campaign of the proof must have done,
// then exports it and verifies the bundle, Battles included.
func checkCampaign(t *testing.T, cp *campaignPlay, midway string, played bool, tamper [2]string) {
	t.Helper()
	ctx := context.Background()
	var text []string
	for _, l := range reportOf(t, cp.s, cp.id) {
		text = append(text, l.Text)
	}
	report := strings.Join(text, "\n")
	for _, want := range []string{
		"The Rebels set up", "The Reptilians set up", // the setups
		"The Reptilians made a hidden move (PBEM-DN3-12).", // the stealthy move,
		"reveal",                             // revealed
		"(DN3-CAMP-NEG-1).",                  // a Region chosen
		"Hermit",                             // a negotiation with the Hermit
		"The Battle of La Croisée begins (b", // the Battle
		"The Battle of La Croisée (b",        // and its end
		"The campaign ends",
	} {
		if !strings.Contains(report, want) {
			t.Errorf("the campaign's report does not say %q:\n%s", want, report)
		}
	}
	if len(cp.battles) == 0 {
		t.Fatal("no Battle was fought")
	}
	for _, b := range cp.battles {
		if g := cp.load(b); !g.Over() || g.Created.Ruleset != "dragonnoir" {
			t.Errorf("the Battle %s: ruleset %s, over %v", b, g.Created.Ruleset, g.Over())
		}
	}
	if !strings.Contains(report, "Killed in the Battle") && !strings.Contains(report, "left the map toward") {
		t.Errorf("the Battle changed nothing in the campaign:\n%s", report)
	}
	// Midway, the campaign's export kept every secret.
	if midway == "" {
		t.Error("no export was made while the campaign was running")
	} else if leaks := sealedContent(midway); len(leaks) > 0 {
		t.Errorf("the campaign's export before its end shows %v", leaks)
	} else if !strings.Contains(midway, adjudicator.TypeSecret) {
		t.Error("the campaign's export before its end has no sealed event: was anything sealed?")
	}
	// At the end, the bundle verifies, with its Battles.
	a, err := cp.s.VerifySeries(ctx, cp.id, games.Known{}, true)
	if err != nil {
		t.Fatal(err)
	}
	if !a.OK() {
		t.Fatalf("the campaign does not verify: %v", a.Problems())
	}
	var buf bytes.Buffer
	if err := cp.s.ExportSeries(ctx, cp.id, &buf); err != nil {
		t.Fatal(err)
	}
	ba, err := games.VerifySeriesBundle(bytes.NewReader(buf.Bytes()), rulesets.Lookup, games.Known{})
	if err != nil {
		t.Fatal(err)
	}
	if !ba.OK() || len(ba.Children) != len(cp.battles) {
		t.Fatalf("the campaign's bundle: %v; %d Battles in it, %d fought", ba.Problems(), len(ba.Children), len(cp.battles))
	}
	for _, b := range cp.battles {
		if c := ba.Children[b]; c == nil || played && c.Redecided == 0 {
			t.Errorf("the bundle's Battle %s was not replayed: %+v", b, c)
		}
	}
	// The end revealed what was sealed: the same check finds it now.
	if leaks := sealedContent(campaignLog(t, buf.Bytes(), cp.id)); len(leaks) == 0 {
		t.Error("the campaign's export after its end shows none of its secrets: the check cannot fail")
	}
	// A Battle's log changed: the campaign's bundle no longer verifies.
	bad := bytes.Replace(buf.Bytes(), []byte(tamper[0]), []byte(tamper[1]), 1)
	if bytes.Equal(bad, buf.Bytes()) {
		t.Fatalf("no %q to change in the bundle", tamper[0])
	}
	if tb, err := games.VerifySeriesBundle(bytes.NewReader(bad), rulesets.Lookup, games.Known{}); err == nil && tb.OK() {
		t.Errorf("a campaign bundle with a Battle changed (%q) verifies", tamper[0])
	}
}

// exportMidway exports the campaign while it runs.
func exportMidway(midway *string) func(cp *campaignPlay) {
	return func(cp *campaignPlay) {
		var buf bytes.Buffer
		if err := cp.s.ExportSeries(context.Background(), cp.id, &buf); err != nil {
			cp.t.Fatal(err)
		}
		*midway = campaignLog(cp.t, buf.Bytes(), cp.id)
	}
}

// TestCampaignRefereeBattles: the short campaign with option
// battles=referee: the referee ends each Battle's game with its result in
// words (command: end), which the campaign applies; series verify holds
// the campaign to the Battles' own logs.
func TestCampaignRefereeBattles(t *testing.T) {
	s := newCampaignService()
	startCampaign(t, s, map[string]string{"length": "1-apres-midi", "battles": "referee"})
	var midway string
	cp := &campaignPlay{t: t, s: s, id: "val", midway: exportMidway(&midway),
		battle: func(cp *campaignPlay, child string) {
			g := cp.load(child)
			var dead, left []string
			for _, u := range g.View(adjudicator.Observer).Units {
				switch {
				case u.Side == conquete.ChildReptilians && len(dead) == 0:
					dead = append(dead, u.ID)
				case u.Side == conquete.ChildReptilians:
					left = append(left, u.ID+" to le-pont")
				}
			}
			result := fmt.Sprintf("the Reptilians are routed; dead: %s; left: %s", strings.Join(dead, ", "), strings.Join(left, ", "))
			if _, err := cp.s.End(context.Background(), child, result, conquete.ChildReptilians, nil); err != nil {
				cp.t.Fatal(err)
			}
		}}
	cp.run()
	checkCampaign(t, cp, midway, false, [2]string{"the Reptilians are routed", "the Rebels are routed"})
}

// TestCampaignByMail is the proof: the short campaign by mail, its Battle
// at La Croisée played to its end as a game of Dragon Noir — the Rebels'
// troop coming in from the Conseil des Ents, the Reptilian Sorcerer set up
// at the west of the centre, who walks a hex a turn to the edge toward Le
// Pont and leaves the map by it (DN3-CAMP-BATTLE-8): the Rebels hold the
// field (DN3-CAMP-BATTLE-10), and the campaign places the Sorcerer with
// the Reptilians' troop at Le Pont (DN3-CAMP-RETREAT-4).
func TestCampaignByMail(t *testing.T) {
	s := newCampaignService()
	startCampaign(t, s, map[string]string{"length": "1-apres-midi"})
	var midway string
	cp := &campaignPlay{t: t, s: s, id: "val", midway: exportMidway(&midway)}
	cp.run()
	checkCampaign(t, cp, midway, true, [2]string{"leave: le-pont", "leave: le-gue"})
	report := ""
	for _, l := range reportOf(t, s, "val") {
		report += l.Text + "\n"
	}
	for _, want := range []string{"sorcerer left the map toward Le Pont (DN3-CAMP-BATTLE-8)",
		"A troop of the Reptilians at Le Pont takes in sorcerer, who left the Battle's map that way (DN3-CAMP-RETREAT-4)."} {
		if !strings.Contains(report, want) {
			t.Errorf("the campaign's report does not say %q:\n%s", want, report)
		}
	}
	g := cp.load("val")
	for _, u := range g.View(adjudicator.Referee).Units {
		if u.ID == "sorcerer" && u.At != "le-pont" {
			t.Errorf("the Sorcerer is at %q, not at Le Pont", u.At)
		}
	}
}
