package dragonnoir_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir"
	"github.com/umpire-pbem/umpire/adjudicator/script"
)

// valleyRegions are the Regions of the valley (contracts of issue 16),
// each with its battle map battle-<region>.
var valleyRegions = []string{"fort-ekal", "le-pont", "carrefour-du-dragon", "dragon-noir", "cavernes-ouest", "cavernes-est",
	"cercle-des-druides", "clairiere-des-licornes", "conseil-des-ents", "courte-passe", "la-croisee", "les-elfes",
	"fond-du-val", "la-foret", "le-gue", "le-marais", "le-moulin", "oasis-barbare", "village-gobelin"}

// t2 are the edge labels Table DN3-T2 gives each Region's map (rule): the
// Region's probable neighbours. "Les Cavernes naines" of J.2.1.a and
// J.2.1.f are one each of the two caverns (umpire: the east one by the
// Carrefour, the west one by Courte-passe); the caverns' own map leads
// out and to the other caverns (J.2.1.b). Le Village gobelin's label Le
// Marais is the French text's (J.2.1.r), which the digest leaves out.
var t2 = map[string][]string{
	"carrefour-du-dragon":    {"les-elfes", "le-pont", "cavernes-est", "dragon-noir"},
	"cavernes-ouest":         {"cavernes-est"},
	"cavernes-est":           {"cavernes-ouest"},
	"cercle-des-druides":     {"fond-du-val", "conseil-des-ents", "la-foret", "courte-passe"},
	"clairiere-des-licornes": {"la-foret", "cercle-des-druides", "courte-passe"},
	"conseil-des-ents":       {"le-moulin", "la-croisee", "clairiere-des-licornes", "cercle-des-druides"},
	"courte-passe":           {"fond-du-val", "cercle-des-druides", "cavernes-ouest"},
	"la-croisee":             {"le-marais", "le-pont", "le-gue", "les-elfes", "conseil-des-ents"},
	"dragon-noir":            {"carrefour-du-dragon"},
	"fond-du-val":            {"le-moulin", "cercle-des-druides"},
	"la-foret":               {"les-elfes", "cercle-des-druides", "clairiere-des-licornes"},
	"fort-ekal":              {"village-gobelin", "sortie", "le-pont"},
	"oasis-barbare":          {"le-moulin"},
	"le-pont":                {"fort-ekal", "carrefour-du-dragon"},
	"village-gobelin":        {"fort-ekal", "le-marais"},
}

// TestBattleMaps: every Region of the valley has its battle map
// (DN3-CAMP-BATTLE-4), whose edges lead to the Regions Table DN3-T2 names
// and to no Region that does not lead back (DN3-MAPS-2: an edge is a
// path, and a path goes both ways), only the valley's exit and the
// Rebels' road leading off the valley; every other outer edge leads
// nowhere (DN3-MAPS-1); and the centre has room for a set-up.
func TestBattleMaps(t *testing.T) {
	hm := dragonnoir.Ruleset.(adjudicator.HexMaps)
	exits := map[string][]string{}
	for _, r := range valleyRegions {
		m, err := hm.Map("battle-" + r)
		if err != nil {
			t.Errorf("region %s: %v", r, err)
			continue
		}
		for _, run := range m.EdgeRuns() {
			if run.Label == "" {
				continue
			}
			if !slices.Contains(valleyRegions, run.Label) && run.Label != "sortie" && run.Label != "route" {
				t.Errorf("battle-%s: edge %s leads to %q, no Region of the valley", r, run.Name, run.Label)
			}
			if !slices.Contains(exits[r], run.Label) {
				exits[r] = append(exits[r], run.Label)
			}
		}
		for _, want := range t2[r] {
			if !slices.Contains(exits[r], want) {
				t.Errorf("battle-%s: no edge leads to %s, which Table DN3-T2 names", r, want)
			}
		}
		st := battleState(t, "battle:\n  region: "+r+"\nforces:\n  - {unit: konrad, side: adventurers, zone: centre}\n  - {unit: hunter-1, side: krobs, zone: centre}\n")
		free := 0
		for _, h := range st.CentreHexes() {
			if st.CanEnter(st.Data().Kinds["konrad"], st.Board().FloorLoc(h)) {
				free++
			}
		}
		if free < 30 {
			t.Errorf("battle-%s: only %d hexes of the centre to set up on", r, free)
		}
	}
	for a, to := range exits {
		for _, b := range to {
			if b != "sortie" && b != "route" && !slices.Contains(exits[b], a) {
				t.Errorf("battle-%s leads to %s, but battle-%s does not lead back", a, b, b)
			}
		}
	}
	if !slices.Contains(exits["le-moulin"], "route") || !slices.Contains(exits["fort-ekal"], "sortie") {
		t.Error("the Rebels' road joins Le Moulin and the valley's exit Fort-Ekal")
	}
}

