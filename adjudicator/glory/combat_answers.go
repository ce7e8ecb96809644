package glory

import (
	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// The answers to combat questions, and the standing orders that give them
// in advance (DG-PBEM-18): each key's answer is read by one function, used
// both to check it when it is sent and to apply it when it is used.

// lossPlan answers "losses": strongest-first, weakest-first, or a list of
// armies in the order they take reductions.
type lossPlan struct {
	Mode string
	List []string
}

// retreatPlan answers "retreat": default, a hex for each army, {prefer:
// [hexes]} or {toward: HEX}.
type retreatPlan struct {
	Each   map[string]string
	Prefer []string
	Toward string
}

// fortressPlan answers "fortress": stay, retreat, or the armies that retreat.
type fortressPlan struct {
	All     string
	Retreat []string
}

// prePlan answers "pre-retreat": none, all, or each withdrawal.
type prePlan struct {
	None, All bool
	Each      []preMove
}

type preMove struct {
	Unit  string   `yaml:"unit"`
	Path  []string `yaml:"path"`
	Carry string   `yaml:"carry"`
}

// tauntPlan answers "taunt": none, or the taunts in the order made.
type tauntPlan struct {
	Each []tauntDecl
}

type tauntDecl struct {
	Kender string `yaml:"kender" json:"kender"`
	Target string `yaml:"target" json:"target"`
}

func init() {
	for key, check := range map[string]func(*State, adjudicator.Side, *yaml.Node) error{
		"losses": func(st *State, side adjudicator.Side, v *yaml.Node) error {
			_, err := parseLossPlan(st, side, v)
			return err
		},
		"retreat": func(st *State, side adjudicator.Side, v *yaml.Node) error {
			_, err := parseRetreatPlan(st, side, v)
			return err
		},
		"fortress": func(st *State, side adjudicator.Side, v *yaml.Node) error {
			_, err := parseFortressPlan(st, side, v)
			return err
		},
		"pre-retreat": func(st *State, side adjudicator.Side, v *yaml.Node) error {
			_, err := parsePrePlan(st, side, v)
			return err
		},
		"leader": func(st *State, side adjudicator.Side, v *yaml.Node) error {
			_, err := parseHexList(st, v)
			return err
		},
		"taunt": func(st *State, side adjudicator.Side, v *yaml.Node) error {
			_, err := parseTauntPlan(st, v)
			return err
		},
	} {
		answerCheckers[key] = check
		standingKeys[key] = check
	}
}

// node reads an answer's YAML text back into its node.
func node(text string) *yaml.Node {
	var d yaml.Node
	if yaml.Unmarshal([]byte(text), &d) != nil || len(d.Content) == 0 {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null"}
	}
	return d.Content[0]
}

// The readers apply an answer already checked; a part that no longer makes
// sense (a counter gone) falls back on the default.

func readLossPlan(text string) lossPlan {
	p, _ := parseLossPlan(nil, "", node(text))
	return p
}

func readRetreatPlan(text string) retreatPlan {
	p, _ := parseRetreatPlan(nil, "", node(text))
	return p
}

func readFortressPlan(text string) fortressPlan {
	p, err := parseFortressPlan(nil, "", node(text))
	if err != nil {
		return fortressPlan{All: "stay"}
	}
	return p
}

func readPrePlan(text string) prePlan {
	p, err := parsePrePlan(nil, "", node(text))
	if err != nil {
		return prePlan{None: true}
	}
	return p
}

func readHexList(text string) []string {
	l, _ := parseHexList(nil, node(text))
	return l
}

func readTauntPlan(text string) tauntPlan {
	p, _ := parseTauntPlan(nil, node(text))
	return p
}

// unitIn checks, when st is given, that v names one of side's counters.
func unitIn(st *State, side adjudicator.Side, v *yaml.Node) error {
	if st == nil {
		return nil
	}
	_, err := ownUnit(st, side, v)
	return err
}

// hexIn reads a hex, checked against the map when st is given.
func hexIn(st *State, v *yaml.Node) (string, error) {
	if v.Kind != yaml.ScalarNode {
		return "", adjudicator.Errorf(v, adjudicator.CodeBadValue, "write a hex, e.g. \"1104\"")
	}
	if st == nil {
		return v.Value, nil
	}
	return hexOf(st, v)
}

func parseLossPlan(st *State, side adjudicator.Side, v *yaml.Node) (lossPlan, error) {
	p := lossPlan{Mode: "strongest-first"}
	switch {
	case v.Kind == yaml.ScalarNode && (v.Value == "strongest-first" || v.Value == "weakest-first"):
		p.Mode = v.Value
		return p, nil
	case v.Kind == yaml.SequenceNode:
		for _, n := range v.Content {
			if err := unitIn(st, side, n); err != nil {
				return p, err
			}
			p.List = append(p.List, n.Value)
		}
		return p, nil
	}
	return p, adjudicator.Errorf(v, codeBadAnswer, "losses: answer strongest-first, weakest-first or a list of your armies, e.g. [valen-inf-1, valen-inf-2]")
}

func parseRetreatPlan(st *State, side adjudicator.Side, v *yaml.Node) (retreatPlan, error) {
	var p retreatPlan
	if v.Kind == yaml.ScalarNode && v.Value == "default" {
		return p, nil
	}
	if v.Kind != yaml.MappingNode {
		return p, adjudicator.Errorf(v, codeBadAnswer, "retreat: answer default, {prefer: [HEX, ...]}, {toward: HEX} or a hex for each army, e.g. {valen-inf-1: \"1104\"}")
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], v.Content[i+1]
		switch k.Value {
		case "prefer":
			if val.Kind != yaml.SequenceNode {
				return p, adjudicator.Errorf(val, codeBadAnswer, "prefer: is a list of hexes, e.g. [\"1104\", \"1105\"]")
			}
			for _, h := range val.Content {
				x, err := hexIn(st, h)
				if err != nil {
					return p, err
				}
				p.Prefer = append(p.Prefer, x)
			}
		case "toward":
			x, err := hexIn(st, val)
			if err != nil {
				return p, err
			}
			p.Toward = x
		default:
			if err := unitIn(st, side, k); err != nil {
				return p, err
			}
			x, err := hexIn(st, val)
			if err != nil {
				return p, err
			}
			if p.Each == nil {
				p.Each = map[string]string{}
			}
			p.Each[k.Value] = x
		}
	}
	return p, nil
}

