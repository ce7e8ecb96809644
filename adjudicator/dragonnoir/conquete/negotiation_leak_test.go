package conquete_test

import (
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir/conquete"
)

// markerLeaks lists what viewer learns of the other side's Step 5 marker
// (HID-14) or of the cup (HID-17) from lines, rolls and public events.
func markerLeaks(viewer adjudicator.Side, lines []adjudicator.Line, rolls []*adjudicator.Roll, events []adjudicator.Event) []string {
	var out []string
	for _, l := range adjudicator.For(lines, viewer) {
		if len(l.To) == 1 && l.To[0] == viewer {
			continue
		}
		if strings.Contains(l.Text, "You draw") || strings.Contains(l.Text, "cup holds") {
			out = append(out, "line: "+l.Text)
		}
	}
	for _, r := range rolls {
		if strings.Contains(r.Label, "Negotiation marker") && r.To.Public() {
			out = append(out, "a public draw in Step 5: "+r.Label)
		}
	}
	for _, ev := range events {
		if e, ok := ev.(*conquete.MarkerDrawn); ok {
			out = append(out, "a public marker drawn by "+string(e.Side))
		}
	}
	return out
}

// TestStep5MarkersSecret: the markers drawn with both sides present are
// each sealed to its side and told to it alone (DN3-CAMP-NEG-11, HID-14),
// the cup's content told to nobody (HID-17).
func TestStep5MarkersSecret(t *testing.T) {
	s := loadCase(t, "negotiation/DN3-CAMP-NEG-11-secret-markers-and-flight.yaml")
	s.Steps = s.Steps[:1] // the Region chosen: both draw, then both choose to fight or flee
	s.Expect = nil
	g, _ := playDirect(t, s)
	st := g.st.(*conquete.State)
	if st.Region == nil || len(st.Region.Drawn) != 2 {
		t.Fatalf("both sides should have drawn: %+v", st.Region)
	}
	for _, viewer := range []adjudicator.Side{conquete.Rebels, conquete.Reptilians, adjudicator.Observer} {
		for _, l := range markerLeaks(viewer, g.lines, g.rolls, g.events) {
			t.Errorf("%s: %s", viewer, l)
		}
	}
	told := 0
	for _, l := range g.lines {
		if strings.Contains(l.Text, "You draw") {
			told++
			if len(l.To) != 1 {
				t.Errorf("a drawn marker told to %v", l.To)
			}
		}
	}
	if told != 2 {
		t.Errorf("%d sides were told their marker, want 2", told)
	}
	// The check can fail: a public draw is seen.
	if len(markerLeaks(conquete.Rebels, nil, nil, []adjudicator.Event{&conquete.MarkerDrawn{Side: conquete.Reptilians, Marker: "ennemi"}})) == 0 {
		t.Error("a public marker goes unseen")
	}
}
