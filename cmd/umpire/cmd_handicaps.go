package main

import (
	"context"
	"fmt"

	"github.com/umpire-pbem/umpire/mail/address"
	"github.com/umpire-pbem/umpire/store/games"
)

// cmdHandicaps lists the handicaps of the rulesets that keep them,
// derived from the finished games of the data file.
func cmdHandicaps(a *app, ctx context.Context, args []string) error {
	f := a.flags("handicaps", "[--combined] [--ruleset R] [ADDRESS ...]",
		"Lists the players' handicaps, for the rulesets that keep them, counted from the\nfinished games of the data file: a game won +1, a game lost -1, a draw 0, per\npair of opponents and combined over every opponent, with the warning for a\nhandicap of 10 or more. With addresses, only those players (and the pairs they\nare in). umpire new --handicap pair|combined gives a new game what its ruleset\nmakes of them (docs/series.md).").withData()
	combined := f.Bool("combined", false, "the combined handicaps only, not the pairs")
	ruleset := f.String("ruleset", "", "only the games of this `ruleset` (default: every ruleset that keeps handicaps)")
	if err := f.parse(args); err != nil {
		return err
	}
	for _, addr := range f.pos {
		if err := address.Check(addr); err != nil {
			return usagef("%v", err)
		}
	}
	if _, ok := a.rules(*ruleset); *ruleset != "" && !ok {
		return usagef("--ruleset: no ruleset %q in this build (umpire rulesets lists them)", *ruleset)
	}
	svc, done, err := a.service(ctx, f, false)
	if err != nil {
		return err
	}
	defer done()
	h, err := svc.Handicaps(ctx, *ruleset)
	if err != nil {
		return err
	}
	return h.Write(a.stdout, games.HandicapTable{Only: f.pos, Combined: *combined})
}

// newHandicap gives the game req would create the handicap kind ("" for
// none) and prints what it applied; the game's refusal is told with it.
func newHandicap(ctx context.Context, svc *games.Service, req *games.CreateRequest, kind string) (*games.HandicapApplied, error) {
	if kind == "" {
		return nil, nil
	}
	h, err := svc.ApplyHandicap(ctx, req, kind)
	if err != nil {
		return nil, usagef("--handicap: %v", err)
	}
	return h, nil
}

// printHandicap prints the handicap a new game was given, if any.
func printHandicap(a *app, h *games.HandicapApplied) {
	if h != nil {
		fmt.Fprintln(a.stdout, h.Text())
	}
}
