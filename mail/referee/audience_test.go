package referee_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/mail/referee"
)

// TestEachSideReadsItsOwn: a "then:" entry that no longer fits is told to
// its owner alone; no mail to the other side, no event and no bundle holds
// a player's secret or the orders sent ahead before they are used.
func TestEachSideReadsItsOwn(t *testing.T) {
	f := newFixture(t)
	// Red's move sent ahead advances blue's runner: it cannot fit when the
	// move phase comes, and is dropped.
	ahead := f.bid("red", 2) + "then:\n  - phase: move\n    orders:\n      - advance: B2 # plan-xyzzy\n"
	if out := f.handle(f.mail("red@example.org", ahead)); out.Folder != referee.Processed {
		t.Fatalf("red's bid with a move sent ahead: %+v", out)
	}
	// Before blue answers, nothing of red's plan is anywhere blue can read.
	ctx := context.Background()
	var bundle bytes.Buffer
	if err := f.desk.Games.Export(ctx, "race-1", &bundle); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(bundle.Bytes(), []byte("plan-xyzzy")) || bytes.Contains(bundle.Bytes(), []byte("bid: 2")) {
		t.Fatal("a mid-game bundle shows red's hidden bid or its move sent ahead")
	}
	if out := f.handle(f.mail("blue@example.org", f.bid("blue", 1))); !strings.Contains(out.Reason, "adjudicated") {
		t.Fatalf("blue's bid: %+v", out)
	}
	var toRed, toBlue []string
	for _, m := range f.outbox() {
		body := strings.ReplaceAll(string(m.Raw), "=\r\n", "")
		switch strings.ToLower(m.To[0]) {
		case "red@example.org":
			toRed = append(toRed, body)
		case "blue@example.org":
			toBlue = append(toBlue, body)
		}
	}
	blue := strings.Join(toBlue, "\n")
	red := strings.Join(toRed, "\n")
	for _, leak := range []string{f.secrets["red"], "plan-xyzzy", "no longer fit", "advance: B2"} {
		if strings.Contains(blue, leak) {
			t.Errorf("a mail to blue holds %q", leak)
		}
	}
	if !strings.Contains(red, "no longer fit") {
		t.Errorf("red is not told that its move sent ahead was dropped:\n%s", red)
	}
	evs, _ := f.st.Events(ctx, "race-1", 1)
	for _, e := range evs {
		for _, sec := range f.secrets {
			if bytes.Contains(e.Payload, []byte(sec)) {
				t.Errorf("event %d (%s) holds a secret", e.Seq, e.Type)
			}
		}
	}
	bundle.Reset()
	if err := f.desk.Games.Export(ctx, "race-1", &bundle); err != nil {
		t.Fatal(err)
	}
	for _, sec := range f.secrets {
		if bytes.Contains(bundle.Bytes(), []byte(sec)) {
			t.Error("the bundle holds a player's secret")
		}
	}
}
