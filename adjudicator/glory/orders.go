package glory

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
)

// Order error codes of Dragons of Glory, besides the engine's. Every code
// is documented in docs/orders/dragons-of-glory.md.
const (
	codeBadHex      = "bad-hex"       // not a hex of the map
	codeNotYours    = "not-your-unit" // a counter the side does not control
	codeNotInPlay   = "not-in-play"   // a counter that is not on the map
	codeTwice       = "ordered-twice" // one counter given two orders of a kind
	codeIllegalMove = "illegal-move"  // a path the rules do not allow
	codeStacking    = "stacking"      // over a stacking limit
	codeCannot      = "not-allowed"   // an order the rules forbid now
	codeNotAdjacent = "not-adjacent"  // a target out of reach
	codeBadAnswer   = "bad-answer"    // an answer the question does not take
	codeUnknownKind = "unknown-order" // an order nobody knows
)

// parseMove reads a mover's orders for steps 5 and 6: the sections fleets,
// moves, attacks, naval and standing, each read by its chapter.
func parseMove(st *State, side adjudicator.Side, n *yaml.Node) (adjudicator.Orders, error) {
	o := &MoveOrders{}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return o, nil
	}
	if n.Kind != yaml.MappingNode {
		return nil, adjudicator.Errorf(n, adjudicator.CodeBadValue, "orders for movement and combat are a mapping with fleets:, moves:, attacks:, naval: and standing: (each may be left out)")
	}
	var errs adjudicator.OrderErrors
	add := func(err error) {
		if err == nil {
			return
		}
		if es, ok := err.(adjudicator.OrderErrors); ok {
			errs = append(errs, es...)
		} else if e, ok := err.(*adjudicator.OrderError); ok {
			errs = append(errs, e)
		} else {
			errs = append(errs, adjudicator.Errorf(n, adjudicator.CodeBadValue, "%v", err))
		}
	}
	keys := []string{"fleets", "moves", "attacks", "naval", "dismantle", "standing", "concede"}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		var err error
		switch k.Value {
		case "fleets":
			o.Fleets, err = parseFleets(st, side, v)
		case "moves":
			o.Moves, err = parseMoves(st, side, v)
		case "attacks":
			o.Attacks, err = parseAttacks(st, side, v)
		case "naval":
			o.Naval, err = parseNaval(st, side, v)
		case "dismantle":
			o.Dismantle, err = parseDismantle(st, side, v)
		case "standing":
			if o.Standing, err = parseStanding(v); err == nil {
				err = checkStanding(st, side, v)
			}
		case "concede":
			o.Concede, err = parseConcede(v)
		default:
			err = yamlx.UnknownField(k, k.Value, keys)
		}
		add(err)
	}
	if len(errs) == 0 {
		add(checkAttacks(st, side, o)) // attacks against the positions the moves lead to
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return o, nil
}

func parseConcede(v *yaml.Node) (bool, error) {
	if v.Value != "true" && v.Value != "yes" {
		return false, adjudicator.Errorf(v, adjudicator.CodeBadValue, "to concede write \"concede: yes\"")
	}
	return true, nil
}

// standingKeys are the standing orders a side may give (DG-PBEM-18), each
// read by the chapter whose questions it answers. A chapter adds its keys
// in an init function.
var standingKeys = map[string]func(st *State, side adjudicator.Side, v *yaml.Node) error{}

// parseStanding reads a standing: mapping. Each value is kept as YAML and
// checked by the chapter that will read it.
func parseStanding(v *yaml.Node) (Standing, error) {
	if v.Kind != yaml.MappingNode {
		return nil, adjudicator.Errorf(v, adjudicator.CodeBadValue, "standing: is a mapping of standing orders, e.g. \"losses: weakest-first\"")
	}
	out := Standing{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], v.Content[i+1]
		if _, ok := standingKeys[k.Value]; !ok {
			return nil, yamlx.UnknownField(k, k.Value, slices.Sorted(maps.Keys(standingKeys)))
		}
		if val.Kind == yaml.ScalarNode && (val.Value == "" || val.Tag == "!!null") {
			out[k.Value] = "" // clears it
			continue
		}
		b, err := yaml.Marshal(val)
		if err != nil {
			return nil, adjudicator.Errorf(val, adjudicator.CodeBadValue, "%v", err)
		}
		out[k.Value] = strings.TrimSpace(string(b))
	}
	return out, nil
}

