package dragonrage

import (
	"sync"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// TestSetupConcurrently: games are set up on several goroutines at once
// (the daemon handles mails of different games concurrently); the race
// detector holds the shared board cache to its lock.
func TestSetupConcurrently(t *testing.T) {
	var wg sync.WaitGroup
	for _, sc := range []string{"n2", "e2", "n6", "e6", "n1", "n2", "e2", "e6"} {
		wg.Go(func() {
			if _, err := setup(adjudicator.Setup{Scenario: sc}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
}
