package dragonrage_test

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonrage"
)

// frenchPath is the French reference rules, whose scenario lists win over
// the digest's tables (FR §3.1.2-§3.1.7, §3.2.2-§3.2.7).
const frenchPath = "../../../shared/seeds/dragon-rage-reference-fr.txt"

// frenchUnits maps the French unit names of the scenario lists to counter
// types ("1 héros (boss orc)" is the orcs' hero, "1 mage" the humans'
// wizard).
var frenchUnits = map[string]string{
	"dragon": "DRAGON", "dragons": "DRAGON", "jeune dragon": "YDRAGON",
	"géant": "GIANT", "géants": "GIANT", "troll": "TRL", "trolls": "TRL",
	"orc": "ORC", "orcs": "ORC", "gobelin": "GOB", "gobelins": "GOB",
	"warg": "WRG", "wargs": "WRG", "cavalerie": "CAV", "cavaleries": "CAV",
	"infanterie": "INF", "infanteries": "INF", "archer": "ARH", "archers": "ARH",
	"milice": "MIL", "milices": "MIL", "héros": "HERO", "magicien": "WZD", "mage": "WZD",
}

var (
	frScenario = regexp.MustCompile(`^3\.([12])\.([2-7]) Scénario ([1-6])`)
	frForce    = regexp.MustCompile(`^- Unités d[eu] [lL]?'?(envahisseur|Défenseur|défenseur) ?: ?(.*)\.$`)
	frGoal     = regexp.MustCompile(`^- Objectif : les envahisseurs doivent détruire ([0-9]+) points\.$`)
	frCount    = regexp.MustCompile(`^([0-9]+) (.+?)(?: \(.*\))?$`)
)

// frenchForces reads "4 cavaleries, 1 héros (boss orc), et 1 magicien".
func frenchForces(t *testing.T, s string) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(part), "et "))
		m := frCount.FindStringSubmatch(part)
		if m == nil {
			t.Fatalf("cannot read %q", part)
		}
		code, ok := frenchUnits[strings.ToLower(m[2])]
		if !ok {
			t.Fatalf("no counter type for %q", m[2])
		}
		n, _ := strconv.Atoi(m[1])
		out[code] += n
	}
	return out
}

// TestScenariosAsPrinted checks the twelve scenarios of data/scenarios.yaml
// against the French text: forces, VP goal, map, who plays first
// (DR-SCEN-E1..E6, DR-SCEN-N1..N6, DR-SCEN-6, DR-SCEN-12, DR-SCEN-13), that
// every one is playable, and that no fixed scenario has a Roc, a wyvern, a
// sea serpent, a T-rex, a siege engine or an Elemental (DR-SCEN-15).
func TestScenariosAsPrinted(t *testing.T) {
	src, err := os.ReadFile(frenchPath)
	if err != nil {
		t.Skipf("the French rules are not at %s (%v): skipping the check against them", frenchPath, err)
	}
	type printed struct {
		inv, def map[string]int
		goal     int
	}
	text := map[string]*printed{}
	var cur *printed
	for _, l := range strings.Split(string(src), "\n") {
		l = strings.TrimSpace(l)
		if m := frScenario.FindStringSubmatch(l); m != nil {
			id := map[string]string{"1": "e", "2": "n"}[m[1]] + m[3]
			cur = &printed{}
			text[id] = cur
			continue
		}
		if cur == nil {
			continue
		}
		if m := frForce.FindStringSubmatch(l); m != nil {
			if m[1] == "envahisseur" {
				cur.inv = frenchForces(t, m[2])
			} else {
				cur.def = frenchForces(t, m[2])
			}
		}
		if m := frGoal.FindStringSubmatch(l); m != nil {
			cur.goal, _ = strconv.Atoi(m[1])
		}
	}
	if len(text) != 12 {
		t.Fatalf("read %d scenarios from the French text, want 12", len(text))
	}
	d, err := dragonrage.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Scenarios) != 12 {
		t.Errorf("%d scenarios in data/scenarios.yaml, want 12", len(d.Scenarios))
	}
	same := func(a, b map[string]int) bool {
		if len(a) != len(b) {
			return false
		}
		for k, v := range a {
			if b[k] != v {
				return false
			}
		}
		return true
	}
	listed := map[string]bool{}
	for _, info := range dragonrage.Ruleset.Info().Scenarios {
		listed[info.ID] = true
		if strings.Contains(info.Doc, "not playable") {
			t.Errorf("umpire rulesets says of %s: %s", info.ID, info.Doc)
		}
	}
	for _, sc := range d.Scenarios {
		p := text[sc.ID]
		if p == nil {
			t.Errorf("%s is not in the French text", sc.ID)
			continue
		}
		if !same(sc.Invader, p.inv) || !same(sc.Defender, p.def) || sc.Goal != p.goal {
			t.Errorf("%s: data has %v against %v, goal %d; the French text %v against %v, goal %d",
				sc.ID, sc.Invader, sc.Defender, sc.Goal, p.inv, p.def, p.goal)
		}
		if want := map[byte]string{'e': "esirien", 'n': "nurkott"}[sc.ID[0]]; sc.Map != want {
			t.Errorf("%s is played on %s, want %s", sc.ID, sc.Map, want)
		}
		if sc.DefenderFirst != (sc.ID[1:] == "2") {
			t.Errorf("%s: defender-first is %v; only scenario 2 starts with the defender (DR-SCEN-6)", sc.ID, sc.DefenderFirst)
		}
		if !sc.IsPlayable() || !listed[sc.ID] {
			t.Errorf("%s is not playable, or not listed", sc.ID)
		}
		for _, side := range []map[string]int{sc.Invader, sc.Defender} {
			for _, code := range []string{"ROC", "WYVERN", "SERP", "TREX", "BAL", "CAT", "ELM"} {
				if side[code] > 0 {
					t.Errorf("%s has %s: no fixed scenario does (DR-SCEN-15)", sc.ID, code)
				}
			}
		}
		if _, err := dragonrage.Ruleset.Setup(adjudicator.Setup{Scenario: sc.ID}); err != nil {
			t.Errorf("%s does not set up: %v", sc.ID, err)
		}
	}
}
