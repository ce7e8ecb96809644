package conquete_test

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir/conquete"
)

// leaks lists what viewer learns, from the view, its report lines and the
// public events, that E.5 keeps from it: the other side's army sheets
// (HID-11), its stealthy troops (HID-12), the Rebels' messenger (HID-9)
// and Sertegs' night (HID-8), the Reptilians' relations (HID-10).
func leaks(st *conquete.State, viewer adjudicator.Side, lines []adjudicator.Line, events []adjudicator.Event) []string {
	var out []string
	bad := func(format string, args ...any) {
		out = append(out, fmt.Sprintf("%s: ", viewer)+fmt.Sprintf(format, args...))
	}
	v := conquete.Ruleset.View(st, viewer)
	own := func(s adjudicator.Side) bool { return s == viewer }
	var hidden []string // the other sides' counters, which viewer may not see
	for _, t := range st.Troops {
		if own(t.Side) {
			continue
		}
		hidden = append(hidden, t.Counters...)
	}
	for _, u := range v.Units {
		switch {
		case u.Type != "troop" && !own(u.Side):
			bad("the view shows %s's counter %s", u.Side, u.ID)
		case u.Type == "troop" && !own(u.Side) && (u.Values != "" || slices.Contains(u.Status, "stealthy") ||
			slices.Contains(u.Status, "fatigued") || slices.Contains(u.Status, "exhausted")):
			bad("the view shows what troop %s holds or hides: %q %v", u.ID, u.Values, u.Status)
		}
	}
	for _, t := range st.Troops {
		if t.Stealthy && !own(t.Side) && slices.ContainsFunc(v.Units, func(u adjudicator.UnitView) bool { return u.ID == t.Key() }) {
			bad("the view shows the stealthy troop %s", t.Key())
		}
	}
	for k := range v.Markers {
		switch {
		case k == "messenger" && !own(conquete.Rebels) && !st.Messenger.Announced,
			k == "serteg-night" && !own(conquete.Rebels) && st.SertegTurn == 0,
			strings.HasPrefix(k, "relation:") && !own(conquete.Reptilians) && !st.Peoples[strings.TrimPrefix(k, "relation:")].Announced:
			bad("the view shows the marker %s", k)
		}
	}
	for _, l := range adjudicator.For(lines, viewer) {
		if len(l.To) == 1 && l.To[0] == viewer {
			continue // told to viewer alone: its own secrets
		}
		for _, id := range hidden {
			if regexp.MustCompile(`(^|[^a-z0-9-])` + regexp.QuoteMeta(id) + `($|[^a-z0-9-])`).MatchString(l.Text) {
				bad("a line names the hidden counter %s: %q", id, l.Text)
			}
		}
		for _, secret := range []string{"messenger names", "relations with the peoples", "Sertegs will arrive", "stealthy troop"} {
			if strings.Contains(l.Text, secret) {
				bad("a line tells %q: %q", secret, l.Text)
			}
		}
	}
	for _, ev := range events {
		switch e := ev.(type) {
		case *adjudicator.Secret:
			if len(e.To) != 1 || e.To.Public() {
				bad("a secret is sealed to %v", e.To)
			}
		case *conquete.Sheet:
			if e.Side != conquete.Reptilians || len(e.Troops) != 1 || e.Troops[0].ID != conquete.KandarTroop {
				bad("a public army sheet of the %s: %+v", e.Side, e)
			}
		case *conquete.MessengerSet:
			if !e.Messenger.Announced {
				bad("the messenger is in a public event")
			}
		case *conquete.RelationSet:
			bad("the relation with %s is in a public event", e.People)
		case *conquete.SertegNightSet:
			if e.Turn == 0 {
				bad("the Sertegs' night is in a public event")
			}
		case *conquete.TroopMoved:
			if t := st.Troop(e.Side, e.Troop); t != nil && t.Stealthy {
				bad("a stealthy troop's move is in a public event")
			}
		}
	}
	return out
}

// TestNoLeaks plays the setup, a reorganisation and a hidden move, and
// checks each side and an observer learn nothing E.5 keeps from them.
func TestNoLeaks(t *testing.T) {
	for _, file := range []string{"setup/DN3-CAMP-SETUP-1-both-armies.yaml", "troops/DN3-CAMP-TROOP-5-reorganisation.yaml",
		"move/DN3-CAMP-STEALTH-4-a-hidden-move.yaml", "troops/DN3-CAMP-TROOP-3-eight-markers.yaml"} {
		g, fails := playDirect(t, loadCase(t, file))
		if len(fails) > 0 {
			t.Fatalf("%s: %v", file, fails)
		}
		st := g.st.(*conquete.State)
		for _, viewer := range []adjudicator.Side{conquete.Rebels, conquete.Reptilians, adjudicator.Observer} {
			for _, l := range leaks(st, viewer, g.lines, g.events) {
				t.Errorf("%s: %s", file, l)
			}
		}
		// The referee sees what the sides do not: the check can fail.
		if len(leaks(st, adjudicator.Referee, g.lines, nil)) == 0 {
			t.Errorf("%s: the leak check finds nothing the referee sees", file)
		}
	}
	// A doctored public event is seen.
	g, _ := playDirect(t, loadCase(t, "setup/DN3-CAMP-SETUP-1-both-armies.yaml"))
	st := g.st.(*conquete.State)
	if len(leaks(st, conquete.Reptilians, nil, []adjudicator.Event{&conquete.MessengerSet{Messenger: st.Messenger}})) == 0 {
		t.Error("a public messenger goes unseen")
	}
	// The Reptilians see the Rebels' markers on the road, not what they hold.
	v := conquete.Ruleset.View(st, conquete.Reptilians)
	n := 0
	for _, u := range v.Units {
		if u.Side == conquete.Rebels {
			n++
			if u.Type != "troop" || u.At != "route" {
				t.Errorf("the Reptilians see %+v", u)
			}
		}
	}
	if n != 3 {
		t.Errorf("the Reptilians see %d Rebel units, want their 3 troop markers", n)
	}
}
