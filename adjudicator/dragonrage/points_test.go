package dragonrage

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
)

// TestPointTable checks data/points.yaml against Table DR-TABLE-POINTS
// (normalised), value by value, and that every buyable type is a counter
// umpire knows.
func TestPointTable(t *testing.T) {
	p, err := Points()
	if err != nil {
		t.Fatal(err)
	}
	d, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]int{ // half points: invader, defender
		"WYVERN": {90, 90}, "DRAGON": {80, 80}, "ROC": {50, 50}, "YDRAGON": {32, 32},
		"WZD": {36, 28}, "HERO": {34, 30}, "GIANT": {26, 26}, "TREX": {26, 26}, "SERP": {26, 26},
		"WRG": {10, 10}, "TRL": {8, 8}, "CAV": {8, 8}, "BAL": {6, 6}, "CAT": {6, 6},
		"INF": {5, 5}, "ORC": {5, 5}, "ARH": {4, 4}, "GOB": {4, 4}, "MIL": {2, 2},
	}
	if len(p.Types) != len(want) {
		t.Errorf("%d types in the point table, want %d", len(p.Types), len(want))
	}
	for code, w := range want {
		pt, ok := p.Types[code]
		if !ok {
			t.Errorf("%s missing", code)
			continue
		}
		if got := [2]int{pt.half(Invader), pt.half(Defender)}; got != w {
			t.Errorf("%s costs %v half points, want %v", code, got, w)
		}
		if pt.Rule == "" {
			t.Errorf("%s has no rule", code)
		}
		playable := pt.Playable == nil || *pt.Playable
		// A major monster's counter type exists while its rules are being
		// written (§18): not yet for sale.
		if typ, known := d.Types[code]; playable && !known || !playable && known && typ.Kind != "major" {
			t.Errorf("%s: playable %v but a counter type of umpire: %v", code, playable, known)
		}
		if playable && counterLimit(pt, d.Mix) < 1 {
			t.Errorf("%s: no counter to buy (mix or counters)", code)
		}
	}
	for _, code := range []string{"ELW", "ELM"} { // DR-PTS-4
		if _, ok := p.Types[code]; ok {
			t.Errorf("%s has a point value; DR-PTS-4 gives it none", code)
		}
	}
}

func TestPointGoal(t *testing.T) {
	units := func(side adjudicator.Side, types ...string) []NewUnit {
		var out []NewUnit
		for _, ty := range types {
			out = append(out, NewUnit{Type: ty, Side: side})
		}
		return out
	}
	many := func(n int, ty string) []string { return strings.Fields(strings.Repeat(ty+" ", n)) }
	cases := []struct {
		name  string
		mp    string
		opts  map[string]string
		units []NewUnit
		want  int
	}{
		// DR-THR-4: Esirien 1 is 2 Dragons against 22 defenders: 19.
		{"DR-THR-4 e1", "esirien", nil, append(units(Invader, "DRAGON", "DRAGON"), units(Defender, many(22, "INF")...)...), 19},
		{"base", "esirien", nil, append(units(Invader, "GIANT"), units(Defender, "INF")...), 17},
		{"nurkott", "nurkott", nil, units(Invader, "GIANT"), 18},
		{"roc young dragon wyvern", "esirien", nil, units(Invader, "ROC", "YDRAGON", "WYVERN"), 20},
		{"11 invaders", "esirien", nil, units(Invader, many(11, "ORC")...), 18},
		{"10 invaders", "esirien", nil, units(Invader, many(10, "ORC")...), 17},
		{"elowyn +1, and a unit", "esirien", map[string]string{"elowyn": "on"}, units(Defender, many(20, "INF")...), 17},
		{"pool units do not count", "esirien", nil, append(units(Defender, many(20, "INF")...), NewUnit{Type: "INF", Side: Defender, Pool: true}), 17},
		{"goal-adjust", "esirien", map[string]string{"goal-adjust": "-3"}, nil, 14},
		{"at least 1", "esirien", map[string]string{"goal-adjust": "-30"}, nil, 1},
	}
	for _, c := range cases {
		st := &State{Map: c.mp, Options: c.opts}
		if got, why := st.pointGoal(c.units); got != c.want {
			t.Errorf("%s: goal %d (%s), want %d", c.name, got, why, c.want)
		}
	}
}

