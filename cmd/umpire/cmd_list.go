package main

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
)

func cmdGames(a *app, ctx context.Context, args []string) error {
	f := a.flags("games", "", "Lists the games in the data file with their state and what is due.").withData()
	if err := f.parse(args); err != nil {
		return err
	}
	svc, done, err := a.service(ctx, f, false)
	if err != nil {
		return err
	}
	defer done()
	ids, err := svc.Store.Games(ctx)
	if err != nil {
		return err
	}
	if len(ids) == 0 {
		fmt.Fprintln(a.stdout, "no games yet (umpire new creates one)")
	}
	for _, id := range ids {
		g, err := svc.Load(ctx, id)
		if err != nil {
			fmt.Fprintf(a.stdout, "%-20s cannot be loaded: %v\n", id, err)
			continue
		}
		v := g.View(adjudicator.Referee)
		var due []string
		for _, r := range g.Due() {
			w := string(r.Side)
			if r.Side == adjudicator.SeriesSide {
				w = "its games (umpire series show " + id + ")"
			}
			if _, ok := g.Answered(r.ID); !ok && !slices.Contains(due, w) {
				due = append(due, w)
			}
		}
		state := "waiting for " + strings.Join(due, ", ")
		if v.Over {
			state = "over: " + v.Result
		}
		if p := g.Created.Parent; p != nil {
			state += " [" + p.Key + " of series " + p.Game + "]"
		}
		fmt.Fprintf(a.stdout, "%-20s %-12s %-16s turn %-3d %s\n", id, g.Created.Ruleset, g.Created.Scenario, v.Turn, state)
	}
	return nil
}

func cmdRulesets(a *app, _ context.Context, args []string) error {
	f := a.flags("rulesets", "", "Lists the rulesets of this build, with their sides, scenarios and options.")
	if err := f.parse(args); err != nil {
		return err
	}
	all := a.all()
	if len(all) == 0 {
		fmt.Fprintln(a.stdout, "this build has no rulesets")
	}
	for _, r := range all {
		in := r.Info()
		sides := make([]string, len(in.Sides))
		for i, s := range in.Sides {
			sides[i] = string(s)
		}
		list := strings.Join(sides, ", ")
		if len(sides) > 8 {
			list = fmt.Sprintf("%s, %s … %s (up to %d players)", sides[0], sides[1], sides[len(sides)-1], len(sides))
		}
		fmt.Fprintf(a.stdout, "%s %s: %s\n  sides: %s\n", in.Name, in.Version, in.Title, list)
		if in.Series != "" {
			fmt.Fprintf(a.stdout, "  a series (%s): its games are created as it reaches them (umpire series, docs/series.md)\n", in.Series)
		}
		fmt.Fprintln(a.stdout, "  scenarios:")
		for _, s := range in.Scenarios {
			fmt.Fprintf(a.stdout, "    %-14s %s\n", s.ID, s.Title)
		}
		if len(in.Options) > 0 {
			fmt.Fprintln(a.stdout, "  options:")
			for _, o := range in.Options {
				fmt.Fprintf(a.stdout, "    %s (default %s): %s\n", o.Name, o.Default, o.Doc)
			}
		}
	}
	fmt.Fprintln(a.stdout, "options of every game (the clock):")
	for _, o := range game.ClockOptions {
		def := o.Default
		if def == "" {
			def = "none"
		}
		fmt.Fprintf(a.stdout, "    %s (default %s): %s\n", o.Name, def, o.Doc)
	}
	return nil
}
