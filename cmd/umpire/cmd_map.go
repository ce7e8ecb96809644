package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/dragonrage/board"
	"github.com/umpire-pbem/umpire/adjudicator/hexmap"
)

func cmdMap(a *app, _ context.Context, args []string) error {
	f := a.flags("map", "check|show FILE.yaml|NAME",
		"check validates a Dragon Rage map file: its syntax, every hex fact the rules\nstate (by rule ID), connectivity, wall enclosures and VP. show prints it as text.\nNAME is a built-in map (esirien, nurkott); FILE is a corrected copy.")
	if err := f.parse(args); err != nil {
		return err
	}
	if len(f.pos) != 2 || (f.pos[0] != "check" && f.pos[0] != "show") {
		return usagef("say check or show, and the map")
	}
	m, err := loadMap(f.pos[1])
	if err != nil {
		return err
	}
	if f.pos[0] == "show" {
		fmt.Fprint(a.stdout, hexmap.Text(m, nil))
		return nil
	}
	problems := board.Check(m)
	if len(problems) == 0 {
		fmt.Fprintf(a.stdout, "%s: %s (%s), %d VP in all: every stated fact holds\n", f.pos[1], m.Title, m.Status, m.TotalVP())
		return nil
	}
	for _, p := range problems {
		fmt.Fprintf(a.stdout, "%s: %s\n", f.pos[1], p)
	}
	fmt.Fprintf(a.stdout, "%d problems\n", len(problems))
	return exitError{1}
}

func loadMap(arg string) (*hexmap.Map, error) {
	if !strings.HasSuffix(arg, ".yaml") && !strings.HasSuffix(arg, ".yml") {
		return board.Load(arg)
	}
	b, err := readFile(arg, maxYAML, "map files")
	if err != nil {
		return nil, err
	}
	return hexmap.Parse(arg, b, &board.Vocabulary)
}