func TestGoalAdjustFixedScenario(t *testing.T) {
	for _, c := range []struct {
		adj  string
		want int
	}{{"+2", 18}, {"-1", 15}, {"0", 16}} {
		s, err := Ruleset.Setup(adjudicator.Setup{Scenario: "e2", Options: map[string]string{"goal-adjust": c.adj}})
		if err != nil {
			t.Fatal(err)
		}
		if g := s.(*State).Goal; g != c.want {
			t.Errorf("e2 goal-adjust=%s: goal %d, want %d", c.adj, g, c.want)
		}
		if m := Ruleset.View(s, adjudicator.Referee).Markers["goal"]; m != c.want {
			t.Errorf("e2 goal-adjust=%s: the view's goal marker is %v", c.adj, m)
		}
	}
	for _, bad := range []map[string]string{{"goal-adjust": "two"}, {"goal-adjust": "+31"}, {"points": "80/75"}} {
		if _, err := Ruleset.Setup(adjudicator.Setup{Scenario: "e2", Options: bad}); err == nil {
			t.Errorf("e2 with %v was set up", bad)
		}
	}
	for _, bad := range []map[string]string{{"points": "80"}, {"points": "0/75"}, {"forces.invader.GIANT": "2"}} {
		if _, err := Ruleset.Setup(adjudicator.Setup{Scenario: "points-esirien", Options: bad}); err == nil {
			t.Errorf("points-esirien with %v was set up", bad)
		}
	}
}

// salts are the salts of sealed parts: counting bytes.
type salts struct{ n byte }

func (s *salts) Read(p []byte) (int, error) {
	for i := range p {
		s.n++
		p[i] = s.n
	}
	return len(p), nil
}

var lookupDR = game.Lookup(func(name string) (adjudicator.Ruleset, bool) { return Ruleset, name == "dragonrage" })

// TestBuildsSealed plays the two builds of a point scenario through the
// game engine: the first army is sealed in the log until the second is in
// (DR-PBEM-5), and one adjudication reveals both.
func TestBuildsSealed(t *testing.T) {
	eg := newEngineGame(t, game.NewGame{
		ID: "p1", Ruleset: Ruleset, Scenario: "points-nurkott",
		Players: []game.Player{{Side: Invader, Address: "i@example.org"}, {Side: Defender, Address: "d@example.org"}},
	})
	submit := eg.submit
	due := eg.g.Due()
	if len(due) != 2 || !due[0].Hidden || !due[1].Hidden || due[0].Phase != "build" {
		t.Fatalf("due %+v, want two hidden build requests", due)
	}
	// Nurkott: the invader buys humans and monsters, the defender greenskins.
	out := submit(Invader, "turn: 0\nphase: build\norders:\n  GIANT: 2\n  CAV: 5\n  INF: 6\n  HERO: 1\n")
	if len(out.Results) != 0 {
		t.Fatal("adjudicated with one army in")
	}
	for _, e := range eg.log {
		if bytes.Contains(e.Payload, []byte("GIANT")) {
			t.Fatalf("the invader's army is readable in the log before the defender built: %s %s", e.Type, e.Payload)
		}
	}
	if v := eg.g.View(Defender); len(v.Units) != 0 {
		t.Errorf("the defender sees units before both armies are in: %+v", v.Units)
	}
	if due := eg.g.Due(); len(due) != 2 {
		t.Errorf("due %+v", due)
	}
	out = submit(Defender, "turn: 0\nphase: build\norders:\n  ORC: 10\n  GOB: 8\n  WRG: 1\n  HERO: 1\n  WZD: 1\n")
	if len(out.Results) != 1 {
		t.Fatalf("%d adjudications once both armies are in", len(out.Results))
	}
	st := eg.g.State.(*State)
	if st.Phase != phSetupDefender || st.unit("GIANT-2") == nil || st.unit("WRG-1") == nil || st.unit("HERO-2") == nil {
		t.Fatalf("after the builds: phase %s, units %d", st.Phase, len(st.Units))
	}
	if st.unit("HERO-1").Side != Invader || st.unit("HERO-2").Side != Defender {
		t.Error("heroes are numbered per type, invader first")
	}
	// 17, +1 for 14 invaders, -1 for 21 defenders, +1 for Nurkott.
	if st.Goal != 18 {
		t.Errorf("goal %d, want 18", st.Goal)
	}
	if a := game.Verify(eg.log); !a.OK() {
		t.Errorf("verify: %+v", a)
	}
	if a := game.Replay(eg.log, lookupDR); !a.OK() {
		t.Errorf("replay: %+v", a)
	}
}

