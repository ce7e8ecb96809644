package dragonnoir_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir"
)

// TestMagicSecrets: a magician's PE are his side's secret (E.5): no line
// the Krob player reads, nor his view, tells them — while the Adventurers'
// report does (so the test can fail). TestInvisibleDestinationSealed
// checks an invisible magician's destination.
func TestMagicSecrets(t *testing.T) {
	pe := regexp.MustCompile(`\bPE\b`)
	for _, c := range []struct {
		file   string
		secret *regexp.Regexp
		upTo   int // adjudications looked at
	}{
		{"testdata/magic/DN-MAGIC-7-casting-roll.yaml", pe, 1},
		{"testdata/magic/AMB-20-not-enough-pe.yaml", pe, 1},
		{"testdata/magic/DN-MAGIC-6-wounded-healed.yaml", pe, 2},
		{"testdata/magic/spell-invisible.yaml", pe, 1},
	} {
		run := playCase(t, c.file, lookup)
		toKrobs, toAdv := 0, 0
		n := 0
		for _, st := range run.Steps {
			for _, r := range st.Results {
				if n++; n > c.upTo {
					break
				}
				for _, l := range r.Full {
					if !c.secret.MatchString(l.Text) {
						continue
					}
					if l.To.Includes(dragonnoir.Krobs) {
						toKrobs++
						t.Errorf("%s: the Krob player reads %q", c.file, l.Text)
					}
					if l.To.Includes(dragonnoir.Adventurers) {
						toAdv++
					}
				}
				for _, ro := range r.AllRolls {
					if c.secret.MatchString(ro.String()) && ro.To.Includes(dragonnoir.Krobs) {
						t.Errorf("%s: the Krob player sees the roll %q", c.file, ro.String())
					}
				}
			}
		}
		if toAdv == 0 {
			t.Errorf("%s: the Adventurers are told nothing matching %s: the test checks nothing", c.file, c.secret)
		}
		for _, u := range run.Game.View(dragonnoir.Krobs).Units {
			if s := strings.Join(u.Status, ","); pe.MatchString(s) {
				t.Errorf("%s: the Krob player's view shows %s with %s", c.file, u.ID, s)
			}
		}
		adv := ""
		for _, u := range run.Game.View(dragonnoir.Adventurers).Units {
			adv += strings.Join(u.Status, ",")
		}
		if !pe.MatchString(adv) {
			t.Errorf("%s: the Adventurers' view shows no PE", c.file)
		}
	}
}

// invisibleCase is spell-invisible.yaml's game up to the moment the Krob
// player writes his mail: the Adventurer mail (Zacharie becomes
// invisible) adjudicated, the reactions mail noting where he reappears
// in, the Krob orders not yet.
const invisibleCase = `name: what the Krob player can read of an invisible magician's destination before he writes his mail
ruleset: dragonnoir
position:
  map: fosse
  turns: 3
  units:
    - {unit: zacharie, at: "0102"}
    - {unit: hunter-1, at: "0202"}
dice: [5]
steps:
  - side: adventurers
    orders: |
      turn: 1
      phase: adventurers
      orders:
        spells:
          - {caster: zacharie, spell: invisible}
  - side: adventurers
    orders: |
      turn: 1
      phase: krobs
      orders:
        reappear: {zacharie: "0105"}
expect:
  due: [krobs, adventurers]
  report-has:
    - "zacharie becomes invisible and leaves 0102: nobody may act with or against him until he reappears (AMB-79). (assumed table)"
`

// TestInvisibleDestinationSealed: where an invisible magician reappears
// is secret until he does (HID-6). Before the Krob player's mail is in,
// nothing he can read holds it — not the public log (every event and
// every opened mail), not his view, not a report line or roll addressed
// to him — though the referee keeps the sealed reactions mail that notes
// it. Once the Krob turn is adjudicated (the magician back on the map) the
// public log holds it: the check can fail.
func TestInvisibleDestinationSealed(t *testing.T) {
	const dest = "0105"
	run := playText(t, invisibleCase, lookup)
	if log := publicLog(run); strings.Contains(log, dest) {
		t.Errorf("the destination %s is in the public log before the Krob mail is in:\n%s", dest, log)
	}
	if !sealedIn(run, dest) {
		t.Errorf("the reactions mail noting %s is not kept sealed in the referee's data: was it taken?", dest)
	}
	v, err := json.Marshal(run.Game.View(dragonnoir.Krobs))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(v), dest) {
		t.Errorf("the Krob player's view shows %s: %s", dest, v)
	}
	for _, st := range run.Steps {
		for _, r := range st.Results {
			for _, l := range r.Full {
				if strings.Contains(l.Text, dest) && l.To.Includes(dragonnoir.Krobs) {
					t.Errorf("the Krob player reads %q", l.Text)
				}
			}
			for _, ro := range r.AllRolls {
				if strings.Contains(ro.String(), dest) && ro.To.Includes(dragonnoir.Krobs) {
					t.Errorf("the Krob player sees the roll %q", ro.String())
				}
			}
		}
	}
	after := playCase(t, "testdata/magic/spell-invisible.yaml", lookup)
	if log := publicLog(after); !strings.Contains(log, dest) {
		t.Errorf("once the Krob turn is adjudicated and zacharie is back on %s, the public log should hold it; it is:\n%s", dest, log)
	}
}

