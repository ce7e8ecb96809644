package dragonnoir_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir"
)

// TestNatureSheetsSecrets: a druid's or a unicorn's PE are his side's
// secret (E.5), as a mage's: no line the Krob player reads, nor his view,
// tells them, while the Adventurers' report and view do (so the test can
// fail).
func TestNatureSheetsSecrets(t *testing.T) {
	pe := regexp.MustCompile(`\bPE\b`)
	for _, file := range []string{
		"testdata/dn3-spells/DN3-SPELL-DRUID-1-move-boost-self.yaml",
		"testdata/dn3-spells/DN3-SPELL-DRUID-24-poison-cloud.yaml",
		"testdata/dn3-spells/DN3-SPELL-UNIC-10-teleport.yaml",
	} {
		run := playCase(t, file, lookup)
		toAdv := 0
		for _, st := range run.Steps {
			for _, r := range st.Results {
				for _, l := range r.Full {
					if !pe.MatchString(l.Text) {
						continue
					}
					if l.To.Includes(dragonnoir.Krobs) {
						t.Errorf("%s: the Krob player reads %q", file, l.Text)
					}
					if l.To.Includes(dragonnoir.Adventurers) {
						toAdv++
					}
				}
				for _, ro := range r.AllRolls {
					if pe.MatchString(ro.String()) && ro.To.Includes(dragonnoir.Krobs) {
						t.Errorf("%s: the Krob player sees the roll %q", file, ro.String())
					}
				}
			}
		}
		if toAdv == 0 {
			t.Errorf("%s: the Adventurers are told no PE: the test checks nothing", file)
		}
		for _, u := range run.Game.View(dragonnoir.Krobs).Units {
			if s := strings.Join(u.Status, ","); pe.MatchString(s) {
				t.Errorf("%s: the Krob player's view shows %s with %s", file, u.ID, s)
			}
		}
		adv := ""
		for _, u := range run.Game.View(dragonnoir.Adventurers).Units {
			adv += strings.Join(u.Status, ",")
		}
		if !pe.MatchString(adv) {
			t.Errorf("%s: the Adventurers' view shows no PE", file)
		}
	}
}

// natureInvisible is DN3-SPELL-DRUID-8's game (or UNIC-8's, with the
// unicorn) up to the moment the Krob player writes his mail: the druid
// vanished, the reactions mail noting where he reappears in and sealed.
func natureInvisible(caster, dest string) string {
	return `name: what the Krob player can read of an invisible druid's or unicorn's destination before he writes his mail
ruleset: dragonnoir
position:
  valley: true
  board:
    name: glade
    title: a glade of the valley
    bounds: {cols: [1, 9], rows: [1, 6]}
    default: floor
  turns: 3
  units:
    - {unit: ` + caster + `, at: "0102", pe: 50}
    - {unit: hunter-1, at: "0202"}
dice: [6]
steps:
  - side: adventurers
    orders: |
      turn: 1
      phase: adventurers
      orders:
        spells:
          - {caster: ` + caster + `, spell: invisible}
  - side: adventurers
    orders: |
      turn: 1
      phase: krobs
      orders:
        reappear: {` + caster + `: "` + dest + `"}
expect:
  due: [krobs, adventurers]
`
}

// TestNatureInvisibleSealed: where an invisible druid or unicorn
// reappears is secret until he does (HID-6), as for a mage: before the
// Krob mail is in, neither the public log, nor the Krob player's view, nor
// a line or roll addressed to him holds it, though the referee keeps the
// sealed mail that notes it; once the Krob turn is adjudicated the public
// log holds it (the check can fail).
func TestNatureInvisibleSealed(t *testing.T) {
	for _, c := range []struct{ caster, dest, after string }{
		{"terclaugast", "0105", "testdata/dn3-spells/DN3-SPELL-DRUID-8-invisible.yaml"},
		{"unicorn-f1", "0905", "testdata/dn3-spells/DN3-SPELL-UNIC-8-invisible.yaml"},
	} {
		run := playText(t, natureInvisible(c.caster, c.dest), lookup)
		if log := publicLog(run); strings.Contains(log, c.dest) {
			t.Errorf("%s: the destination %s is in the public log before the Krob mail is in:\n%s", c.caster, c.dest, log)
		}
		if !sealedIn(run, c.dest) {
			t.Errorf("%s: the reactions mail noting %s is not kept sealed: was it taken?", c.caster, c.dest)
		}
		v, err := json.Marshal(run.Game.View(dragonnoir.Krobs))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(v), c.dest) {
			t.Errorf("%s: the Krob player's view shows %s: %s", c.caster, c.dest, v)
		}
		for _, st := range run.Steps {
			for _, r := range st.Results {
				for _, l := range r.Full {
					if strings.Contains(l.Text, c.dest) && l.To.Includes(dragonnoir.Krobs) {
						t.Errorf("%s: the Krob player reads %q", c.caster, l.Text)
					}
				}
				for _, ro := range r.AllRolls {
					if strings.Contains(ro.String(), c.dest) && ro.To.Includes(dragonnoir.Krobs) {
						t.Errorf("%s: the Krob player sees the roll %q", c.caster, ro.String())
					}
				}
			}
		}
		if log := publicLog(playCase(t, c.after, lookup)); !strings.Contains(log, c.dest) {
			t.Errorf("%s: once back on %s the public log should hold it; it is:\n%s", c.after, c.dest, log)
		}
	}
}

