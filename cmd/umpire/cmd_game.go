package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/script"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
	"github.com/umpire-pbem/umpire/mail/address"
	"github.com/umpire-pbem/umpire/store/games"
)

func cmdNew(a *app, ctx context.Context, args []string) error {
	f := a.flags("new", "--ruleset R --scenario S --player SIDE=ADDRESS ... [--option K=V ...]",
		"Creates a game. Prints its id alone on the first line, then the dice commitment\n(publish it to the players), then each player's secret (give each to its player\nonly: mailed orders must carry it).").withData()
	ruleset := f.String("ruleset", "", "the `ruleset` (umpire rulesets lists them)")
	scenario := f.String("scenario", "", "the `scenario` id")
	position := f.String("position", "", "a position `file` (YAML, docs/positions.md) instead of a scenario; its \"map: {file: F}\" is read from F, next to it, and written into the game")
	id := f.String("id", "", "the game `id` (default: drawn at random)")
	referee := f.String("referee", "", "the referee's mail `address`")
	chain := f.Int("chain-length", dice.DefaultChainLength, "adjudications per dice chain (a new chain is committed when one runs out)")
	var players, options multi
	f.Var(&players, "player", "a side's player as `SIDE=ADDRESS` (repeat for each side, and for each player of a team, captain first; ADDRESS:PART,PART gives him his parts with --option team.orders=split)")
	f.Var(&options, "option", "a game option as `KEY=VALUE` (repeatable)")
	module := f.String("module", "", "the `module` a ruleset played from module data takes the map, counters and scenarios from (umpire module list; default: its first builtin one)")
	handicap := f.String("handicap", "", "give the game its two players' handicaps from the finished games, `pair` or combined; the ruleset turns them into options (umpire handicaps lists them)")
	if err := f.parse(args); err != nil {
		return err
	}
	if len(f.pos) > 0 {
		return usagef("unexpected %q", f.pos[0])
	}
	if *ruleset == "" {
		return usagef("--ruleset is required")
	}
	req := games.CreateRequest{ID: *id, Ruleset: *ruleset, Scenario: *scenario, Referee: *referee, ChainLength: *chain, Options: map[string]string{}, Module: *module}
	if *position != "" {
		b, err := readFile(*position, maxYAML, "positions")
		if err != nil {
			return err
		}
		if b, err = inlineMapFile(*position, b); err != nil {
			return err
		}
		req.Position = b
	}
	if req.Referee != "" {
		if err := address.Check(req.Referee); err != nil {
			return usagef("--referee: %v", err)
		}
	}
	for _, p := range players {
		side, addr, ok := strings.Cut(p, "=")
		if !ok || side == "" {
			return usagef("--player %q: write SIDE=ADDRESS, e.g. --player invader=alice@example.org", p)
		}
		pl, err := games.ParsePlayer(adjudicator.Side(side), addr)
		if err != nil {
			return usagef("--player %s=...: %v", side, err)
		}
		if err := address.Check(pl.Address); err != nil {
			return usagef("--player %s=...: %v", side, err)
		}
		req.Players = append(req.Players, pl)
	}
	for _, o := range options {
		k, v, ok := strings.Cut(o, "=")
		if !ok || k == "" {
			return usagef("--option %q: write KEY=VALUE", o)
		}
		req.Options[k] = v
	}
	svc, done, err := a.service(ctx, f, true)
	if err != nil {
		return err
	}
	defer done()
	hc, err := newHandicap(ctx, svc, &req, *handicap) // cmd_handicaps.go
	if err != nil {
		return err
	}
	c, err := svc.Create(ctx, req)
	if err != nil {
		return hc.Refused(err)
	}
	fmt.Fprintln(a.stdout, c.Game.ID)
	fmt.Fprintf(a.stdout, "dice commitment: %s (chain of %d)\n", c.Commitment, c.Game.Chains[0].ChainLength)
	for _, s := range c.Game.Sides() {
		team := c.Game.Team(s)
		if len(team) == 1 {
			fmt.Fprintf(a.stdout, "secret for %s: %s\n", s, c.Secrets[team[0].SeatName()])
			continue
		}
		for _, p := range team {
			fmt.Fprintf(a.stdout, "secret for %s (%s): %s\n", s, p.Address, c.Secrets[p.SeatName()])
		}
	}
	printHandicap(a, hc)
	printDue(a.stdout, c.Game)
	return nil
}

