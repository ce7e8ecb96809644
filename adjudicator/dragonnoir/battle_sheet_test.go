package dragonnoir_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir"
)

// TestCampaignPartsSealed: the parts a campaign hands its battle — each
// side's Negotiation marker (HID-14) and army sheet (HID-11) — are nowhere
// the other side can read while the battle lasts: not in the public log
// (game.created holds the position, which gives neither), not in a line
// or roll meant for it, not in its view; each side's own view shows its
// own; and the referee's sealed data holds them, so the checks can fail.
func TestCampaignPartsSealed(t *testing.T) {
	src, err := os.ReadFile("testdata/dn3-people/DN3-CAMP-NEG-11-markers-from-the-campaign.yaml")
	if err != nil {
		t.Fatal(err)
	}
	text := string(src)
	cut := strings.Index(text, "  - side: adventurers\n")
	if cut < 0 {
		t.Fatal("the case changed: no Rebels' step after the series' parts")
	}
	run := playText(t, text[:cut]+"expect:\n  turn: 5\n  phase: adventurers\n", lookup)
	log := publicLog(run)
	for _, secret := range []string{"alliance", "ennemi-neutre", "fatigued", `"pe":25`} {
		if strings.Contains(log, secret) || strings.Contains(log, "pe: 25") {
			t.Errorf("the public log shows %q:\n%s", secret, log)
		}
		if !sealedIn(run, secret) {
			t.Errorf("%q is not in the referee's sealed data: was the part read?", secret)
		}
	}
	for _, e := range run.Log {
		if e.Type == "game.created" && (strings.Contains(string(e.Payload), "negotiation") || strings.Contains(string(e.Payload), "\"pe\"")) {
			t.Errorf("game.created holds a part: %s", e.Payload)
		}
	}
	// Each side's lines and rolls: its own parts only, and no roll at all.
	for _, st := range run.Steps {
		for _, r := range st.Results {
			if len(r.AllRolls) > 0 {
				t.Errorf("the battle rolled %v: it draws no marker when the campaign drew", r.AllRolls)
			}
			for _, l := range r.Full {
				for side, theirs := range map[adjudicator.Side][]string{dragonnoir.Adventurers: {"ennemi-neutre", "fatigued"}, dragonnoir.Krobs: {"alliance", "25 PE"}} {
					for _, s := range theirs {
						if l.To.Includes(side) && strings.Contains(l.Text, s) {
							t.Errorf("the %s read %q: %s", side, s, l.Text)
						}
					}
				}
			}
		}
	}
	views := map[adjudicator.Side]string{}
	for _, v := range []adjudicator.Side{dragonnoir.Adventurers, dragonnoir.Krobs, adjudicator.Observer} {
		b, err := json.Marshal(run.Game.View(v))
		if err != nil {
			t.Fatal(err)
		}
		views[v] = string(b)
	}
	for v, leaks := range map[adjudicator.Side][]string{
		dragonnoir.Adventurers: {"ennemi-neutre", "fatigued"},
		dragonnoir.Krobs:       {"alliance", "PE 25"},
		adjudicator.Observer:   {"ennemi-neutre", "alliance", "fatigued", "PE 25"},
	} {
		for _, s := range leaks {
			if strings.Contains(views[v], s) {
				t.Errorf("the %s' view shows %q: %s", v, s, views[v])
			}
		}
	}
	for v, own := range map[adjudicator.Side][]string{dragonnoir.Adventurers: {"alliance", "PE 25"}, dragonnoir.Krobs: {"ennemi-neutre", "fatigued"}} {
		for _, s := range own {
			if !strings.Contains(views[v], s) {
				t.Errorf("the %s' view does not show their own %q: %s", v, s, views[v])
			}
		}
	}
}

// TestCampaignPartsChecked: a part a battle cannot read is refused with
// where and why.
func TestCampaignPartsChecked(t *testing.T) {
	src, err := os.ReadFile("testdata/dn3-people/DN3-CAMP-NEG-11-markers-from-the-campaign.yaml")
	if err != nil {
		t.Fatal(err)
	}
	text := string(src)
	head := text[:strings.Index(text, "        secrets:\n")]
	for part, want := range map[string]string{
		"{child: b1, side: adventurers, name: negotiation, value: alliance!}":                  "is no Negotiation marker",
		"{child: b1, side: krobs, name: sheet, value: \"[{unit: konrad, pe: 3}]\"}":            "is no counter of the Reptilians",
		"{child: b1, side: krobs, name: sheet, value: \"[{unit: hunter-1, pe: 3}]\"}":          "only a magician has PE",
		"{child: b1, side: krobs, name: sheet, value: \"[{unit: hunter-1, fatigue: tired}]\"}": "fresh, fatigued or exhausted",
	} {
		run := playText(t, head+"        secrets:\n          - "+part+"\n    expect-error: bad-value\nexpect:\n  turn: 5\n", lookup)
		if err := run.Steps[0].Err; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: refused with %v, want it to say %q", part, err, want)
		}
	}
}
