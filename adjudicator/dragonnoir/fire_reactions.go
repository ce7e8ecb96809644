package dragonnoir

import (
	"fmt"
	"maps"
	"slices"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
)

// The Adventurers' reactions to a Krob turn (PBEM-GEN-4 (a), HID-7): their
// defensive-fire triggers (PBEM-DN-6), spell triggers (PBEM-DN-7),
// casualty priorities (PBEM-DN-9), advance (PBEM-DN-10) and retreat
// (PBEM-DN-11) rules. The Adventurer turn's mail is shown to the Krob
// player once it is adjudicated, before he writes his own; so the
// reactions are a mail of their own, due with the Krob player's orders and
// sealed like them until both are in, as simultaneous orders are. Each
// key sent replaces the standing order of that key (given in an earlier
// mail, which the Krob player has seen); a key not sent keeps it. With the
// option defensive-fire: live the Adventurer player answers each
// interruption as it comes, and no reactions mail is due.

// Reactions is the Adventurers' reactions mail for a Krob turn.
type Reactions struct {
	Standing Standing `json:"standing,omitempty" yaml:"standing,omitempty"`
	Concede  bool     `json:"concede,omitempty" yaml:"concede,omitempty"`
	// Reappear is where each invisible magician reappears (magic chapter,
	// spell_reappear.go: HID-6).
	Reappear map[string]string `json:"reappear,omitempty" yaml:"reappear,omitempty"`
}

// reactionsRequest is the request for the reactions to the Krob turn of
// st, due with the Krob player's orders.
func reactionsRequest(st *State) adjudicator.Request {
	if st.Battle != nil { // DN3 battles: the side that does not play (AMB-69)
		return battleReactionsRequest(st)
	}
	return adjudicator.Request{
		ID: fmt.Sprintf("t%d.adventurers.reactions", st.Turn), Side: Adventurers, Kind: "orders", Turn: st.Turn, Phase: StepKrobs,
		Title:  fmt.Sprintf("turn %d of %d, the Adventurers' reactions to the Krob player-turn", st.Turn, st.Turns),
		Prompt: "Your reactions to the Krob turn, sealed until the Krob player's orders are in: defensive-fire:, spell-trigger:, casualties:, advance:, retreat: — each replaces the standing order you gave before; send {} to keep them all — and reappear: {MAGICIAN: LOCATION} for each invisible magician: docs/orders/dragon-noir.md.",
		Hidden: true,
	}
}

// reactionsDue reports whether the Adventurers send reactions to the Krob
// turn: in the standing mode of defensive fire (PBEM-GEN-4 (a)).
func (st *State) reactionsDue() bool { return st.Step == StepKrobs && !st.Options.LiveFire }

// isReactions reports whether req asks for the reactions mail: the
// orders of a side for the other's player-turn (in DN2 the Adventurers'
// for the Krob turn; in a battle either side's).
func isReactions(req adjudicator.Request) bool {
	return req.Kind == "orders" && (req.Phase == StepAdventurers || req.Phase == StepKrobs) && req.Phase != string(req.Side)
}

// parseReactions reads a reactions mail: standing order keys, and
// concede.
func parseReactions(st *State, side adjudicator.Side, n *yaml.Node) (*Reactions, error) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return &Reactions{}, nil
	}
	var m map[string]yaml.Node
	if err := yamlx.Decode(n, &m); err != nil {
		return nil, err
	}
	r := &Reactions{}
	if c, ok := m["concede"]; ok {
		if err := c.Decode(&r.Concede); err != nil {
			return nil, adjudicator.Errorf(&c, adjudicator.CodeBadValue, "concede: true or false")
		}
		delete(m, "concede")
	}
	if v, ok := m[KeyReappear]; ok { // magic chapter: an invisible magician's destination (HID-6)
		to, err := parseReappear(st, &v)
		if err != nil {
			return nil, err
		}
		r.Reappear = to
		delete(m, KeyReappear)
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if k == "standing" {
			v := m[k]
			return nil, adjudicator.Errorf(&v, codeUnknownStanding, "write the reactions' keys (%v) directly under orders:, without standing:", standingKeys)
		}
	}
	so, err := parseStanding(st, side, m)
	if err != nil {
		return nil, err
	}
	r.Standing = so
	return r, nil
}

// reactions applies the reactions among subs — their standing orders, or
// the Adventurers' concession — and returns the other submissions.
func (w *world) reactions(subs []adjudicator.Submission) ([]adjudicator.Submission, bool) {
	var rest []adjudicator.Submission
	for _, s := range subs {
		r, ok := s.Orders.(*Reactions)
		if !ok {
			rest = append(rest, s)
			continue
		}
		if r.Concede {
			w.concede(s.Side)
			return nil, true
		}
		w.standing(s.Side, r.Standing)
		w.note(r.Reappear) // magic chapter (spell_reappear.go)
	}
	return rest, false
}
