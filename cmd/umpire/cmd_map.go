package main

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hexmap"
)

func cmdMap(a *app, _ context.Context, args []string) error {
	var names []string
	for _, r := range a.mapRulesets() {
		names = append(names, r.Info().Name+": "+strings.Join(r.(adjudicator.HexMaps).MapNames(), ", "))
	}
	f := a.flags("map", "check|show FILE.yaml|NAME",
		"check validates a map file of a ruleset played on hex maps: its syntax, every\nhex fact the rules state (by rule ID) and the shape a playable map needs.\nshow prints it as text. NAME is a built-in map ("+strings.Join(names, "; ")+");\nFILE is a corrected copy. The ruleset is the one -ruleset names, else the one\nwith a map of that name, else the only ruleset played on hex maps.")
	rs := f.String("ruleset", "", "the `ruleset` whose map it is (umpire rulesets lists them)")
	if err := f.parse(args); err != nil {
		return err
	}
	if len(f.pos) != 2 || (f.pos[0] != "check" && f.pos[0] != "show") {
		return usagef("say check or show, and the map")
	}
	hm, m, err := a.findMap(*rs, f.pos[1])
	if err != nil {
		return err
	}
	if f.pos[0] == "show" {
		fmt.Fprint(a.stdout, hexmap.Text(m, nil))
		return nil
	}
	problems := hm.CheckMap(m)
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

// mapRulesets are the shipped rulesets played on hex maps.
func (a *app) mapRulesets() []adjudicator.Ruleset {
	var out []adjudicator.Ruleset
	for _, r := range a.all() {
		if _, ok := r.(adjudicator.HexMaps); ok {
			out = append(out, r)
		}
	}
	return out
}

// findMap loads arg, a built-in map's name or a map file, and says whose
// it is: the ruleset named (when not ""), else the ruleset with a built-in
// map of that name (for a file, the name the file gives), else the only
// ruleset played on hex maps.
func (a *app) findMap(ruleset, arg string) (adjudicator.HexMaps, *hexmap.Map, error) {
	isFile := strings.HasSuffix(arg, ".yaml") || strings.HasSuffix(arg, ".yml")
	var data []byte
	name := arg
	if isFile {
		b, err := readFile(arg, maxYAML, "map files")
		if err != nil {
			return nil, nil, err
		}
		data = b
		var head struct {
			Name string `yaml:"name"`
		}
		_ = yaml.Unmarshal(data, &head) // a broken file is reported by ParseMap
		name = head.Name
	}
	hm, err := a.mapRuleset(ruleset, name)
	if err != nil {
		return nil, nil, err
	}
	var m *hexmap.Map
	if isFile {
		m, err = hm.ParseMap(arg, data)
	} else {
		m, err = hm.Map(arg)
	}
	return hm, m, err
}

// mapRuleset picks the ruleset of a map called name (see findMap).
func (a *app) mapRuleset(ruleset, name string) (adjudicator.HexMaps, error) {
	all := a.mapRulesets()
	if ruleset != "" {
		r, ok := a.rules(ruleset)
		if !ok {
			return nil, usagef("unknown ruleset %q (umpire rulesets lists them)", ruleset)
		}
		hm, ok := r.(adjudicator.HexMaps)
		if !ok {
			return nil, usagef("ruleset %s is not played on hex maps", ruleset)
		}
		return hm, nil
	}
	for _, r := range all {
		if hm := r.(adjudicator.HexMaps); slices.Contains(hm.MapNames(), name) {
			return hm, nil
		}
	}
	switch len(all) {
	case 0:
		return nil, fmt.Errorf("no ruleset of this build is played on hex maps")
	case 1:
		return all[0].(adjudicator.HexMaps), nil
	}
	return nil, usagef("no ruleset has a map called %q: say which with -ruleset", name)
}

// gameMap loads the map arg of r, the ruleset of a game: a built-in map's
// name or a corrected map file.
func gameMap(r adjudicator.Ruleset, arg string) (*hexmap.Map, error) {
	hm, ok := r.(adjudicator.HexMaps)
	if !ok {
		return nil, fmt.Errorf("ruleset %s is not played on hex maps", r.Info().Name)
	}
	if !strings.HasSuffix(arg, ".yaml") && !strings.HasSuffix(arg, ".yml") {
		return hm.Map(arg)
	}
	b, err := readFile(arg, maxYAML, "map files")
	if err != nil {
		return nil, err
	}
	return hm.ParseMap(arg, b)
}
