package dragonnoir_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir"
)

// The example mails of a battle in the orders doc are marked
//
//	# battle: setup        the Rebels' set-up (phase setup)
//	# battle: rebels       the Rebels' player-turn mail (phase adventurers)
//	# battle: reptilians   the Reptilians' player-turn mail (phase krobs)
//	# battle: reactions    the Reptilians' reactions to the Rebels' player-turn
//
// and parsed in docsBattle, a battle of La Croisée in its first turn.

// docsBattle is the battle the examples are parsed in: %s is the step.
const docsBattle = `
battle: {region: la-croisee}
step: %s
forces:
  - {unit: konrad, side: adventurers, at: "1008"}
  - {unit: jon, side: adventurers, at: "0906"}
  - {unit: laberne, side: adventurers, at: "0910"}
  - {unit: zacharie, side: adventurers, at: "0808", pe: 60}
  - {unit: zed, side: adventurers, zone: edge, edge: le-pont}
  - {unit: warrior-1, side: krobs, at: "2008"}
  - {unit: hunter-1, side: krobs, at: "2106"}
  - {unit: elf-3, side: krobs, at: "2210"}
  - {unit: shaman, side: krobs, at: "2308", pe: 80}
  - {unit: hunter-2, side: krobs, zone: edge, edge: conseil-des-ents}
  - {unit: ent-1, side: adventurers, at: "0505", facing: N}
  - {unit: ent-2, side: adventurers, at: "0513", facing: N}
  - {unit: elf-1, side: adventurers, at: "0604"}
  - {unit: elf-2, side: adventurers, at: "0404"}
  - {unit: sorcerer, side: krobs, at: "2408"}
  - {unit: gob-shaman, side: krobs, at: "2409"}
  - {unit: black-dragon, side: krobs, at: "2811"}
  - {unit: hermit, side: adventurers, at: "0702", pe: 100}
  - {unit: guanchenet, side: adventurers, at: "1204"}
  - {unit: lord, side: krobs, at: "2504"}
  - {unit: raptor-1, side: krobs, at: "2505"}
  - {unit: valley-goblin-1, side: krobs, at: "2604"}
  - {unit: wolf-1, side: krobs, at: "2704"}
  - {unit: kandar-officer, side: krobs, at: "2612"}
  - {unit: terclaugast, side: adventurers, at: "0712", pe: 50}
  - {unit: heliogast, side: adventurers, at: "0913", pe: 50}
  - {unit: unicorn-f1, side: adventurers, at: "1102", pe: 50}
`

// docsSetUp is the battle before its set-up.
const docsSetUp = `
battle: {region: la-croisee}
forces:
  - {unit: konrad, side: adventurers, zone: centre}
  - {unit: jon, side: adventurers, zone: centre}
  - {unit: zacharie, side: adventurers, zone: centre, pe: 60}
  - {unit: zed, side: adventurers, zone: edge, edge: le-pont}
  - {unit: warrior-1, side: krobs, zone: centre}
`

// parseDocBattle parses the battle mail of an example marked "battle: what".
func parseDocBattle(what, src string) error {
	pos, id := fmt.Sprintf(docsBattle, dragonnoir.StepAdventurers), ""
	var side adjudicator.Side
	switch what {
	case "setup":
		pos, id, side = docsSetUp, "setup.adventurers", dragonnoir.Adventurers
	case "rebels":
		id, side = "t1.adventurers", dragonnoir.Adventurers
	case "reptilians":
		pos, id, side = fmt.Sprintf(docsBattle, dragonnoir.StepKrobs), "t1.krobs", dragonnoir.Krobs
	case "reactions":
		id, side = "t1.krobs.reactions", dragonnoir.Krobs
	default:
		return fmt.Errorf("marker battle: %q is setup, rebels, reptilians or reactions", what)
	}
	n, mailSide, phase, err := mailParts(src)
	if err != nil {
		return err
	}
	st, err := dragonnoir.Ruleset.Setup(adjudicator.Setup{Position: []byte(pos)})
	if err != nil {
		return fmt.Errorf("the docs battle: %v", err)
	}
	for _, r := range dragonnoir.Ruleset.Due(st) {
		if r.ID != id {
			continue
		}
		if mailSide != "" && mailSide != string(side) {
			return fmt.Errorf("side: %s in a mail marked battle: %s", mailSide, what)
		}
		if phase != "" && phase != r.Phase {
			return fmt.Errorf("phase: %s in a mail marked battle: %s (write phase: %s)", phase, what, r.Phase)
		}
		_, err = dragonnoir.Ruleset.ParseOrders(st, r, n)
		return err
	}
	return fmt.Errorf("no %s mail is due in the docs battle: %v", id, dragonnoir.Ruleset.Due(st))
}

// TestBattleDocsExamples: the battle examples are read by the ruleset's
// parser — good mails pass and bad ones are caught.
func TestBattleDocsExamples(t *testing.T) {
	for _, c := range []struct{ marker, src, want string }{
		{"battle: setup", "phase: setup\norders:\n  place: {konrad: \"1008\", jon: \"1009\", zacharie: \"1107\"}\n", ""},
		{"battle: setup", "orders:\n  place: {konrad: \"1008\"}\n", "jon is at the centre"},
		{"battle: rebels", "orders:\n  fire: [{shooter: jon, at: hunter-1}]\n  moves:\n    - {unit: zed, path: [\"0107\", \"0207\"]}\n    - {unit: laberne, path: [\"0810\"], leave: fort-ekal}\n", "leave: \"fort-ekal\""},
		{"battle: rebels", "orders:\n  moves:\n    - {unit: zed, path: [\"0107\", \"0207\"]}\n", ""},
		{"battle: reptilians", "phase: krobs\norders:\n  fire: [{shooter: elf-3, at: laberne}]\n  moves:\n    - {unit: hunter-2, path: [\"3607\"]}\n  hold: [shaman]\n", ""},
		{"battle: reactions", "phase: adventurers\norders:\n  defensive-fire: [{shooter: elf-3, at: any}]\n", ""},
		{"battle: reactions", "orders:\n  defensive-fire: [{shooter: jon, at: any}]\n", "no counter of the Reptilians with a bow"},
		{"battle: retreat", "orders: {}\n", "is setup, rebels"},
	} {
		b := docBlocks("```yaml\n# " + c.marker + "\n" + c.src + "```\n")
		err := checkBlock(b[0])
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s %q: %v", c.marker, c.src, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s %q: got %v, want an error with %q", c.marker, c.src, err, c.want)
		}
	}
}
