package glory_test

import (
	"os"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/script/scripttest"
)

// FuzzOrders sends arbitrary bytes as a player's orders to a real game of
// Dragons of Glory, at the position of a rule case before one of its
// steps (scripttest.FuzzOrders says what it checks).
func FuzzOrders(f *testing.F) {
	scripttest.FuzzOrders(f, scripttest.Load(f, os.DirFS("testdata"), "."), lookup)
}
