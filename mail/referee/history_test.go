package referee_test

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-message/mail"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/rulesets"
	"github.com/umpire-pbem/umpire/mail/compose"
	"github.com/umpire-pbem/umpire/mail/referee"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
	"github.com/umpire-pbem/umpire/templates"
)

// scoutGame is game race-3 of f, with red's scout (a roll and a line for
// red alone, a note for the referee alone at each bid) and deadlines for
// orders, played to two adjudications: the bids (red 1, blue 0) and red's
// first move.
func scoutGame(t *testing.T, f *fixture) map[adjudicator.Side]string {
	t.Helper()
	ctx := context.Background()
	c, err := f.desk.Games.Create(ctx, games.CreateRequest{ID: "race-3", Ruleset: "race", Scenario: "sprint", Referee: "ref@example.org",
		Options: map[string]string{"turns": "2", "scout": "yes", "deadline.orders": "72h", "deadline.decision": "24h"},
		Players: []games.Player{{Side: "red", Address: "red@example.org"}, {Side: "blue", Address: "blue@example.org"}}})
	if err != nil {
		t.Fatal(err)
	}
	bid := func(side string, n int) string {
		return fmt.Sprintf("game: race-3\nside: %s\nsecret: %s\nturn: 1\nphase: bid\norders:\n  bid: %d\n", side, c.Secrets[adjudicator.Side(side)], n)
	}
	f.handle(f.mail("red@example.org", bid("red", 1)))
	if out := f.handle(f.mail("blue@example.org", bid("blue", 0))); !strings.Contains(out.Reason, "adjudicated") {
		t.Fatalf("blue's bid: %+v", out)
	}
	move := fmt.Sprintf("game: race-3\nside: red\nsecret: %s\nturn: 1\nphase: move\norders:\n  - advance: R1\n", c.Secrets["red"])
	if out := f.handle(f.mail("red@example.org", move)); !strings.Contains(out.Reason, "adjudicated") {
		t.Fatalf("red's move: %+v", out)
	}
	return c.Secrets
}

// part is one part of a mail: its text, or an attachment.
type part struct {
	name, contentType string
	data              []byte
}

// reply is a mail umpire queued, decoded.
type reply struct {
	to    string
	text  string
	parts []part // attachments
}

// readReply decodes a queued mail: its text and attachments.
func readReply(t *testing.T, m store.Message) reply {
	t.Helper()
	r, err := mail.CreateReader(bytes.NewReader(m.Raw))
	if err != nil {
		t.Fatal(err)
	}
	out := reply{to: strings.ToLower(m.To[0])}
	for {
		p, err := r.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(p.Body)
		if err != nil {
			t.Fatal(err)
		}
		switch h := p.Header.(type) {
		case *mail.AttachmentHeader:
			name, _ := h.Filename()
			ct, _, _ := h.ContentType()
			out.parts = append(out.parts, part{name: name, contentType: ct, data: b})
		default:
			out.text += strings.ReplaceAll(string(b), "\r\n", "\n")
		}
	}
	return out
}

// ask sends body from addr and returns the outcome and the one reply to
// it (failing unless there is exactly one).
func (f *fixture) ask(from, body string) (referee.Outcome, reply) {
	f.t.Helper()
	before := len(f.outbox())
	out := f.handle(f.mail(from, body))
	answers := fmt.Sprintf("In-Reply-To: <m%d@example.org>", f.n)
	var got []reply
	for _, m := range f.outbox()[before:] {
		if strings.EqualFold(m.To[0], from) && bytes.Contains(m.Raw, []byte(answers)) {
			got = append(got, readReply(f.t, m))
		}
	}
	if len(got) != 1 {
		f.t.Fatalf("%d replies to %s, want 1 (outcome %+v)", len(got), from, out)
	}
	return out, got[0]
}

func names(ps []part) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.name+" "+p.contentType)
	}
	return out
}

func wantIn(t *testing.T, what, text string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, text)
		}
	}
}

func wantNotIn(t *testing.T, what, text string, nots ...string) {
	t.Helper()
	for _, w := range nots {
		if strings.Contains(text, w) {
			t.Errorf("%s holds %q:\n%s", what, w, text)
		}
	}
}