func printDue(w io.Writer, g *game.Game) {
	due := g.Due()
	if len(due) == 0 {
		fmt.Fprintf(w, "the game is over: %s\n", g.View(adjudicator.Referee).Result)
		return
	}
	for _, r := range due {
		if r.Side == adjudicator.SeriesSide {
			if r.Kind == adjudicator.KindResult {
				fmt.Fprintf(w, "waiting for its game %s: %s (umpire series show %s)\n", adjudicator.ChildID(g.ID, strings.TrimPrefix(r.ID, adjudicator.ResultKey(""))), r.Title, g.ID)
			}
			continue
		}
		state := "due"
		if _, ok := g.Answered(r.ID); ok {
			state = "received"
		}
		fmt.Fprintf(w, "%s from %s: %s (turn: %d, phase: %s)\n", state, r.Side, r.Title, r.Turn, r.Phase)
		if missing := g.Missing(r); state == "due" && len(missing) > 0 {
			var parts []string
			for _, p := range g.Waiting(r) {
				parts = append(parts, fmt.Sprintf("%s (%s)", orNobody(p.Address), strings.Join(g.PartsOf(p), ",")))
			}
			fmt.Fprintf(w, "  waiting for the parts %s: %s\n", strings.Join(missing, ", "), strings.Join(parts, ", "))
		}
		if r.Prompt != "" {
			fmt.Fprintf(w, "  question: %s\n", r.Prompt)
		}
	}
}

func cmdSubmit(a *app, ctx context.Context, args []string) error {
	f := a.flags("submit", "GAME SIDE ORDERS.yaml",
		"Validates and records one side's orders (- reads them from standard input), and\nadjudicates when everything due is in. With --dice the orders are tried with\nthose faces and nothing is recorded (a what-if).").withData()
	faces := f.String("dice", "", "what-if: roll these `faces` (e.g. 6,2,5) and record nothing")
	if err := f.parse(args); err != nil {
		return err
	}
	if len(f.pos) != 3 {
		return usagef("give the game, the side and the orders file")
	}
	gameID, side, file := f.pos[0], f.pos[1], f.pos[2]
	var src []byte
	var err error
	if file == "-" {
		src, err = yamlx.ReadAll(a.stdin, maxOrders, "standard input", "orders")
	} else {
		src, err = readFile(file, maxOrders, "orders")
	}
	if errors.As(err, new(*yamlx.TooLargeError)) {
		return fmt.Errorf("%w; nothing was recorded", err)
	}
	if err != nil {
		return err
	}
	req := games.SubmitRequest{Game: gameID, Side: adjudicator.Side(side), Src: src, Via: "cli"}
	if *faces != "" {
		if req.Dice, err = dice.ParseFaces(*faces); err != nil {
			return usagef("%v", err)
		}
	}
	svc, done, err := a.service(ctx, f, false)
	if err != nil {
		return err
	}
	defer done()
	out, err := svc.Submit(ctx, req)
	if err != nil {
		return a.printOrderError(file, err)
	}
	if req.Dice != nil {
		fmt.Fprintln(a.stdout, "what-if: nothing was recorded")
	}
	fmt.Fprintf(a.stdout, "accepted: %s orders for turn %d, phase %s (sha256 %s)\n", side, out.Accepted.Turn, out.Accepted.Phase, out.Accepted.Digest)
	fmt.Fprint(a.stdout, indentText(out.Accepted.Normalized))
	for _, q := range out.Queued {
		fmt.Fprintf(a.stdout, "sent ahead: orders for turn %d, %s (checked and used when that phase comes due)\n", q.Turn, q.Phase)
	}
	for _, r := range out.Results {
		script.WriteResult(a.stdout, r, adjudicator.Referee)
	}
	for _, n := range out.Notes {
		to := ""
		if !n.To.Public() {
			to = fmt.Sprintf("[to %s] ", n.To[0])
		}
		fmt.Fprintf(a.stdout, "sent ahead: %s%s\n", to, n.Text)
	}
	if len(out.Results) > 0 {
		script.WriteView(a.stdout, out.Next.View(adjudicator.Referee))
	}
	printDue(a.stdout, out.Next)
	return nil
}

func indentText(s string) string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return ""
	}
	return "  " + strings.ReplaceAll(s, "\n", "\n  ") + "\n"
}

