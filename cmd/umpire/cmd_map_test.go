package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hexmap"
	"github.com/umpire-pbem/umpire/adjudicator/rulesets"
	"github.com/umpire-pbem/umpire/adjudicator/testrules"
)

// moat is a second ruleset played on a hex map, for choosing between
// rulesets: the race rules with one map, "moat", whose check wants a wall.
type moat struct{ adjudicator.Ruleset }

const moatMap = `name: moat
title: Moat
status: test
bounds: {cols: [1, 3], rows: [1, 3]}
default: open
`

func (moat) Info() adjudicator.Info {
	i := testrules.Race.Info()
	i.Name = "moatrace"
	return i
}
func (moat) MapNames() []string { return []string{"moat"} }
func (m moat) Map(name string) (*hexmap.Map, error) {
	if name != "moat" {
		return nil, errors.New("no such map")
	}
	return m.ParseMap("moat.yaml", []byte(moatMap))
}
func (moat) ParseMap(file string, data []byte) (*hexmap.Map, error) {
	return hexmap.Parse(file, data, nil)
}
func (moat) CheckMap(m *hexmap.Map) []adjudicator.MapProblem {
	if len(m.Sides()) == 0 {
		return []adjudicator.MapProblem{{Where: m.Name, Rule: "MOAT-1", Message: "a moat map needs a wall"}}
	}
	return nil
}
func (moat) PictureStyle() *adjudicator.PictureStyle { return nil }

func mapApp(all ...adjudicator.Ruleset) func(args ...string) (int, string, string) {
	return func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		a := &app{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, all: func() []adjudicator.Ruleset { return all },
			rules: func(n string) (adjudicator.Ruleset, bool) {
				for _, r := range all {
					if r.Info().Name == n {
						return r, true
					}
				}
				return nil, false
			}}
		code := a.run(context.Background(), args)
		return code, out.String(), errb.String()
	}
}

// TestMapShipped checks and shows the shipped maps, and a corrected copy
// that breaks a stated fact, with the shipped rulesets: one of them is
// played on hex maps, so no -ruleset is needed.
func TestMapShipped(t *testing.T) {
	run := mapApp(rulesets.All()...)
	if code, out, errs := run("map", "check", "esirien"); code != 0 || !strings.Contains(out, "every stated fact holds") {
		t.Errorf("map check: exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs := run("map", "show", "nurkott"); code != 0 || !strings.Contains(out, "Nurkott") {
		t.Errorf("map show: exit %d\n%s%s", code, out, errs)
	}
	broken := strings.Replace(mustRead(t, "../../adjudicator/dragonrage/board/maps/esirien.yaml"), `{value: 5, hexes: ["1910"]`, `{value: 4, hexes: ["1910"]`, 1)
	file := write(t, t.TempDir(), "esirien.yaml", broken)
	if code, out, _ := run("map", "check", file); code != 1 || !strings.Contains(out, "DR-ELOWYN-7") {
		t.Errorf("a broken map: exit %d\n%s", code, out)
	}
	if code, out, errs := run("map", "--help"); code != 0 || !strings.Contains(out, "esirien, nurkott") {
		t.Errorf("map --help lists the built-in maps: exit %d\n%s%s", code, out, errs)
	}
}

// TestMapChoosesRuleset: with two rulesets played on hex maps, a map's
// name or the name its file gives picks the ruleset, -ruleset overrides,
// and a map that neither has is a usage error.
func TestMapChoosesRuleset(t *testing.T) {
	shipped := rulesets.All()
	run := mapApp(append(shipped, moat{testrules.Race})...)
	if code, out, errs := run("map", "check", "moat"); code != 1 || !strings.Contains(out, "moat: moat: a moat map needs a wall (MOAT-1)") {
		t.Errorf("map check moat: exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs := run("map", "check", "esirien"); code != 0 || !strings.Contains(out, "every stated fact holds") {
		t.Errorf("map check esirien among two rulesets: exit %d\n%s%s", code, out, errs)
	}
	walled := write(t, t.TempDir(), "walled.yaml", moatMap+"hexsides:\n  - {kind: wall, hexes: [\"0202\", \"0203\"]}\n")
	if code, out, errs := run("map", "check", walled); code != 0 || !strings.Contains(out, "every stated fact holds") {
		t.Errorf("a file naming the moat map: exit %d\n%s%s", code, out, errs)
	}
	other := write(t, t.TempDir(), "other.yaml", strings.Replace(moatMap, "name: moat", "name: other", 1))
	if code, _, errs := run("map", "check", other); code != 2 || !strings.Contains(errs, "say which with -ruleset") {
		t.Errorf("a map no ruleset has, among two: exit %d, stderr %q", code, errs)
	}
	if code, out, errs := run("map", "check", "--ruleset", "moatrace", other); code != 1 || !strings.Contains(out, "MOAT-1") {
		t.Errorf("-ruleset moatrace: exit %d\n%s%s", code, out, errs)
	}
	if code, _, errs := run("map", "check", "--ruleset", "nosuch", "moat"); code != 2 || !strings.Contains(errs, `unknown ruleset "nosuch"`) {
		t.Errorf("-ruleset nosuch: exit %d, stderr %q", code, errs)
	}
	// With no ruleset played on hex maps there is no map to check.
	if code, _, errs := mapApp(testrules.Race)("map", "check", "esirien"); code != 1 || !strings.Contains(errs, "no ruleset of this build is played on hex maps") {
		t.Errorf("no map rulesets: exit %d, stderr %q", code, errs)
	}
}
