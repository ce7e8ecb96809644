package conquete_test

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir/conquete"
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

// campaignPlay drives a campaign by mail: the answers it was given for a
// turn, phase and side, in order, and for the rest the rules' default
// (what a side's silence at a deadline means). battle plays each Battle's
// game to its end.
type campaignPlay struct {
	t      *testing.T
	s      *games.Service
	id     string
	script map[string][]string // "TURN/PHASE/SIDE" → orders, in order
	battle func(cp *campaignPlay, child string)
	// midway, if set, sees the campaign when a Battle begins (the
	// campaign running, waiting for it).
	midway  func(cp *campaignPlay)
	battles []string // the Battles' games, in order
}

// deterministic is a stream of bytes that never changes: the secrets and
// the dice seeds of the games, for a run that is the same every time.
type deterministic struct{ n byte }

func (d *deterministic) Read(p []byte) (int, error) {
	for i := range p {
		d.n = d.n*31 + 17
		p[i] = d.n
	}
	return len(p), nil
}

func newCampaignService() *games.Service {
	var mu sync.Mutex
	clock := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	return &games.Service{Store: store.NewMemory(), Rules: rulesets.Lookup, Rand: &deterministic{}, Now: func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		clock = clock.Add(time.Minute)
		return clock
	}}
}

func (cp *campaignPlay) load(id string) *game.Game {
	cp.t.Helper()
	g, err := cp.s.Load(context.Background(), id)
	if err != nil {
		cp.t.Fatal(err)
	}
	return g
}

// submit sends a mail's text (the envelope and the orders) for side of
// game id.
func (cp *campaignPlay) submit(id string, side adjudicator.Side, src string) (*game.Outcome, error) {
	return cp.s.Submit(context.Background(), games.SubmitRequest{Game: id, Side: side, Src: []byte(src), Via: "test"})
}

func indent(s string) string {
	var b strings.Builder
	for l := range strings.SplitSeq(strings.TrimRight(s, "\n"), "\n") {
		b.WriteString("  " + l + "\n")
	}
	return b.String()
}

// run plays the campaign to its end.
func (cp *campaignPlay) run() {
	t := cp.t
	for range 400 {
		g := cp.load(cp.id)
		if g.Over() {
			return
		}
		due := g.Due()
		if r := resultDue(due); r != nil {
			child := adjudicator.ChildID(cp.id, strings.TrimPrefix(r.ID, "result."))
			cp.battles = append(cp.battles, child)
			if cp.midway != nil {
				cp.midway(cp)
			}
			cp.battle(cp, child)
			continue
		}
		cp.answer(g, func(r adjudicator.Request) (string, bool) {
			key := fmt.Sprintf("%d/%s/%s", r.Turn, r.Phase, r.Side)
			if q := cp.script[key]; len(q) > 0 {
				cp.script[key] = q[1:]
				return q[0], true
			}
			return "", false
		})
	}
	t.Fatalf("%s does not end", cp.id)
}

