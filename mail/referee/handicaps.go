package referee

import (
	"context"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
	"github.com/umpire-pbem/umpire/mail/address"
	"github.com/umpire-pbem/umpire/store/games"
)

// Handicaps by mail, for the rulesets that keep them
// (adjudicator.Handicapper): "command: handicaps" lists them, and "command:
// new" with "handicap: pair" or "handicap: combined" gives the new game
// what its ruleset makes of its players' handicaps. They are counted from
// the finished games of the store each time (store/games/handicaps.go).

// newHandicap applies the handicap a "command: new" asks for to req, and
// keeps what it applied in *hc for the referee's reply and the welcomes.
// When it is refused, the referee has been answered and refused is true.
func (h *handling) newHandicap(ctx context.Context, req *games.CreateRequest, c Command, root *yaml.Node, hc **games.HandicapApplied) (refused bool, err error) {
	if c.Handicap == "" {
		return false, nil
	}
	a, err := h.d.Games.ApplyHandicap(ctx, req, strings.TrimSpace(c.Handicap))
	if err != nil {
		if isStoreFailure(err) || ctx.Err() != nil {
			return true, err
		}
		e := yamlx.Errorf(yamlx.Value(root, "handicap"), adjudicator.CodeBadValue, "%v", err)
		return true, h.refereeReply(ctx, "", c, false, "The game was not created:\n"+renumber(e, h.m.LineOffset), nil)
	}
	*hc = a
	return false, nil
}

// cmdHandicaps answers "command: handicaps": the handicaps of every player
// per pair and combined, with the warnings (address: one player's only;
// ruleset: one ruleset's games, when several keep handicaps).
func (h *handling) cmdHandicaps(ctx context.Context, c Command) error {
	if !h.d.isReferee(h.m.From) {
		return h.refereeReply(ctx, "", c, false, "Only the referee of umpire.yaml may list the handicaps: they count every game umpire has refereed.", nil)
	}
	var only []string
	if a := strings.TrimSpace(c.Address); a != "" {
		if err := address.Check(a); err != nil {
			return h.refereeReply(ctx, "", c, false, "address: "+err.Error()+"; give one player's address, or leave the line out for every player.", nil)
		}
		only = []string{a}
	}
	rs := strings.TrimSpace(c.Ruleset)
	hs, err := h.d.Games.Handicaps(ctx, rs)
	if err != nil {
		if isStoreFailure(err) || ctx.Err() != nil {
			return err
		}
		return h.refereeReply(ctx, "", c, false, "ruleset: "+err.Error()+"; leave the line out for every ruleset that keeps handicaps.", nil)
	}
	var b strings.Builder
	if err := hs.Write(&b, games.HandicapTable{Only: only}); err != nil {
		return err
	}
	b.WriteString("\nA new game takes the handicap with \"handicap: pair\" or \"handicap: combined\" in its \"command: new\".")
	return h.refereeReply(ctx, "", c, true, b.String(), nil)
}
