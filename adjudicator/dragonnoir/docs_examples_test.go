package dragonnoir_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir"
	"github.com/umpire-pbem/umpire/adjudicator/script"
	"github.com/umpire-pbem/umpire/adjudicator/script/scripttest"
)

// The example mails of docs/orders/dragon-noir.md are read by the
// ruleset's own parser, so that the docs cannot drift from the code. Every
// fenced yaml block of that file starts with a marker comment saying what
// it is:
//
//	# orders: adventurers   the Adventurer mail (phase adventurers)
//	# orders: krobs         the Krob mail (phase krobs)
//	# orders: reactions     the Adventurers' reactions to a Krob turn
//	# answer: DIR/CASE.yaml an answer to the question the rule case
//	                        testdata/DIR/CASE.yaml pauses on first
//
// Orders are parsed in docsPosition, where every character an example
// names stands; an answer at the real pause of its rule case.

const ordersDoc = "../../docs/orders/dragon-noir.md"

// docsPosition holds every character the examples name, on the descente
// map (La Fosse, columns 01–08, with L'Île Souterraine, 09–16).
const docsPosition = `
map: descente
step: %s
units:
  - {unit: konrad, at: "0202"}
  - {unit: godiva, at: "0203"}
  - {unit: lucifer, at: "0204"}
  - {unit: zacharie, at: "0205"}
  - {unit: shaman, at: "0302"}
  - {unit: jon, at: "0303"}
  - {unit: arlon, at: "0305"}
  - {unit: laberne, at: "0102"}
  - {unit: zed, at: "0103"}
  - {unit: troll-1, at: "0104"}
  - {unit: elf-1, at: "0105"}
  - {unit: ork-guard-1, at: "0206"}
  - {unit: goblin-1, at: "0306"}
  - {unit: gargoyle-1, at: "0406"}
  - {unit: hunter-1, at: "1002"}
  - {unit: hunter-2, at: "1003"}
  - {unit: hunter-4, at: "1004"}
  - {unit: warrior-2, at: "1102"}
  - {unit: killer-1, at: "1103"}
  - {unit: guard-1, at: "0702", facing: S}
  - {unit: guard-2, at: "0902", facing: S}
`

// mailParts reads a mail of the doc: its orders: node, and its side: and
// phase: when it gives them.
func mailParts(src string) (orders *yaml.Node, side, phase string, err error) {
	var env struct {
		Side   string    `yaml:"side"`
		Phase  string    `yaml:"phase"`
		Orders yaml.Node `yaml:"orders"`
	}
	if err := yaml.Unmarshal([]byte(src), &env); err != nil {
		return nil, "", "", err
	}
	if env.Orders.Kind == 0 {
		return nil, "", "", fmt.Errorf("the example has no orders: key")
	}
	return &env.Orders, env.Side, env.Phase, nil
}

// parseDocOrders parses the orders of an example marked "orders: what".
func parseDocOrders(what, src string) error {
	step, side := dragonnoir.StepAdventurers, dragonnoir.Adventurers
	switch what {
	case "adventurers":
	case "krobs":
		step, side = dragonnoir.StepKrobs, dragonnoir.Krobs
	case "reactions":
		step = dragonnoir.StepKrobs
	default:
		return fmt.Errorf("marker orders: %q is adventurers, krobs or reactions", what)
	}
	n, mailSide, phase, err := mailParts(src)
	if err != nil {
		return err
	}
	if mailSide != "" && mailSide != string(side) {
		return fmt.Errorf("side: %s in a mail marked orders: %s", mailSide, what)
	}
	if phase != "" && phase != step {
		return fmt.Errorf("phase: %s in a mail marked orders: %s (write phase: %s)", phase, what, step)
	}
	st, err := dragonnoir.Ruleset.Setup(adjudicator.Setup{Position: fmt.Appendf(nil, docsPosition, step)})
	if err != nil {
		return fmt.Errorf("the docs position: %v", err)
	}
	var req *adjudicator.Request
	for _, r := range dragonnoir.Ruleset.Due(st) {
		if r.Side == side && (r.ID == fmt.Sprintf("t1.%s", what) || (what == "reactions" && strings.HasSuffix(r.ID, ".reactions"))) {
			req = &r
		}
	}
	if req == nil {
		return fmt.Errorf("no %s mail is due in the docs position: %v", what, dragonnoir.Ruleset.Due(st))
	}
	_, err = dragonnoir.Ruleset.ParseOrders(st, *req, n)
	return err
}

