package game

import (
	"fmt"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// seedChain gives the seeds of a dice chain built from its secret, as
// dice.Chain does, but keeps only every step-th seed: a game keeps its
// chains for as long as it is cached, and all 4097 seeds of a default
// chain are 230 KB, which a running daemon would hold for every game it
// ever adjudicated. With a seed every 64 (at most 65 are kept) a seed costs
// at most step-1 SHA-256 to rebuild. It is built whole when made, and never
// changed after, so clones and goroutines may share it.
type seedChain struct {
	length int
	step   int
	marks  [][]byte // marks[i] is s_(i*step); the last is the secret s_length when length is not a multiple of step
	secret []byte
}

func newSeedChain(secret []byte, length int) (*seedChain, error) {
	if _, err := dice.NewChain(secret, length); err != nil { // the same checks of secret and length
		return nil, err
	}
	step := max(64, (length+63)/64)
	c := &seedChain{length: length, step: step, marks: make([][]byte, length/step+1), secret: append([]byte(nil), secret...)}
	s := c.secret
	for i := length; i >= 0; i-- {
		if i%step == 0 {
			c.marks[i/step] = s
		}
		if i > 0 {
			s = dice.Hash(s)
		}
	}
	return c, nil
}

// commitment is s_0.
func (c *seedChain) commitment() []byte { return append([]byte(nil), c.marks[0]...) }

// seed returns s_k for 0 <= k <= length.
func (c *seedChain) seed(k int) ([]byte, error) {
	if k < 0 || k > c.length {
		return nil, fmt.Errorf("dice: seed %d is outside the chain (0..%d)", k, c.length)
	}
	from, s := c.length, c.secret
	if up := (k + c.step - 1) / c.step * c.step; up <= c.length {
		from, s = up, c.marks[up/c.step]
	}
	for i := from; i > k; i-- {
		s = dice.Hash(s)
	}
	return append([]byte(nil), s...), nil
}
