package main

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/script"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
)

// Series (docs/series.md): a campaign or a tournament is a game whose
// ruleset reaches other games. `umpire series` shows, verifies and exports
// one as a whole; its own log and each game's are also ordinary games for
// every other command.

var seriesCommands = []struct{ name, args, summary string }{
	{"new", "--ruleset R --player SIDE=ADDRESS ... [--option K=V ...] [--id ID]", "create a series (as umpire new); prints the games it reaches at once, with their players' secrets"},
	{"show", "SERIES [--as SIDE]", "the series' standings and every game it reached, with what each waits for or how it ended"},
	{"log", "SERIES [--as SIDE] [--json]", "the series' own events (as umpire log)"},
	{"verify", "SERIES | BUNDLE.tar [--replay] [--commitment HEX] [--head N:HASH]", "check the series, every game it reached and the links between them"},
	{"export", "SERIES -o BUNDLE.tar", "write the series' bundle: its own with every game's inside"},
}

func cmdSeries(a *app, ctx context.Context, args []string) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprintln(a.stdout, "usage: umpire series COMMAND ...")
		for _, c := range seriesCommands {
			fmt.Fprintf(a.stdout, "  umpire series %s %s\n      %s\n", c.name, c.args, c.summary)
		}
		if len(args) == 0 {
			return exitError{2}
		}
		return nil
	}
	switch args[0] {
	case "new":
		return seriesNew(a, ctx, args[1:])
	case "show":
		return seriesShow(a, ctx, args[1:])
	case "log":
		return cmdLog(a, ctx, args[1:])
	case "verify":
		return seriesVerify(a, ctx, args[1:])
	case "export":
		return seriesExport(a, ctx, args[1:])
	}
	names := make([]string, len(seriesCommands))
	for i, c := range seriesCommands {
		names[i] = c.name
	}
	return usagef("umpire series has no command %q; its commands are %s", args[0], strings.Join(names, ", "))
}

func seriesNew(a *app, ctx context.Context, args []string) error {
	var ruleset string
	for i, s := range args {
		if v, ok := strings.CutPrefix(s, "--ruleset="); ok {
			ruleset = v
		} else if (s == "--ruleset" || s == "-ruleset") && i+1 < len(args) {
			ruleset = args[i+1]
		}
	}
	if ruleset == "" {
		return usagef("give the series' ruleset with --ruleset (umpire rulesets lists them, each series with its kind: campaign, tournament)")
	}
	rs, ok := a.rules(ruleset)
	if !ok || !games.IsSeries(rs) {
		return usagef("%q is not a series ruleset of this umpire (umpire rulesets lists them; a series reaches other games)", ruleset)
	}
	if !slices.ContainsFunc(args, func(s string) bool { return s == "--scenario" || strings.HasPrefix(s, "--scenario=") }) {
		if sc := rs.Info().Scenarios; len(sc) == 1 {
			args = append(args, "--scenario", sc[0].ID)
		}
	}
	return cmdNew(a, ctx, args)
}

// printChildren tells the referee of the games a series reached during a
// command, with their players' secrets: from the command line nobody else
// is told (the daemon mails each player a welcome instead).
func (a *app) printChildren() {
	ids := make([]string, 0, len(a.children))
	for id := range a.children {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		c := a.children[id]
		fmt.Fprintf(a.stdout, "series %s reached game %s (%s): %s", c.series, id, c.title, c.ruleset)
		if c.scenario != "" {
			fmt.Fprintf(a.stdout, ", scenario %s", c.scenario)
		}
		fmt.Fprintln(a.stdout)
		for _, s := range c.sides {
			fmt.Fprintf(a.stdout, "  secret for %s (%s): %s\n", s.side, s.address, s.secret)
		}
	}
	a.children = nil
}

type childNote struct {
	series, title, ruleset, scenario string
	sides                            []struct{ side, address, secret string }
}

// noteChild is the service's ChildMail on the command line: it keeps the
// child's secrets to print once the command succeeded (a write tried
// again after a conflict draws new ones; the last are the ones kept).
func (a *app) noteChild(series, child *game.Game, secrets map[adjudicator.Side]string) ([]store.Message, error) {
	if a.children == nil {
		a.children = map[string]childNote{}
	}
	n := childNote{series: series.ID, ruleset: child.Created.Ruleset, scenario: child.Created.Scenario, title: child.Created.Parent.Key}
	for _, p := range child.Created.Players {
		n.sides = append(n.sides, struct{ side, address, secret string }{string(p.Side), p.Address, secrets[p.Side]})
	}
	a.children[child.ID] = n
	return nil, nil
}

