package dragonrage_test

import (
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/dragonrage"
)

// typesWith returns the codes of the unit types that have a capability.
func typesWith(d *dragonrage.Data, has func(*dragonrage.UnitType) bool) []string {
	var out []string
	for code, t := range d.Types {
		if has(t) {
			out = append(out, code)
		}
	}
	sort.Strings(out)
	return out
}

// ruleText returns the text of a rule of the digest: its list item and the
// indented lines under it.
func ruleText(t *testing.T, lines []string, id string) string {
	t.Helper()
	head := "- **" + id + "**"
	for i, l := range lines {
		if !strings.HasPrefix(l, head) {
			continue
		}
		text := l
		for _, m := range lines[i+1:] {
			if !strings.HasPrefix(m, "  ") {
				break
			}
			text += "\n" + m
		}
		return text
	}
	t.Fatalf("the digest has no rule %s", id)
	return ""
}

// aliases are the names the digest uses for a counter besides its code
// and its name in counters.yaml.
var aliases = map[string]string{"T-rex": "TREX"}

// namedIn returns the unit types rule id names: by code, by name (singular
// or plural, any case) or by an alias in its text, or by being the unit of
// the rule's chapter (DR-TREX-4 is about the T-rex, DR-ELOWYN-5 Elowyn).
func namedIn(d *dragonrage.Data, id, text string) []string {
	plain := strings.ReplaceAll(text, "*", "")
	chapter := strings.Split(id, "-")[1]
	var out []string
	for code, ty := range d.Types {
		name := regexp.QuoteMeta(ty.Name)
		single := regexp.QuoteMeta(strings.TrimSuffix(ty.Name, "s"))
		byName := regexp.MustCompile(`(?i)\b(` + name + `|` + name + `s|` + single + `)\b`)
		byCode := regexp.MustCompile(`\b` + regexp.QuoteMeta(code) + `\b`)
		if byCode.MatchString(plain) || byName.MatchString(plain) || chapter == code || strings.EqualFold(chapter, ty.Name) {
			out = append(out, code)
		}
	}
	for alias, code := range aliases {
		if strings.Contains(plain, alias) {
			out = append(out, code)
		}
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// TestCapabilitiesMatchRules checks each capability of data/counters.yaml
// against the rules it comes from: the units a rule names must be exactly
// (or, where the rule also names others in passing, at least) the units
// with the capability, and the test's own list must agree with both.
func TestCapabilitiesMatchRules(t *testing.T) {
	lines := readDigest(t)
	d, err := dragonrage.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	kind := func(k string) func(*dragonrage.UnitType) bool {
		return func(u *dragonrage.UnitType) bool { return u.Kind == k }
	}
	cases := []struct {
		capability string
		has        func(*dragonrage.UnitType) bool
		rules      []string
		class      func(*dragonrage.UnitType) bool // units a rule names by class ("minor monsters")
		want       []string
		exact      bool // the rules name no other counter
	}{
		{"human", (*dragonrage.UnitType).IsHuman, []string{"DR-COMP-2"}, nil,
			[]string{"ARH", "BAL", "CAT", "CAV", "ELW", "HERO", "INF", "MIL", "WZD"}, true},
		{"hero", (*dragonrage.UnitType).Leads, []string{"DR-HERO-1"}, nil, []string{"HERO"}, false}, // and "not against Dragons"
		{"wounded-first", (*dragonrage.UnitType).TakesWound, []string{"DR-HERO-5", "DR-ELOWYN-5"}, nil, []string{"ELW", "HERO"}, true},
		{"wizard", (*dragonrage.UnitType).Casts, []string{"DR-MAGIC-1"}, nil, []string{"WZD"}, false}, // and goblin shamans
		{"summoned", (*dragonrage.UnitType).IsSummoned, []string{"DR-ELM-1"}, nil, []string{"ELM"}, true},
		{"fires", (*dragonrage.UnitType).Fires, []string{"DR-FIRE-1"}, nil, []string{"ARH", "BAL", "CAT", "GOB"}, true},
		{"melee: fire-rules", func(u *dragonrage.UnitType) bool { return u.Melee == dragonrage.MeleeByFire }, []string{"DR-ARH-1"}, nil, []string{"ARH"}, false},
		{"melee: never", func(u *dragonrage.UnitType) bool { return u.Melee == dragonrage.MeleeNever }, []string{"DR-SIEGE-3"}, kind("siege"), []string{"BAL", "CAT"}, false}, // "as archers do"
		{"fears-monsters", (*dragonrage.UnitType).NeedsHeroVsMonsters, []string{"DR-MIL-1"}, nil, []string{"MIL"}, false},
		{"destroys-vp: occupy", (*dragonrage.UnitType).Occupies, []string{"DR-VP-5", "DR-VP-6"}, nil,
			[]string{"ARH", "CAV", "GOB", "HERO", "INF", "MIL", "ORC", "WRG"}, true},
		{"destroys-vp: enter", (*dragonrage.UnitType).DestroysByEntering, []string{"DR-VP-4"}, kind("minor"),
			[]string{"ELM", "GIANT", "SERP", "TREX", "TRL"}, true},
		{"destroys-vp: spells", func(u *dragonrage.UnitType) bool { return u.DestroysVP == dragonrage.VPSpells }, []string{"DR-VP-7"}, nil, []string{"WZD"}, false},
		{"destroys-vp: never", func(u *dragonrage.UnitType) bool { return u.DestroysVP == dragonrage.VPNever }, []string{"DR-ELOWYN-13"}, nil, []string{"ELW"}, false},
		{"ladder", (*dragonrage.UnitType).LeavesLadder, []string{"DR-CLIMB-7"}, nil, []string{"GOB", "ORC"}, true},
		{"escort", (*dragonrage.UnitType).Escorts, []string{"DR-ELOWYN-12"}, nil, []string{"ORC"}, false},
		{"rivers", (*dragonrage.UnitType).EntersRivers, []string{"DR-TERR-3"}, nil, []string{"GIANT", "SERP"}, true},
		{"no-tower", func(u *dragonrage.UnitType) bool { return !u.MayEndInTower() }, []string{"DR-CAV-1"}, nil, []string{"CAV"}, true},
		{"overrun", (*dragonrage.UnitType).Overruns, []string{"DR-OVR-4"}, nil, []string{"DRAGON", "GIANT", "TREX", "WYVERN"}, false}, // "Rocs and Young Dragons may do neither"
		{"heavy", (*dragonrage.UnitType).BreaksBridges, []string{"DR-TREX-2"}, nil, []string{"TREX"}, true},
		{"grudge", (*dragonrage.UnitType).Grudges, []string{"DR-TREX-4"}, nil, []string{"TREX"}, true},
		{"lobs", func(u *dragonrage.UnitType) bool { return !u.NeedsSight() }, []string{"DR-CAT-3"}, nil, []string{"CAT"}, true},
	}
	for _, c := range cases {
		got := typesWith(d, c.has)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: counters.yaml gives it to %v, %s to %v", c.capability, got, strings.Join(c.rules, ", "), c.want)
		}
		var named []string
		for _, id := range c.rules {
			named = append(named, namedIn(d, id, ruleText(t, lines, id))...)
		}
		if c.class != nil {
			named = append(named, typesWith(d, c.class)...)
		}
		sort.Strings(named)
		named = slices.Compact(named)
		for _, code := range c.want {
			if !slices.Contains(named, code) {
				t.Errorf("%s: %s does not name %s (%s), which has it", c.capability, strings.Join(c.rules, ", "), code, d.Types[code].Name)
			}
		}
		if c.exact && !slices.Equal(named, c.want) {
			t.Errorf("%s: %s names %v, the capability is given to %v", c.capability, strings.Join(c.rules, ", "), named, c.want)
		}
	}
}

// TestFireValuesMatchRules checks the firers' rows against the rules that
// give their reach and their rolls against monsters.
func TestFireValuesMatchRules(t *testing.T) {
	lines := readDigest(t)
	d, err := dragonrage.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	// DR-BAL-3: "range 1 → 4+; range 2 → 5+; range 3–4 → 6".
	re := regexp.MustCompile(`range (\d)(?:–(\d))? → (\d)`)
	plain := strings.ReplaceAll(ruleText(t, lines, "DR-BAL-3"), "*", "")
	ms := re.FindAllStringSubmatch(plain, -1)
	if len(ms) != 3 {
		t.Fatalf("DR-BAL-3: expected 3 ranges, found %q", ms)
	}
	bal := d.Types["BAL"]
	for _, m := range ms {
		lo, _ := strconv.Atoi(m[1])
		hi := lo
		if m[2] != "" {
			hi, _ = strconv.Atoi(m[2])
		}
		need, _ := strconv.Atoi(m[3])
		for r := lo; r <= hi; r++ {
			if got := bal.MonsterNeed(r); got != need {
				t.Errorf("DR-BAL-3: a ballista at range %d needs %d to hit a monster; counters.yaml gives %d", r, need, got)
			}
		}
	}
	// DR-CAT-4: only on a 6, whatever the range.
	if !strings.Contains(ruleText(t, lines, "DR-CAT-4"), "**6**, whatever the range") {
		t.Fatal("DR-CAT-4 no longer says 6 whatever the range: check the catapult's monster-hit")
	}
	// DR-FIRE-8: 5+ at range 1, 6 in every other case.
	f8 := ruleText(t, lines, "DR-FIRE-8")
	if !strings.Contains(f8, "**5+** hits at range **1**") || !strings.Contains(f8, "**6** is needed in every other case") {
		t.Fatal("DR-FIRE-8 no longer says 5+ at range 1, else 6: check the archers' and goblins' monster-hit")
	}
	for _, c := range []struct {
		code    string
		inTower bool
		lo, hi  int
		need    []int // at ranges 1, 2, ...
		rule    string
	}{
		{"ARH", false, 1, 2, []int{5, 6, 6}, "DR-FIRE-6, DR-FIRE-8"},
		{"GOB", true, 1, 3, []int{5, 6, 6}, "DR-FIRE-6, DR-FIRE-8"},
		{"BAL", false, 1, 3, nil, "DR-BAL-1"},
		{"BAL", true, 1, 4, nil, "DR-BAL-1"},
		{"CAT", false, 2, 4, []int{6, 6, 6, 6}, "DR-CAT-1, DR-CAT-4"},
		{"CAT", true, 2, 4, nil, "DR-CAT-1"},
	} {
		ty := d.Types[c.code]
		if lo, hi := ty.FireRange(c.inTower, false, false); lo != c.lo || hi != c.hi {
			t.Errorf("%s (in a tower: %v) reaches %d-%d, %s says %d-%d", c.code, c.inTower, lo, hi, c.rule, c.lo, c.hi)
		}
		for i, n := range c.need {
			if got := ty.MonsterNeed(i + 1); got != n {
				t.Errorf("%s at range %d needs %d against a monster, %s says %d", c.code, i+1, got, c.rule, n)
			}
		}
	}
	// DR-FIRE-6: no tower +1 for a shot in a melee or at a tower.
	arh := d.Types["ARH"]
	if _, hi := arh.FireRange(true, false, true); hi != 2 {
		t.Errorf("archers in a tower firing in a melee reach %d, DR-FIRE-6 says 2", hi)
	}
	if _, hi := arh.FireRange(true, true, false); hi != 2 {
		t.Errorf("archers in a tower firing at a tower reach %d, DR-FIRE-6 says 2", hi)
	}
	// DR-BAL-4: strength 2 at range 1-2, 1 at range 3-4.
	for r, s := range map[int]int{1: 2, 2: 2, 3: 1, 4: 1} {
		if got := bal.FireStrength(r); got != s {
			t.Errorf("a ballista at range %d fires with %d, DR-BAL-4 says %d", r, got, s)
		}
	}
}

// TestCapabilitiesMatchTables checks the capabilities against the data
// tables, without the digest: only firers carry fire values, climbers
// with a ladder are on the climbing table, and the units that smash doors
// on the way are those the table marks "auto" (DR-CST-5).
func TestCapabilitiesMatchTables(t *testing.T) {
	d, err := dragonrage.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	for _, code := range typesWith(d, func(*dragonrage.UnitType) bool { return true }) {
		ty := d.Types[code]
		if !ty.Fires() {
			if ty.MinRange != 0 || ty.TowerRange != dragonrage.TowerGeneral || ty.FarFrom != 0 || ty.FarAttack != 0 || len(ty.MonsterHit) != 0 || ty.Lobs || ty.Missile != "" {
				t.Errorf("%s has fire values but no range: only firers have them (DR-FIRE-1)", code)
			}
		} else {
			if ty.MinRange > ty.Range {
				t.Errorf("%s reaches %d to %d", code, ty.MinRange, ty.Range)
			}
			if len(ty.MonsterHit) == 0 {
				t.Errorf("%s fires but has no monster-hit row (DR-FIRE-8)", code)
			}
			for i, n := range ty.MonsterHit {
				if n < 2 || n > 6 || (i > 0 && n < ty.MonsterHit[i-1]) {
					t.Errorf("%s's monster-hit %v: each is a 1d6 roll, never easier further away", code, ty.MonsterHit)
				}
			}
		}
		r, listed := d.CST[code]
		if ty.LeavesLadder() && (!listed || r.Climb == "") {
			t.Errorf("%s leaves its ladder (DR-CLIMB-7) but the climbing table does not let it climb", code)
		}
		if ty.Swims() && !ty.EntersRivers() {
			t.Errorf("%s swims but may not enter rivers (DR-SERP-2)", code)
		}
		if ty.Swims() && (!listed || r.Door != "auto") {
			t.Errorf("%s swims but does not smash doors automatically (DR-CST-5)", code)
		}
		switch ty.DestroysVP {
		case dragonrage.VPOther, dragonrage.VPOccupy, dragonrage.VPEnter, dragonrage.VPSpells, dragonrage.VPNever:
		default:
			t.Errorf("%s: destroys-vp %q is none of occupy, enter, spells, never", code, ty.DestroysVP)
		}
		switch ty.Melee {
		case dragonrage.MeleeAttacks, dragonrage.MeleeByFire, dragonrage.MeleeNever:
		default:
			t.Errorf("%s: melee %q is none of fire-rules, never", code, ty.Melee)
		}
		switch ty.TowerRange {
		case dragonrage.TowerGeneral, dragonrage.TowerAlways, dragonrage.TowerNever:
		default:
			t.Errorf("%s: tower-range %q is none of always, never", code, ty.TowerRange)
		}
	}
	for key := range d.CST {
		if strings.Contains(key, "+") {
			continue
		}
		if _, ok := d.Types[key]; !ok {
			t.Errorf("the climbing table has a row for %s, which is no unit type", key)
		}
	}
}