// askAs is a player's command for game race-3.
func askAs(command, side, secret, more string) string {
	return fmt.Sprintf("command: %s\ngame: race-3\nside: %s\nsecret: %s\n%s", command, side, secret, more)
}

func TestAskStatus(t *testing.T) {
	f := newFixture(t)
	secrets := scoutGame(t, f)
	out, r := f.ask("red@example.org", askAs("status", "red", secrets["red"], ""))
	if out.Folder != referee.Processed || out.Reason != "ask-status" || out.Game != "race-3" || out.Side != "red" {
		t.Fatalf("red's status: %+v", out)
	}
	wantIn(t, "red's status", r.text, "Status of game race-3 for side red", "Turn 1", "Adjudications so far: 2", "Score: red ",
		"orders: 3 days from when it comes due", "What the game waits for", "due ", " — in ")
	wantNotIn(t, "red's status", r.text, secrets["red"], "energy")

	// The referee asks without a side: as the referee.
	out, r = f.ask("ref@example.org", "command: status\ngame: race-3\n")
	if out.Folder != referee.Processed || out.Reason != "ask-status" {
		t.Fatalf("the referee's status: %+v", out)
	}
	wantIn(t, "the referee's status", r.text, "Status of game race-3 as the referee sees it", "Adjudications so far: 2")

	// With a referee secret configured, the referee gives it.
	f.desk.RefereeSecret = "ref-secret-1"
	out, r = f.ask("ref@example.org", "command: status\ngame: race-3\n")
	if out.Folder != referee.Rejected {
		t.Fatalf("the referee's status without the referee secret: %+v", out)
	}
	wantIn(t, "the refusal", r.text, "referee secret is missing or wrong")
	out, r = f.ask("ref@example.org", "command: status\ngame: race-3\nsecret: ref-secret-1\n")
	if out.Folder != referee.Processed {
		t.Fatalf("the referee's status with the referee secret: %+v\n%s", out, r.text)
	}
	wantNotIn(t, "the referee's status", r.text, "ref-secret-1")
}

// TestAskHistoryAndResults: each reader gets the adjudications as their
// side may read them; blue never a line or roll for red alone, no player
// the referee's note.
func TestAskHistoryAndResults(t *testing.T) {
	f := newFixture(t)
	secrets := scoutGame(t, f)
	redOnly := []string{"scout", "referee: red scouted"}

	out, blue := f.ask("blue@example.org", askAs("history", "blue", secrets["blue"], ""))
	if out.Folder != referee.Processed || out.Reason != "ask-history" {
		t.Fatalf("blue's history: %+v", out)
	}
	wantIn(t, "blue's history", blue.text, "History of game race-3 for side blue", "   1  ", "turn 1, bid: bids: red 1, blue 0", "   2  ", "turn 1, move")
	wantNotIn(t, "blue's history", blue.text, redOnly...)

	_, red := f.ask("red@example.org", askAs("history", "red", secrets["red"], ""))
	wantIn(t, "red's history", red.text, "turn 1, bid: bids: red 1, blue 0")
	wantNotIn(t, "red's history", red.text, "referee: red scouted")

	out, blue = f.ask("blue@example.org", askAs("results", "blue", secrets["blue"], "k: 1\n"))
	if out.Folder != referee.Processed || out.Reason != "ask-results" {
		t.Fatalf("blue's results: %+v", out)
	}
	wantIn(t, "blue's results 1", blue.text, "Adjudication 1 of game race-3, for side blue", "bids: red 1, blue 0", "red moves first",
		"Revealed dice seed (chain 0, seed 1): ", "Dice commitment of that chain: ", "Game log: event ")
	wantNotIn(t, "blue's results 1", blue.text, redOnly...)

	_, red = f.ask("red@example.org", askAs("results", "red", secrets["red"], "k: 1\n"))
	wantIn(t, "red's results 1", red.text, "red's scout sees blue's energy", "red's scout: 1d6=", "Revealed dice seed")
	wantNotIn(t, "red's results 1", red.text, "referee: red scouted", secrets["red"])

	_, ref := f.ask("ref@example.org", "command: results\ngame: race-3\nk: 1\n")
	wantIn(t, "the referee's results 1", ref.text, "as the referee sees it", "referee: red scouted", "red's scout: 1d6=")
	// The referee may read as a side.
	_, ref = f.ask("ref@example.org", "command: results\ngame: race-3\nk: 1\nas: blue\n")
	wantIn(t, "the referee's results 1 as blue", ref.text, "for side blue")
	wantNotIn(t, "the referee's results 1 as blue", ref.text, redOnly...)

	_, blue = f.ask("blue@example.org", askAs("results", "blue", secrets["blue"], "k: 2\n"))
	wantIn(t, "blue's results 2", blue.text, "Adjudication 2 of game race-3", "advance R1: 1d6=")

	out, blue = f.ask("blue@example.org", askAs("results", "blue", secrets["blue"], "k: 9\n"))
	if out.Folder != referee.Rejected {
		t.Fatalf("results 9: %+v", out)
	}
	wantIn(t, "the refusal of results 9", blue.text, "from 1 to 2", "line 5")
}

