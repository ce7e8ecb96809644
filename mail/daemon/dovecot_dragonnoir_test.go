package daemon_test

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"regexp"
	"strings"
	"testing"
)

// TestDovecotDragonNoirFirstTurn plays the first game turn of a Dragon
// Noir 2 scenario by mail through a real Dovecot: the referee creates the
// game by mail from the builtin module, whose welcome says its values are
// assumed; the Adventurer player sends his player-turn; then the Krob
// player-turn asks both sides at once, sealed — the Adventurers'
// reactions (here a defensive-fire trigger of their own) and the Krob
// orders. The reactions go first, and no mail to the Krob player says
// what they hold until his own orders are in, when they fire at his
// Hunter; no mail to him ever shows a magician's PE. Results with a picture reach both sides after each
// player-turn, and the game waits for the Adventurers' turn 2.
func TestDovecotDragonNoirFirstTurn(t *testing.T) {
	const id = "dn-dovecot"
	adv, krob := redAddr, blueAddr
	g := startMailGame(t, id, "dragonnoir", "descente", [2][2]string{{"adventurers", adv}, {"krobs", krob}})
	for _, m := range g.welcomes {
		if text := mailText(t, m.Raw); strings.Contains(text, "Your secret is") && !strings.Contains(strings.Join(strings.Fields(text), " "), "Values marked assumed") {
			t.Errorf("the welcome to %s does not say the module's values are assumed:\n%s", m.To[0], text)
		}
	}
	due := g.due
	send := func(from, side, body string) {
		t.Helper()
		g.send(from, side, body)
		g.allSent()
	}

	if turn, phase, sides := due(); turn != 1 || phase != "adventurers" || strings.Join(sides, " ") != "adventurers" {
		t.Fatalf("a new game waits for turn %d, phase %s, from %v; want the Adventurers' turn 1", turn, phase, sides)
	}
	send(adv, "adventurers", "turn: 1\nphase: adventurers\norders:\n  moves:\n    - {unit: troll-1, path: [\"0402\"]}\n    - {unit: konrad, path: [\"0303\"]}\n")
	if turn, phase, sides := due(); turn != 1 || phase != "krobs" || strings.Join(sides, " ") != "krobs adventurers" && strings.Join(sides, " ") != "adventurers krobs" {
		t.Fatalf("after the Adventurer mail: turn %d, phase %s, due from %v; want the Krob orders and the Adventurers' reactions at once", turn, phase, sides)
	}
	// The reactions first: a trigger the Krob player must not learn.
	const trigger = "kind:hunter"
	send(adv, "adventurers", "turn: 1\nphase: krobs\norders:\n  defensive-fire:\n    - {shooter: jon, at: "+trigger+", within: 5}\n    - {shooter: arlon, at: "+trigger+", within: 5}\n")
	if _, _, sides := due(); strings.Join(sides, " ") != "krobs" {
		t.Fatalf("after the reactions: due from %v; want the Krob orders alone", sides)
	}
	before := len(g.sink.Mails())
	send(krob, "krobs", "turn: 1\nphase: krobs\norders:\n  moves:\n    - {unit: hunter-2, path: [\"0603\", \"0503\"]}\n  hold: [hunter-1, warrior-1, killer-1, guard-1, baby-hunter-1]\n")
	if turn, phase, sides := due(); turn != 2 || phase != "adventurers" || strings.Join(sides, " ") != "adventurers" {
		t.Fatalf("after the Krob player-turn: turn %d, phase %s, due from %v; want the Adventurers' turn 2", turn, phase, sides)
	}
	g.d.stop()

	pe := regexp.MustCompile(`\bPE [0-9]`)
	pictures := map[string]int{}
	sawTrigger, sawPE, shot := false, false, map[string]bool{}
	for i, m := range g.sink.Mails() {
		to := strings.ToLower(m.To[0])
		text := mailText(t, m.Raw)
		if strings.Contains(text, "Results of game "+id) && bytes.Contains(m.Raw, []byte("image/png")) {
			pictures[to]++
		}
		shot[to] = shot[to] || strings.Contains(text, "shoots at hunter-2")
		switch to {
		case adv:
			sawTrigger = sawTrigger || strings.Contains(text, trigger)
			sawPE = sawPE || pe.MatchString(text)
		case krob:
			if i < before && strings.Contains(text, trigger) {
				t.Errorf("mail %d to the Krob player, before his orders were in, holds the Adventurers' sealed trigger %q:\n%s", i+1, trigger, text)
			}
			if loc := pe.FindStringIndex(text); loc != nil {
				t.Errorf("mail %d to the Krob player shows a magician's %q:\n%s", i+1, text[loc[0]:loc[1]], text)
			}
		}
	}
	if !sawTrigger || !sawPE {
		t.Errorf("the Adventurers' mails show their trigger: %v, their magicians' PE: %v; the checks on the Krob player's mails prove nothing without them", sawTrigger, sawPE)
	}
	if !shot[adv] || !shot[krob] {
		t.Errorf("the results of the Krob player-turn tell of a shot at hunter-2 (arlon's trigger, as it enters 0603 in his line of fire): to the Adventurers %v, to the Krobs %v", shot[adv], shot[krob])
	}
	if pictures[adv] < 2 || pictures[krob] < 2 {
		t.Errorf("results mails with a picture: %v; want one for each side after each of the two player-turns", pictures)
	}
	g.inboxEmpty()
}

// mailText is the text a player reads in raw: its headers, and every
// text part decoded (quoted-printable or base64), so that a check finds
// words however the mail was encoded.
func mailText(t *testing.T, raw []byte) string {
	t.Helper()
	m, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("a mail the daemon sent does not parse: %v", err)
	}
	var b strings.Builder
	for k, vs := range m.Header {
		for _, v := range vs {
			fmt.Fprintf(&b, "%s: %s\n", k, v)
		}
	}
	textParts(t, &b, m.Header.Get("Content-Type"), m.Header.Get("Content-Transfer-Encoding"), m.Body)
	return b.String()
}

func textParts(t *testing.T, b *strings.Builder, ctype, cte string, body io.Reader) {
	t.Helper()
	mt, params, err := mime.ParseMediaType(ctype)
	if err != nil {
		mt = "text/plain"
	}
	if strings.HasPrefix(mt, "multipart/") {
		r := multipart.NewReader(body, params["boundary"])
		for {
			p, err := r.NextRawPart()
			if err == io.EOF {
				return
			}
			if err != nil {
				t.Fatalf("a mail the daemon sent has a broken part: %v", err)
			}
			textParts(t, b, p.Header.Get("Content-Type"), p.Header.Get("Content-Transfer-Encoding"), p)
		}
	}
	if !strings.HasPrefix(mt, "text/") {
		return
	}
	switch strings.ToLower(cte) {
	case "quoted-printable":
		body = quotedprintable.NewReader(body)
	case "base64":
		body = base64.NewDecoder(base64.StdEncoding, body)
	}
	raw, err := io.ReadAll(body)
	if err != nil {
		t.Fatalf("a text part does not decode: %v", err)
	}
	b.Write(raw)
	b.WriteString("\n")
}
