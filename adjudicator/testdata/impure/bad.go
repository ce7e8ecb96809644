// Package impure breaks every purity rule on purpose: purity_test.go must
// report each of them. It is never compiled.
package impure

import (
	crand "crypto/rand"
	"math/rand"
	"os"
	"time"

	"github.com/umpire-pbem/umpire/store"
)

var _ = store.ErrConflict
var _ = crand.Reader
var _ = os.Getenv

func roll() int {
	_ = time.Since(time.Now())
	return rand.Intn(6) + 1
}
