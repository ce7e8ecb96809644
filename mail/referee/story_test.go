package referee_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/emersion/go-message/mail"
	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/mail/referee"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
)

// sentMail is one queued mail, decoded.
type sentMail struct {
	to, kind, subject, inReplyTo string
	body                         string
}

func readSent(t *testing.T, m store.Message) sentMail {
	t.Helper()
	r, err := mail.CreateReader(bytes.NewReader(m.Raw))
	if err != nil {
		t.Fatal(err)
	}
	s := sentMail{to: strings.ToLower(m.To[0]), kind: r.Header.Get("X-Umpire-Kind"), inReplyTo: r.Header.Get("In-Reply-To")}
	s.subject, _ = r.Header.Subject()
	for {
		p, err := r.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := p.Header.(*mail.InlineHeader); ok {
			b, _ := io.ReadAll(p.Body)
			s.body += strings.ReplaceAll(string(b), "\r\n", "\n")
		}
	}
	return s
}

// logOrders reads a game's log: for each adjudication K, the orders it
// used, and for each orders.accepted event, from which event on its
// normalized orders may be read by every side (0: never yet).
type logOrders struct {
	used     map[int][]uint64 // K → orders.accepted events
	accepted map[uint64]game.OrdersAccepted
	publicAt map[uint64]uint64
	adjAt    map[int]uint64 // K → its turn.adjudicated event
}

func readLog(t *testing.T, st store.Store, id string) logOrders {
	t.Helper()
	evs, err := st.Events(context.Background(), id, 1)
	if err != nil {
		t.Fatal(err)
	}
	l := logOrders{used: map[int][]uint64{}, accepted: map[uint64]game.OrdersAccepted{}, publicAt: map[uint64]uint64{}, adjAt: map[int]uint64{}}
	var pending []uint64
	for _, e := range evs {
		switch e.Type {
		case game.TypeOrders:
			var oa game.OrdersAccepted
			if err := json.Unmarshal(e.Payload, &oa); err != nil {
				t.Fatal(err)
			}
			pending = slices.DeleteFunc(pending, func(s uint64) bool { return l.accepted[s].Request == oa.Request })
			pending = append(pending, e.Seq)
			if oa.Normalized != "" {
				l.publicAt[e.Seq] = e.Seq
			}
			l.accepted[e.Seq] = oa
		case game.TypeRevealed:
			var rv game.Revealed
			json.Unmarshal(e.Payload, &rv)
			var op game.OrdersOpening
			if oa, ok := l.accepted[rv.Of]; ok && json.Unmarshal([]byte(rv.Opening), &op) == nil && op.Normalized != "" {
				oa.Normalized = op.Normalized
				l.accepted[rv.Of] = oa
				if l.publicAt[rv.Of] == 0 {
					l.publicAt[rv.Of] = e.Seq
				}
			}
		case game.TypeAdjudicated:
			var a game.Adjudicated
			json.Unmarshal(e.Payload, &a)
			l.used[a.K] = pending
			l.adjAt[a.K] = e.Seq
			pending = nil
		}
	}
	return l
}

var (
	headRE     = regexp.MustCompile(`Game log head: event (\d+)`)
	storyAdjRE = regexp.MustCompile(`(?m)^Adjudication (\d+)`)
)

// sections splits a results mail's narrative by adjudication.
func sections(body string) map[int]string {
	out := map[int]string{}
	idx := storyAdjRE.FindAllStringSubmatchIndex(body, -1)
	end := strings.Index(body, "\nThe game now:")
	for i, m := range idx {
		k, _ := strconv.Atoi(body[m[2]:m[3]])
		stop := end
		if i+1 < len(idx) {
			stop = idx[i+1][0]
		}
		out[k] = body[m[0]:stop]
	}
	return out
}

// scalarValues are the values (not the keys) of a YAML text's scalars.
func scalarValues(t *testing.T, text string) []string {
	t.Helper()
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(text), &n); err != nil {
		t.Fatal(err)
	}
	var out []string
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		switch n.Kind {
		case yaml.ScalarNode:
			out = append(out, n.Value)
		case yaml.MappingNode:
			for i := 1; i < len(n.Content); i += 2 {
				walk(n.Content[i])
			}
		default:
			for _, c := range n.Content {
				walk(c)
			}
		}
	}
	walk(&n)
	return out
}

