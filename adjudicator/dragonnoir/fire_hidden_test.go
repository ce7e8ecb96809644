package dragonnoir_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/script"
)

// hiddenCase is a game turn whose Adventurer mail is adjudicated and whose
// reactions mail is in, the Krob player's orders not yet: trigger is where
// the Adventurers give Jon's trigger, "mail" (the Adventurer turn's) or
// "reactions".
func hiddenCase(trigger string) string {
	mail, reactions := "{}", "{}"
	const t = "{defensive-fire: [{shooter: jon, at: hunter-1, within: 4}]}"
	if trigger == "mail" {
		mail = "{standing: " + t + "}"
	} else {
		reactions = t
	}
	return `name: what the Krob player can read before he writes his mail
ruleset: dragonnoir
position:
  map: fosse
  turns: 2
  units:
    - {unit: jon, at: "0102"}
    - {unit: hunter-1, at: "0502"}
steps:
  - side: adventurers
    orders: |
      turn: 1
      phase: adventurers
      orders: ` + mail + `
  - side: adventurers
    orders: |
      turn: 1
      phase: krobs
      orders: ` + reactions + `
expect:
  due: [krobs, adventurers]
`
}

// publicLog is everything of the log any player may read: every event's
// payload (the sealed parts of hidden orders and reports stay in Private,
// the referee's data file).
func publicLog(run *script.Run) string {
	var b strings.Builder
	for _, e := range run.Log {
		b.WriteString(e.Type)
		b.Write(e.Payload)
		b.WriteByte('\n')
	}
	return b.String()
}

// TestReactionsStaySealed: the Adventurers' triggers for the Krob turn,
// sent in their reactions mail, are nowhere the Krob player can read
// before his own mail is in (HID-7) — neither in the log nor in his view;
// sent in the Adventurer turn's mail, the same trigger is in the log once
// that mail is adjudicated (which the orders doc tells the players), so
// the check can fail.
func TestReactionsStaySealed(t *testing.T) {
	sealed := playText(t, hiddenCase("reactions"), lookup)
	if log := publicLog(sealed); strings.Contains(log, "defensive-fire") || strings.Contains(log, "within") {
		t.Errorf("the reactions mail's trigger is readable before the Krob mail is in:\n%s", log)
	}
	if !sealedIn(sealed, "defensive-fire") {
		t.Error("the reactions mail's trigger is not kept sealed in the referee's data either: was the mail taken?")
	}
	v, err := json.Marshal(sealed.Game.View("krobs"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(v), "defensive-fire") || strings.Contains(string(v), "within") {
		t.Errorf("the Krob player's view shows the trigger: %s", v)
	}
	open := playText(t, hiddenCase("mail"), lookup)
	if log := publicLog(open); !strings.Contains(log, "defensive-fire") {
		t.Errorf("a trigger in the Adventurer turn's mail should be readable once it is adjudicated; the public log is:\n%s", log)
	}
}

// sealedIn reports whether text is in a sealed opening of the log.
func sealedIn(run *script.Run, text string) bool {
	for _, e := range run.Log {
		if strings.Contains(string(e.Private), text) {
			return true
		}
	}
	return false
}