// battleState sets a battle up from position src on the builtin module.
func battleState(t *testing.T, src string) *dragonnoir.State {
	t.Helper()
	s, err := dragonnoir.Ruleset.Setup(adjudicator.Setup{Position: []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	return s.(*dragonnoir.State)
}

// TestBattlePositionErrors: a battle position is checked as it is read,
// each error saying where and how to fix it.
func TestBattlePositionErrors(t *testing.T) {
	const ok = "  - {unit: hunter-1, side: krobs, zone: centre}\n"
	for _, c := range []struct{ src, want string }{
		{"battle: {region: la-croisee}\nforces:\n  - {unit: konrd, side: adventurers, zone: centre}\n" + ok, `no counter "konrd" in the module (did you mean "konrad"?)`},
		{"battle: {region: la-croisee}\nforces:\n  - {unit: konrad, side: rebels, zone: centre}\n" + ok, `side "rebels": adventurers`},
		{"battle: {region: la-croisee}\nforces:\n  - {unit: konrad, side: adventurers, zone: edge, edge: fort-ekal}\n" + ok, `edge "fort-ekal": name the Region its path comes from, one the map's edges lead to: conseil-des-ents, le-gue, le-marais, le-pont, les-elfes`},
		{"battle: {region: la-croisee}\nforces:\n  - {unit: konrad, side: adventurers, zone: middle}\n" + ok, `zone "middle": centre`},
		{"battle: {region: la-croisee}\nforces:\n  - {unit: konrad, side: adventurers, zone: centre, wounds: 2}\n" + ok, "wounds 2: a Konrad dies of its wound 2"},
		{"battle: {region: la-croisee}\nforces:\n  - {unit: konrad, side: adventurers, zone: centre, fatigue: tired}\n" + ok, `fatigue "tired" is fresh, fatigued or exhausted`},
		{"battle: {region: la-croisee}\nforces:\n  - {unit: konrad, side: adventurers, zone: centre, pe: 50}\n" + ok, "pe: only a magician has PE"},
		{"battle: {region: la-croisee}\nforces:\n  - {unit: konrad, side: adventurers, zone: centre}\n  - {unit: konrad, side: adventurers, zone: centre}\n" + ok, "the counter is in the battle twice"},
		{"battle: {region: la-croisee}\nforces:\n  - {unit: konrad, side: adventurers, zone: centre}\n", "a battle has counters of both sides"},
		{"battle: {region: la-croisee, edges: {east: le-moulin}}\nforces:\n  - {unit: konrad, side: adventurers, zone: centre}\n" + ok, `the map battle-la-croisee has no edge "east"; its edges are vallee/north, vallee/south, vallee/west, clairiere/north, clairiere/east, clairiere/south`},
		{"battle: {region: atlantis}\nforces:\n  - {unit: konrad, side: adventurers, zone: centre}\n" + ok, `no board or assembly "battle-atlantis"`},
		{"battle: {map: battle-la-croisee}\nforces:\n" + ok, "region: name the Region"},
		{"battle: {region: la-croisee, first: rebels}\nforces:\n  - {unit: konrad, side: adventurers, zone: centre}\n" + ok, `first: "rebels" is adventurers or krobs`},
		{"battle: {region: la-croisee, people: {id: elfes, units: [elf-1]}, attacked: gobelins}\nforces:\n  - {unit: konrad, side: adventurers, zone: centre}\n" + ok, "attacked gobelins, but people: is elfes"},
		{"battle: {region: la-croisee, people: {id: gobelins, units: [goblin-chief]}, attacked: gobelins}\nforces:\n  - {unit: konrad, side: adventurers, zone: centre}\n" + ok, "its counter goblin-chief fights, so it is under forces: too"},
		{"battle: {region: la-croisee}\nforces:\n  - {unit: konrad, side: adventurers, at: \"0101\", zone: centre}\n" + ok, "give at:"},
		{"battle: {region: la-croisee}\nunits:\n  - {unit: konrad, at: \"0808\"}\nforces:\n" + ok, "a battle lists its counters under forces:"},
		{"map: fosse\nforces:\n" + ok, "forces: is a battle's list of counters"},
	} {
		_, err := dragonnoir.Ruleset.Setup(adjudicator.Setup{Position: []byte(c.src)})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s\nerror %v,\nwant %q", c.src, err, c.want)
		}
	}
}

// TestBattleFinalView: the view the campaign reads when the battle is
// over (the Observer's, ChildResult.View) is the contract of issue 16:
// the winner, every counter of the position once with its side, dead
// ones gone, those that left at "left:REGION", the magicians' PE and the
// side that fled by turn 5; nothing of it before the end that a side
// may not know (the other side's PE, HID-11).
func TestBattleFinalView(t *testing.T) {
	run := playCase(t, "testdata/dn3-battle/DN3-CAMP-BATTLE-10-end.yaml", lookup)
	v := run.Game.View(adjudicator.Observer)
	if !v.Over || v.Winner != dragonnoir.Krobs {
		t.Fatalf("over %v, winner %q", v.Over, v.Winner)
	}
	seen := map[string]adjudicator.UnitView{}
	for _, u := range v.Units {
		if _, dup := seen[u.ID]; dup {
			t.Errorf("%s is in the view twice", u.ID)
		}
		seen[u.ID] = u
	}
	want := map[string]string{"zed": "adventurers left:le-pont", "hunter-1": "krobs 2508", "shaman": "krobs 2609"}
	if len(seen) != len(want) {
		t.Errorf("%d counters in the view, want the position's %d: %v", len(seen), len(want), v.Units)
	}
	for id, w := range want {
		if u := seen[id]; fmt.Sprintf("%s %s", u.Side, u.At) != w || u.Gone {
			t.Errorf("%s: %s %s gone %v, want %s", id, u.Side, u.At, u.Gone, w)
		}
	}
	if v.Markers["pe:shaman"] != 60 || v.Markers["fled:adventurers"] != "yes" || v.Markers["fled:krobs"] != nil {
		t.Errorf("markers %v", v.Markers)
	}
	b, _ := json.Marshal(v)
	var back adjudicator.View
	if err := json.Unmarshal(b, &back); err != nil || fmt.Sprint(back.Markers["pe:shaman"]) != "60" {
		t.Errorf("the markers do not survive the result's JSON: %v %v", err, back.Markers)
	}
	end := playCase(t, "testdata/dn3-battle/DN3-CAMP-BATTLE-2-to-the-death.yaml", lookup).Game.View(adjudicator.Observer)
	for _, u := range end.Units {
		if u.ID == "goblin-chief" && (!u.Gone || u.Side != dragonnoir.Krobs) {
			t.Errorf("a dead counter is gone with its side: %+v", u)
		}
	}
	late := playCase(t, "testdata/dn3-battle/DN3-CAMP-BATTLE-10-no-limit.yaml", lookup).Game.View(adjudicator.Observer)
	if late.Markers["fled:krobs"] != nil {
		t.Errorf("a side that left after turn 5 did not flee (AMB-70): %v", late.Markers)
	}
}

// TestBattleSecrets: what a side may not know is nowhere it can read —
// the other side's set-up before its own is in (HID-16: in no event's
// public payload, nor in its view), the other side's reactions mail
// before its orders are in (HID-7), the other side's PE while the battle
// lasts (HID-11); and each becomes readable when it may, so the checks
// can fail.
func TestBattleSecrets(t *testing.T) {
	const setup = `name: the Rebels' set-up is in, the Reptilians' not yet
ruleset: dragonnoir
position:
  battle: {region: la-croisee}
  forces:
    - {unit: konrad, side: adventurers, zone: centre}
    - {unit: zacharie, side: adventurers, zone: centre, pe: 70}
    - {unit: shaman, side: krobs, zone: centre, pe: 40}
steps:
  - side: adventurers
    orders: |
      turn: 1
      phase: setup
      orders:
        place: {konrad: "1709", zacharie: "2306"}
`
	half := playText(t, setup+"expect:\n  due: [adventurers, krobs]\n", lookup)
	if log := publicLog(half); strings.Contains(log, "1709") || strings.Contains(log, "2306") {
		t.Errorf("the Rebels' set-up is readable before the Reptilians' is in:\n%s", log)
	}
	if !sealedIn(half, "1709") {
		t.Error("the Rebels' set-up is not kept sealed in the referee's data: was it taken?")
	}
	for _, u := range half.Game.View(dragonnoir.Krobs).Units {
		if u.At != "" && u.Side == dragonnoir.Adventurers {
			t.Errorf("the Reptilians see %s on %s before the set-ups are revealed", u.ID, u.At)
		}
	}
	both := playText(t, setup+`  - side: krobs
    orders: |
      turn: 1
      phase: setup
      orders:
        place: {shaman: "2809"}
  - side: krobs
    orders: |
      turn: 1
      phase: adventurers
      orders:
        defensive-fire: []
        spell-trigger: [{caster: shaman, spell: fireball, on: konrad, within: 3}]
expect:
  due: [adventurers, krobs]
`, lookup)
	log := publicLog(both)
	if !strings.Contains(log, "1709") {
		t.Error("the set-ups are revealed together once both are in: 1709 should be in the log")
	}
	if strings.Contains(log, "spell-trigger") || strings.Contains(log, "fireball") {
		t.Errorf("the Reptilians' reactions are readable before the Rebels' orders are in:\n%s", log)
	}
	for _, viewer := range []adjudicator.Side{dragonnoir.Adventurers, dragonnoir.Krobs, adjudicator.Observer} {
		v := both.Game.View(viewer)
		for _, u := range v.Units {
			pe := slices.ContainsFunc(u.Status, func(s string) bool { return strings.HasPrefix(s, "PE ") })
			if magician := u.ID == "zacharie" || u.ID == "shaman"; pe != (magician && u.Side == viewer) {
				t.Errorf("the %s see the PE of %s (%s): %v", viewer, u.ID, u.Side, u.Status)
			}
		}
		for k := range v.Markers {
			if strings.HasPrefix(k, "pe:") {
				t.Errorf("the %s see marker %s while the battle lasts", viewer, k)
			}
		}
	}
}

// TestWholeBattles replays the recorded whole battles (TestBotBattles
// -update): each from its set-up to its end, a side off the field, with
// the same dice, and its final view as the campaign reads it: every
// counter of the position once, the dead gone, none left waiting.
func TestWholeBattles(t *testing.T) {
	entries, err := os.ReadDir("testdata/battles")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		file := path.Join("testdata/battles", e.Name())
		s, err := script.Parse(file, []byte(readFile(t, file)))
		if err != nil {
			t.Fatal(err)
		}
		run, err := script.Play(s, lookup, script.Options{})
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		n++
		if !run.OK() {
			t.Errorf("%s no longer replays to its recorded end: %s (if a rule changed on purpose, run go test -run TestBotBattles -update and look at it)", file, strings.Join(run.Failures, "; "))
			continue
		}
		if run.DiceLeft != 0 || len(s.Steps) == 0 || !strings.Contains(s.Steps[0].Orders, "phase: setup") {
			t.Errorf("%s: a whole battle starts with a set-up and uses every die (%d left)", file, run.DiceLeft)
		}
		v := run.Game.View(adjudicator.Observer)
		forces := strings.Count(readFile(t, file), "    - {unit: ")
		if !v.Over || len(v.Units) != forces {
			t.Errorf("%s: over %v, %d counters in the final view for the position's %d", file, v.Over, len(v.Units), forces)
		}
		for _, u := range v.Units {
			if strings.HasPrefix(u.At, "edge:") || !u.Gone && u.At == "" {
				t.Errorf("%s: %s is neither on the map, gone nor left at the end: %q", file, u.ID, u.At)
			}
		}
	}
	if n == 0 {
		t.Error("no recorded battle under testdata/battles: run go test -run TestBotBattles -update")
	}
}

