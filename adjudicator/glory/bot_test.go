package glory_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/glory"
)

// The test bot plays whole games of Dragons of Glory through the ruleset,
// deterministically: each turn it sends strategic orders (an activation
// attempt on the neutral nation it has the best chance with, and to move
// first if it wins the initiative), movement orders (each land army
// advances toward the nearest enemy-held fortification or enemy army along
// a path it works out from the map, stopping next to the enemy) and
// attacks (every enemy stack its armies touch at 2 to 1 or better), and
// answers every question with the question's default. The dice come from a
// committed seed. An order section the ruleset refuses (a chapter not
// built yet in this build) is dropped and the orders sent again without
// it; the bot counts what was accepted and what was refused, so a test can
// say what a game exercised.

// botSeed is the committed dice seed of the bot's games.
var botSeed = []byte("umpire glory bot seed 1")

type botStats struct {
	adjudications, strategic, activations, moves, attacks, answers int
	refused                                                        map[string]int // order section → refusals
}

func (b *botStats) String() string {
	var r []string
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range b.refused {
			if !yield(k) {
				return
			}
		}
	}) {
		r = append(r, fmt.Sprintf("%s %d", k, b.refused[k]))
	}
	return fmt.Sprintf("%d adjudications; accepted: %d strategic orders (%d with an activation attempt), %d moves, %d attacks, %d answers; refused sections: %s",
		b.adjudications, b.strategic, b.activations, b.moves, b.attacks, b.answers, strings.Join(r, ", "))
}

// playBot plays the scenario of module m (nil for the builtin one) to its
// end and returns the final state.
func playBot(t *testing.T, m *adjudicator.Module, scenario string) (*glory.State, *botStats) {
	t.Helper()
	return playBotUntil(t, m, scenario, nil)
}

// playBotUntil is playBot stopping early, after the first adjudication
// whose state stop accepts.
func playBotUntil(t *testing.T, m *adjudicator.Module, scenario string, stop func(*glory.State) bool) (*glory.State, *botStats) {
	t.Helper()
	rs := glory.Ruleset
	s, err := rs.Setup(adjudicator.Setup{Scenario: scenario, Module: m, Sides: []adjudicator.Side{glory.Highlord, glory.Whitestone}})
	if err != nil {
		t.Fatalf("%s: setup: %v", scenario, err)
	}
	st := s.(*glory.State)
	stats := &botStats{refused: map[string]int{}}
	limit := (st.End-st.Turn+1)*6 + 20
	for k := 1; !st.Over; k++ {
		if k > limit {
			t.Fatalf("%s: not over after %d adjudications (turn %d, step %s)", scenario, limit, st.Turn, st.Step)
		}
		reqs := rs.Due(st)
		if len(reqs) == 0 {
			t.Fatalf("%s: nothing is due and the game is not over (turn %d, step %s)", scenario, st.Turn, st.Step)
		}
		var subs []adjudicator.Submission
		for _, req := range reqs {
			o := botOrders(t, st, req, stats)
			subs = append(subs, adjudicator.Submission{Request: req, Side: req.Side, Orders: o})
		}
		before := st.Clone()
		r := adjudicator.NewResolution(rs, st.Clone(), dice.NewStream(botSeed, "bot-"+scenario, k))
		if err := rs.Decide(r, subs); err != nil {
			t.Fatalf("%s: adjudication %d (turn %d, %s): %v", scenario, k, st.Turn, st.Step, err)
		}
		// Replaying the events on the state before gives the same state.
		var again adjudicator.State = before
		for _, ev := range r.Events() {
			again = rs.Evolve(again, ev)
		}
		a, _ := json.Marshal(again)
		b, _ := json.Marshal(r.State())
		if string(a) != string(b) {
			t.Fatalf("%s: adjudication %d: folding its events does not give its state", scenario, k)
		}
		st = r.State().(*glory.State)
		stats.adjudications++
		if stop != nil && stop(st) {
			break
		}
	}
	return st, stats
}

// botOrders writes and parses the bot's orders for req, dropping each
// section the ruleset refuses.
func botOrders(t testing.TB, st *glory.State, req adjudicator.Request, stats *botStats) adjudicator.Orders {
	o, _ := botOrdersText(t, st, req, stats)
	return o
}