// TestSpellListsLoader: the module's spell lists are checked — a sheet
// that is none of the four, two spells an order would call alike on one
// sheet, a sheet on a counter that is no magician, a strategic spell with
// an effect, an area on a spell not aimed at a hex.
func TestSpellListsLoader(t *testing.T) {
	for _, c := range []struct{ file, old, new, want string }{
		{"spells.yaml", "{id: druid-frost, name: frost, lists: [druid],", "{id: druid-frost, name: frost, lists: [druids],",
			`spell druid-frost: list "druids" is one of mage, sorcerer, druid, unicorn`},
		{"spells.yaml", "{id: druid-frost, name: frost,", "{id: druid-frost, name: heal,",
			"the druid sheet has two spells an order calls heal: heal and this one"},
		{"counters.yaml", "{id: jon, title: Jon the archer, side: adventurers,", "{id: jon, title: Jon the archer, side: adventurers, spell-list: druid,",
			"kind jon: spell-list and valley-level are a magician's: give its level (DN-MAGIC-2)"},
		{"counters.yaml", "level: 1, spell-list: druid,", "level: 1, spell-list: elf,", "kind terclaugast: a magician names his sheet, spell-list: one of mage, sorcerer, druid, unicorn (DN3-MAGIC-3)"},
		{"spells.yaml", `title: "Count (Dénombrer)", category: strategic, aim: none, duration: "instant",`, `title: "Count (Dénombrer)", category: strategic, aim: none, duration: "instant", effect: light,`,
			"a strategic spell is cast in the campaign (DN3-MAGIC-5): valley-only, with no effect: in a battle"},
		{"spells.yaml", `category: pure, aim: hex, radius: 1,`, `category: pure, aim: hexes, radius: 1,`, "radius: is how many hexes around the hex it aims at"},
	} {
		m, ok := editedModule(t, c.file, c.old, c.new)
		if !ok {
			continue
		}
		err := dragonnoir.Ruleset.(adjudicator.Modular).CheckModule(m)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s with %q: got %v, want %q", c.file, c.new, err, c.want)
		}
	}
}

// TestSheetsKeepTheirPrices: an order names a spell as every sheet does
// (invisible), and the caster's sheet sets its price — 12 PE for a mage,
// 8 for a druid and a unicorn (DN3-SPELL-MAGE-9, DN3-SPELL-DRUID-8,
// DN3-SPELL-UNIC-8); a mage may not cast the Druid sheet's Frost.
func TestSheetsKeepTheirPrices(t *testing.T) {
	playText(t, `name: one name, three prices
ruleset: dragonnoir
position:
  valley: true
  board:
    name: glade
    title: a glade of the valley
    bounds: {cols: [1, 9], rows: [1, 6]}
    default: floor
  units:
    - {unit: zacharie, at: "0102"}
    - {unit: terclaugast, at: "0104", pe: 50}
    - {unit: unicorn-m1, at: "0106", pe: 50}
dice: [5, 5, 5]
steps:
  - side: adventurers
    orders: |
      turn: 1
      phase: adventurers
      orders:
        spells:
          - {caster: zacharie, spell: frost, hexes: ["0502"]}
    expect-error: spell-not-on-list
    expect-has: "zacharie casts from the mage sheet, which has no Frost: it is on the druid sheet"
  - side: adventurers
    orders: |
      turn: 1
      phase: adventurers
      orders:
        spells:
          - {caster: zacharie, spell: invisible}
          - {caster: terclaugast, spell: invisible}
          - {caster: unicorn-m1, spell: invisible}
expect:
  report-has:
    - "zacharie spends 12 PE on Become invisible, whether it works or not: 138 left (DN-MAGIC-10)."
    - "terclaugast spends 8 PE on Become invisible, whether it works or not: 42 left (DN-MAGIC-10)."
    - "unicorn-m1 spends 8 PE on Become invisible, whether it works or not: 42 left (DN-MAGIC-10)."
`, lookup)
}
