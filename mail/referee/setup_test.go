package referee_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-message/mail"

	"github.com/umpire-pbem/umpire/adjudicator/rulesets"
	"github.com/umpire-pbem/umpire/mail/compose"
	"github.com/umpire-pbem/umpire/mail/referee"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
	"github.com/umpire-pbem/umpire/templates"
)

// readMail is a mail's text and the names of its attachments.
func readMail(t *testing.T, raw []byte) (text string, atts []string) {
	t.Helper()
	_, text, parts := readParts(t, raw)
	for _, a := range parts {
		atts = append(atts, a.name)
	}
	return text, atts
}

// attachment is an attachment of a mail: its name and content type.
type attachment struct{ name, typ string }

// readParts is a mail's header, its text (the inline parts, "\n" line
// ends) and its attachments, in order.
func readParts(t *testing.T, raw []byte) (mail.Header, string, []attachment) {
	t.Helper()
	r, err := mail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	var text string
	var atts []attachment
	for {
		p, err := r.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(p.Body)
		switch h := p.Header.(type) {
		case *mail.InlineHeader:
			text += string(b)
		case *mail.AttachmentHeader:
			name, _ := h.Filename()
			typ, _, _ := h.ContentType()
			atts = append(atts, attachment{name, typ})
		}
	}
	return r.Header, strings.ReplaceAll(text, "\r\n", "\n"), atts
}

var (
	zoneHead  = regexp.MustCompile(`(?m)^  ([a-z0-9-]+) — `)
	zoneHexes = regexp.MustCompile(`(?m)^    hexes: (.*)$`)
	blank     = regexp.MustCompile(`(?m)^  ([A-Z]+-[0-9]+): "____"   # (.*)$`)
)

// fillFromMail answers a setup as a newcomer with only the mail would: the
// skeleton the mail gives, each "____" replaced by the first hex, not yet
// taken, of the hexes the mail lists for the unit's zone.
func fillFromMail(t *testing.T, text, secret string) string {
	t.Helper()
	hexes := map[string][]string{}
	heads := zoneHead.FindAllStringSubmatchIndex(text, -1)
	for _, h := range heads {
		name := text[h[2]:h[3]]
		m := zoneHexes.FindStringSubmatch(text[h[1]:])
		if m == nil {
			t.Fatalf("zone %s: no hexes in\n%s", name, text)
		}
		for _, part := range strings.Split(m[1], ", ") {
			from, to, isRange := strings.Cut(part, "-")
			if !isRange {
				hexes[name] = append(hexes[name], from)
				continue
			}
			a, _ := strconv.Atoi(from[2:])
			b, _ := strconv.Atoi(to[2:])
			for r := a; r <= b; r++ {
				hexes[name] = append(hexes[name], fmt.Sprintf("%s%02d", from[:2], r))
			}
		}
	}
	_, skel, ok := strings.Cut(text, "by a hex:\n\n")
	if !ok {
		t.Fatalf("no skeleton in\n%s", text)
	}
	var lines []string
	for _, l := range strings.Split(skel, "\n") {
		if !strings.HasPrefix(l, "  ") {
			break
		}
		lines = append(lines, l[2:])
	}
	body := strings.Join(lines, "\n") + "\n"
	body = strings.Replace(body, "YOUR-SECRET", secret, 1)
	taken := map[string]bool{}
	return blank.ReplaceAllStringFunc(body, func(l string) string {
		m := blank.FindStringSubmatch(l)
		for _, z := range strings.Split(m[2], " or ") {
			for _, h := range hexes[z] {
				if !taken[h] {
					taken[h] = true
					return "  " + m[1] + `: "` + h + `"`
				}
			}
		}
		t.Fatalf("no hex left for %s", l)
		return ""
	})
}