// checkStanding checks each standing order with its chapter.
func checkStanding(st *State, side adjudicator.Side, v *yaml.Node) error {
	var errs adjudicator.OrderErrors
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], v.Content[i+1]
		if f := standingKeys[k.Value]; f != nil && !(val.Kind == yaml.ScalarNode && (val.Value == "" || val.Tag == "!!null")) {
			if err := f(st, side, val); err != nil {
				if e, ok := err.(*adjudicator.OrderError); ok {
					errs = append(errs, e)
				} else {
					errs = append(errs, adjudicator.Errorf(val, codeBadAnswer, "%v", err))
				}
			}
		}
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}

// answerCheckers check an answer to a question by its key; a chapter adds
// its questions' checkers in an init function.
var answerCheckers = map[string]func(st *State, side adjudicator.Side, v *yaml.Node) error{}

// parseAnswer reads the answer to the question the game waits on:
//
//	answer: …        what the question asks (see its prompt)
//	standing: …      standing orders, as in any orders (optional)
func parseAnswer(st *State, req adjudicator.Request, n *yaml.Node) (adjudicator.Orders, error) {
	p := st.Pause.Pending
	if p == nil || p.Question.ID != req.ID {
		return nil, adjudicator.Errorf(n, adjudicator.CodeNotYourTurn, "no question is waiting for an answer")
	}
	a := &Answer{Side: req.Side, Key: p.Question.Key}
	if n.Kind != yaml.MappingNode {
		return nil, adjudicator.Errorf(n, adjudicator.CodeBadValue, "an answer is a mapping: \"answer: …\" (and standing orders under \"standing:\" if you like)")
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch k.Value {
		case "answer":
			if c := answerCheckers[p.Question.Key]; c != nil {
				if err := c(st, req.Side, v); err != nil {
					return nil, err
				}
			} else if len(p.Question.Choice) > 0 && !slices.Contains(p.Question.Choice, v.Value) {
				return nil, adjudicator.Errorf(v, codeBadAnswer, "answer one of %s", strings.Join(p.Question.Choice, ", "))
			}
			b, err := yaml.Marshal(v)
			if err != nil {
				return nil, adjudicator.Errorf(v, adjudicator.CodeBadValue, "%v", err)
			}
			a.Text = strings.TrimSpace(string(b))
		case "standing":
			s, err := parseStanding(v)
			if err != nil {
				return nil, err
			}
			if err := checkStanding(st, req.Side, v); err != nil {
				return nil, err
			}
			a.Standing = s
		case "concede":
			c, err := parseConcede(v)
			if err != nil {
				return nil, err
			}
			a.Concede = c
		default:
			return nil, yamlx.UnknownField(k, k.Value, []string{"answer", "standing", "concede"})
		}
	}
	if a.Text == "" && !a.Concede {
		return nil, adjudicator.Errorf(n, adjudicator.CodeMissingField, "write your answer under \"answer:\"; the question was: %s", p.Question.Prompt)
	}
	return a, nil
}

// hexOf reads a hex of the map from a node.
func hexOf(st *State, v *yaml.Node) (string, error) {
	h, err := hex.ParseLenient(v.Value)
	if err != nil {
		return "", adjudicator.Errorf(v, codeBadHex, "%v", err)
	}
	if !st.data.Map.OnMap(h) {
		return "", adjudicator.Errorf(v, codeBadHex, "%s is not on the map", h)
	}
	return h.String(), nil
}

// ownUnit reads a counter the side controls.
func ownUnit(st *State, side adjudicator.Side, v *yaml.Node) (*Unit, error) {
	u := st.Units[v.Value]
	if u == nil {
		ids := st.data.CounterIDs()
		msg := fmt.Sprintf("no counter %q", v.Value)
		if near := yamlx.Nearest(v.Value, ids); near != "" {
			msg += fmt.Sprintf(" (did you mean %s?)", near)
		}
		return nil, adjudicator.Errorf(v, adjudicator.CodeUnknownUnit, "%s", msg)
	}
	if u.Side != side {
		return nil, adjudicator.Errorf(v, codeNotYours, "%s is not yours", u.ID)
	}
	return u, nil
}