// TestAskOnlyAsYourOwnSide: a player asking as a side that is not theirs
// is refused, and told nothing of that side.
func TestAskOnlyAsYourOwnSide(t *testing.T) {
	f := newFixture(t)
	secrets := scoutGame(t, f)
	for name, body := range map[string]string{
		"side: blue with red's secret":  askAs("status", "blue", secrets["red"], ""),
		"side: blue with blue's secret": askAs("history", "blue", secrets["blue"], ""),
		"as: blue":                      askAs("map", "red", secrets["red"], "as: blue\n"),
		"an unknown side":               askAs("status", "green", secrets["red"], ""),
	} {
		out, r := f.ask("red@example.org", body)
		if out.Folder != referee.Rejected || !strings.HasPrefix(out.Reason, "ask-wrong-side") {
			t.Errorf("%s: %+v", name, out)
		}
		wantIn(t, name, r.text, "was not answered")
		wantNotIn(t, name, r.text, secrets["red"], secrets["blue"], "energy", "Status of", "History of")
	}
	// Someone who plays no side of the game gets no reply at all.
	if _, err := f.desk.Games.Create(context.Background(), games.CreateRequest{ID: "race-4", Ruleset: "race", Scenario: "sprint",
		Players: []games.Player{{Side: "red", Address: "carol@example.org"}, {Side: "blue", Address: "dave@example.org"}}}); err != nil {
		t.Fatal(err)
	}
	before := len(f.outbox())
	if out := f.handle(f.mail("carol@example.org", askAs("status", "red", secrets["red"], ""))); out.Reason != "stranger" || len(f.outbox()) != before {
		t.Errorf("a player of another game: %+v", out)
	}
	if out := f.handle(f.mail("spam@elsewhere.example", "command: help\n")); out.Reason != "stranger" || out.Replies != 0 {
		t.Errorf("help from a stranger: %+v", out)
	}
	// A player may not use the referee's commands.
	out, r := f.ask("red@example.org", "command: show\ngame: race-3\n")
	if out.Folder != referee.Rejected {
		t.Errorf("show from a player: %+v", out)
	}
	wantIn(t, "show from a player", r.text, "only the referee may use \"show\"")
}