// detectionModule is the builtin module with one remote detection spell,
// as a group would add one from its own magician sheet (the interim list
// of GAP-12 has none).
func detectionModule(t *testing.T) adjudicator.Module {
	m := builtin(t)
	src := string(m.Files["spells.yaml"])
	src += `  - {id: sense, title: Sense from afar, category: detection, aim: hex, cost: {fixed: 10}, effect: detect, user: true}
  - {id: flash, title: Flash, category: pure, aim: hex, cost: {fixed: 10}, effect: fireball, rolls: [DR, DR, DR, DR, DR, DR, DR, DR, DR, DR], user: true}
`
	m.Name = "sensing"
	m.Files["spells.yaml"] = []byte(src)
	return m
}

// TestRemoteDetection: only a level-2 magician senses from afar
// (DN-MAGIC-3), and a detection spell reaches one cave further than the
// magician's, where another spell does not (DN-MAGIC-11). What he senses
// is told to his side alone.
func TestRemoteDetection(t *testing.T) {
	rs := withModule{dragonnoir.Ruleset, detectionModule(t)}
	l := func(name string) (adjudicator.Ruleset, bool) { return rs, name == "dragonnoir" }
	run := playText(t, `name: detection
ruleset: dragonnoir
module: sensing
position:
  map: descente
  units:
    - {unit: zacharie, at: "0302"}
    - {unit: shaman, at: "0304", level: 1}
    - {unit: hunter-1, at: "1003"}
  hidden:
    - {id: orb-1, kind: orb, at: "1003", real: true}
    - {id: orb-2, kind: orb, at: "1005"}
dice: [4]
steps:
  - side: adventurers
    orders: |
      turn: 1
      phase: adventurers
      orders:
        spells:
          - {caster: zacharie, spell: sense, at: "1003"}
          - {caster: shaman, spell: flash, at: "1005"}
expect:
  status-has: {zacharie: ["PE 190"], shaman: ["PE 100"]}
  report-has:
    - "zacharie senses on 1003: hunter-1 and orb-1 (the real one)."
    - "shaman does not cast Flash: 1005 is on board ile, another cave: underground a spell works only in the magician's cave (DN-MAGIC-11)."
`, l)
	var told adjudicator.Line
	for _, r := range run.Steps[0].Results {
		for _, line := range r.Full {
			if strings.Contains(line.Text, "senses on") {
				told = line
			}
		}
	}
	if told.To.Includes(dragonnoir.Krobs) || !told.To.Includes(dragonnoir.Adventurers) {
		t.Errorf("the detection is told to %v: the caster's side alone must read it", told.To)
	}
	playText(t, `name: a level-1 magician does not sense from afar
ruleset: dragonnoir
module: sensing
position:
  map: descente
  units:
    - {unit: zacharie, at: "0302", level: 1}
    - {unit: hunter-1, at: "1003"}
steps:
  - side: adventurers
    orders: |
      turn: 1
      phase: adventurers
      orders:
        spells:
          - {caster: zacharie, spell: sense, at: "1003"}
expect:
  status-has: {zacharie: ["PE 100"]}
  report-has: ["zacharie does not cast Sense from afar: only a magician of the second level senses from afar (DN-MAGIC-3)."]
`, l)
}

// TestLevitationLowCeiling: Levitation is impossible where the gallery is
// one hex wide (DN3-SPELL-MAGE-12): on a board with a corridor one hex
// wide and a room, a character is flown in the room and not in the
// corridor, and the refused spell costs nothing.
func TestLevitationLowCeiling(t *testing.T) {
	m := detectionModule(t)
	m.Files["boards/corridor.yaml"] = []byte(`name: corridor
title: a corridor and a room
status: assumed
bounds: {cols: [1, 6], rows: [1, 4]}
default: rock
terrain:
  - {kind: floor, hexes: ["0102", "0202", "0302"], assumed: true}
  - {kind: floor, hexes: ["0401:0604"], assumed: true}
`)
	rs := withModule{dragonnoir.Ruleset, m}
	l := func(name string) (adjudicator.Ruleset, bool) { return rs, name == "dragonnoir" }
	playText(t, `name: levitation under a low ceiling
ruleset: dragonnoir
module: sensing
position:
  map: corridor
  units:
    - {unit: zacharie, at: "0402"}
    - {unit: shaman, at: "0403"}
    - {unit: jon, at: "0102"}
    - {unit: arlon, at: "0503"}
dice: [5]
steps:
  - side: adventurers
    orders: |
      turn: 1
      phase: adventurers
      orders:
        spells:
          - {caster: zacharie, spell: levitation, at: jon, hexes: ["0202"]}
          - {caster: shaman, spell: levitation, at: arlon, hexes: ["0603"]}
expect:
  units: {jon: "0102", arlon: "0603"}
  status-has: {zacharie: ["PE 200"], shaman: ["PE 192"]}
  report-has: ["zacharie does not cast Levitation: the gallery at 0102 is one hex wide: the ceiling is too low (DN3-SPELL-MAGE-12)."]
`, l)
}
