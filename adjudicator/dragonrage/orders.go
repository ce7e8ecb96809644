package dragonrage

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
)

// Orders is one submission, as understood; it is also the normalised echo
// a player gets back.
type Orders struct {
	Concede bool              `yaml:"concede,omitempty"`
	Place   map[string]string `yaml:"place,omitempty"`   // setup: unit → hex
	Face    map[string]string `yaml:"facing,omitempty"`  // setup: major monster → facing (DR-HEX-7)
	Moves   []*Move           `yaml:"moves,omitempty"`   // movement, in order
	Fires   []*Fire           `yaml:"fires,omitempty"`   // fire, in order
	Attacks []*Attack         `yaml:"attacks,omitempty"` // melee, in order
	Spells  []*Spell          `yaml:"spells,omitempty"`  // magic
	Arrive  []string          `yaml:"arrive,omitempty"`  // reinforcements: the hexes to land in
}

// Order error codes of Dragon Rage (besides the engine's).
const (
	codeBadHex      = "bad-hex"
	codeNotYours    = "not-your-unit"
	codeGone        = "unit-gone"
	codeIllegalMove = "illegal-move"
	codeStacking    = "stacking"
	codeSetupZone   = "outside-setup-zone"
	codeMissing     = "unit-not-placed"
	codeTwice       = "ordered-twice"
	codeOutOfRange  = "out-of-range"
	codeNoLOS       = "no-line-of-sight"
	codeCannot      = "not-allowed"
	codeNotAdjacent = "not-adjacent"
	codeUnknownKind = "unknown-order"
)

// parse reads the orders node for the current phase, checking them against
// the state (w runs on a copy). Errors carry the line and column.
func (w *world) parse(req adjudicator.Request, n *yaml.Node) (*Orders, error) {
	if n.Kind == yaml.MappingNode && len(n.Content) == 2 && n.Content[0].Value == "concede" {
		if n.Content[1].Value != "true" {
			return nil, adjudicator.Errorf(n.Content[1], adjudicator.CodeBadValue, "to concede write \"concede: true\"")
		}
		return &Orders{Concede: true}, nil
	}
	if w.st.Pending != nil {
		return w.parseDecision(req, n)
	}
	side := req.Side
	switch w.st.Phase {
	case phSetupDefender, phSetupInvader:
		return w.parseSetup(side, n)
	case phInvMovement, phDefMovement:
		return w.parseMovement(side, n)
	case phInvFire, phDefFire:
		return w.parseFire(side, n)
	case phInvMelee, phDefMelee:
		return w.parseMelee(side, n)
	case phInvMagic, phDefMagic:
		return w.parseMagic(side, n)
	case phDefReinforce:
		return w.parseReinforcements(side, n)
	}
	return nil, adjudicator.Errorf(n, adjudicator.CodeWrongTurn, "no orders are taken in %s", w.st.phaseTitle())
}

// resolve carries out orders that parse accepted.
func (w *world) resolve(o *Orders) {
	if w.st.Pending != nil {
		w.resolveDecision(o)
		return
	}
	switch w.st.Phase {
	case phSetupDefender, phSetupInvader:
		w.resolveSetup(o)
	case phInvMovement, phDefMovement:
		w.resolveMovement(o)
	case phInvFire, phDefFire:
		w.resolveFire(o)
	case phInvMelee, phDefMelee:
		w.resolveMelee(o)
	case phInvMagic, phDefMagic:
		w.resolveMagic(o)
	case phDefReinforce:
		w.resolveReinforcements(o)
	}
}

// items returns the entries of a list of orders ([] or null for none).
func items(n *yaml.Node, example string) ([]*yaml.Node, error) {
	switch {
	case n.Kind == yaml.ScalarNode && (n.Tag == "!!null" || n.Value == ""):
		return nil, nil
	case n.Kind == yaml.SequenceNode:
		return n.Content, nil
	}
	return nil, adjudicator.Errorf(n, adjudicator.CodeBadValue, "orders here are a list, one entry per line starting with \"- \", e.g.\n%s\n(or \"orders: []\" to do nothing)", example)
}