// parseDocAnswer plays the rule case at testdata/path with the example in
// place of its first answer (the case's turn and phase kept, the steps
// after it dropped): the game must accept the answer and resume with it.
// What the answer names is weighed when the game resumes, and one it
// cannot use falls to the question's default with a line in the report
// (PBEM-GEN-3), so this checks the mail's form, not the choice's wisdom.
func parseDocAnswer(path, src string) error {
	b, err := os.ReadFile(filepath.Join("testdata", path))
	if err != nil {
		return fmt.Errorf("marker answer: %v", err)
	}
	s, err := script.Parse(filepath.Base(path), b)
	if err != nil {
		return err
	}
	cut := slices.IndexFunc(s.Steps, func(st script.Step) bool { return strings.Contains(st.Orders, "answer:") })
	if cut < 0 {
		return fmt.Errorf("the case %s answers no question", path)
	}
	n, _, phase, err := mailParts(src)
	if err != nil {
		return err
	}
	var env yaml.Node
	if err := yaml.Unmarshal([]byte(s.Steps[cut].Orders), &env); err != nil {
		return err
	}
	m := env.Content[0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		switch m.Content[i].Value {
		case "phase":
			if phase != "" && phase != m.Content[i+1].Value {
				return fmt.Errorf("phase: %s, but the question of %s is in phase %s", phase, path, m.Content[i+1].Value)
			}
		case "orders":
			m.Content[i+1] = n
		}
	}
	out, err := yaml.Marshal(&env)
	if err != nil {
		return err
	}
	s.Steps = s.Steps[:cut+1]
	s.Steps[cut].Orders, s.Expect = string(out), nil
	run, err := script.Play(s, lookup, script.Options{})
	if err != nil {
		return err
	}
	if len(run.Steps) != cut+1 {
		return fmt.Errorf("the case %s stops before its first answer: %v", path, run.Failures)
	}
	if err := run.Steps[cut].Err; err != nil {
		return fmt.Errorf("the answer is refused at the pause of %s: %v", path, err)
	}
	return nil
}

// checkBlock parses the example b as its marker says.
func checkBlock(b scripttest.DocBlock) error {
	kind, arg, _ := strings.Cut(b.Marker, ":")
	arg = strings.TrimSpace(arg)
	switch kind {
	case "orders":
		return parseDocOrders(arg, b.Src)
	case "answer":
		return parseDocAnswer(arg, b.Src)
	case "battle": // DN3 battles (battle_docs_test.go)
		return parseDocBattle(arg, b.Src)
	}
	return fmt.Errorf("the block has no marker: start it with a comment line # orders: adventurers | krobs | reactions, # answer: DIR/CASE.yaml, or # battle: setup | rebels | reptilians | reactions")
}

// TestDocsExamples: every fenced yaml block of the orders doc is marked,
// and every one is accepted by the ruleset's parser.
func TestDocsExamples(t *testing.T) {
	doc := readFile(t, ordersDoc)
	blocks := docBlocks(doc)
	if len(blocks) < 10 {
		t.Fatalf("%s: only %d yaml blocks found; is the scan broken?", ordersDoc, len(blocks))
	}
	seen := map[string]int{}
	for _, b := range blocks {
		if err := checkBlock(b); err != nil {
			t.Errorf("%s, the example starting at line %d: %v", ordersDoc, b.Line, err)
		}
		seen[b.Marker]++
	}
	for _, want := range []string{"orders: adventurers", "orders: krobs", "orders: reactions"} {
		if seen[want] == 0 {
			t.Errorf("%s has no example marked %s", ordersDoc, want)
		}
	}
}

// TestDocsExamplesCatch: the check can fail — an unknown unit, a facing off
// the grid, a reactions key under standing:, a phase the mail is not for,
// a misspelt answer and an unmarked block are all refused.
func TestDocsExamplesCatch(t *testing.T) {
	for _, c := range []struct{ marker, src, want string }{
		{"orders: adventurers", "orders:\n  moves:\n    - {unit: konrd, path: [\"0302\"]}\n", `no character "konrd"`},
		{"orders: krobs", "orders:\n  moves:\n    - {unit: guard-1, path: [\"0702\"], facing: W}\n", `facing "W"`},
		{"orders: reactions", "orders:\n  standing: {advance: never}\n", "without standing:"},
		{"orders: adventurers", "phase: krobs\norders: {}\n", "phase: krobs in a mail marked"},
		{"answer: combat/DN-MULTI-3-casualty.yaml", "orders:\n  answr: hunter-2\n", `unknown field "answr"`},
		{"", "orders: {}\n", "no marker"},
	} {
		doc := "```yaml\n# " + c.marker + "\n" + c.src + "```\n"
		if c.marker == "" {
			doc = "```yaml\n" + c.src + "```\n"
		}
		b := docBlocks(doc)
		if len(b) != 1 {
			t.Fatalf("%q: %d blocks", doc, len(b))
		}
		if err := checkBlock(b[0]); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want an error with %q", doc, err, c.want)
		}
	}
}

// docBlocks are the orders doc's yaml blocks, marked by "# orders: …",
// "# answer: …" or "# battle: …".
func docBlocks(doc string) []scripttest.DocBlock {
	return scripttest.YAMLBlocks(doc, "# orders:", "# answer:", "# battle:")
}
