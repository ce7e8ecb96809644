package daemon_test

import (
	"bytes"
	"strings"
	"testing"
)

// TestDovecotGloryFirstTurn plays the first turn of a Dragons of Glory
// scenario by mail through a real Dovecot: the referee creates the game by
// mail, both sides send their steps 1 to 4 at once, then each mover his
// moves, as a player's mail program would send them; every reply goes out,
// and the game reaches turn 2 with the results and pictures of each
// adjudication mailed to both sides.
func TestDovecotGloryFirstTurn(t *testing.T) {
	const id = "glory-dovecot"
	hl, ws := redAddr, blueAddr
	g := startMailGame(t, id, "glory", "first-strike", [2][2]string{{"highlord", hl}, {"whitestone", ws}})
	for _, m := range g.welcomes {
		if bytes.Contains(m.Raw, []byte("Your secret is")) && !bytes.Contains(m.Raw, []byte("everything in it is assumed")) {
			t.Errorf("the welcome to %s does not say the demonstration module is assumed:\n%s", m.To[0], m.Raw)
		}
	}
	// Steps 1 to 4, both sides at once: the Highlord takes the initiative
	// if he wins it, the Whitestone would move second.
	g.send(hl, "highlord", "turn: 1\nphase: strategic\norders:\n  initiative: first\n")
	g.send(ws, "whitestone", "turn: 1\nphase: strategic\norders:\n  activate: [karthay]\n  initiative: second\n")
	moves := map[string]string{
		"highlord":   "turn: 1\nphase: move\norders:\n  moves:\n    - {unit: khelmar-cav, path: [\"1806\"]}\n",
		"whitestone": "turn: 1\nphase: move\norders:\n  moves:\n    - {unit: valen-cav-1, path: [\"1305\"]}\n",
	}
	for i := 0; i < 2; i++ {
		turn, phase, due := g.due()
		if turn != 1 || phase != "move" || len(due) != 1 {
			t.Fatalf("after steps 1 to 4: turn %d, phase %s, due %v; want one mover in turn 1", turn, phase, due)
		}
		from := hl
		if due[0] == "whitestone" {
			from = ws
		}
		g.send(from, due[0], moves[due[0]])
	}
	if turn, phase, _ := g.due(); turn != 2 || phase != "strategic" {
		t.Fatalf("after both movers: turn %d, phase %s; want turn 2's steps 1 to 4", turn, phase)
	}
	g.allSent()
	g.d.stop()
	pictures := map[string]int{}
	for _, m := range g.sink.Mails() {
		if bytes.Contains(m.Raw, []byte("Results of game "+id)) && bytes.Contains(m.Raw, []byte("image/png")) {
			pictures[strings.ToLower(m.To[0])]++
		}
	}
	if pictures[hl] < 3 || pictures[ws] < 3 {
		t.Errorf("results mails with a picture: %v; want one for each side after each of the three adjudications", pictures)
	}
	g.inboxEmpty()
}
