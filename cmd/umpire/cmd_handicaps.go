package main

import (
	"context"
	"fmt"

	"github.com/umpire-pbem/umpire/mail/address"
	"github.com/umpire-pbem/umpire/store/games"
)

// cmdHandicaps lists the handicaps of Dragon Rage §22 (DR-HCAP-1..3),
// derived from the finished games of the data file.
func cmdHandicaps(a *app, ctx context.Context, args []string) error {
	f := a.flags("handicaps", "[--combined] [--ruleset R] [ADDRESS ...]",
		"Lists the players' handicaps (Dragon Rage §22), counted from the finished games\nof the data file: a game won +1, a game lost -1, a draw 0 (DR-HCAP-1), per pair\nof opponents and combined over every opponent (DR-HCAP-2), with the warning\nfor a handicap of 10 or more. With addresses, only those players (and the pairs\nthey are in). umpire new --handicap pair|combined gives a new game the goal\nadjustment they make (DR-HCAP-3).").withData()
	combined := f.Bool("combined", false, "the combined handicaps only, not the pairs")
	ruleset := f.String("ruleset", games.HandicapRuleset, "the `ruleset` whose games count")
	if err := f.parse(args); err != nil {
		return err
	}
	for _, addr := range f.pos {
		if err := address.Check(addr); err != nil {
			return usagef("%v", err)
		}
	}
	if _, ok := a.rules(*ruleset); !ok {
		return usagef("--ruleset: no ruleset %q in this build (umpire rulesets lists them)", *ruleset)
	}
	svc, done, err := a.service(*f.data, false)
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