// botOrdersText is botOrders with the YAML of the orders section accepted,
// as a player would mail it under "orders:".
func botOrdersText(t testing.TB, st *glory.State, req adjudicator.Request, stats *botStats) (adjudicator.Orders, []byte) {
	t.Helper()
	sections := map[string]any{}
	var order []string // the sections to drop first, first
	switch {
	case req.Kind == "decision":
		var v any
		if err := yaml.Unmarshal([]byte(st.Pause.Pending.Question.Default), &v); err != nil {
			t.Fatalf("question %s: its default %q is not YAML: %v", req.ID, st.Pause.Pending.Question.Default, err)
		}
		sections["answer"] = v
	case req.Phase == glory.StepStrategic:
		sections["initiative"] = "first"
		if n := bestActivation(st, req.Side); n != "" {
			sections["activate"] = []string{n}
			order = append(order, "activate")
		}
	case req.Phase == glory.StepMove:
		moves, attacks := botMoves(st, req.Side)
		if len(attacks) > 0 {
			sections["attacks"] = attacks
			order = append(order, "attacks")
		}
		if len(moves) > 0 {
			sections["moves"] = moves
			order = append(order, "moves")
		}
	}
	rs := glory.Ruleset
	for {
		b, err := yaml.Marshal(sections)
		if err != nil {
			t.Fatal(err)
		}
		var doc yaml.Node
		if err := yaml.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		o, err := rs.ParseOrders(st, req, doc.Content[0])
		if err == nil {
			switch {
			case req.Kind == "decision":
				stats.answers++
			case req.Phase == glory.StepStrategic:
				stats.strategic++
				if sections["activate"] != nil {
					stats.activations++
				}
			default:
				if m, ok := sections["moves"].([]map[string]any); ok {
					stats.moves += len(m)
				}
				if a, ok := sections["attacks"].([]map[string]any); ok {
					stats.attacks += len(a)
				}
			}
			return o, b
		}
		if len(order) == 0 {
			t.Fatalf("turn %d %s: the bot's orders are refused: %v\n%s", st.Turn, req.ID, err, b)
		}
		drop := order[0]
		order = order[1:]
		code := "?"
		if e := firstCode(err); e != "" {
			code = e
		}
		stats.refused[drop+" ("+code+")"]++
		delete(sections, drop)
	}
}

func firstCode(err error) string {
	switch e := err.(type) {
	case *adjudicator.OrderError:
		return e.Code
	case adjudicator.OrderErrors:
		if len(e) > 0 {
			return e[0].Code
		}
	}
	return ""
}

// bestActivation is the neutral nation side is likeliest to activate.
func bestActivation(st *glory.State, side adjudicator.Side) string {
	d := st.Data()
	best, bestV := "", 0
	for _, id := range d.NationIDs() {
		n, ns := d.Nations[id], st.Nations[id]
		if n.Activation == nil || ns.Side != "" || ns.Conquered != "" {
			continue
		}
		if v := n.Activation[side]; v > bestV {
			best, bestV = id, v
		}
	}
	return best
}

// botMoves plans side's land moves and attacks.
func botMoves(st *glory.State, side adjudicator.Side) ([]map[string]any, []map[string]any) {
	g := st.Geo()
	enemy := glory.Other(side)
	ix := index(st)
	var targets []string
	for _, h := range g.Hexes() {
		if (g.Fort(h) != "" && st.Controller(h) == enemy) || len(ix[enemy][h]) > 0 {
			targets = append(targets, h)
		}
	}
	if len(targets) == 0 {
		return nil, nil
	}
	// Distance to the nearest target, from every hex (one search from all).
	toTarget := map[string]int{}
	front := slices.Clone(targets)
	for _, h := range front {
		toTarget[h] = 0
	}
	for d := 1; len(front) > 0; d++ {
		var next []string
		for _, h := range front {
			for _, n := range g.Near(h) {
				if _, ok := toTarget[n]; !ok {
					toTarget[n] = d
					next = append(next, n)
				}
			}
		}
		front = next
	}
	planned := map[string][]string{} // hex → own counters that will be there
	for _, u := range st.Sorted() {
		if u.Where == glory.OnMap && u.Side == side {
			planned[u.Hex] = append(planned[u.Hex], u.ID)
		}
	}
	var moves []map[string]any
	for _, u := range st.Sorted() {
		k := st.Kind(u.ID)
		if u.Where != glory.OnMap || u.Side != side || !k.IsLand() || ix.near(st, u.Hex, enemy) {
			continue
		}
		path := advance(st, ix, u, toTarget, planned)
		if len(path) == 0 {
			continue
		}
		end := path[len(path)-1]
		planned[u.Hex] = slices.DeleteFunc(planned[u.Hex], func(id string) bool { return id == u.ID })
		planned[end] = append(planned[end], u.ID)
		moves = append(moves, map[string]any{"unit": u.ID, "path": path})
	}
	// Attacks, from where the armies will be after their moves.
	var attacks []map[string]any
	used := map[string]bool{}
	for _, h := range slices.Sorted(func(yield func(string) bool) {
		for h := range ix[enemy] {
			if !yield(h) {
				return
			}
		}
	}) {
		def := ix[enemy][h]
		dstr := 0
		for _, e := range def {
			dstr += st.Face(e).Strength
		}
		switch g.Fort(h) {
		case "fortified-city":
			dstr *= 2
		case "fortress", "dwarven-fortress":
			dstr *= 3
		}
		var units []string
		astr := 0
		for _, n := range g.Near(h) {
			if !st.Touching(h, n) {
				continue
			}
			for _, id := range planned[n] {
				if used[id] || !st.Kind(id).IsArmy() {
					continue
				}
				units = append(units, id)
				astr += st.Face(st.Units[id]).Strength
			}
		}
		if len(units) > 0 && astr >= 2*max(dstr, 1) {
			sort.Strings(units)
			for _, id := range units {
				used[id] = true
			}
			attacks = append(attacks, map[string]any{"target": h, "units": units})
		}
	}
	return moves, attacks
}

