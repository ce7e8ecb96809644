package referee

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator/game"
)

// Teams (docs/teams.md). Every player of a side gets the side's mails:
// results, notices, reminders, pictures, his own welcome with his own
// secret. A side's mails to its players are told apart in their
// Message-IDs by who: the side's name for its captain (its only player in
// most games, so those IDs are what they always were), the player's seat
// ("red/2") for the others.

// who names player p in the Message-IDs of a game's mails.
func who(g *game.Game, p game.Player) string {
	if c, ok := g.Player(p.Side); ok && c.SeatName() == p.SeatName() {
		return string(p.Side)
	}
	return string(p.SeatName())
}

// teamWelcome says, in p's welcome, who plays his side with him and who
// answers for it; "" for a side of one player.
func teamWelcome(g *game.Game, p game.Player) string {
	team := g.Team(p.Side)
	if len(team) < 2 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "You play it with %d other player(s). Everyone on the side gets its results, notices and reminders; your secret is yours alone.\n", len(team)-1)
	for i, q := range team {
		line := "  " + orDefault(q.Address, "(nobody yet)")
		if i == 0 {
			line += " (captain)"
		}
		if parts := g.PartsOf(q); g.TeamOrders() == game.TeamSplit && len(parts) > 0 {
			line += ": commands " + strings.Join(parts, ", ")
		}
		b.WriteString(line + "\n")
	}
	switch g.TeamOrders() {
	case game.TeamAny:
		b.WriteString("Any of you may answer for the side; the first orders received are the side's (send \"replace: true\" to change them before the adjudication).")
	case game.TeamSplit:
		b.WriteString("Each of you sends the orders of his own parts; the side's orders are adjudicated when every part has answered.")
	default:
		fmt.Fprintf(&b, "The captain, %s, sends the side's orders.", team[0].Address)
	}
	return b.String()
}

// teamSpec is one side's players in a "new" command: an address, or a list
// of them (a team, captain first); each ADDRESS or ADDRESS:PART,PART
// (games.ParsePlayer).
type teamSpec []string

func (t *teamSpec) UnmarshalYAML(n *yaml.Node) error {
	switch n.Kind {
	case yaml.ScalarNode:
		*t = teamSpec{n.Value}
		return nil
	case yaml.SequenceNode:
		var out teamSpec
		for _, c := range n.Content {
			if c.Kind != yaml.ScalarNode {
				return fmt.Errorf("line %d: give each player of the side as an address (ADDRESS, or ADDRESS:PART,PART)", c.Line)
			}
			out = append(out, c.Value)
		}
		*t = out
		return nil
	}
	return fmt.Errorf("line %d: give the side's player as an address, or its players as a list of addresses, captain first", n.Line)
}
