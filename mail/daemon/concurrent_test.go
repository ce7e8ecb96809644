package daemon_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/mail/daemon"
	"github.com/umpire-pbem/umpire/mail/mailtest"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
)

// The daemon handles mails of different games at the same time; these
// tests check, through the real desk, that each game still sees its mails
// in arrival order and each mail is recorded exactly once.

// pressGames creates n race games with open press and returns, for each,
// its players' secrets.
func pressGames(t *testing.T, st store.Store, n int) []map[adjudicator.Side]string {
	t.Helper()
	svc := &games.Service{Store: st, Rules: lookup}
	var out []map[adjudicator.Side]string
	for i := range n {
		c, err := svc.Create(context.Background(), games.CreateRequest{ID: fmt.Sprintf("race-c%d", i), Ruleset: "race", Scenario: "sprint",
			Referee: refereeAddr, Options: map[string]string{"press": "open"},
			Players: []games.Player{{Side: "red", Address: redAddr}, {Side: "blue", Address: blueAddr}}})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, c.Secrets)
	}
	return out
}

// pressMail is a player's open press to the other side, saying text.
func pressMail(gameID string, secrets map[adjudicator.Side]string, side, text string) ([]byte, string) {
	to := "blue"
	if side == "blue" {
		to = "red"
	}
	return orderMail(addrOf(adjudicator.Side(side)), fmt.Sprintf("command: press\ngame: %s\nside: %s\nsecret: %s\nto: %s\ntext: %s\n", gameID, side, secrets[adjudicator.Side(side)], to, text))
}

// pressTexts lists the texts of a game's press, in the order of its log.
func pressTexts(t *testing.T, st store.Store, id string) []string {
	t.Helper()
	evs, err := st.Events(context.Background(), id, 1)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range evs {
		if e.Type != game.TypePressSent {
			continue
		}
		var p game.PressSent
		if err := json.Unmarshal(e.Payload, &p); err != nil {
			t.Fatal(err)
		}
		out = append(out, p.Text)
	}
	return out
}

func workers(n int) func(*daemon.Daemon) { return func(d *daemon.Daemon) { d.Workers = n } }