// armyIndex lists each side's armies on the map by hex.
type armyIndex map[adjudicator.Side]map[string][]*glory.Unit

func index(st *glory.State) armyIndex {
	ix := armyIndex{glory.Highlord: {}, glory.Whitestone: {}}
	for _, u := range st.Sorted() {
		if u.Where == glory.OnMap && ix[u.Side] != nil && st.Kind(u.ID).IsArmy() {
			ix[u.Side][u.Hex] = append(ix[u.Side][u.Hex], u)
		}
	}
	return ix
}

// near reports whether an army of side touches h (DG-ADJ-1).
func (ix armyIndex) near(st *glory.State, h string, side adjudicator.Side) bool {
	for _, n := range st.Geo().Near(h) {
		if len(ix[side][n]) > 0 && st.Touching(h, n) {
			return true
		}
	}
	return false
}

// advance finds the hexes u enters this turn to come nearest to a target:
// land it may enter, no enemy armies, stopping on entering a hex next to
// an enemy (DG-ADJ), within its MP (forest costs 2, DG-TERR), ending where
// stacking allows.
func advance(st *glory.State, ix armyIndex, u *glory.Unit, toTarget map[string]int, planned map[string][]string) []string {
	g := st.Geo()
	k := st.Kind(u.ID)
	mp := st.Face(u).MP
	type node struct {
		h    string
		cost int
	}
	prev := map[string]string{u.Hex: ""}
	cost := map[string]int{u.Hex: 0}
	front := []node{{u.Hex, 0}}
	for len(front) > 0 {
		sort.Slice(front, func(i, j int) bool {
			if front[i].cost != front[j].cost {
				return front[i].cost < front[j].cost
			}
			return front[i].h < front[j].h
		})
		x := front[0]
		front = front[1:]
		if x.h != u.Hex && ix.near(st, x.h, glory.Other(u.Side)) && k.Type != glory.Cavalry {
			continue // must stop here
		}
		for _, n := range g.Near(x.h) {
			if !st.Touching(x.h, n) || !g.Land(n) || len(ix[glory.Other(u.Side)][n]) > 0 {
				continue
			}
			switch g.Terrain(n) {
			case "desert", "swamp", "mountain":
				continue
			}
			c := x.cost + 1
			if g.Terrain(n) == "forest" && k.Race != "elf" && k.Race != "kender" {
				c++
			}
			if g.Side(x.h, n).River() {
				c++
			}
			if c > mp {
				continue
			}
			if old, ok := cost[n]; ok && old <= c {
				continue
			}
			cost[n], prev[n] = c, x.h
			front = append(front, node{n, c})
		}
	}
	dist := func(h string) int {
		if d, ok := toTarget[h]; ok {
			return d
		}
		return -1
	}
	here := dist(u.Hex)
	best, bestD := "", here
	for _, h := range slices.Sorted(func(yield func(string) bool) {
		for h := range cost {
			if !yield(h) {
				return
			}
		}
	}) {
		if h == u.Hex || st.StackProblem(h, u.Side, append(slices.Clone(planned[h]), u.ID)) != "" {
			continue
		}
		if d := dist(h); d >= 0 && (bestD < 0 || d < bestD) {
			best, bestD = h, d
		}
	}
	if best == "" {
		return nil
	}
	var path []string
	for h := best; h != u.Hex; h = prev[h] {
		path = append([]string{h}, path...)
	}
	return path
}

// TestBotDemo plays the demonstration scenarios to their end.
func TestBotDemo(t *testing.T) {
	for _, sc := range []string{"first-strike", "border-war"} {
		t.Run(sc, func(t *testing.T) {
			st, stats := playBot(t, nil, sc)
			t.Logf("%s: %s; %s", sc, st.Result, stats)
			if stats.strategic == 0 || stats.adjudications < st.End {
				t.Errorf("%s: %s", sc, stats)
			}
		})
	}
}

// TestBotImported plays the imported DL11 scenarios and the campaign to
// their end (skipped when the fan data is absent).
func TestBotImported(t *testing.T) {
	m, _ := importFound(t)
	for _, sc := range []string{"fall-of-silvanesti", "solamnic-plain", "kender-strike", "siege-of-kalaman", "war-of-the-lance"} {
		t.Run(sc, func(t *testing.T) {
			st, stats := playBot(t, &m, sc)
			t.Logf("%s: %s; %s", sc, st.Result, stats)
			if stats.strategic == 0 {
				t.Errorf("%s: %s", sc, stats)
			}
		})
	}
}
