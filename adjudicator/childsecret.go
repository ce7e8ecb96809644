package adjudicator

import (
	"fmt"
	"slices"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
)

// Sealed parts of a child's position. A series' child game starts from a
// position every side reads (ChildGame.Position). Some of what a series
// hands a child is one side's alone: the Negotiation marker a side drew in
// the campaign before the battle, who the traitor in the other camp is,
// how many PE a side's casters have left. The series emits each such part
// sealed, before the ChildGame that reaches the child:
//
//	r.Emit(Seal(To(rebels), "", &ChildSecret{Child: "b1", Side: "adventurers", Name: "negotiation", Value: "alliance"}))
//
// A child that reads sealed parts asks for them first (ChildSecretsRequest);
// umpire answers that request at once, when it creates the child, with
// every part its series sealed for it, and the answer stays sealed in the
// child's log. The child's ruleset echoes each part sealed to its side
// (SealChildSecrets) and keeps what it needs in its state, sealed under
// its own keys. Both logs thus commit to the same parts, and `umpire series
// verify` checks, once everything is revealed, that the child read exactly
// what its series sealed for it.
//
// The engine keeps ChildSecret events out of the rulesets' Evolve: they
// change no state; game.Game.ChildSecrets lists them.

// TypeChildSecret is the stored name of ChildSecret.
const TypeChildSecret = "series.child-secret"

// ChildSecretsID is the id of the request by which a child reads its
// sealed parts (ChildSecretsRequest).
const ChildSecretsID = "series.secrets"

// ChildSecret is one sealed part of a child's position.
type ChildSecret struct {
	Child string `json:"child" yaml:"child"` // the child's key in its series
	Side  Side   `json:"side" yaml:"side"`   // the child's side that may read it
	Name  string `json:"name" yaml:"name"`   // what it is, for the child's ruleset: "negotiation"
	Value string `json:"value" yaml:"value"` // its content, as the child's ruleset reads it
}

// EventType implements Event.
func (*ChildSecret) EventType() string { return TypeChildSecret }

// ChildSecretEventTypes lists the engine-level event a child that reads
// sealed parts emits (SealChildSecrets); include it in its EventTypes.
// SeriesEventTypes includes it for the series.
func ChildSecretEventTypes() []EventType {
	return []EventType{{Name: TypeChildSecret, Schema: 1, New: func() Event { return &ChildSecret{} }}}
}

// ChildSecretsRequest is the first request of a child that reads sealed
// parts: umpire answers it at once (Kind auto, side series), and the answer
// stays sealed (SealKey) until the child ends. turn and phase are the
// child's at its start.
func ChildSecretsRequest(turn int, phase string) Request {
	return Request{ID: ChildSecretsID, Side: SeriesSide, Kind: KindAuto, Turn: turn, Phase: phase,
		Title: "the sealed parts of the position", Hidden: true, SealKey: ChildSecretsID}
}

// ChildSecretsOrders are the orders that answer ChildSecretsRequest with
// parts, as umpire writes them: a YAML mapping with a `secrets:` list.
func ChildSecretsOrders(parts []ChildSecret) (*yaml.Node, error) {
	var n yaml.Node
	if err := n.Encode(map[string][]ChildSecret{"secrets": nonNil(parts)}); err != nil {
		return nil, err
	}
	return &n, nil
}

func nonNil(parts []ChildSecret) []ChildSecret {
	if parts == nil {
		return []ChildSecret{}
	}
	return parts
}

// ParseChildSecrets reads the orders of ChildSecretsRequest: the parts,
// each for one of sides (the child's). The child's ruleset checks names
// and values.
func ParseChildSecrets(n *yaml.Node, sides []Side) ([]ChildSecret, error) {
	var o struct {
		Secrets []ChildSecret `yaml:"secrets"`
	}
	if err := yamlx.Decode(n, &o); err != nil {
		return nil, err
	}
	for i, p := range o.Secrets {
		at := yamlx.Value(n, "secrets")
		if at != nil && i < len(at.Content) {
			at = at.Content[i]
		}
		switch {
		case !slices.Contains(sides, p.Side):
			return nil, Errorf(at, CodeBadValue, "sealed part %d is for side %q, which this game does not have", i+1, p.Side)
		case p.Name == "":
			return nil, Errorf(at, CodeMissingField, "sealed part %d has no name", i+1)
		}
	}
	return o.Secrets, nil
}

// SealChildSecrets emits each part sealed to its side, so that the child's
// log commits to what it read (the series' log commits to what it sent).
// A child's ruleset calls it when it decides ChildSecretsRequest's answer,
// before the events it draws from the parts.
func SealChildSecrets(r *Resolution, parts []ChildSecret) {
	for _, p := range parts {
		r.Emit(Seal(To(p.Side), "", &p))
	}
}

// CheckChildSecret says what is wrong with a ChildSecret a series is about
// to seal.
func CheckChildSecret(p *ChildSecret) error {
	if !ValidChildKey(p.Child) || p.Side == "" || p.Name == "" {
		return fmt.Errorf("sealed part %q for %q of child %q: give the child's key, a side and a name", p.Name, p.Side, p.Child)
	}
	return nil
}