func cmdShow(a *app, ctx context.Context, args []string) error {
	f := a.flags("show", "GAME [--turn T | --at EVENT] [--as SIDE] [--json]",
		"Prints a game's state: now, at the end of turn T, or just after event EVENT,\nas SIDE may see it (the referee sees everything).").withData()
	turn := f.Int("turn", 0, "show the state at the end of `turn` T")
	at := f.Uint64("at", 0, "show the state just after `event` N (see umpire log)")
	as := f.String("as", "", "show only what `side` may see")
	asJSON := f.Bool("json", false, "print JSON")
	if err := f.parse(args); err != nil {
		return err
	}
	if len(f.pos) != 1 {
		return usagef("give the game")
	}
	if *turn != 0 && *at != 0 {
		return usagef("give --turn or --at, not both")
	}
	svc, done, err := a.service(ctx, f, false)
	if err != nil {
		return err
	}
	defer done()
	var g *game.Game
	switch {
	case *at != 0:
		g, err = svc.LoadAt(ctx, f.pos[0], *at)
	case *turn != 0:
		g, err = svc.LoadTurn(ctx, f.pos[0], *turn)
	default:
		g, err = svc.Load(ctx, f.pos[0])
	}
	if err != nil {
		return err
	}
	viewer := adjudicator.Side(*as)
	if viewer != "" {
		if _, ok := g.Player(viewer); !ok {
			return usagef("game %s has no side %q", g.ID, viewer)
		}
	}
	v := g.View(viewer)
	if *asJSON {
		enc := json.NewEncoder(a.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Game  string                `json:"game"`
			Event uint64                `json:"event"`
			View  adjudicator.View      `json:"view"`
			Due   []adjudicator.Request `json:"due"`
		}{g.ID, g.Version, v, g.Due()})
	}
	fmt.Fprintf(a.stdout, "game %s (%s %s, scenario %s), event %d, %d adjudications\n", g.ID, g.Created.Ruleset, g.Created.RulesetVersion, g.Created.Scenario, g.Version, g.K)
	script.WriteView(a.stdout, v)
	printTeams(a.stdout, g)
	printDue(a.stdout, g)
	return nil
}

// printTeams lists the players of each side that several play (nothing
// for a game of one player a side).
func printTeams(w io.Writer, g *game.Game) {
	for _, s := range g.Sides() {
		team := g.Team(s)
		if len(team) < 2 {
			continue
		}
		var who []string
		for i, p := range team {
			var notes []string
			if i == 0 {
				notes = append(notes, "captain")
			}
			if parts := g.PartsOf(p); g.TeamOrders() == game.TeamSplit && len(parts) > 0 {
				notes = append(notes, "parts "+strings.Join(parts, ","))
			}
			addr := orNobody(p.Address)
			if len(notes) > 0 {
				addr += " (" + strings.Join(notes, "; ") + ")"
			}
			who = append(who, addr)
		}
		fmt.Fprintf(w, "team %s (%s %s): %s\n", s, game.TeamOption, g.TeamOrders(), strings.Join(who, ", "))
	}
}

func orNobody(addr string) string {
	if addr == "" {
		return "nobody"
	}
	return addr
}

// inlineMapFile writes the map file a position names ("map: {file: F}", F
// relative to the position's directory) into the position, so that the
// game's log holds the whole position and replays without the file. A
// position without one is returned as it is.
func inlineMapFile(posFile string, src []byte) ([]byte, error) {
	root, err := yamlx.Parse(src)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", posFile, err)
	}
	m := yamlx.Value(root, "map")
	f := yamlx.Value(m, "file")
	if f == nil {
		return src, nil
	}
	if len(m.Content) != 2 || f.Kind != yaml.ScalarNode || f.Value == "" {
		return nil, fmt.Errorf("%s: line %d: write the map file alone, \"map: {file: my-map.yaml}\"", posFile, m.Line)
	}
	name := f.Value
	if !filepath.IsAbs(name) {
		name = filepath.Join(filepath.Dir(posFile), name)
	}
	b, err := readFile(name, maxYAML, "maps")
	if err != nil {
		return nil, fmt.Errorf("%s: line %d: the map file: %w", posFile, f.Line, err)
	}
	doc, err := yamlx.Parse(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	*m = *doc
	return yaml.Marshal(root)
}
