package store_test

import (
	"testing"

	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/storetest"
)

func TestMemory(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store {
		s := store.NewMemory()
		t.Cleanup(func() { s.Close() })
		return s
	})
}
