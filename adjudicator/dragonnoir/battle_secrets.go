package dragonnoir

import (
	"maps"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
)

// The sealed parts of a battle's position (adjudicator.ChildSecret). A
// campaign knows things about a battle that only one side may know: the
// Negotiation marker each side drew in Step 5 before choosing to fight
// (DN3-CAMP-NEG-11, HID-14), its own casters' PE and its troops' Fatigue
// (HID-11), who the traitor among the Reptilians is (DN3-CAMP-TRAITOR-1,
// HID-12). Its battle position says `secrets: true`, and the battle's first
// request is for those parts: umpire answers it at once with the parts
// the campaign sealed for this battle, and the answer stays sealed. Each
// part is for one of the battle's sides; its name says what it is, and a
// reader for that name (secretParts) checks its value when the answer is
// parsed and turns it into the state's own sealed events when it is
// decided. A part whose name has no reader is refused.

// secretPart reads one kind of sealed part.
type secretPart struct {
	// check says what is wrong with value for side, "" when nothing.
	check func(st *State, side adjudicator.Side, value string) string
	// read applies it: sealed events for side (and public ones that tell
	// nothing of it).
	read func(w *world, side adjudicator.Side, value string)
}

// secretParts are the readers of sealed parts, by name; each is declared
// by the file of its chapter.
var secretParts = map[string]secretPart{}

// battleSecrets are the parsed answer to adjudicator.ChildSecretsRequest.
type battleSecrets []adjudicator.ChildSecret

// SecretsRead marks the sealed parts read: the battle goes on to its
// set-up. It says nothing of them, not even how many: a series seals the
// same parts for every battle, whatever they hold.
type SecretsRead struct{}

func (*SecretsRead) EventType() string { return Prefix + ".secrets-read" }

func secretsEvents() []adjudicator.EventType {
	return append(adjudicator.ChildSecretEventTypes(),
		adjudicator.EventType{Name: (&SecretsRead{}).EventType(), Schema: 1, New: func() adjudicator.Event { return &SecretsRead{} }})
}

// parseSecrets reads the sealed parts: each for a side, a name with a
// reader, a value its reader accepts, and no name twice for a side.
func parseSecrets(st *State, n *yaml.Node) (adjudicator.Orders, error) {
	parts, err := adjudicator.ParseChildSecrets(n, []adjudicator.Side{Adventurers, Krobs})
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for i, p := range parts {
		at := n
		if l := yamlx.Value(n, "secrets"); l != nil && i < len(l.Content) {
			at = l.Content[i]
		}
		r, ok := secretParts[p.Name]
		if !ok {
			return nil, adjudicator.Errorf(at, adjudicator.CodeBadValue, "sealed part %d: a battle reads no part named %q (it reads %s)", i+1, p.Name, strings.Join(slices.Sorted(maps.Keys(secretParts)), ", "))
		}
		k := string(p.Side) + "/" + p.Name
		if seen[k] {
			return nil, adjudicator.Errorf(at, adjudicator.CodeBadValue, "sealed part %d: a second %s for the %s", i+1, p.Name, st.SideName(p.Side))
		}
		seen[k] = true
		if why := r.check(st, p.Side, p.Value); why != "" {
			return nil, adjudicator.Errorf(at, adjudicator.CodeBadValue, "sealed part %d (%s for the %s): %s", i+1, p.Name, st.SideName(p.Side), why)
		}
	}
	return battleSecrets(parts), nil
}

// readSecrets decides the answer: each part echoed sealed to its side (the
// battle's log commits to what it read), then read.
func (w *world) readSecrets(parts battleSecrets) {
	adjudicator.SealChildSecrets(w.r, parts)
	w.emit(&SecretsRead{})
	for _, p := range parts {
		secretParts[p.Name].read(w, p.Side, p.Value)
	}
}

// evolveSecrets applies SecretsRead; false for any other event.
func (s *State) evolveSecrets(ev adjudicator.Event) bool {
	if _, ok := ev.(*SecretsRead); !ok {
		return false
	}
	s.SecretsRead = true
	return true
}