// TestSetupByMail: the welcome of the side that sets up shows its zones
// (named as the errors name them, shaded on the attached picture), the
// units and a skeleton; that skeleton, filled with the listed hexes, is
// accepted. In Esirien 2 the invader's setup comes in the results mail
// after the defender's, with the same help; in Nurkott 2 the invader sets
// up nothing and gets none.
func TestSetupByMail(t *testing.T) {
	t.Parallel() // its own stores and desks
	for _, tc := range []struct {
		scenario string
		zones    []string // the defender's
		unit     string   // one of his units
	}{{"n2", []string{"defender-setup"}, "TRL-1"}, {"e2", []string{"defender-setup", "harbour"}, "INF-1"}} {
		t.Run(tc.scenario, func(t *testing.T) {
			st := store.NewMemory()
			clock := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
			svc := &games.Service{Store: st, Rules: rulesets.Lookup, Now: func() time.Time { clock = clock.Add(time.Second); return clock }}
			d := &referee.Desk{Games: svc, Templates: templates.Default(), From: compose.Address{Name: "Umpire", Address: "umpire@example.org"}, Referee: "ref@example.org"}
			n := 0
			send := func(from, body string) referee.Outcome {
				t.Helper()
				n++
				raw := fmt.Sprintf("From: %s\r\nTo: umpire@example.org\r\nSubject: orders\r\nMessage-ID: <m%d@example.org>\r\n\r\n%s", from, n, strings.ReplaceAll(body, "\n", "\r\n"))
				out, err := d.Handle(context.Background(), []byte(raw))
				if err != nil {
					t.Fatal(err)
				}
				return out
			}
			id := tc.scenario + "-mail"
			if out := send("ref@example.org", "command: new\nid: "+id+"\nruleset: dragonrage\nscenario: "+tc.scenario+"\nplayers:\n  invader: alice@example.org\n  defender: bob@example.org\n"); out.Folder != referee.Processed {
				t.Fatalf("new: %+v", out)
			}
			msgs, err := st.Messages(context.Background(), id)
			if err != nil {
				t.Fatal(err)
			}
			mails := map[string]string{}
			for _, m := range msgs {
				text, atts := readMail(t, m.Raw)
				if !strings.Contains(text, "Your secret is: ") {
					continue
				}
				mails[m.To[0]] = text
				if len(atts) != 1 || !strings.HasSuffix(atts[0], ".png") {
					t.Errorf("%s: welcome attachments %v, want the board", m.To, atts)
				}
			}
			def, inv := mails["bob@example.org"], mails["alice@example.org"]
			for _, want := range append([]string{"You set up now (defender, turn: 0, phase: setup)", "Units to place: ", "hexes: ",
				"secret: ", tc.unit + `: "____"`, "\n  turn: 0\n  phase: setup\n  orders:\n"}, tc.zones...) {
				if !strings.Contains(def, want) {
					t.Errorf("the defender's welcome lacks %q:\n%s", want, def)
				}
			}
			if strings.Contains(def, "orders:\n    ...") {
				t.Errorf("the defender's welcome still has the bare skeleton:\n%s", def)
			}
			if strings.Contains(inv, "You set up now") || strings.Contains(inv, "____") {
				t.Errorf("the invader's welcome has a setup, not due from him yet:\n%s", inv)
			}
			secret := regexp.MustCompile(`Your secret is: (\S+)`)
			filled := fillFromMail(t, def, "")
			if out := send("bob@example.org", filled); out.Folder != referee.Processed {
				all, _ := st.Messages(context.Background(), id)
				last, _ := readMail(t, all[len(all)-1].Raw)
				t.Fatalf("the filled skeleton was refused: %+v\n%s\n%s", out, filled, last)
			}
			// What comes next for the invader.
			msgs, _ = st.Messages(context.Background(), id)
			last, _ := readMail(t, msgs[len(msgs)-1].Raw)
			var invResults string
			for i := len(msgs) - 1; i >= 0; i-- {
				if len(msgs[i].To) == 1 && msgs[i].To[0] == "alice@example.org" {
					invResults, _ = readMail(t, msgs[i].Raw)
					break
				}
			}
			if tc.scenario == "n2" {
				if strings.Contains(invResults, "You set up now") {
					t.Errorf("the N2 invader is asked to set up:\n%s", invResults)
				}
				return
			}
			if !strings.Contains(invResults, "You set up now (invader, turn: 0, phase: setup)") || !strings.Contains(invResults, "invader-setup") ||
				!strings.Contains(invResults, "secret: YOUR-SECRET") {
				t.Fatalf("the E2 invader's results do not ask for the setup with its zones:\n%s", invResults)
			}
			filled = fillFromMail(t, invResults, secret.FindStringSubmatch(inv)[1])
			if out := send("alice@example.org", filled); out.Folder != referee.Processed {
				t.Fatalf("the invader's filled skeleton was refused: %+v\n%s\n%s", out, filled, last)
			}
		})
	}
}
