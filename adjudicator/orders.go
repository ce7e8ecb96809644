package adjudicator

import (
	"errors"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
)

// Stable order-error codes shared by every ruleset. Rulesets add their own
// (e.g. "illegal-move", "out-of-range") and document them.
const (
	CodeSyntax       = yamlx.CodeSyntax       // the YAML does not parse
	CodeUnknownField = yamlx.CodeUnknownField // a key nobody expects
	CodeAlias        = yamlx.CodeAlias        // anchors and aliases are refused
	CodeBadValue     = yamlx.CodeType         // a value of the wrong kind
	CodeEmpty        = yamlx.CodeEmpty        // nothing was sent
	CodeTooLarge     = yamlx.CodeTooLarge     // over the size limit
	CodeUnknownGame  = "unknown-game"         // no such game
	CodeUnknownSide  = "unknown-side"         // no such side in this game
	CodeNotYourTurn  = "not-your-turn"        // nothing is due from this side now
	CodeWrongTurn    = "wrong-turn"           // the orders name another turn or phase
	CodeDuplicate    = "duplicate"            // these orders were already received
	CodeAlreadySent  = "already-submitted"    // other orders were already received for this request
	CodeGameOver     = "game-over"            // the game has ended
	CodeMissingField = "missing-field"        // a required key is absent
	CodeUnknownUnit  = "unknown-unit"         // no unit of that id
)

// OrderError is one problem in a player's orders: where, a stable code, and
// a message that says how to fix it.
type OrderError = yamlx.Error

// OrderErrors is several problems found in one submission.
type OrderErrors []*OrderError

func (es OrderErrors) Error() string {
	var b strings.Builder
	for i, e := range es {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// IsOrderError reports whether err is a player's mistake (an OrderError or
// OrderErrors), as opposed to a failure of umpire or its store.
func IsOrderError(err error) bool {
	var e *OrderError
	var es OrderErrors
	return errors.As(err, &e) || errors.As(err, &es)
}

// Errorf returns an OrderError at node n (nil for no position).
func Errorf(n *yaml.Node, code, format string, args ...any) *OrderError {
	return yamlx.Errorf(n, code, format, args...)
}

// Rejection is an error for a whole submission that has no position in the
// YAML: unknown game, not your turn, a duplicate.
func Rejection(code, format string, args ...any) *OrderError {
	return &OrderError{Code: code, Msg: fmt.Sprintf(format, args...)}
}
