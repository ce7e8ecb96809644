package referee

import (
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/templates"
)

// TestHeadingKinds: the subject and headers of the mails the game in
// TestSubjectsAndHeaders does not send, exactly.
func TestHeadingKinds(t *testing.T) {
	at := time.Date(2026, 11, 28, 18, 0, 0, 0, time.UTC)
	melee := templates.Due{ID: "t3.melee", Side: "invader", Kind: "orders", Turn: 3, Phase: "melee", Mine: true, Deadline: at}
	climb := templates.Due{ID: "t3.melee.climb.H1", Side: "invader", Kind: "decision", Turn: 3, Phase: "decision", Mine: true}
	def := templates.Due{ID: "t3.def", Side: "defender", Kind: "orders", Turn: 3, Phase: "movement"}
	cases := []struct {
		kind string
		data any
		want heading
	}{
		{"results", templates.ResultsData{Due: []templates.Due{melee}}, heading{kind: "results", turn: 3, due: []string{"t3.melee"}, deadline: at,
			text: "Turn 3 results - your move: invader melee, due Sat 28 Nov 18:00 UTC"}},
		{"results", templates.ResultsData{Due: []templates.Due{climb, melee}}, heading{kind: "results", turn: 3, due: []string{"t3.melee.climb.H1", "t3.melee"}, deadline: at,
			text: "Turn 3 results - your decision: invader, turn 3 (+1 more), due Sat 28 Nov 18:00 UTC"}},
		{"resend", templates.ResultsData{Due: []templates.Due{def}}, heading{kind: "results", turn: 3, text: "Turn 3 results (sent again) - waiting for defender"}},
		{"digest", templates.ResultsData{ForReferee: true}, heading{kind: "results", text: "Results (the referee's digest)"}},
		{"results", templates.ResultsData{Over: true, Result: "invader wins"}, heading{kind: "results", text: "Results - game over: invader wins"}},
		{"welcome", templates.WelcomeData{Side: "defender", Due: []templates.Due{{ID: "t0.setup", Side: "defender", Kind: "setup", Phase: "setup", Mine: true, Deadline: at}}},
			heading{kind: "welcome", due: []string{"t0.setup"}, deadline: at, text: "Welcome: you play defender - your move: defender setup, due Sat 28 Nov 18:00 UTC"}},
		{"reminder", templates.ClockData{Request: climb}, heading{kind: "reminder", turn: 3, due: []string{"t3.melee.climb.H1"},
			text: "Reminder: your decision is due (invader, turn 3)"}},
		{"rejected", templates.RejectedData{Problem: "HTML only"}, heading{kind: "rejected", text: "Orders REJECTED"}},
		{"rejected", templates.RejectedData{Errors: []templates.ErrorLine{{}}, Paused: &templates.Pause{Until: "2026-11-22 11:00:05 UTC"}},
			heading{kind: "rejected", text: "Orders REJECTED: 1 error; guessing paused until 2026-11-22 11:00:05 UTC"}},
		{"paused", templates.PausedData{Pause: templates.Pause{Until: "2026-11-22 11:00:05 UTC"}},
			heading{kind: "rejected", text: "Orders REFUSED unread: guessing paused until 2026-11-22 11:00:05 UTC"}},
		{"lockout", templates.LockoutData{Side: "red", Pause: templates.Pause{Until: "2026-11-22 11:00:05 UTC"}},
			heading{kind: "notice", text: "Notice: guessing the secret of red is paused until 2026-11-22 11:00:05 UTC"}},
		{"notice", templates.NoticeData{What: "umpire moved the deadline of red (turn 1, bids) to Fri 28 Nov 18:00 UTC — in 2 days."},
			heading{kind: "notice", text: "Notice: umpire moved the deadline of red"}},
		{"notice", templates.NoticeData{What: "red is now played by x@example.org; the former player's secret no longer counts."},
			heading{kind: "notice", text: "Notice: red is now played by x@example.org"}},
		{"observing", templates.ObservingData{}, heading{kind: "notice", text: "Notice: you no longer observe this game"}},
		{"results-delayed", templates.ObserverResultsData{Turn: 2, Delay: 1, Over: true}, heading{kind: "observer", turn: 2, text: "Turn 2 results (observer, 1 turn late) - game over"}},
		{"press", templates.PressData{To: "all"}, heading{kind: "press", text: "Press to all (sender not named)"}},
		{"press", templates.PressData{ToReferee: true, From: "red", To: "blue"}, heading{kind: "press", text: "Press (copy): red to blue"}},
		{"ask-results", templates.AdjudicationData{Adjudication: templates.Adjudication{K: 2}, Title: "turn 1, bid"}, heading{kind: "answer", text: "Results of adjudication 2 (turn 1, bid)"}},
		{"ask-map", templates.MapData{Turn: 2, Past: true}, heading{kind: "answer", turn: 2, text: "Map: the end of turn 2"}},
		{"ask-export", templates.ExportData{File: "race-1.tar", Size: "12 KiB"}, heading{kind: "answer", text: "Export: race-1.tar (12 KiB)"}},
		{"ask-export", templates.ExportData{Limit: "5 MiB"}, heading{kind: "answer", text: "Export: too large to mail (over 5 MiB)"}},
		{"ask-help", templates.HelpData{}, heading{kind: "answer", text: "umpire: the commands it answers by mail"}},
		{"ask-refused", templates.AskRefusedData{Asked: templates.Asked{Command: "map"}, Errors: []templates.ErrorLine{{}, {}}},
			heading{kind: "rejected", text: "Command REFUSED: map (2 errors)"}},
	}
	for _, c := range cases {
		got := headingFor(c.kind, nil, c.data)
		if got.kind != c.want.kind || got.text != c.want.text || got.turn != c.want.turn || !got.deadline.Equal(c.want.deadline) ||
			len(got.due) != len(c.want.due) {
			t.Errorf("%s %T:\ngot  %+v\nwant %+v", c.kind, c.data, got, c.want)
			continue
		}
		for i := range got.due {
			if got.due[i] != c.want.due[i] {
				t.Errorf("%s %T: due %v, want %v", c.kind, c.data, got.due, c.want.due)
			}
		}
	}
}
