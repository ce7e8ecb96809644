package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/hexmap"
	"github.com/umpire-pbem/umpire/adjudicator/render"
)

func cmdRender(a *app, ctx context.Context, args []string) error {
	f := a.flags("render", "GAME [--turn T] [--as SIDE] [--svg] -o FILE",
		"Draws a game's board (or its map of regions), the picture the results mails\ncarry: now or at the end of turn T, as SIDE may see it (the referee sees\neverything). Writes PNG, or SVG with --svg or when FILE ends in .svg; -o -\nwrites to standard output.").withData()
	turn := f.Int("turn", -1, "draw the board at the end of `turn` T (default: now)")
	as := f.String("as", "", "draw only what `side` may see")
	svg := f.Bool("svg", false, "write SVG instead of PNG")
	out := f.String("o", "", "the picture `file` to write (- for standard output)")
	scale := f.Float64("scale", 1, "size `factor` (1: a hex is 80 pixels from corner to corner)")
	mapArg := f.String("map", "", "draw on this map (a NAME or a corrected FILE.yaml) instead of the game's")
	if err := f.parse(args); err != nil {
		return err
	}
	if len(f.pos) != 1 {
		return usagef("give the game")
	}
	if *out == "" {
		return usagef("give the picture file with -o FILE")
	}
	svc, done, err := a.service(ctx, f, false)
	if err != nil {
		return err
	}
	defer done()
	var g *game.Game
	if *turn >= 0 {
		g, err = svc.LoadTurn(ctx, f.pos[0], *turn)
	} else {
		g, err = svc.Load(ctx, f.pos[0])
	}
	if err != nil {
		return err
	}
	viewer := adjudicator.Side(*as)
	if _, ok := g.Player(viewer); viewer != "" && !ok {
		return usagef("game %s has no side %q", g.ID, viewer)
	}
	data, pic, title, err := drawBoard(g, viewer, *mapArg, *scale, *svg || strings.HasSuffix(strings.ToLower(*out), ".svg"))
	if err != nil {
		return err
	}
	for _, w := range pic.Warnings {
		fmt.Fprintf(a.stderr, "umpire render: warning: %s\n", w)
	}
	if *out == "-" {
		_, err = a.stdout.Write(data)
		return err
	}
	if err := os.WriteFile(*out, data, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(a.stdout, "wrote %s: %s, %dx%d pixels, %d bytes\n", *out, title, pic.Width, pic.Height, len(data))
	return nil
}

// drawBoard draws g's board as viewer sees it, on the game's map or on
// mapArg (a name or a corrected file), as PNG or SVG.
func drawBoard(g *game.Game, viewer adjudicator.Side, mapArg string, scale float64, svg bool) ([]byte, *render.Picture, string, error) {
	v := g.View(viewer)
	name := mapArg
	if name == "" {
		name = v.Map
	}
	if name == "" {
		return drawRegions(g, viewer, scale, svg)
	}
	var m *hexmap.Map
	if gb, ok := g.Rules.(adjudicator.GameBoards); ok && mapArg == "" {
		m, _ = gb.BoardOf(g.State) // the game's own map, built-in or set up from a position
	}
	if m == nil {
		var err error
		if m, err = gameMap(g.Rules, name); err != nil {
			return nil, nil, "", err
		}
	}
	pic, err := render.Game(m, g, viewer, scale)
	if err != nil {
		return nil, nil, "", err
	}
	title := fmt.Sprintf("%s, turn %d", m.Title, v.Turn)
	if svg {
		return pic.SVG(), pic, title, nil
	}
	data, err := pic.PNG()
	return data, pic, title, err
}

// drawRegions draws the map of regions of a game played on one
// (adjudicator.RegionMaps) as viewer sees it, as PNG or SVG.
func drawRegions(g *game.Game, viewer adjudicator.Side, scale float64, svg bool) ([]byte, *render.Picture, string, error) {
	pic, ok, err := render.GameRegions(g, viewer, scale, nil)
	if !ok {
		return nil, nil, "", fmt.Errorf("game %s (%s) is played neither on a hex map nor on a map of regions: there is no board to draw", g.ID, g.Created.Ruleset)
	}
	if err != nil {
		return nil, nil, "", err
	}
	title := fmt.Sprintf("%s, turn %d", pic.Title, g.View(viewer).Turn)
	if svg {
		return pic.SVG(), pic, title, nil
	}
	data, err := pic.PNG()
	return data, pic, title, err
}