// fields reads a mapping strictly: only the given keys, each once.
func fields(n *yaml.Node, known ...string) (map[string]*yaml.Node, error) {
	if n.Kind != yaml.MappingNode {
		return nil, adjudicator.Errorf(n, adjudicator.CodeBadValue, "expected lines of \"key: value\" here (keys: %s)", strings.Join(known, ", "))
	}
	out := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if !slices.Contains(known, k.Value) {
			return nil, yamlx.UnknownField(k, k.Value, known)
		}
		if _, dup := out[k.Value]; dup {
			return nil, adjudicator.Errorf(k, adjudicator.CodeBadValue, "%q is given twice", k.Value)
		}
		out[k.Value] = n.Content[i+1]
		out["@"+k.Value] = k
	}
	return out, nil
}

// scalar returns a scalar's text.
func scalar(n *yaml.Node, what string) (string, error) {
	if n.Kind != yaml.ScalarNode || n.Value == "" {
		return "", adjudicator.Errorf(n, adjudicator.CodeBadValue, "give %s here", what)
	}
	return n.Value, nil
}

// parseHex reads a hex number as players write it: "0808", 0808, 808.
func (w *world) parseHex(n *yaml.Node) (string, error) {
	if n.Kind != yaml.ScalarNode {
		return "", adjudicator.Errorf(n, codeBadHex, "give a hex number such as \"0808\"")
	}
	h, err := hex.ParseLenient(n.Value)
	if err != nil {
		return "", adjudicator.Errorf(n, codeBadHex, "%q is not a hex number: write four digits, column then row, e.g. \"0808\"", n.Value)
	}
	if !w.m.OnMap(h) {
		return "", adjudicator.Errorf(n, codeBadHex, "hex %s is not on the %s map", h, w.m.Title)
	}
	return h.String(), nil
}

// hexList reads a list of hexes (or one hex).
func (w *world) hexList(n *yaml.Node) ([]string, []*yaml.Node, error) {
	list := []*yaml.Node{n}
	if n.Kind == yaml.SequenceNode {
		list = n.Content
	}
	var out []string
	for _, x := range list {
		h, err := w.parseHex(x)
		if err != nil {
			return nil, nil, err
		}
		out = append(out, h)
	}
	return out, list, nil
}

// ownUnit reads a unit id that must be one of side's units in play.
func (w *world) ownUnit(n *yaml.Node, side adjudicator.Side) (*Unit, error) {
	id, err := scalar(n, "a unit id such as INF-3")
	if err != nil {
		return nil, err
	}
	id = strings.ToUpper(strings.TrimSpace(id))
	u := w.st.unit(id)
	if u == nil || u.Pool {
		return nil, adjudicator.Errorf(n, adjudicator.CodeUnknownUnit, "%s", w.noSuchUnit(id, side))
	}
	if why := w.wildUnit(u); why != "" {
		return nil, adjudicator.Errorf(n, codeNotYours, "%s", why)
	}
	if u.Side != side {
		return nil, adjudicator.Errorf(n, codeNotYours, "%s is the %s's unit, not yours", id, u.Side)
	}
	if u.Gone {
		return nil, adjudicator.Errorf(n, codeGone, "%s has been eliminated", id)
	}
	return u, nil
}

func (w *world) noSuchUnit(id string, side adjudicator.Side) string {
	var ids []string
	for _, u := range w.st.alive(side) {
		ids = append(ids, u.ID)
	}
	sort.Strings(ids)
	msg := fmt.Sprintf("no unit %q", id)
	if s := yamlx.Nearest(id, ids); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	} else if len(ids) > 0 {
		msg += "; your units are " + strings.Join(ids, ", ")
	}
	return msg
}

// unitList reads one unit id or a list of them, each at most once.
func (w *world) unitList(n *yaml.Node, side adjudicator.Side) ([]*Unit, error) {
	list := []*yaml.Node{n}
	if n.Kind == yaml.SequenceNode {
		list = n.Content
	}
	var out []*Unit
	seen := map[string]bool{}
	for _, x := range list {
		u, err := w.ownUnit(x, side)
		if err != nil {
			return nil, err
		}
		if seen[u.ID] {
			return nil, adjudicator.Errorf(x, codeTwice, "%s is listed twice", u.ID)
		}
		seen[u.ID] = true
		out = append(out, u)
	}
	return out, nil
}
