package dragonnoir_test

import (
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir"
)

// TestBattleRidersRefused: a battle position's mount: is refused, saying
// why, when the steed is not a counter of the battle, starts elsewhere,
// fights for the other side, carries another rider, or may not carry this
// one (DN3-PEOPLE-REPT-4, -GOB-4); and a rider placed in the saddle on a
// hex a rider may not stand on (a tree, GAP-16).
func TestBattleRidersRefused(t *testing.T) {
	const head = "battle: {region: la-croisee}\nforces:\n  - {unit: konrad, side: adventurers, at: \"1005\"}\n"
	for _, c := range []struct{ forces, want string }{
		{"  - {unit: lord, side: krobs, zone: centre, mount: raptor-1}\n", "list it under forces:"},
		{"  - {unit: lord, side: krobs, zone: centre, mount: raptor-1}\n  - {unit: raptor-1, side: krobs, zone: edge, edge: le-pont}\n", "starts where its rider does"},
		{"  - {unit: lord, side: krobs, zone: centre, mount: raptor-1}\n  - {unit: raptor-1, side: adventurers}\n", "a rider rides a steed of his side"},
		{"  - {unit: lord, side: krobs, zone: centre, mount: raptor-1}\n  - {unit: chief-sarrak, side: krobs, zone: centre, mount: raptor-1}\n  - {unit: raptor-1, side: krobs}\n", "raptor-1 already carries lord"},
		{"  - {unit: rept-warrior-1, side: krobs, zone: centre, mount: raptor-1}\n  - {unit: raptor-1, side: krobs}\n", "rept-warrior-1 may not ride raptor-1 (DN3-PEOPLE-REPT-4)"},
		{"  - {unit: valley-goblin-2, side: krobs, zone: centre, mount: wolf-1}\n  - {unit: wolf-1, side: krobs}\n", "valley-goblin-2 may not ride wolf-1 (DN3-PEOPLE-GOB-4)"},
		{"  - {unit: lord, side: krobs, at: \"0811\", mount: raptor-1}\n  - {unit: raptor-1, side: krobs}\n", "a rider may not stand on 0811"},
	} {
		_, err := dragonnoir.Ruleset.Setup(adjudicator.Setup{Position: []byte(head + c.forces)})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.forces, err, c.want)
		}
	}
	// The pair placed (at:) stands on one hex: the steed's at: may be the rider's.
	ok := head + "  - {unit: lord, side: krobs, at: \"2008\", mount: raptor-1}\n  - {unit: raptor-1, side: krobs, at: \"2008\"}\n"
	s, err := dragonnoir.Ruleset.Setup(adjudicator.Setup{Position: []byte(ok)})
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range dragonnoir.Ruleset.View(s, adjudicator.Referee).Units {
		if u.ID == "raptor-1" && u.At != "2008" {
			t.Errorf("raptor-1 at %q, want under the Lord on 2008", u.At)
		}
	}
}

// TestBattleRiderSetUpSealed: the hex of a pair set up at the centre is
// sealed like any set-up (HID-16): before the other side's set-up is in,
// neither the rider nor his steed is on the map for it, nor the hex in
// the public log; once both are in, the steed is seen under its rider.
func TestBattleRiderSetUpSealed(t *testing.T) {
	const setup = `name: the Reptilians' set-up of the Lord on raptor-1 is in, the Rebels' not yet
ruleset: dragonnoir
position:
  battle: {region: la-croisee}
  forces:
    - {unit: konrad, side: adventurers, zone: centre}
    - {unit: lord, side: krobs, zone: centre, mount: raptor-1}
    - {unit: raptor-1, side: krobs}
steps:
  - side: krobs
    orders: |
      turn: 1
      phase: setup
      orders:
        place: {lord: "2309"}
`
	half := playText(t, setup+"expect:\n  due: [adventurers, krobs]\n", lookup)
	if log := publicLog(half); strings.Contains(log, "2309") {
		t.Errorf("the pair's set-up is readable before the Rebels' is in:\n%s", log)
	}
	if !sealedIn(half, "2309") {
		t.Error("the pair's set-up is not kept sealed: was it taken?")
	}
	for _, u := range half.Game.View(dragonnoir.Adventurers).Units {
		if u.Side == dragonnoir.Krobs && u.At != "" {
			t.Errorf("the Rebels see %s on %s before the set-ups are revealed", u.ID, u.At)
		}
	}
	both := playText(t, setup+`  - side: adventurers
    orders: |
      turn: 1
      phase: setup
      orders:
        place: {konrad: "1709"}
expect:
  units: {lord: "2309", raptor-1: "2309"}
`, lookup)
	seen := map[string]string{}
	for _, u := range both.Game.View(dragonnoir.Adventurers).Units {
		seen[u.ID] = u.At
	}
	if seen["lord"] != "2309" || seen["raptor-1"] != "2309" {
		t.Errorf("once revealed the Rebels see the Lord on %q and raptor-1 on %q, want both on 2309", seen["lord"], seen["raptor-1"])
	}
}