func seriesShow(a *app, ctx context.Context, args []string) error {
	f := a.flags("series show", "SERIES [--as SIDE]", "Prints a series' state (its standings) and every game it reached: what each\nwaits for, or how it ended.").withData()
	as := f.String("as", "", "show only what `side` may see")
	if err := f.parse(args); err != nil {
		return err
	}
	if len(f.pos) != 1 {
		return usagef("give the series")
	}
	svc, done, err := a.service(ctx, f, false)
	if err != nil {
		return err
	}
	defer done()
	g, err := svc.Load(ctx, f.pos[0])
	if err != nil {
		return err
	}
	if !games.IsSeries(g.Rules) {
		return fmt.Errorf("game %s is not a series (%s): umpire show shows it", g.ID, g.Created.Ruleset)
	}
	viewer := adjudicator.Side(*as)
	if _, ok := g.Player(viewer); viewer != "" && !ok {
		return usagef("series %s has no side %q", g.ID, viewer)
	}
	fmt.Fprintf(a.stdout, "series %s (%s)\n", g.ID, g.Created.Ruleset)
	script.WriteView(a.stdout, g.View(viewer))
	ids, err := svc.Children(ctx, g.ID)
	if err != nil {
		return err
	}
	fmt.Fprintf(a.stdout, "games (%d):\n", len(ids))
	for _, id := range ids {
		c, err := svc.Load(ctx, id)
		if err != nil {
			fmt.Fprintf(a.stdout, "  %s: cannot be loaded: %v\n", id, err)
			continue
		}
		var who []string
		for _, p := range c.Created.Players {
			who = append(who, fmt.Sprintf("%s %s", p.Side, p.Address))
		}
		state := ""
		if c.Over() {
			state = "over: " + c.View(adjudicator.Observer).Result
		} else {
			var due []string
			for _, r := range c.Due() {
				if _, ok := c.Answered(r.ID); !ok {
					due = append(due, fmt.Sprintf("%s (%s)", r.Side, r.Title))
				}
			}
			state = "waiting for " + strings.Join(due, ", ")
		}
		fmt.Fprintf(a.stdout, "  %s  %s, %s  [%s]  %s\n", id, c.Created.Ruleset, c.Created.Scenario, strings.Join(who, ", "), state)
	}
	return nil
}

func seriesVerify(a *app, ctx context.Context, args []string) error {
	f := a.flags("series verify", "SERIES | BUNDLE.tar [--replay] [--commitment HEX] [--head N:HASH]",
		"Checks a series as a whole, from the data file or from its bundle: its own log\nand every game's as umpire verify does, and the links between them: each game\nwas created as the series' event says, and each result the series recorded is\nwhat that game's own log ends with. A game changed after the fact fails here\neven if its own log was rewritten consistently. A bundle is always replayed\nwhen this build has the rulesets; --replay replays a stored series too.").withData()
	replay := f.Bool("replay", false, "decide every adjudication of the series and its games again")
	knownFlags := f.known("the series' dice commitment `HEX`, from its welcome mail", "an event of the series and its hash, `N:HASH`")
	if err := f.parse(args); err != nil {
		return err
	}
	known, err := knownFlags()
	if err != nil {
		return err
	}
	if len(f.pos) != 1 {
		return usagef("give a series or a bundle file")
	}
	var sa *games.SeriesAudit
	if st, err := os.Stat(f.pos[0]); err == nil && !st.IsDir() {
		file, err := openCapped(f.pos[0], maxBundle, "audit bundles")
		if err != nil {
			return err
		}
		defer file.Close()
		if sa, err = games.VerifySeriesBundle(file, a.rules, known); err != nil {
			return err
		}
	} else {
		svc, done, err := a.service(ctx, f, false)
		if err != nil {
			return err
		}
		defer done()
		if sa, err = svc.VerifySeries(ctx, f.pos[0], known, *replay); err != nil {
			return err
		}
	}
	for _, id := range sa.Order {
		c := sa.Children[id]
		status := "OK"
		if !c.OK() {
			status = "FAILED"
		}
		fmt.Fprintf(a.stdout, "game %s: %d events, %d adjudications: %s\n", id, c.Events, c.Adjudications, status)
	}
	fmt.Fprintf(a.stdout, "links between series %s and its %d games: ", sa.Series.Game, len(sa.Order))
	if len(sa.Links) == 0 {
		fmt.Fprintln(a.stdout, "OK")
	} else {
		fmt.Fprintln(a.stdout, "FAILED")
	}
	return a.printAudit("series verify "+f.pos[0], sa.Flat())
}

func seriesExport(a *app, ctx context.Context, args []string) error {
	f := a.flags("series export", "SERIES -o BUNDLE.tar",
		"Writes a series' audit bundle: the series' own bundle, with the bundle of every\ngame it reached under games/GAME/. umpire verify and umpire series verify check it\nas a whole.").withData()
	return a.export(ctx, f, args, "series", (*games.Service).ExportSeries)
}
