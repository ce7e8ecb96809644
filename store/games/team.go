package games

import (
	"fmt"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// ParsePlayer reads one player of a side as the referee writes it, on the
// command line (--player SIDE=SPEC) or in a mail's "players:": an address,
// with the parts of the side he commands after a colon when the side's
// orders are split (team.orders=split): "bea@example.org:r2,r3". A side
// with several players is given once per player; the first is its captain.
func ParsePlayer(side adjudicator.Side, spec string) (Player, error) {
	spec = strings.TrimSpace(spec)
	p := Player{Side: side, Address: spec}
	if i := strings.LastIndex(spec, ":"); i >= 0 && !strings.Contains(spec[i:], "@") {
		p.Address = strings.TrimSpace(spec[:i])
		for _, part := range strings.Split(spec[i+1:], ",") {
			part = strings.TrimSpace(part)
			if part == "" {
				return Player{}, fmt.Errorf("player %q of %s: give his parts after the colon, separated by commas (ADDRESS:PART,PART)", spec, side)
			}
			p.Parts = append(p.Parts, part)
		}
	}
	return p, nil
}
