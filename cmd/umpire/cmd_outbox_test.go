package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/store"
)

// The clock of cli.run starts here (and moves a minute per call).
var cliClock = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// sentOutbox makes a data directory with one game and three results mails
// of 200 KB in its outbox, sent 40 and 20 days ago and pending.
func sentOutbox(t *testing.T) (*cli, []store.Message) {
	t.Helper()
	c := &cli{t: t, data: filepath.Join(t.TempDir(), "data")}
	c.ok("new", "--id", "g", "--ruleset", "race", "--scenario", "sprint", "--player", "red=red@example.org", "--player", "blue=blue@example.org")
	st, err := store.Open(filepath.Join(c.data, "umpire.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var msgs []store.Message
	for i := range 3 {
		msgs = append(msgs, store.Message{ID: fmt.Sprintf("results-%d@umpire", i), Game: "g", From: "umpire@example.org", To: []string{"red@example.org"},
			Raw: bytes.Repeat([]byte("picture "), 200<<10/8), Created: cliClock.Add(-50 * 24 * time.Hour)})
	}
	if _, err := st.Append(t.Context(), store.Batch{Outbox: msgs}); err != nil {
		t.Fatal(err)
	}
	for i, days := range []int{40, 20} {
		if err := st.MarkSent(t.Context(), msgs[i].ID, cliClock.Add(-time.Duration(days)*24*time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	return c, msgs
}

func outboxOf(t *testing.T, data string) map[string]store.Message {
	t.Helper()
	st, err := store.Open(filepath.Join(data, "umpire.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	msgs, err := st.Messages(t.Context(), "")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]store.Message{}
	for _, m := range msgs {
		out[m.ID] = m
	}
	return out
}

func TestOutboxPrune(t *testing.T) {
	c, msgs := sentOutbox(t)
	out := c.ok("outbox", "prune", "--older-than", "30d")
	want := "dropped the bodies of 1 sent mail sent before 2026-10-23T12:01:00Z: "
	if !strings.HasPrefix(out, want) || !strings.Contains(out, "'umpire compact' shrinks it") {
		t.Fatalf("outbox prune --older-than 30d printed:\n%s\nwant it to start %q", out, want)
	}
	got := outboxOf(t, c.data)
	for i, m := range msgs {
		g := got[m.ID]
		if pruned := i == 0; g.Pruned != pruned || (g.Raw == nil) != pruned {
			t.Errorf("mail %d (%s, sent %v): pruned %v with %d bytes", i, g.Status, g.SentAt, g.Pruned, len(g.Raw))
		}
	}
	// Days and hours: 15 days prunes the one sent 20 days ago; the
	// pending one never goes, not even with 0.
	if out := c.ok("outbox", "prune", "--older-than", "14d24h"); !strings.HasPrefix(out, "dropped the bodies of 1 sent mail sent before 2026-11-07T12:01:00Z") {
		t.Fatalf("outbox prune --older-than 14d24h printed:\n%s", out)
	}
	if out := c.ok("outbox", "prune", "--older-than", "0"); out != "no sent mail to prune: none was sent before 2026-11-22T12:01:00Z\n" {
		t.Fatalf("outbox prune again printed:\n%s", out)
	}
	got = outboxOf(t, c.data)
	if m := got[msgs[2].ID]; m.Status != store.Pending || m.Pruned || len(m.Raw) == 0 {
		t.Fatalf("the pending mail after pruning: %+v", m)
	}
	if out := c.ok("outbox"); !strings.Contains(out, "pending "+msgs[2].ID) || !strings.HasSuffix(out, "1 of 3 mails not delivered\n") {
		t.Fatalf("outbox printed:\n%s", out)
	}
	if out := c.ok("check"); !strings.Contains(out, "outbox: 3 messages (1 pending, 2 sent, 2 of them pruned, 0 failed)") || !strings.Contains(out, "the data file is sound") {
		t.Fatalf("check after pruning:\n%s", out)
	}
}

func TestOutboxPruneMistakes(t *testing.T) {
	c, _ := sentOutbox(t)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"outbox", "prune"}, 2, "umpire outbox: give --older-than AGE, e.g. --older-than 30d\nusage: umpire outbox [prune --older-than AGE] (umpire help outbox for more)\n"},
		{[]string{"outbox", "prune", "--older-than", "30x"}, 2, "umpire outbox: --older-than \"30x\": give an age such as 30d, 1d12h or 36h\n"},
		{[]string{"outbox", "prune", "--older-than", "-1d"}, 2, "give an age such as 30d"},
		{[]string{"outbox", "prune", "--older-than", "-5h"}, 2, "give an age such as 30d"},
		{[]string{"outbox", "prune", "now", "--older-than", "5h"}, 2, "umpire outbox: unexpected \"now\"\n"},
		{[]string{"outbox", "purge", "--older-than", "5h"}, 2, "umpire outbox: unknown subcommand \"purge\" (outbox knows prune)\n"},
		{[]string{"outbox", "--older-than", "5h"}, 2, "umpire outbox: --older-than is for 'umpire outbox prune'\n"},
	} {
		code, out, errs := c.run(tc.args...)
		if code != tc.code || out != "" || !strings.Contains(errs, tc.want) {
			t.Errorf("umpire %s: exit %d, stdout %q, stderr %q; want exit %d and %q", strings.Join(tc.args, " "), code, out, errs, tc.code, tc.want)
		}
	}
	// Nothing was pruned by any of them.
	for id, m := range outboxOf(t, c.data) {
		if m.Pruned {
			t.Errorf("mail %s pruned by a mistaken command", id)
		}
	}
	// Not while another process holds the data file.
	st, err := store.Open(filepath.Join(c.data, "umpire.db"))
	if err != nil {
		t.Fatal(err)
	}
	code, _, errs := c.run("outbox", "prune", "--older-than", "1d")
	st.Close()
	if code != 1 || !strings.Contains(errs, "is in use by another umpire process") {
		t.Fatalf("outbox prune while the file is held: exit %d, %q", code, errs)
	}
	// No data file: said so, and none created.
	empty := &cli{t: t, data: filepath.Join(t.TempDir(), "none")}
	for _, args := range [][]string{{"outbox", "prune", "--older-than", "1d"}, {"outbox"}, {"compact"}} {
		if code, _, errs := empty.run(args...); code != 1 || !strings.Contains(errs, "no data file at") {
			t.Errorf("umpire %s without a data file: exit %d, %q", strings.Join(args, " "), code, errs)
		}
	}
	if _, err := os.Stat(empty.data); !os.IsNotExist(err) {
		t.Errorf("a command without a data file created %s: %v", empty.data, err)
	}
}

func TestCompactCommand(t *testing.T) {
	c, msgs := sentOutbox(t)
	c.ok("outbox", "prune", "--older-than", "0")
	out := c.ok("compact")
	if !strings.HasPrefix(out, "compacted "+filepath.Join(c.data, "umpire.db")+": ") || !strings.HasSuffix(out, " MB, checked\n") {
		t.Fatalf("compact printed %q", out)
	}
	if out := c.ok("check"); !strings.Contains(out, "the data file is sound: 1 games") {
		t.Fatalf("check after compact:\n%s", out)
	}
	got := outboxOf(t, c.data)
	if len(got) != len(msgs) || !got[msgs[0].ID].Pruned || got[msgs[2].ID].Pruned || len(got[msgs[2].ID].Raw) == 0 {
		t.Fatalf("the outbox after compact: %+v", got)
	}
	// The game goes on.
	c.ok("show", "g")
	st, err := store.Open(filepath.Join(c.data, "umpire.db"))
	if err != nil {
		t.Fatal(err)
	}
	code, _, errs := c.run("compact")
	st.Close()
	if code != 1 || !strings.Contains(errs, "is in use by another umpire process") {
		t.Fatalf("compact while the file is held: exit %d, %q", code, errs)
	}
}
