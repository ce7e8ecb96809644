package campaign_test

import (
	"os"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonrage"
	"github.com/umpire-pbem/umpire/adjudicator/dragonrage/campaign"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/script/scripttest"
)

var lookup = game.Lookup(func(name string) (adjudicator.Ruleset, bool) {
	switch name {
	case campaign.Name:
		return campaign.Ruleset, true
	case "dragonrage":
		return dragonrage.Ruleset, true
	}
	return nil, false
})

// TestScripts plays every rule case under testdata/.
func TestScripts(t *testing.T) {
	scripttest.RunParallel(t, scripttest.Load(t, os.DirFS("testdata"), "."), lookup)
}