// answer answers one request due in g that is not answered yet: with the
// orders mail says, or else the rules' default.
func (cp *campaignPlay) answer(g *game.Game, mail func(r adjudicator.Request) (string, bool)) {
	t := cp.t
	t.Helper()
	for _, r := range g.Due() {
		if _, answered := g.Answered(r.ID); answered || r.Side == adjudicator.SeriesSide {
			continue
		}
		orders, scripted := mail(r)
		if scripted {
			orders = fmt.Sprintf("turn: %d\nphase: %s\norders:\n%s", r.Turn, r.Phase, indent(orders))
		} else if b, ok := g.DefaultAnswer(r); ok {
			orders = string(b) // a whole mail
		} else {
			t.Fatalf("%s: nothing to answer %s with", g.ID, r.Title)
		}
		if _, err := cp.submit(g.ID, r.Side, orders); err != nil {
			t.Fatalf("%s: %s answers %s (scripted %v) with\n%s\nrefused: %v", g.ID, r.Side, r.Title, scripted, orders, err)
		}
		return // the game may have moved on
	}
	t.Fatalf("%s waits for %v and nobody can answer", g.ID, g.Due())
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

func resultDue(due []adjudicator.Request) *adjudicator.Request {
	for i, r := range due {
		if r.Kind == adjudicator.KindResult {
			return &due[i]
		}
	}
	return nil
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

// campaignScript is what the players mail in the short campaign: the two
// setups (the Reptilians' scouts a troop of their own, their Sorcerer
// another), the Reptilian scouts made stealthy and moved unseen to the
// Carrefour du dragon, then revealed; the Sorcerer to La Croisée; the
// Rebels off the road to the Moulin (a negotiation with the Hermit), their
// troop R3 on to the Conseil des Ents (another) and then to La Croisée,
// where the Sorcerer waits: a Battle. The rest is every side's default (a
// pass, the first Region, no attack, fight, the default retreat).
func campaignScript() map[string][]string {
	return map[string][]string{
		"1/setup/rebels": {`counters: [konrad, zacharie, laberne, gotmar, godiva, lucifer, jon, arlon, aldus, grast, thrugg, zed]
messenger: {ally: elfes}
troops:
  R1: [konrad, godiva, lucifer, grast]
  R2: [zacharie, thrugg, gotmar, aldus]
  R3: [laberne, jon, arlon, zed]`},
		"1/setup/reptilians": {`relations: {barbares: E, druides: N, elfes: A, ermite: N, gobelins: A, licornes: E, nains-gris: N}
troops:
  R1: [lord, chief-ysshal, rept-armoured-1, rept-armoured-2, rept-armoured-3, rept-armoured-4]
  R2: [chief-thessk, rept-warrior-4, rept-warrior-5, rept-warrior-6, rept-warrior-7, rept-warrior-8]
  R3: [rept-scout-1, rept-scout-2, rept-scout-3]
  R5: [raptor-1, raptor-2, raptor-3, raptor-4]
  R6: [sorcerer]
  R4: {at: le-pont, counters: [chief-sarrak, rept-warrior-1, rept-warrior-2, rept-warrior-3]}`},
		"1/reorganisation/reptilians": {`stealthy: [R3]`},
		"1/movement/rebels":           {"move: R1\npath: [le-moulin]", "move: R2\npath: [le-moulin]", "move: R3\npath: [le-moulin]"},
		"1/movement/reptilians":       {"move: R3\npath: [le-pont, carrefour-du-dragon]", "move: R6\npath: [le-pont, la-croisee]"},
		"1/reveal/reptilians":         {"reveal: [R3]"},
		"2/movement/rebels":           {"move: R3\npath: [conseil-des-ents]"},
		"3/movement/rebels":           {"move: R3\npath: [la-croisee]"},
	}
}

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
	cp := &campaignPlay{t: t, s: s, id: "val", script: campaignScript(), midway: exportMidway(&midway),
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
	cp := &campaignPlay{t: t, s: s, id: "val", script: campaignScript(), midway: exportMidway(&midway), battle: walkAway}
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

// walkAway plays a Battle by mail to its end: the Reptilians set up their
// counters at the west end of the centre and walk them a hex a turn west,
// leaving the map by the edge toward Le Pont; everything else is each
// side's default (the Rebels enter by their edge and stand).
func walkAway(cp *campaignPlay, child string) {
	t := cp.t
	for range 200 {
		g := cp.load(child)
		if g.Over() {
			return
		}
		cp.answer(g, func(r adjudicator.Request) (string, bool) {
			if r.Side != conquete.ChildReptilians {
				return "", false
			}
			var place, moves []string
			row := 5
			for _, u := range g.View(conquete.ChildReptilians).Units {
				if u.Side != conquete.ChildReptilians || u.Gone {
					continue
				}
				switch {
				case r.Phase == "setup":
					place = append(place, fmt.Sprintf("%s: \"05%02d\"", u.ID, row))
					row++
				case r.Phase == "krobs" && len(u.At) == 4:
					var c, rr int
					fmt.Sscanf(u.At, "%02d%02d", &c, &rr)
					m := fmt.Sprintf("{unit: %s, path: [\"%02d%02d\"]", u.ID, c-1, rr)
					if c-1 == 1 {
						m += ", leave: le-pont"
					}
					moves = append(moves, m+"}")
				}
			}
			switch {
			case len(place) > 0:
				return "place: {" + strings.Join(place, ", ") + "}", true
			case len(moves) > 0:
				return "moves: [" + strings.Join(moves, ", ") + "]", true
			}
			return "", false
		})
	}
	t.Fatalf("the Battle %s does not end", child)
}
