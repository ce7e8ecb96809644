package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/script"
)

func cmdRun(a *app, _ context.Context, args []string) error {
	f := a.flags("run", "SCRIPT.yaml ... [--json] [--dice 6,2,5]",
		"Plays game scripts in memory (see docs/game-script.md) and prints every step,\nevery result with each die roll, and the final state. Exits 1 if any script's\nexpectations are not met.")
	asJSON := f.Bool("json", false, "print JSON")
	faces := f.String("dice", "", "replace the scripts' dice with these `faces`")
	picture := f.String("picture", "", "draw the board at the end of the (one) script to this PNG or SVG `file`")
	as := f.String("as", "", "with --picture: draw only what `side` may see")
	if err := f.parse(args); err != nil {
		return err
	}
	if len(f.pos) == 0 {
		return usagef("give at least one script")
	}
	if *picture != "" && len(f.pos) != 1 {
		return usagef("--picture draws one script's board: give one script")
	}
	var opt script.Options
	if *faces != "" {
		fs, err := dice.ParseFaces(*faces)
		if err != nil {
			return usagef("%v", err)
		}
		opt.Dice = fs
	}
	failed := 0
	var all []script.JSON
	for _, file := range f.pos {
		src, err := readFile(file, maxYAML, "game scripts")
		if err != nil {
			return err
		}
		s, err := script.Parse(file, src)
		if err != nil {
			return err
		}
		run, err := script.Play(s, a.rules, opt)
		if err != nil {
			return err
		}
		if !run.OK() {
			failed++
		}
		if *picture != "" {
			data, _, title, err := drawBoard(run.Game, adjudicator.Side(*as), "", 1, strings.HasSuffix(strings.ToLower(*picture), ".svg"))
			if err != nil {
				return err
			}
			if err := os.WriteFile(*picture, data, 0o644); err != nil {
				return err
			}
			fmt.Fprintf(a.stderr, "wrote %s: %s\n", *picture, title)
		}
		if *asJSON {
			all = append(all, run.AsJSON())
			continue
		}
		run.WriteText(a.stdout)
		fmt.Fprintln(a.stdout)
	}
	if *asJSON {
		enc := json.NewEncoder(a.stdout)
		enc.SetIndent("", "  ")
		var v any = all
		if len(all) == 1 {
			v = all[0]
		}
		if err := enc.Encode(v); err != nil {
			return err
		}
	}
	if failed > 0 {
		fmt.Fprintf(a.stderr, "%d of %d scripts failed\n", failed, len(f.pos))
		return exitError{1}
	}
	return nil
}
