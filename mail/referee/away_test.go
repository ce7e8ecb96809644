package referee_test

import (
	"testing"
	"time"
)

// TestAway: a player away for a week is not reminded and its deadline
// moves to a day after the absence; everyone is told; an absence past the
// game's maximum is refused; "back" ends it.
func TestAway(t *testing.T) {
	c := newClockDeskWith(t, "  deadline.away-max: 240h\n")
	secret := c.secret("blue@example.org")
	first := c.deadline("blue").Due
	c.mail("blue@example.org", "command: away\ngame: race-9\nside: blue\nsecret: "+secret+"\nuntil: 2026-12-01\nreason: a week in the hills\n")
	want := time.Date(2026, 12, 1, 23, 59, 59, 0, time.UTC).Add(24 * time.Hour)
	if got := c.deadline("blue").Due; !got.Equal(want) {
		t.Fatalf("blue's deadline %v, want %v (it was %v)", got, want, first)
	}
	for _, to := range []string{"red@example.org", "blue@example.org", "ref@example.org"} {
		if countWith(c.bodies(to), "blue is away until Tue 1 Dec 23:59 UTC") == 0 || countWith(c.bodies(to), "a week in the hills") == 0 {
			t.Errorf("%s is not told of blue's absence", to)
		}
	}
	// No reminder to blue while away, though red is reminded as usual.
	c.tickEveryMinute(first.Add(-23 * time.Hour))
	if countWith(c.bodies("blue@example.org"), "Reminder: game race-9") != 0 || countWith(c.bodies("red@example.org"), "Reminder: game race-9") != 1 {
		t.Errorf("reminders while blue is away: blue %d, red %d", countWith(c.bodies("blue@example.org"), "Reminder: game race-9"), countWith(c.bodies("red@example.org"), "Reminder: game race-9"))
	}
	// Too long an absence is refused, and changes nothing.
	c.mail("blue@example.org", "command: away\ngame: race-9\nside: blue\nsecret: "+secret+"\nuntil: 2027-03-01\n")
	if got := c.deadline("blue").Due; !got.Equal(want) {
		t.Fatalf("a refused absence moved the deadline to %v", got)
	}
	if countWith(c.bodies("blue@example.org"), "at most 240h") == 0 {
		t.Error("the refusal does not say the maximum")
	}
	c.mail("ref@example.org", "command: back\ngame: race-9\nside: blue\n")
	if countWith(c.bodies("red@example.org"), "blue is back") != 1 {
		t.Error("red is not told blue is back")
	}
	// Back: the moved deadline stays, reminders run again.
	c.tickEveryMinute(want.Add(-90 * time.Minute))
	if countWith(c.bodies("blue@example.org"), "Reminder: game race-9") == 0 {
		t.Error("no reminder to blue after its return")
	}
}