// checkStory checks every results mail to a player of game id: its
// narrative tells each adjudication since the player's last results, once,
// names every order of the other sides that the player may read, as they
// were played, and none it may not read yet; the legend comes once, at the
// end.
func checkStory(t *testing.T, st store.Store, id string, players map[string]adjudicator.Side, legend string) {
	t.Helper()
	l := readLog(t, st, id)
	msgs, err := st.Messages(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	told := map[adjudicator.Side][]int{}
	for _, m := range msgs {
		s := readSent(t, m)
		side, ok := players[s.to]
		if !ok || s.kind != "results" {
			continue
		}
		h := headRE.FindStringSubmatch(s.body)
		if h == nil {
			t.Fatalf("results mail to %s without a log head:\n%s", s.to, s.body)
		}
		head, _ := strconv.ParseUint(h[1], 10, 64)
		secs := sections(s.body)
		if len(secs) == 0 {
			t.Errorf("results mail to %s tells no adjudication:\n%s", s.to, s.body)
		}
		for _, k := range slices.Sorted(maps.Keys(secs)) {
			sec := secs[k]
			told[side] = append(told[side], k)
			for _, seq := range l.used[k] {
				oa := l.accepted[seq]
				if oa.Side == side {
					continue
				}
				if at := l.publicAt[seq]; at == 0 || at > head {
					t.Errorf("adjudication %d used %s's orders (event %d), not readable by %s at event %d", k, oa.Side, seq, side, head)
					continue
				}
				if !strings.Contains(sec, "\n  "+string(oa.Side)+":") {
					t.Errorf("%s's results, adjudication %d, do not name %s's orders:\n%s", side, k, oa.Side, sec)
				}
				if strings.Contains(oa.Normalized, "path:") {
					// Moves read "move ORC-1: 0107 → 0206": every unit and
					// hex of the orders must be told.
					for _, v := range scalarValues(t, oa.Normalized) {
						if !strings.Contains(sec, v) {
							t.Errorf("%s's results, adjudication %d, lack %q of %s's orders:\n%s", side, k, v, oa.Side, sec)
						}
					}
					continue
				}
				for _, line := range strings.Split(strings.TrimSpace(oa.Normalized), "\n") {
					if line == "[]" || line == "{}" {
						if !strings.Contains(sec, string(oa.Side)+": passed") {
							t.Errorf("%s's results, adjudication %d: %s's pass is not told as passed:\n%s", side, k, oa.Side, sec)
						}
						continue
					}
					if !strings.Contains(sec, "    "+line) {
						t.Errorf("%s's results, adjudication %d, lack %s's order %q:\n%s", side, k, oa.Side, line, sec)
					}
				}
			}
		}
		// Nothing the other sides sent that the reader may not read yet.
		for seq, oa := range l.accepted {
			if oa.Side == side || oa.Normalized == "" {
				continue
			}
			same := false // the same orders, played before, may be told
			for o, x := range l.accepted {
				if at := l.publicAt[o]; o != seq && x.Side == oa.Side && x.Normalized == oa.Normalized && at != 0 && at <= head {
					same = true
				}
			}
			if at := l.publicAt[seq]; (at == 0 || at > head) && !same && strings.Contains(s.body, oa.Normalized) {
				t.Errorf("%s's results at event %d show %s's orders of event %d (%q), readable only from event %d", side, head, oa.Side, seq, oa.Normalized, at)
			}
		}
		if n := strings.Count(s.body, "What the numbers mean:"); n != 1 || !strings.Contains(s.body, legend) ||
			strings.Index(s.body, "What the numbers mean:") < strings.Index(s.body, "The game now:") {
			t.Errorf("results mail to %s: the legend is there %d times, not once at the end:\n%s", s.to, n, s.body)
		}
	}
	for _, side := range players {
		var want []int
		for k := 1; k <= len(l.adjAt); k++ {
			want = append(want, k)
		}
		if !slices.Equal(told[side], want) {
			t.Errorf("%s was told adjudications %v, want each once in order: %v", side, told[side], want)
		}
	}
}

// TestWholeRaceByMail plays a race with a scout to its end by mail, red
// sending moves ahead under "then:". Every results mail tells the story
// since the reader's last one; the sender gets one mail per submission.
func TestWholeRaceByMail(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	const id = "race-story"
	c, err := f.desk.Games.Create(ctx, games.CreateRequest{ID: id, Ruleset: "race", Scenario: "sprint", Referee: "ref@example.org",
		Options: map[string]string{"turns": "3", "scout": "yes"},
		Players: []games.Player{{Side: "red", Address: "red@example.org"}, {Side: "blue", Address: "blue@example.org"}}})
	if err != nil {
		t.Fatal(err)
	}
	send := func(side adjudicator.Side, turn int, phase, orders string) {
		t.Helper()
		body := fmt.Sprintf("game: %s\nside: %s\nsecret: %s\nturn: %d\nphase: %s\norders:\n%s", id, side, c.Secrets[side], turn, phase, orders)
		before, _ := f.st.Messages(ctx, id)
		raw := f.mail(string(side)+"@example.org", body)
		msgID := fmt.Sprintf("<m%d@example.org>", f.n)
		out := f.handle(raw)
		if out.Folder != referee.Processed {
			t.Fatalf("%s's orders for turn %d, %s: %+v\n%s", side, turn, phase, out, body)
		}
		after, _ := f.st.Messages(ctx, id)
		var answers []sentMail
		for _, m := range after[len(before):] {
			if s := readSent(t, m); s.to == string(side)+"@example.org" {
				answers = append(answers, s)
			}
		}
		// One mail to the sender, answering its mail.
		if len(answers) != 1 || answers[0].inReplyTo != msgID {
			t.Fatalf("%s's orders for turn %d, %s: %d mails to the sender, want one answering %s", side, turn, phase, len(answers), msgID)
		}
		a := answers[0]
		if strings.Contains(out.Reason, "adjudicated") {
			i, j := strings.Index(a.body, "Orders received for game"), strings.Index(a.body, "Results of game")
			if a.kind != "results" || i < 0 || j < i || !strings.HasPrefix(a.subject, "[umpire "+id+"] Orders accepted (turn "+strconv.Itoa(turn)+", "+phase+") - ") ||
				!strings.Contains(strings.ToLower(a.subject), "results") {
				t.Errorf("the sender's mail is not the acknowledgement then the results (%s, %q):\n%s", a.kind, a.subject, a.body)
			}
		} else if a.kind != "accepted" {
			t.Errorf("%s's orders, not adjudicated yet: a %s mail", side, a.kind)
		}
	}
	// Red bids and sends its moves of turns 1 and 2 ahead: R2 alone, then
	// R1 alone. They are sealed until used.
	send("red", 1, "bid", "  bid: 1\nthen:\n  - phase: move\n    orders:\n      - advance: R2\n  - turn: 2\n    phase: move\n    orders:\n      - advance: R1\n")
	for range 40 {
		g, err := f.desk.Games.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if g.Over() {
			break
		}
		var r adjudicator.Request
		for _, x := range g.Due() {
			if _, ok := g.Answered(x.ID); !ok {
				r = x
				break
			}
		}
		side := string(r.Side)
		var orders string
		switch r.Phase {
		case "bid":
			n := 0
			if side == "red" {
				n = r.Turn // a bid of its own each turn: 1, 2, 3
			}
			orders = fmt.Sprintf("  bid: %d\n", n)
		case "move":
			orders = fmt.Sprintf("  - advance: %s1\n  - advance: %s2\n", strings.ToUpper(side[:1]), strings.ToUpper(side[:1]))
		case "trap":
			for _, u := range strings.Split(strings.TrimPrefix(r.Title[strings.Index(r.Title, "trap on ")+len("trap on "):], ""), ", ") {
				orders += "  " + u + ": push\n"
			}
		default:
			t.Fatalf("unexpected request %+v", r)
		}
		send(r.Side, r.Turn, r.Phase, orders)
	}
	if g, _ := f.desk.Games.Load(ctx, id); !g.Over() {
		t.Fatal("the race did not end")
	}
	checkStory(t, f.st, id, map[string]adjudicator.Side{"red@example.org": "red", "blue@example.org": "blue"}, "energy-SIDE: the energy")
	// Red's moves sent ahead reached blue only with the adjudication that
	// used them (checkStory), and then as played.
	var blue []string
	msgs, _ := f.st.Messages(ctx, id)
	for _, m := range msgs {
		if s := readSent(t, m); s.to == "blue@example.org" && s.kind == "results" {
			blue = append(blue, s.body)
		}
	}
	if !strings.Contains(strings.Join(blue, "\n"), "  red:\n    - advance: R2\n") {
		t.Errorf("blue's results never show red's move sent ahead, R2 alone")
	}
}