// TestConcurrentGamesInOrder: three games' mails, interleaved — press from
// both players, and both bids of the first turn, which adjudicate it — all
// in the inbox at once and handled by four workers: each game's press is
// in its log in the order the mails arrived, each bid is accepted once and
// the turn adjudicated once, and every mail is filed as processed.
func TestConcurrentGamesInOrder(t *testing.T) {
	imapSrv := mailtest.StartIMAP(t)
	sink := mailtest.StartSink(t)
	data := t.TempDir()
	st, err := store.Open(filepath.Join(data, "umpire.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	const nGames, nPress = 3, 12
	secrets := pressGames(t, st, nGames)
	perGame := make([][][]byte, nGames)
	var ids []string
	want := make([][]string, nGames)
	for i := range nGames {
		id := fmt.Sprintf("race-c%d", i)
		g := loadGame(t, st, id)
		for k := range nPress {
			side := []string{"red", "blue"}[k%2]
			text := fmt.Sprintf("%s-%d", id, k)
			raw, mid := pressMail(id, secrets[i], side, text)
			perGame[i], ids, want[i] = append(perGame[i], raw), append(ids, mid), append(want[i], text)
			if k == 3 || k == 8 { // the bids, among the press
				for _, r := range g.Due() {
					if string(r.Side) == side {
						raw, mid := orderMail(addrOf(r.Side), nextOrders(g, r, secrets[i][r.Side]))
						perGame[i], ids = append(perGame[i], raw), append(ids, mid)
					}
				}
			}
		}
	}
	var all [][]byte
	for k := 0; len(all) < len(ids); k++ {
		for i := range nGames {
			if k < len(perGame[i]) {
				all = append(all, perGame[i][k])
			}
		}
	}
	imapSrv.Deliver(all...)
	d := startDaemonLog(t, testConfig(imapSrv.Addr, "umpire", "secret", sink.Addr, data), st, quietLog(), workers(4))
	waitFor(t, "every mail to be filed", func() bool {
		return len(imapSrv.Folder("INBOX")) == 0 && len(imapSrv.Folder("umpire-processed"))+len(imapSrv.Folder("umpire-rejected")) == len(all)
	})
	d.stop()
	if r := imapSrv.Folder("umpire-rejected"); len(r) != 0 {
		t.Errorf("%d mails rejected", len(r))
	}
	for _, id := range ids {
		if !marked(t, st, id) {
			t.Errorf("mail %s not marked", id)
		}
	}
	for i := range nGames {
		id := fmt.Sprintf("race-c%d", i)
		if got := pressTexts(t, st, id); !slices.Equal(got, want[i]) {
			t.Errorf("%s: press in the order %q, want %q", id, got, want[i])
		}
		count := map[string]int{}
		evs, err := st.Events(context.Background(), id, 1)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			count[e.Type]++
		}
		if count[game.TypeOrders] != 2 || count[game.TypeAdjudicated] != 1 {
			t.Errorf("%s: %v", id, count)
		}
	}
}

// failOnce is a store whose Append fails, once, for the batch that marks
// one mail: a store failure in the middle of a chunk.
type failOnce struct {
	store.Store
	mark   string
	mu     sync.Mutex
	failed bool
}

func (f *failOnce) Append(ctx context.Context, b store.Batch) ([]store.Event, error) {
	out, err := f.AppendAll(ctx, []store.Batch{b})
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// AppendAll fails as Append does: the games service writes through it.
func (f *failOnce) AppendAll(ctx context.Context, bs []store.Batch) ([][]store.Event, error) {
	for _, b := range bs {
		if !slices.Contains(b.Marks, f.mark) {
			continue
		}
		f.mu.Lock()
		first := !f.failed
		f.failed = true
		f.mu.Unlock()
		if first {
			return nil, errors.New("the disk is full (a test)")
		}
	}
	return f.Store.AppendAll(ctx, bs)
}

// TestConcurrentStoreFailure: the store fails on one mail of a chunk whose
// mails belong to two games. The daemon reconnects and goes on; in the end
// every mail is recorded once, each game's in arrival order, and filed.
func TestConcurrentStoreFailure(t *testing.T) {
	imapSrv := mailtest.StartIMAP(t)
	sink := mailtest.StartSink(t)
	data := t.TempDir()
	bolt, err := store.Open(filepath.Join(data, "umpire.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer bolt.Close()
	secrets := pressGames(t, bolt, 2)
	var all [][]byte
	var ids []string
	want := make([][]string, 2)
	for k := range 5 {
		for i := range 2 {
			id := fmt.Sprintf("race-c%d", i)
			text := fmt.Sprintf("%s-%d", id, k)
			raw, mid := pressMail(id, secrets[i], []string{"red", "blue"}[k%2], text)
			all, ids, want[i] = append(all, raw), append(ids, mid), append(want[i], text)
		}
	}
	st := &failOnce{Store: bolt, mark: "msgid:" + ids[3]} // race-c1's second press
	imapSrv.Deliver(all...)
	logs := newLogWatch()
	d := startDaemonLog(t, testConfig(imapSrv.Addr, "umpire", "secret", sink.Addr, data), st, logs.logger(), workers(4))
	waitFor(t, "every mail to be filed", func() bool {
		return len(imapSrv.Folder("INBOX")) == 0 && len(imapSrv.Folder("umpire-processed")) == len(all)
	})
	d.stop()
	logs.Wait(t, "intake cycle failed; reconnecting", 1)
	if !st.failed {
		t.Fatal("the store never failed: the test tested nothing")
	}
	for i := range 2 {
		id := fmt.Sprintf("race-c%d", i)
		if got := pressTexts(t, bolt, id); !slices.Equal(got, want[i]) {
			t.Errorf("%s: press in the order %q, want %q", id, got, want[i])
		}
	}
	for _, id := range ids {
		if !marked(t, bolt, id) {
			t.Errorf("mail %s not marked", id)
		}
	}
}

// TestKillConcurrent: the daemon dies at a step of handling a chunk whose
// mails (press of three games, interleaved) are handled two at a time;
// after a restart every mail is recorded exactly once, each game's in
// arrival order, and filed.
func TestKillConcurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	for _, step := range []string{"fetched", "committed", "flagged", "moved"} {
		t.Run(step, func(t *testing.T) { killConcurrentAt(t, step) })
	}
}

func killConcurrentAt(t *testing.T, step string) {
	imapSrv := mailtest.StartIMAP(t)
	sink := mailtest.StartSink(t)
	data := t.TempDir()
	st, err := store.Open(filepath.Join(data, "umpire.db"))
	if err != nil {
		t.Fatal(err)
	}
	const nGames = 3
	secrets := pressGames(t, st, nGames)
	st.Close()
	var all [][]byte
	var ids []string
	want := make([][]string, nGames)
	for k := range 4 {
		for i := range nGames {
			id := fmt.Sprintf("race-c%d", i)
			text := fmt.Sprintf("%s-%d", id, k)
			raw, mid := pressMail(id, secrets[i], []string{"red", "blue"}[k%2], text)
			all, ids, want[i] = append(all, raw), append(ids, mid), append(want[i], text)
		}
	}
	imapSrv.Deliver(all...)

	cmd := exec.Command(os.Args[0], "-test.run=^TestChildDaemon$", "-test.count=1")
	cmd.Env = append(os.Environ(), envStep+"="+step, envIMAP+"="+imapSrv.Addr, envSMTP+"="+sink.Addr, envData+"="+data)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != killed {
		t.Fatalf("the child did not die at %q: %v\n%s", step, err, out)
	}

	st, err = store.Open(filepath.Join(data, "umpire.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	d := startDaemonLog(t, testConfig(imapSrv.Addr, "umpire", "secret", sink.Addr, data), st, quietLog(), workers(4))
	waitFor(t, "every mail to be filed", func() bool {
		return len(imapSrv.Folder("INBOX")) == 0 && len(imapSrv.Folder("umpire-processed")) == len(all)
	})
	d.stop()
	for i := range nGames {
		id := fmt.Sprintf("race-c%d", i)
		if got := pressTexts(t, st, id); !slices.Equal(got, want[i]) {
			t.Errorf("killed at %s: %s's press in the order %q, want %q", step, id, got, want[i])
		}
	}
	for _, id := range ids {
		if !marked(t, st, id) {
			t.Errorf("killed at %s: mail %s not marked", step, id)
		}
	}
}