// TestBuildPhasePositions: a position may wait in a point game's build
// phase with no army yet (Elowyn alone may be there); not with units, and
// not in a fixed scenario.
func TestBuildPhasePositions(t *testing.T) {
	ok := "scenario: points-esirien\ngoal: 17\nturn: 0\nphase: build\nunits: []\n"
	s, err := Ruleset.Setup(adjudicator.Setup{Position: []byte(ok), Options: map[string]string{"points": "70/70"}})
	if err != nil {
		t.Fatal(err)
	}
	due := Ruleset.Due(s)
	if len(due) != 2 || !strings.Contains(due[0].Title, "70 points") {
		t.Errorf("due %+v", due)
	}
	for name, c := range map[string]struct {
		pos  string
		opts map[string]string
		want string
	}{
		"units":      {"scenario: points-esirien\ngoal: 17\nturn: 0\nphase: build\nunits:\n  - {id: INF-1, type: INF, side: defender}\n", nil, "armies are not built yet"},
		"fixed":      {"scenario: e2\nturn: 0\nphase: build\nunits:\n  - {id: INF-1, type: INF, side: defender}\n", nil, "no phase \"build\""},
		"no goal":    {"scenario: points-nurkott\nturn: 0\nphase: build\nunits: []\n", nil, "states its goal"},
		"bad points": {ok, map[string]string{"points": "70"}, "INVADER/DEFENDER"},
	} {
		_, err := Ruleset.Setup(adjudicator.Setup{Position: []byte(c.pos), Options: c.opts})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", name, err, c.want)
		}
	}
}

