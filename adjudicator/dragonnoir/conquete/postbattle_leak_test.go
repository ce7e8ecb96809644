package conquete_test

import (
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir/conquete"
)

// TestOutsideBattlesSealed plays AMB-75's case: the spell cast outside the
// Battles happens on no map, so its lines, its roll and the army sheet it
// changes are the Rebels' alone (HID-11); the post-battle spells of
// DN3-MAGIC-7 are public, their PE the caster's side's.
func TestOutsideBattlesSealed(t *testing.T) {
	g, fails := playDirect(t, loadCase(t, "magic-after/AMB-75-one-spell-outside-the-battles.yaml"))
	if len(fails) > 0 {
		t.Fatal(fails)
	}
	for _, ev := range g.events {
		if s, ok := ev.(*conquete.Sheet); ok && s.Side == conquete.Rebels {
			t.Errorf("a public Rebel army sheet: %+v", s)
		}
	}
	told := false
	for _, viewer := range []adjudicator.Side{conquete.Reptilians, adjudicator.Observer} {
		for _, l := range adjudicator.For(g.lines, viewer) {
			if strings.Contains(l.Text, "laberne") || strings.Contains(l.Text, "Heal wounds") {
				t.Errorf("%s reads %q", viewer, l.Text)
			}
		}
	}
	for _, l := range adjudicator.For(g.lines, conquete.Rebels) {
		told = told || strings.Contains(l.Text, "laberne is healed")
	}
	if !told {
		t.Error("the Rebels are not told that laberne is healed: the check could not fail")
	}
	n := 0
	for _, r := range g.rolls {
		if r.Label == "a spell outside the Battles" {
			n++
			if len(r.To) != 1 || r.To[0] != conquete.Rebels {
				t.Errorf("the roll %q is for %v, want the Rebels only", r.Label, r.To)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d rolls of a spell outside the Battles, want 1", n)
	}

	g, fails = playDirect(t, loadCase(t, "magic-after/DN3-MAGIC-7-heal-and-resurrect-after-a-battle.yaml"))
	if len(fails) > 0 {
		t.Fatal(fails)
	}
	for _, l := range adjudicator.For(g.lines, conquete.Reptilians) {
		if strings.Contains(l.Text, " PE ") && strings.Contains(l.Text, "zacharie") {
			t.Errorf("the Reptilians read Zacharie's PE: %q", l.Text)
		}
	}
	for _, ev := range g.events {
		if s, ok := ev.(*conquete.Sheet); ok && s.Side == conquete.Rebels {
			t.Errorf("a public Rebel army sheet after the Battle: %+v", s)
		}
	}
}