// TestBattleSetUpHelp: a side setting up is shown the centre of the
// Region and a skeleton of its mail; at a deadline its silence sets its
// counters up at its end of the centre (PBEM-GEN-3), a mail the parser
// accepts.
func TestBattleSetUpHelp(t *testing.T) {
	st := battleState(t, "battle: {region: le-pont}\nforces:\n  - {unit: konrad, side: adventurers, zone: centre}\n  - {unit: jon, side: adventurers, zone: centre}\n  - {unit: zed, side: adventurers, zone: edge, edge: fort-ekal}\n  - {unit: hunter-1, side: krobs, zone: centre}\n")
	due := dragonnoir.Ruleset.Due(st)
	if len(due) != 2 || due[0].ID != "setup.adventurers" || due[1].ID != "setup.krobs" || due[0].Title != "battle of le-pont, the Rebels' set-up" {
		t.Fatalf("due %+v", due)
	}
	zones, skel, ok := dragonnoir.Ruleset.(adjudicator.SetupHelper).SetupHelp(st, due[0])
	if !ok || len(zones) != 1 || skel != "turn: 1\nphase: setup\norders:\n  place:\n    jon: ____\n    konrad: ____\n" {
		t.Fatalf("help %v %q %v", ok, skel, zones)
	}
	if z := zones[0]; slices.Contains(z.Hexes, "0404") || !slices.Contains(z.Hexes, "0505") || slices.Contains(z.Hexes, "0906") || z.Compact != "columns 05 to 14, rows 05 to 10" {
		t.Errorf("the centre of Le Pont: %s, %v (no river hex: nobody stands in it)", z.Compact, z.Hexes)
	}
	for _, r := range due {
		txt, ok := dragonnoir.Ruleset.(adjudicator.Defaulter).DefaultOrders(st, r)
		if !ok {
			t.Fatalf("%s: no default", r.ID)
		}
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(txt), &n); err != nil {
			t.Fatal(err)
		}
		if _, err := dragonnoir.Ruleset.ParseOrders(st, r, n.Content[0]); err != nil {
			t.Errorf("%s: the default %s is refused: %v", r.ID, txt, err)
		}
		t.Logf("%s: %s", r.ID, txt)
	}
}
