package games_test

import (
	"context"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
)

// TestCreateChecksAddresses: Create is the last line of defence for what
// every entry point checks first; a bad address writes nothing.
func TestCreateChecksAddresses(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		players []games.Player
		referee string
		want    string
	}{
		{[]games.Player{{Side: "red", Address: "a@b\r\nBcc: x@y"}, {Side: "blue", Address: "b@x"}}, "", "player of red: \"a@b\\r\\nBcc: x@y\" is not one mail address"},
		{[]games.Player{{Side: "red", Address: "r@x"}, {Side: "blue", Address: "b@x, c@x"}}, "", "player of blue: \"b@x, c@x\" is not one mail address"},
		{[]games.Player{{Side: "red", Address: `"Red" <r@x>`}, {Side: "blue", Address: "b@x"}}, "", "give the bare address"},
		{[]games.Player{{Side: "red"}, {Side: "blue", Address: "b@x"}}, "", "player of red: \"\" is not one mail address: it is empty"},
		{[]games.Player{{Side: "red", Address: "r@x"}, {Side: "blue", Address: "b@x"}}, "ref", "referee: \"ref\" is not one mail address"},
	}
	for _, c := range cases {
		s := &games.Service{Store: store.NewMemory(), Rules: lookup}
		_, err := s.Create(ctx, games.CreateRequest{ID: "race-1", Ruleset: "race", Scenario: "sprint", Players: c.players, Referee: c.referee})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.players, err, c.want)
		}
		if ids, _ := s.Store.Games(ctx); len(ids) != 0 {
			t.Errorf("%+v: a game was written: %v", c.players, ids)
		}
	}
}