// TestWeightedScenarios holds the weighted scenarios to DR-PTS-1 (80 to 85
// points for the invader, 72 to 77 for the defender, 20 to 22 units in
// all) and proves that each has a build umpire accepts: for each side,
// every (units, cost) an army of the counters it may buy can reach, within
// the counter mix, and a pair of armies within the ranges and the count.
func TestWeightedScenarios(t *testing.T) {
	pd, err := Points()
	if err != nil {
		t.Fatal(err)
	}
	d, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"weighted-esirien", "weighted-nurkott"} {
		sc, ok := pd.scenario(id)
		if !ok {
			t.Fatalf("no scenario %s", id)
		}
		if !sc.Weighted || sc.Rule != "DR-PTS-1" || sc.InvaderMin != 80 || sc.Invader != 85 || sc.DefenderMin != 72 || sc.Defender != 77 ||
			len(sc.Units) != 2 || sc.Units[0] != 20 || sc.Units[1] != 22 {
			t.Errorf("%s: %+v is not DR-PTS-1's", id, sc)
		}
		s, err := Ruleset.Setup(adjudicator.Setup{Scenario: id})
		if err != nil {
			t.Fatal(err)
		}
		w := newWorld(s.(*State), nil)
		// reach[side][units] is the set of costs (half points) an army of
		// that many units can have.
		reach := map[adjudicator.Side][]map[int]bool{}
		for _, side := range []adjudicator.Side{Invader, Defender} {
			r := make([]map[int]bool, sc.Units[1]+1)
			r[0] = map[int]bool{0: true}
			for _, code := range buyableCodes(pd) {
				pt := pd.Types[code]
				if w.notBuyable(side, pt) != "" {
					continue
				}
				limit := counterLimit(pt, d.Mix)
				next := make([]map[int]bool, len(r))
				for n := range r {
					for cost := range r[n] {
						for k := 0; k <= limit && n+k < len(r); k++ {
							if next[n+k] == nil {
								next[n+k] = map[int]bool{}
							}
							next[n+k][cost+k*pt.half(side)] = true
						}
					}
				}
				r = next
			}
			reach[side] = r
		}
		fewest := 0
		for ni, costs := range reach[Invader] {
			for ci := range costs {
				if ci < sc.InvaderMin*2 || ci > sc.Invader*2 {
					continue
				}
				for nd, dc := range reach[Defender] {
					for cd := range dc {
						if cd >= sc.DefenderMin*2 && cd <= sc.Defender*2 && ni+nd >= sc.Units[0] && ni+nd <= sc.Units[1] && (fewest == 0 || ni+nd < fewest) {
							fewest = ni + nd
						}
					}
				}
			}
		}
		if fewest == 0 {
			t.Errorf("%s: no build umpire accepts", id)
		}
		t.Logf("%s: the fewest units a build may have: %d", id, fewest)
	}
}

// TestWeightedSetup: the weighted scenario's points are its ranges and its
// goal is the builder's: the options that would change them are refused.
func TestWeightedSetup(t *testing.T) {
	for _, bad := range []map[string]string{{"points": "85/77"}, {"goal-adjust": "+1"}, {"forces.invader.GIANT": "2"}} {
		if _, err := Ruleset.Setup(adjudicator.Setup{Scenario: "weighted-esirien", Options: bad}); err == nil {
			t.Errorf("weighted-esirien with %v was set up", bad)
		}
	}
	s, err := Ruleset.Setup(adjudicator.Setup{Scenario: "weighted-nurkott", Options: map[string]string{"elowyn": "on"}})
	if err != nil {
		t.Fatal(err)
	}
	due := Ruleset.Due(s)
	if len(due) != 1 || due[0].Side != Invader || due[0].Hidden || due[0].Phase != "build" ||
		!strings.Contains(due[0].Prompt, "the invader's of 80 to 85 points and the defender's of 72 to 77, 20 to 22 units in all") {
		t.Errorf("due %+v, want the builder's one public request", due)
	}
}