func parseFortressPlan(st *State, side adjudicator.Side, v *yaml.Node) (fortressPlan, error) {
	switch {
	case v.Kind == yaml.ScalarNode && (v.Value == "stay" || v.Value == "retreat"):
		return fortressPlan{All: v.Value}, nil
	case v.Kind == yaml.SequenceNode:
		var p fortressPlan
		for _, n := range v.Content {
			if err := unitIn(st, side, n); err != nil {
				return p, err
			}
			p.Retreat = append(p.Retreat, n.Value)
		}
		return p, nil
	}
	return fortressPlan{}, adjudicator.Errorf(v, codeBadAnswer, "fortress: answer stay, retreat, or the list of your armies that retreat")
}

func parsePrePlan(st *State, side adjudicator.Side, v *yaml.Node) (prePlan, error) {
	var p prePlan
	switch {
	case v.Kind == yaml.ScalarNode && v.Value == "none":
		p.None = true
		return p, nil
	case v.Kind == yaml.ScalarNode && v.Value == "all":
		p.All = true
		return p, nil
	case v.Kind == yaml.SequenceNode:
		for _, n := range v.Content {
			var m preMove
			if n.Kind != yaml.MappingNode {
				return p, adjudicator.Errorf(n, codeBadAnswer, "each withdrawal is {unit: ARMY, path: [HEX, ...]} (and carry: INFANTRY for a griffon or pegasus)")
			}
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, val := n.Content[i], n.Content[i+1]
				switch k.Value {
				case "unit":
					if err := unitIn(st, side, val); err != nil {
						return p, err
					}
					m.Unit = val.Value
				case "carry":
					if err := unitIn(st, side, val); err != nil {
						return p, err
					}
					m.Carry = val.Value
				case "path":
					if val.Kind == yaml.ScalarNode {
						x, err := hexIn(st, val)
						if err != nil {
							return p, err
						}
						m.Path = []string{x}
						continue
					}
					if val.Kind != yaml.SequenceNode || len(val.Content) == 0 || len(val.Content) > 2 {
						return p, adjudicator.Errorf(val, codeBadAnswer, "path: is one hex, or two for an air army, e.g. [\"1104\", \"1103\"]")
					}
					for _, h := range val.Content {
						x, err := hexIn(st, h)
						if err != nil {
							return p, err
						}
						m.Path = append(m.Path, x)
					}
				default:
					return p, adjudicator.Errorf(k, adjudicator.CodeUnknownField, "unknown key %q: write unit, path and carry", k.Value)
				}
			}
			if m.Unit == "" {
				return p, adjudicator.Errorf(n, adjudicator.CodeMissingField, "say which army withdraws with unit:")
			}
			p.Each = append(p.Each, m)
		}
		return p, nil
	}
	return p, adjudicator.Errorf(v, codeBadAnswer, "pre-retreat: answer none, all, or a list like [{unit: valen-griffon, path: [\"1104\", \"1103\"]}]")
}

func parseHexList(st *State, v *yaml.Node) ([]string, error) {
	if v.Kind == yaml.ScalarNode {
		x, err := hexIn(st, v)
		if err != nil {
			return nil, err
		}
		return []string{x}, nil
	}
	if v.Kind != yaml.SequenceNode {
		return nil, adjudicator.Errorf(v, codeBadAnswer, "leader: answer a hex, or a list of hexes in order of preference")
	}
	var out []string
	for _, h := range v.Content {
		x, err := hexIn(st, h)
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, nil
}

func parseTauntPlan(st *State, v *yaml.Node) (tauntPlan, error) {
	var p tauntPlan
	if v.Kind == yaml.ScalarNode && v.Value == "none" {
		return p, nil
	}
	if v.Kind != yaml.SequenceNode {
		return p, adjudicator.Errorf(v, codeBadAnswer, "taunt: answer none, or a list of taunts in the order you make them, e.g. [{kender: \"0805\", target: \"0905\"}]")
	}
	for _, n := range v.Content {
		var d tauntDecl
		if n.Kind != yaml.MappingNode {
			return p, adjudicator.Errorf(n, codeBadAnswer, "each taunt is {kender: HEX, target: HEX}: your kender stack and the enemy stack next to it")
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, val := n.Content[i], n.Content[i+1]
			x, err := hexIn(st, val)
			if err != nil {
				return p, err
			}
			switch k.Value {
			case "kender":
				d.Kender = x
			case "target":
				d.Target = x
			default:
				return p, adjudicator.Errorf(k, adjudicator.CodeUnknownField, "unknown key %q: write kender and target", k.Value)
			}
		}
		if d.Kender == "" || d.Target == "" {
			return p, adjudicator.Errorf(n, adjudicator.CodeMissingField, "a taunt names the kender hex and the target hex: {kender: HEX, target: HEX}")
		}
		p.Each = append(p.Each, d)
	}
	return p, nil
}