// TestAskWrongSecretIsAGuess: a wrong secret in a command counts towards
// the same pause as in order mails; then even the right one is refused
// unread.
func TestAskWrongSecretIsAGuess(t *testing.T) {
	f := newFixture(t)
	secrets := scoutGame(t, f)
	for i := range 2 {
		wrong := fmt.Sprintf("game: race-3\nside: red\nsecret: guess-%d\nturn: 1\nphase: move\norders:\n  - advance: R1\n", i)
		if out := f.handle(f.mail("red@example.org", wrong)); out.Reason != "bad-secret" {
			t.Fatalf("order guess %d: %+v", i, out)
		}
	}
	for i := range 3 {
		out, r := f.ask("red@example.org", askAs("status", "red", fmt.Sprintf("guess-%d", 10+i), ""))
		if out.Folder != referee.Rejected || out.Reason != "bad-secret" {
			t.Fatalf("status guess %d: %+v", i, out)
		}
		wantNotIn(t, "the reply to a wrong secret", r.text, fmt.Sprintf("guess-%d", 10+i), "Status of")
		wantIn(t, "the reply to a wrong secret", r.text, "secret: (hidden)")
		if i == 2 {
			wantIn(t, "the reply that begins the pause", r.text, "guessing is paused")
		}
	}
	out, r := f.ask("red@example.org", askAs("status", "red", secrets["red"], ""))
	if out.Folder != referee.Rejected || out.Reason != "paused" {
		t.Fatalf("status with the right secret during the pause: %+v", out)
	}
	wantNotIn(t, "the paused reply", r.text, "Status of", secrets["red"])
	// A missing secret is a mistake, not a guess, and is answered as such.
	f2 := newFixture(t)
	scoutGame(t, f2)
	for range 6 {
		if out, _ := f2.ask("red@example.org", "command: status\ngame: race-3\nside: red\n"); out.Reason != "ask-no-secret" {
			t.Fatalf("status without a secret: %+v", out)
		}
	}
}

func TestAskMap(t *testing.T) {
	f := newFixture(t)
	secrets := scoutGame(t, f)
	out, r := f.ask("red@example.org", askAs("map", "red", secrets["red"], ""))
	if out.Folder != referee.Processed || out.Reason != "ask-map" {
		t.Fatalf("red's map: %+v", out)
	}
	wantIn(t, "red's map", r.text, "as side red sees it", "now", "energy-red: 5", "R1 ")
	wantNotIn(t, "red's map", r.text, "energy-blue")
	if len(r.parts) != 0 {
		t.Errorf("a race has no picture, yet %d attachments", len(r.parts))
	}
	_, r = f.ask("ref@example.org", "command: map\ngame: race-3\nas: blue\n")
	wantIn(t, "the referee's map as blue", r.text, "as side blue sees it", "energy-blue: 6")
	wantNotIn(t, "the referee's map as blue", r.text, "energy-red")
	_, r = f.ask("ref@example.org", "command: map\ngame: race-3\nturn: 1\n")
	wantIn(t, "the referee's map", r.text, "as the referee sees it", "energy-blue: 6", "energy-red: 5")
	out, r = f.ask("blue@example.org", askAs("map", "blue", secrets["blue"], "turn: 7\n"))
	if out.Folder != referee.Rejected {
		t.Fatalf("a turn to come: %+v", out)
	}
	wantIn(t, "the refusal of turn 7", r.text, "give a turn from 1 to 1")
}

// TestAskMapPicture: on a hex map the board comes as a PNG too, each side
// its own, the referee's named so.
func TestAskMapPicture(t *testing.T) {
	f := newPictureFixture(t)
	_, r := f.ask("bob@example.org", fmt.Sprintf("command: map\ngame: n2-ask\nside: defender\nsecret: %s\n", f.secrets["defender"]))
	// The game is in its setup, turn 0.
	if len(r.parts) != 1 || r.parts[0].name != "n2-ask-turn0-defender.png" || r.parts[0].contentType != "image/png" || !bytes.HasPrefix(r.parts[0].data, []byte("\x89PNG")) {
		t.Fatalf("the defender's map has no picture: %d attachments %v\n%s", len(r.parts), names(r.parts), r.text)
	}
	wantIn(t, "the defender's map", r.text, "as side defender sees it", "The picture is attached: n2-ask-turn0-defender.png")
	_, r = f.ask("ref@example.org", "command: map\ngame: n2-ask\n")
	if len(r.parts) != 1 || r.parts[0].name != "n2-ask-turn0-referee.png" {
		t.Fatalf("the referee's map: %v", names(r.parts))
	}
	wantIn(t, "the referee's map", r.text, "as the referee sees it (everything)")
}

