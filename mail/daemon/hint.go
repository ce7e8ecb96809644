package daemon

import (
	"bytes"
	"fmt"
	"net/mail"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/mail/compose"
	"github.com/umpire-pbem/umpire/mail/extract"
)

// The referee is never left in silence, nor the player who wrote to the
// wrong address. On the local hub the human referee has a mailbox of their
// own (referee@…), which umpire does not read. A player who sends orders or
// a command there would wait for an answer that never comes, and the
// referee would have to forward it by hand. So the hub tells umpire of each
// mail delivered to the referee, and umpire puts a short hint in the
// sender's inbox: this went to the referee, umpire reads at umpire@…, send
// it there. Only mails that look like orders or a command get one (a
// question in plain words is the referee's to answer), never a mail from
// umpire itself or an automatic reply, and only to a mailbox of the hub.

// refereeHint is the hint for raw, a mail delivered to the referee's
// mailbox; ok is false when none is due.
func refereeHint(raw []byte, umpire, referee, domain string, now time.Time) (to string, msg []byte, ok bool) {
	hdr, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return "", nil, false
	}
	if a := strings.ToLower(strings.TrimSpace(hdr.Header.Get("Auto-Submitted"))); a != "" && a != "no" {
		return "", nil, false // never answer a machine
	}
	m, err := extract.Extract(raw, extract.Limits{})
	if err != nil || m == nil || len(m.Orders) == 0 {
		return "", nil, false
	}
	from := strings.ToLower(m.From)
	if from == "" || strings.EqualFold(from, umpire) || strings.EqualFold(from, referee) || !strings.HasSuffix(from, "@"+strings.ToLower(domain)) {
		return "", nil, false
	}
	what, ok := looksLikeOrders(m.Orders)
	if !ok {
		return "", nil, false
	}
	body := fmt.Sprintf(`Your mail %q went to %s, the referee's own mailbox.
The referee can read it, but umpire does not: nothing in it was done.

It looks like %s. umpire reads orders and commands at

  %s

Send it there (replying to any mail umpire sent you about the game goes
to the right address). Questions in your own words are for the referee,
at the address you used.
`, m.Subject, referee, what, umpire)
	c := compose.Mail{
		From: compose.Address{Name: "Umpire", Address: umpire}, To: compose.Address{Address: m.From},
		Subject: "Sent to the referee, not to umpire: " + m.Subject, ID: compose.MessageID(domain, "", "referee-hint", m.MessageID),
		InReplyTo: m.MessageID, References: append(append([]string{}, m.References...), m.MessageID),
		Date: now, Body: body, Kind: compose.KindNotice,
	}
	out, err := compose.Build(c)
	if err != nil {
		return "", nil, false
	}
	return m.From, out.Raw, true
}

// looksLikeOrders says what an orders text is for people ("orders for game
// raid-1", "the command \"status\""), when its top level has the envelope
// umpire reads: a command, or a game with a side or orders.
func looksLikeOrders(text []byte) (string, bool) {
	var top map[string]any
	if yaml.Unmarshal(text, &top) != nil {
		return "", false
	}
	str := func(k string) string {
		if v, ok := top[k]; ok && v != nil {
			return strings.TrimSpace(fmt.Sprint(v))
		}
		return ""
	}
	game := str("game")
	switch {
	case str("command") != "" && game != "":
		return fmt.Sprintf("the command %q for game %s", str("command"), game), true
	case str("command") != "":
		return fmt.Sprintf("the command %q", str("command")), true
	case game != "" && (str("side") != "" || top["orders"] != nil):
		return "orders for game " + game, true
	}
	return "", false
}
