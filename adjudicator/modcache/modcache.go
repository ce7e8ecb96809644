// Package modcache keeps what a ruleset read from a module, by the
// module's digest: a module's files never change once read, so neither
// does what the ruleset made of them. Every ruleset that reads a module
// on each replay holds one Cache.
package modcache

import (
	"sync"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// Cache holds the data read from modules, by digest. Its zero value is
// ready, and it is safe for concurrent use.
type Cache[T any] struct{ m sync.Map }

// Load returns the data read from m, reading it with parse the first time
// a module with m's digest is asked for. An error is not cached: the next
// Load reads the module again.
func (c *Cache[T]) Load(m adjudicator.Module, parse func(adjudicator.Module) (T, error)) (T, error) {
	dg := m.Digest()
	if v, ok := c.m.Load(dg); ok {
		return v.(T), nil
	}
	v, err := parse(m)
	if err != nil {
		var zero T
		return zero, err
	}
	c.m.Store(dg, v)
	return v, nil
}