// TestWeightedThroughTheGame plays a weighted game's build and side choice
// through the game engine: the build is public in the log (the chooser
// must read it), the choice is an event of the log that swaps the
// players, the player who chose plays the invader from then on, and the
// default answer to the choice (no-move=default) keeps the chooser's side.
func TestWeightedThroughTheGame(t *testing.T) {
	eg := newEngineGame(t, game.NewGame{
		ID: "w1", Ruleset: Ruleset, Scenario: "weighted-nurkott",
		Players: []game.Player{{Side: Invader, Address: "builder@example.org"}, {Side: Defender, Address: "chooser@example.org"}},
	})
	submit := eg.submit
	out := submit(Invader, "turn: 0\nphase: build\norders:\n  invader: {GIANT: 5, HERO: 1}\n  defender: {HERO: 1, WZD: 1, WRG: 4, TRL: 3, ORC: 2, GOB: 3}\n")
	if len(out.Results) != 1 || out.Accepted.Text == "" || !strings.Contains(out.Accepted.Normalized, "GIANT: 5") {
		t.Fatalf("the build: %d adjudications, text %q, normalized %q; want one, public", len(out.Results), out.Accepted.Text, out.Accepted.Normalized)
	}
	due := eg.g.Due()
	if len(due) != 1 || due[0].Side != Defender || due[0].Kind != "decision" || due[0].Phase != "choose" {
		t.Fatalf("due %+v, want the chooser's decision", due)
	}
	if d, ok := Ruleset.(adjudicator.Defaulter).DefaultOrders(eg.g.State, due[0]); !ok || strings.TrimSpace(d) != "play: defender" {
		t.Errorf("the default side choice is %q, %v; want the side he was named for", d, ok)
	}
	if v := eg.g.View(Defender); len(v.Units) == 0 {
		t.Error("the chooser sees no army to choose from")
	}
	submit(Defender, "turn: 0\nphase: choose\norders:\n  play: invader\n")
	var chosen int
	for _, e := range eg.log {
		if e.Type == "dragonrage.side-chosen" {
			chosen++
			if string(e.Payload) != `{"by":"defender","side":"invader"}` {
				t.Errorf("side-chosen payload %s", e.Payload)
			}
		}
	}
	if chosen != 1 {
		t.Fatalf("%d side-chosen events in the log, want 1", chosen)
	}
	for side, want := range map[adjudicator.Side]string{Invader: "chooser@example.org", Defender: "builder@example.org"} {
		if p, _ := eg.g.Player(side); p.Address != want {
			t.Errorf("the %s is played by %s, want %s", side, p.Address, want)
		}
	}
	if eg.g.Seat(Invader) != Defender || eg.g.Seat(Defender) != Invader {
		t.Errorf("seats: invader %s, defender %s: each player keeps the secret he was given", eg.g.Seat(Invader), eg.g.Seat(Defender))
	}
	if due := eg.g.Due(); len(due) != 1 || due[0].Side != Defender || due[0].Phase != "setup" {
		t.Errorf("due %+v, want the defender's setup (the builder's now)", due)
	}
	again, err := game.Load(eg.log, lookupDR)
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := again.Player(Invader); p.Address != "chooser@example.org" {
		t.Errorf("the log folds to the invader played by %s", p.Address)
	}
	if a := game.Verify(eg.log); !a.OK() {
		t.Errorf("verify: %+v", a)
	}
	if a := game.Replay(eg.log, lookupDR); !a.OK() {
		t.Errorf("replay: %+v", a)
	}
}

// engineGame is a game played through the game engine in a test, its log
// kept as the store would keep it.
type engineGame struct {
	t     *testing.T
	g     *game.Game
	log   []game.Entry
	t0    time.Time
	vault game.Vault
}

var engineSecret = bytes.Repeat([]byte{7}, 32)

func newEngineGame(t *testing.T, n game.NewGame) *engineGame {
	t.Helper()
	eg := &engineGame{t: t, t0: time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC), vault: game.Vault{}}
	n.Time, n.Secret = eg.t0, engineSecret
	rec, _, err := game.Create(n)
	if err != nil {
		t.Fatal(err)
	}
	eg.log = []game.Entry{{Seq: 1, Record: rec}}
	if eg.g, err = game.Load(eg.log, lookupDR); err != nil {
		t.Fatal(err)
	}
	return eg
}

// submit submits side's orders, which must be accepted, and keeps the
// records.
func (eg *engineGame) submit(side adjudicator.Side, src string) *game.Outcome {
	eg.t.Helper()
	out, err := eg.g.Submit(game.Input{Side: side, Src: []byte(src), Time: eg.t0.Add(time.Duration(len(eg.log)) * time.Minute), Via: "test",
		Secrets: func(int) ([]byte, error) { return engineSecret, nil }, NextSecret: bytes.Repeat([]byte{9}, 32),
		Rand: &salts{}, Unseal: eg.vault.Unseal})
	if err != nil {
		eg.t.Fatalf("%s: %v", side, err)
	}
	for _, r := range out.Records {
		eg.log = append(eg.log, game.Entry{Seq: uint64(len(eg.log) + 1), Record: r})
	}
	eg.vault.Keep(out.Records)
	eg.g = out.Next
	return out
}
