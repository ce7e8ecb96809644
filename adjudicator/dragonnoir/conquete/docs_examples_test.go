package conquete_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir/conquete"
	"github.com/umpire-pbem/umpire/adjudicator/script/scripttest"
)

// The example mails of docs/orders/la-conquete.md are read by the
// ruleset's own parser, so that the docs cannot drift from the code. Every
// fenced yaml block of that file starts with a marker comment:
//
//	# orders: SIDE              a mail of SIDE (rebels or reptilians) for
//	                            the phase the mail names, parsed in the
//	                            docs position of that phase
//	# answer: SIDE DIR/CASE.yaml a mail of SIDE parsed where the rule case
//	                            testdata/DIR/CASE.yaml first asks SIDE for
//	                            the mail's phase
//	# position                  a position, read by Setup
//	# command                   a referee's command (not parsed here)

const ordersDoc = "../../../docs/orders/la-conquete.md"

// docsPosition holds every troop the examples name; the phase is the
// example's.
const docsPosition = `
day: 1
slot: midi
phase: %s
mover: %s
messenger: {ally: elfes}
troops:
  - {side: rebels, troop: R1, at: la-foret, counters: [konrad, laberne, godiva, shaman]}
  - {side: rebels, troop: R3, at: la-foret, counters: [elf-1, elf-2]}
  - {side: rebels, troop: R2, at: la-croisee, counters: [zacharie, jon]}
  - {side: rebels, troop: R4, at: le-pont, counters: [arlon]}
  - {side: reptilians, troop: R1, at: fort-ekal, counters: [lord, sorcerer, chief-ysshal]}
  - {side: reptilians, troop: R2, at: le-pont, counters: [chief-thessk, rept-warrior-4]}
  - {side: reptilians, troop: R3, at: le-gue, counters: [rept-scout-1, rept-scout-2], stealthy: true}
`

type docMail struct {
	Side   string    `yaml:"side"`
	Turn   int       `yaml:"turn"`
	Phase  string    `yaml:"phase"`
	Orders yaml.Node `yaml:"orders"`
}

func readMail(src string) (docMail, error) {
	var m docMail
	if err := yaml.Unmarshal([]byte(src), &m); err != nil {
		return m, err
	}
	if m.Orders.Kind == 0 || m.Phase == "" {
		return m, fmt.Errorf("the example needs phase: and orders:")
	}
	return m, nil
}

// parseAt parses the mail of side at the request of its phase due in st.
func parseAt(st adjudicator.State, side string, m docMail) error {
	if m.Side != "" && m.Side != side {
		return fmt.Errorf("side: %s in a mail marked for %s", m.Side, side)
	}
	var due []string
	for _, r := range conquete.Ruleset.Due(st) {
		if string(r.Side) == side && r.Phase == m.Phase {
			if m.Turn != r.Turn {
				return fmt.Errorf("turn: %d, the request is for turn %d", m.Turn, r.Turn)
			}
			_, err := conquete.Ruleset.ParseOrders(st, r, &m.Orders)
			return err
		}
		due = append(due, string(r.Side)+"/"+r.Phase)
	}
	return fmt.Errorf("no %s mail of phase %s is due there (due: %v)", side, m.Phase, due)
}

// parseDocOrders parses "orders: SIDE" in the docs position of its phase.
func parseDocOrders(side, src string) error {
	m, err := readMail(src)
	if err != nil {
		return err
	}
	setup := adjudicator.Setup{Sides: []adjudicator.Side{conquete.Rebels, conquete.Reptilians}}
	if m.Phase != "setup" {
		phase := m.Phase
		if phase == "region" {
			phase = "negotiation"
		}
		setup.Position = fmt.Appendf(nil, docsPosition, phase, side)
	}
	st, err := conquete.Ruleset.Setup(setup)
	if err != nil {
		return fmt.Errorf("the docs position: %v", err)
	}
	return parseAt(st, side, m)
}

// parseDocAnswer plays the rule case until it asks side for the mail's
// phase, then parses the mail there.
func parseDocAnswer(t *testing.T, side, file, src string) error {
	m, err := readMail(src)
	if err != nil {
		return err
	}
	s := loadCase(t, file)
	var steps = s.Steps[:0:0]
	for _, step := range s.Steps {
		var env docMail
		if err := yaml.Unmarshal([]byte(step.Orders), &env); err != nil {
			return err
		}
		if step.Side == side && env.Phase == m.Phase {
			break
		}
		steps = append(steps, step)
	}
	if len(steps) == len(s.Steps) {
		return fmt.Errorf("%s never asks %s for phase %s", file, side, m.Phase)
	}
	s.Steps, s.Expect = steps, nil
	g, fails := playDirect(t, s)
	if len(fails) > 0 {
		return fmt.Errorf("%s: %s", file, strings.Join(fails, "; "))
	}
	return parseAt(g.st, side, m)
}

// TestDocsExamples parses every example mail of the orders doc.
func TestDocsExamples(t *testing.T) {
	b, err := os.ReadFile(ordersDoc)
	if err != nil {
		t.Fatal(err)
	}
	blocks := scripttest.YAMLBlocks(string(b), "#")
	if len(blocks) < 10 {
		t.Fatalf("only %d examples in %s", len(blocks), ordersDoc)
	}
	for _, bl := range blocks {
		kind, rest, _ := strings.Cut(bl.Marker, ":")
		rest = strings.TrimSpace(rest)
		var err error
		switch kind {
		case "orders":
			err = parseDocOrders(rest, bl.Src)
		case "answer":
			side, file, _ := strings.Cut(rest, " ")
			err = parseDocAnswer(t, side, strings.TrimSpace(file), bl.Src)
		case "position":
			_, err = conquete.Ruleset.Setup(adjudicator.Setup{Position: []byte(bl.Src),
				Sides: []adjudicator.Side{conquete.Rebels, conquete.Reptilians}})
		case "command":
			continue
		default:
			err = fmt.Errorf("no marker: start the block with # orders: SIDE, # answer: SIDE CASE, # position or # command")
		}
		if err != nil {
			t.Errorf("%s:%d (%s): %v", ordersDoc, bl.Line, bl.Marker, err)
		}
	}
}

// TestDocsExamplesCatchMistakes: the check can fail.
func TestDocsExamplesCatchMistakes(t *testing.T) {
	for _, bad := range []string{
		"turn: 2\nphase: movement\norders:\n  move: R2\n  path: [le-gue, le-marais, village-gobelin]\n", // too far
		"turn: 2\nphase: movement\norders:\n  move: R9\n  path: [le-gue]\n",                             // no troop R9
		"turn: 2\nphase: reorganisation\norders:\n  stealthy: [R2]\n",                                   // humans in the open
		"turn: 2\nphase: fight\norders: {choice: flee}\n",                                               // not due
	} {
		if parseDocOrders("rebels", bad) == nil {
			t.Errorf("accepted:\n%s", bad)
		}
	}
}