func TestAskExport(t *testing.T) {
	f := newFixture(t)
	secrets := scoutGame(t, f)
	out, r := f.ask("blue@example.org", askAs("export", "blue", secrets["blue"], ""))
	if out.Folder != referee.Processed || out.Reason != "ask-export" {
		t.Fatalf("blue's export: %+v", out)
	}
	if len(r.parts) != 1 || r.parts[0].name != "race-3.tar" || r.parts[0].contentType != "application/x-tar" {
		t.Fatalf("blue's export: %v", names(r.parts))
	}
	wantIn(t, "blue's export", r.text, "race-3.tar", "umpire verify race-3.tar")
	tr := tar.NewReader(bytes.NewReader(r.parts[0].data))
	var names []string
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, h.Name)
	}
	if len(names) < 3 || names[0] != "race-3/README.txt" || names[1] != "race-3/game.json" {
		t.Errorf("the bundle's files: %v", names)
	}
	if _, err := games.VerifyBundle(bytes.NewReader(r.parts[0].data), lookup, games.Known{}); err != nil {
		t.Errorf("the mailed bundle does not verify: %v", err)
	}
	for _, leak := range []string{secrets["red"], secrets["blue"], "scout sees", "referee: red scouted"} {
		if bytes.Contains(r.parts[0].data, []byte(leak)) {
			t.Errorf("the bundle holds %q", leak)
		}
	}
	// Over the limit: not mailed, and the player is told to ask the referee.
	defer referee.SetExportLimit(1024)()
	out, r = f.ask("blue@example.org", askAs("export", "blue", secrets["blue"], ""))
	if out.Folder != referee.Rejected || out.Reason != "ask-export-too-large" || len(r.parts) != 0 {
		t.Fatalf("a bundle over the limit: %+v, %d attachments", out, len(r.parts))
	}
	wantIn(t, "the refusal", r.text, "larger than 1 KiB", "ask the referee (ref@example.org)")
}

func TestAskHelp(t *testing.T) {
	f := newFixture(t)
	for _, from := range []string{"blue@example.org", "ref@example.org"} {
		out, r := f.ask(from, "command: help\n")
		if out.Folder != referee.Processed || out.Reason != "ask-help" {
			t.Fatalf("help to %s: %+v", from, out)
		}
		for _, c := range referee.MailCommands {
			wantIn(t, "help", r.text, "\n"+c.Name+": "+c.Summary)
			for _, l := range strings.Split(strings.TrimSpace(c.Example), "\n") {
				wantIn(t, "help", r.text, "    "+l+"\n")
			}
		}
	}
	// Every command is in the referee's list too.
	for _, c := range referee.MailCommands {
		found := false
		for _, n := range referee.Commands {
			found = found || n == c.Name
		}
		if !found {
			t.Errorf("referee.Commands lacks %q", c.Name)
		}
	}
}

// TestAskTwice: the same command mail twice is answered once.
func TestAskTwice(t *testing.T) {
	f := newFixture(t)
	raw := f.mail("blue@example.org", fmt.Sprintf("command: status\ngame: race-1\nside: blue\nsecret: %s\n", f.secrets["blue"]))
	f.handle(raw)
	if out := f.handle(raw); !out.Again || out.Folder != referee.Processed {
		t.Fatalf("again: %+v", out)
	}
	if n := len(f.outbox()); n != 1 {
		t.Fatalf("%d replies, want 1", n)
	}
}

// newPictureFixture is a desk with the shipped rulesets and a Dragon Rage
// game, n2-ask, refereed by ref@example.org.
func newPictureFixture(t *testing.T) *fixture {
	st := store.NewMemory()
	clock := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	svc := &games.Service{Store: st, Rules: rulesets.Lookup, Now: func() time.Time { clock = clock.Add(time.Second); return clock }}
	d := &referee.Desk{Games: svc, Templates: templates.Default(), From: compose.Address{Name: "Umpire", Address: "umpire@example.org"}, Referee: "ref@example.org"}
	c, err := svc.Create(context.Background(), games.CreateRequest{ID: "n2-ask", Ruleset: "dragonrage", Scenario: "n2", Referee: "ref@example.org",
		Players: []games.Player{{Side: "invader", Address: "alice@example.org"}, {Side: "defender", Address: "bob@example.org"}}})
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{t: t, desk: d, st: st, secrets: c.Secrets}
}
