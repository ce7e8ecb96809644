package conquete

import (
	"fmt"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// requestKind is one kind of request the campaign makes: how it is named
// and asked, how its answer is read (strictly, with stable codes) and
// applied, and what a side's silence means (PBEM-GEN-3). A Wait names its
// kind by Phase, which is also the "phase:" the answer's envelope names.
// A chapter adds a kind by adding it to requestKinds.
type requestKind struct {
	Kind   string // "setup", "orders" or "decision"
	Title  string // for people, after "turn N (day D, Slot), "
	Prompt string
	// Hidden: the answer stays hidden until every request of its asking
	// is in; Sealed: and after, until the game ends (Request.SealKey).
	Hidden, Sealed bool
	Choice         func(st *State, w Wait) []string
	Parse          func(st *State, w Wait, n *yaml.Node) (adjudicator.Orders, error)
	Decide         func(x *world, w Wait, o adjudicator.Orders)
	// Default is the answer's YAML when the side is silent; ok false when
	// the game must wait (a setup).
	Default func(st *State, w Wait) (string, bool)
}

// Request phases (the "phase:" of each answer).
const (
	ReqSetup    = "setup"
	ReqReorg    = "reorganisation"
	ReqMove     = "movement"
	ReqReveal   = "reveal"
	ReqRegion   = "region"
	ReqAttack   = "attack"
	ReqFight    = "fight"
	ReqResult   = adjudicator.PhaseResult
	defaultNone = ""
)

var requestKinds = map[string]*requestKind{
	ReqSetup:   setupRequest,   // setup.go
	ReqReorg:   reorgRequest,   // reorg.go
	ReqMove:    moveRequest,    // move.go
	ReqReveal:  revealRequest,  // reveal.go
	ReqRegion:  regionRequest,  // negotiate.go
	ReqAttack:  attackRequest,  // negotiate.go
	ReqFight:   fightRequest,   // negotiate.go
	ReqResult:  resultRequest,  // battle.go
	ReqRetreat: retreatRequest, // retreat.go
}

// when is the current turn for people: "turn 3 (day 1, Après-midi)".
func (st *State) when() string {
	return fmt.Sprintf("turn %d (day %d, %s)", st.Turn, st.Day, st.data.Slots[st.Slot].Name)
}

// requestID is the unique id of w's request.
func (st *State) requestID(w Wait) string {
	if w.Phase == ReqResult {
		return adjudicator.ResultKey(w.Key)
	}
	return fmt.Sprintf("t%d.%s.%d.%s", st.Turn, w.Phase, w.N, w.Side)
}

// request builds w's request.
func (st *State) request(w Wait) adjudicator.Request {
	k := requestKinds[w.Phase]
	if w.Phase == ReqResult {
		return adjudicator.ResultRequest(w.Key, st.Turn, battleTitle(st, w.Key))
	}
	title := fmt.Sprintf("%s, %s %s", st.when(), sideTitle(w.Side), k.Title)
	req := adjudicator.Request{ID: st.requestID(w), Side: w.Side, Kind: k.Kind, Turn: st.Turn, Phase: w.Phase,
		Title: title, Prompt: k.Prompt, Hidden: k.Hidden}
	if k.Sealed {
		req.SealKey = req.ID
	}
	if k.Choice != nil {
		req.Choice = k.Choice(st, w)
	}
	return req
}

// sideTitle is "Rebel" or "Reptilian".
func sideTitle(s adjudicator.Side) string {
	if s == Rebels {
		return "Rebel"
	}
	return "Reptilian"
}

// waitFor is the wait req answers, false if none.
func (st *State) waitFor(req adjudicator.Request) (Wait, bool) {
	for _, w := range st.Waits {
		if st.requestID(w) == req.ID {
			return w, true
		}
	}
	return Wait{}, false
}

// isNull reports whether n is an empty answer ("orders:" with nothing).
func isNull(n *yaml.Node) bool {
	return n == nil || n.Kind == 0 || n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}
