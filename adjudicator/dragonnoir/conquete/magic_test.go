package conquete_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir/conquete"
)

// TestStrategicSpellsSecret: the results, rolls and PE of a side's
// strategic spells reach that side only (HID-13); the other side and an
// observer learn neither that a spell worked nor what it found.
func TestStrategicSpellsSecret(t *testing.T) {
	const file = "magic/DN3-SPELL-MAGE-24-identify-and-locate-in-the-reorganisation.yaml"
	g, fails := playDirect(t, loadCase(t, file))
	if len(fails) > 0 {
		t.Fatalf("%s: %v", file, fails)
	}
	secrets := map[adjudicator.Side][]string{ // what each side's spell tells it
		conquete.Rebels:     {"Identify", "zacharie", "Reptilians (AMB-84)", "110"},
		conquete.Reptilians: {"Locate", "sorcerer", "for konrad"},
	}
	spellsKept(t, file, g, secrets)
	// Locate's answer, from a stealthy troop, stays the Reptilians'.
	g2, fails := playDirect(t, loadCase(t, "magic/DN3-SPELL-MAGE-25-locate.yaml"))
	if len(fails) > 0 {
		t.Fatal(fails)
	}
	for _, viewer := range []adjudicator.Side{conquete.Rebels, adjudicator.Observer} {
		for _, l := range adjudicator.For(g2.lines, viewer) {
			if strings.Contains(l.Text, "orb is at") {
				t.Errorf("%s reads the Reptilians' Locate: %q", viewer, l.Text)
			}
		}
	}
	for _, l := range leaks(g2.st.(*conquete.State), conquete.Reptilians, g2.lines, g2.events) {
		t.Error(l)
	}
	// The PE spent are in sealed sheets only.
	for _, ev := range g.events {
		if s, ok := ev.(*conquete.Sheet); ok && len(s.Counters) > 0 {
			t.Errorf("a public sheet of the %s changes counters %+v", s.Side, s.Counters[0])
		}
	}
	// And the check can fail: the referee reads both.
	n := 0
	for _, l := range adjudicator.For(g.lines, adjudicator.Referee) {
		if strings.Contains(l.Text, "Identify") || strings.Contains(l.Text, "Locate") {
			n++
		}
	}
	if n < 2 {
		t.Errorf("the referee reads %d spell lines, want both sides'", n)
	}
}

// TestStrategicSpellsSecretEverySheet: the druids', unicorns' and
// Sorcerer's spells in the Reorganisation, and the spells cast beside a
// move or a pass in the Movement (DN3-MAGIC-5), reach the caster's side
// only (HID-13): no line, roll or public event of the other side or an
// observer names the caster, the spell or its answer.
func TestStrategicSpellsSecretEverySheet(t *testing.T) {
	cases := map[string]map[adjudicator.Side][]string{ // what each side's spells tell it
		"magic/DN3-SPELL-DRUID-20-allied-druids-count-identify-locate.yaml": {
			conquete.Rebels:     {"terclaugast", "heliogast", "radagast", "La Forêt (AMB-84)", "lord is at"},
			conquete.Reptilians: {"sorcerer", "Le Pont: 2 Humans"},
		},
		"magic/DN3-SPELL-UNIC-14-allied-unicorns-count-identify-locate.yaml": {
			conquete.Rebels: {"unicorn-f1", "unicorn-f2", "unicorn-m1", "Courte-passe: 2 Reptilians", "sorcerer is at"},
		},
		"magic/DN3-MAGIC-5-spells-in-the-movement-mail.yaml": {
			conquete.Rebels:     {"zacharie", "shaman", "Locate", "lord is at", "Le Gué: 2 counters"},
			conquete.Reptilians: {"sorcerer", "Le Pont: 1 counters"},
		},
	}
	for file, secrets := range cases {
		g, fails := playDirect(t, loadCase(t, file))
		if len(fails) > 0 {
			t.Fatalf("%s: %v", file, fails)
		}
		spellsKept(t, file, g, secrets)
		for _, ev := range g.events {
			if _, sealed := ev.(*adjudicator.Secret); sealed {
				continue
			}
			b, err := json.Marshal(ev)
			if err != nil {
				t.Fatal(err)
			}
			for _, words := range secrets {
				for _, w := range words {
					if strings.Contains(string(b), w) {
						t.Errorf("%s: a public event tells %q: %s", file, w, b)
					}
				}
			}
		}
		// The check can fail: the referee reads every side's answers.
		for caster, words := range secrets {
			seen := false
			for _, l := range adjudicator.For(g.lines, adjudicator.Referee) {
				seen = seen || strings.Contains(l.Text, words[len(words)-1])
			}
			if !seen {
				t.Errorf("%s: the referee does not read the %s' %q", file, caster, words[len(words)-1])
			}
		}
	}
}

// spellsKept checks that no side but the caster's, and no observer, reads
// what secrets says each side's strategic spells told it: in a line, a
// roll it sees, or anything leaks finds (HID-13).
func spellsKept(t *testing.T, file string, g *direct, secrets map[adjudicator.Side][]string) {
	t.Helper()
	st := g.st.(*conquete.State)
	for _, viewer := range []adjudicator.Side{conquete.Rebels, conquete.Reptilians, adjudicator.Observer} {
		for _, l := range leaks(st, viewer, g.lines, g.events) {
			t.Errorf("%s: %s", file, l)
		}
		for caster, words := range secrets {
			if caster == viewer {
				continue
			}
			for _, w := range words {
				for _, l := range adjudicator.For(g.lines, viewer) {
					if strings.Contains(l.Text, w) {
						t.Errorf("%s: %s reads %q of the %s' spells: %q", file, viewer, w, caster, l.Text)
					}
				}
				for _, r := range g.rolls {
					if strings.Contains(r.Outcome, w) && (r.To.Includes(viewer) || r.To.Public()) {
						t.Errorf("%s: %s sees the roll %q (to %v)", file, viewer, r.Outcome, r.To)
					}
				}
			}
		}
	}
}
