// Package refpicture is the reference picture of the benchmarks (the
// "Esirien picture" of docs/PERFORMANCE.md): turn 4 of an assault on
// Dragon Rage's Esirien, drawn for the defender. render's golden test and
// benchmarks draw it, and every ruleset's picture benchmark draws it in
// the same loop as its own pictures, so that a ratio compares like with
// like on one machine under one load. It is a plausible position, not a
// played one: no ruleset made it.
//
// It must never import render: render's own (internal) tests use it.
package refpicture

import (
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonrage/board"
	"github.com/umpire-pbem/umpire/adjudicator/hexmap"
)

// The picture's header, render.Options' fields of the same names (its
// style is board.Style, its scale the mails', 1).
const (
	Game   = "demo-esirien"
	Viewer = adjudicator.Side("defender")
)

// ToMove and Sides are render.Options' fields of the same names.
func ToMove() []adjudicator.Side { return []adjudicator.Side{"invader"} }

// Sides is the order the picture's panel lists the sides in.
func Sides() []adjudicator.Side { return []adjudicator.Side{"defender", "invader"} }

// Esirien is the reference position: the map and the view.
func Esirien() (*hexmap.Map, adjudicator.View, error) {
	m, err := board.Load("esirien")
	if err != nil {
		return nil, adjudicator.View{}, err
	}
	return m, View(), nil
}

// Units reads "side TYPE id at values [st=status,status] [face=D] [fly]
// [gone] [ready]" lines, one unit per line; at "-" is off the board.
func Units(spec string) []adjudicator.UnitView {
	var out []adjudicator.UnitView
	for _, l := range strings.Split(strings.TrimSpace(spec), "\n") {
		f := strings.Fields(l)
		u := adjudicator.UnitView{Side: adjudicator.Side(f[0]), Type: f[1], ID: f[2], At: f[3]}
		if u.At == "-" {
			u.At = ""
		}
		for _, x := range f[4:] {
			switch {
			case x == "fly":
				u.Flying = true
			case x == "gone":
				u.Gone = true
			case x == "ready":
				u.Ready = true
			case strings.HasPrefix(x, "face="):
				u.Facing = x[5:]
			case strings.HasPrefix(x, "st="):
				u.Status = strings.Split(x[3:], ",")
			default:
				u.Values = x
			}
		}
		out = append(out, u)
	}
	return out
}

// View is the reference picture's position, turn 4 of an assault
// on Esirien: 46 counters on the map, one
// off it and four eliminated, the invaders at the walls, a dragon over the
// river with its damage panel, fog, a whirlwind, a broken and an open
// gate, a burned bridge, a destroyed VP hex and ten traces.
func View() adjudicator.View {
	us := Units(`
invader DRG dragon-1 1409 12-10-9 face=SW fly
invader GIANT giant-1 0606 8-6-5
invader GIANT giant-2 2205 8-6-5 ready
invader GIANT giant-3 0510 8-6-5 st=wounded ready
invader TRL troll-1 0806 6-4-4
invader TRL troll-2 1905 6-4-4
invader TRL troll-3 2210 6-4-4 ready
invader ORC orc-1 0905 3-3-5
invader ORC orc-2 1005 3-3-5 ready
invader ORC orc-3 1205 3-3-5
invader ORC orc-4 0505 3-3-5
invader ORC orc-5 1705 3-3-5
invader ORC orc-6 2005 3-3-5
invader ORC orc-7 0409 3-3-5
invader ORC orc-8 2207 3-3-5 st=killer ready
invader GOB gob-1 1104 2-2-6
invader GOB gob-2 0506 2-2-6
invader GOB gob-3 1805 2-2-6
invader GOB gob-4 2306 2-2-6
invader GOB gob-5 2208 2-2-6 ready
invader GOB gob-6 0510 2-2-6
invader GOB gob-7 0510 2-2-6 ready
defender INF inf-1 0707 3-2-4 st=wounded
defender INF inf-2 0708 3-2-4
defender INF inf-3 0710 3-2-4
defender INF inf-4 1507 3-2-4
defender INF inf-5 1706 3-2-4
defender INF inf-6 1112 3-2-4
defender MIL mil-1 0807 2-1-4
defender MIL mil-2 0709 2-1-4
defender MIL mil-3 1407 2-1-4
defender MIL mil-4 1606 2-1-4
defender MIL mil-5 2107 2-1-4
defender MIL mil-6 0914 2-1-4
defender ARH arh-1 0907 1-2-4(5)
defender ARH arh-2 1007 1-2-4(5)
defender ARH arh-3 1307 1-2-4(5)
defender ARH arh-4 1506 1-2-4(5)
defender CAV cav-1 2108 4-3-8
defender CAV cav-2 2110 4-3-8
defender CAV cav-3 1812 4-3-8
defender CAV cav-4 1112 4-3-8
defender HERO hero-1 1310 5-4-6 st=killer
defender HERO elowyn 1910 2-3-5
defender WZD wizard-1 1011 1-3-5(6)
defender WZD wizard-2 1910 1-3-5(6)
defender CAV cav-5 off-map 4-3-8
invader ORC orc-9 0906 3-3-5 gone
defender MIL mil-7 1308 2-1-4 gone
invader GOB gob-8 - 2-2-6 gone
invader GOB gob-9 - 2-2-6 gone
`)
	for i := range us {
		if us[i].ID == "dragon-1" {
			us[i].Damage = []adjudicator.Damage{
				{Area: "head", Left: 6, Of: 8},
				{Area: "body", Group: "A", Left: 10, Of: 12},
				{Area: "body", Group: "B", Left: 7, Of: 12},
				{Area: "wings", Group: "left", Left: 4, Of: 6},
				{Area: "wings", Group: "right", Left: 0, Of: 6},
				{Area: "tail", Left: 5, Of: 5},
			}
		}
	}
	return adjudicator.View{
		Map:   "esirien",
		Turn:  4,
		Phase: "invader movement",
		Units: us,
		Score: map[adjudicator.Side]int{"invader": 7, "defender": 31},
		Hexes: []adjudicator.HexMark{
			{Kind: "broken", At: "0606/0707"},
			{Kind: "open", At: "2113/2212"},
			{Kind: "vp-destroyed", At: "1708"},
			{Kind: "burned", At: "1413"},
			{Kind: "fog", At: "1904", Radius: 1},
			{Kind: "whirlwind", At: "1707", Label: "3"},
		},
		Traces: []adjudicator.Trace{
			{Kind: "move", Unit: "giant-1", Path: []string{"0404", "0505", "0606"}},
			{Kind: "move", Unit: "orc-1", Path: []string{"0703", "0804", "0805", "0905"}},
			{Kind: "move", Unit: "troll-2", Path: []string{"1903", "1904", "1905"}},
			{Kind: "move", Unit: "dragon-1", Path: []string{"1604", "1505", "1506", "1407", "1408", "1409"}},
			{Kind: "move", Unit: "cav-3", Path: []string{"1913", "1812"}},
			{Kind: "melee", Unit: "giant-1", Path: []string{"0606", "0707"}, Result: "gate broken, INF wounded"},
			{Kind: "melee", Unit: "troll-1", Path: []string{"0806", "0807"}, Result: "no effect"},
			{Kind: "fire", Unit: "arh-1", Path: []string{"0907", "1007", "0906"}, Result: "ORC destroyed"},
			{Kind: "fire", Unit: "dragon-1", Path: []string{"1409", "1308"}, Result: "MIL destroyed"},
			{Kind: "spell", Unit: "wizard-2", Path: []string{"1910", "2005"}, Result: "missed"},
		},
	}
}
