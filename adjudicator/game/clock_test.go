package game_test

import (
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator/game"
)

func TestDeadlineFrom(t *testing.T) {
	paris := time.FixedZone("CET", 3600)
	tue := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	cases := []struct {
		opts map[string]string
		kind string
		loc  *time.Location
		want time.Time
		none bool
	}{
		{map[string]string{"deadline.orders": "72h"}, "orders", time.UTC, time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC), false},
		{map[string]string{"deadline.orders": "72h"}, "decision", time.UTC, time.Time{}, true},
		{map[string]string{"deadline.orders": "72h", "deadline.at": "18:00"}, "orders", paris, time.Date(2026, 11, 27, 17, 0, 0, 0, time.UTC), false},
		// Past 18:00 already that day: the next day's 18:00.
		{map[string]string{"deadline.orders": "82h", "deadline.at": "18:00"}, "orders", paris, time.Date(2026, 11, 28, 17, 0, 0, 0, time.UTC), false},
		// Saturday 17:00 moves to Monday, same time.
		{map[string]string{"deadline.orders": "82h", "deadline.at": "18:00", "deadline.weekdays": "yes"}, "orders", paris, time.Date(2026, 11, 30, 17, 0, 0, 0, time.UTC), false},
	}
	for i, c := range cases {
		cs, err := game.ParseClock(c.opts)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := cs.DeadlineFrom(c.kind, tue, c.loc)
		if ok == c.none || (ok && !got.Equal(c.want)) {
			t.Errorf("case %d: %v %v, want %v", i, got, ok, c.want)
		}
	}
	for _, bad := range []map[string]string{
		{"deadline.orders": "5m"}, {"deadline.at": "25:00"}, {"deadline.weekdays": "maybe"},
		{"deadline.reminders": "soon"}, {"deadline.sometime": "1h"},
	} {
		if _, err := game.ParseClock(bad); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
	if cs, _ := game.ParseClock(map[string]string{"deadline.reminders": "2h, 48h"}); len(cs.Reminders) != 2 || cs.Reminders[0] != 48*time.Hour {
		t.Errorf("reminders %v: longest first", cs.Reminders)
	}
	if rules, clock := game.SplitOptions(map[string]string{"turns": "3", "deadline.orders": "72h"}); len(rules) != 1 || len(clock) != 1 {
		t.Errorf("split %v %v", rules, clock)
	}
}
