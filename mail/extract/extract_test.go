package extract

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// crlf turns a readable test mail into wire form: CRLF line ends.
func crlf(s string) []byte {
	s = strings.TrimPrefix(s, "\n")
	return []byte(strings.ReplaceAll(s, "\n", "\r\n"))
}

// b64 base64-encodes data in 76-column lines, as mail programs do.
func b64(data []byte) string {
	enc := base64.StdEncoding.EncodeToString(data)
	var sb strings.Builder
	for len(enc) > 76 {
		sb.WriteString(enc[:76])
		sb.WriteString("\n")
		enc = enc[76:]
	}
	sb.WriteString(enc)
	return sb.String()
}

const ordersDragon = "orders:\n  - unit: dragon-1\n    move: [c3, c4]\n"

type okCase struct {
	name       string
	raw        []byte
	orders     string
	source     string
	offset     int
	from       string
	msgID      string
	noteHas    []string // substrings that some note must contain
	noNotes    bool
	inReplyTo  string
	references []string
}

func okCases() []okCase {
	return []okCase{
		{
			name: "thunderbird flowed fenced with chat and quote",
			raw: crlf(`
From: Alice Example <alice@Example.ORG>
To: referee@umpire.local
Subject: Re: [game-7] turn 3
Message-ID: <9f1c2e3a-1111-4c7e-9a1b-2c3d4e5f6a7b@example.org>
In-Reply-To: <turn3.game7@umpire.local>
References: <turn2.game7@umpire.local>
 <turn3.game7@umpire.local>
Date: Mon, 2 Nov 2026 10:15:00 +0100
MIME-Version: 1.0
User-Agent: Mozilla Thunderbird
Content-Language: en-GB
Content-Type: text/plain; charset=UTF-8; format=flowed
Content-Transfer-Encoding: 7bit

Hi ref, my orders for this turn. I am going to attack the northern 
pass with everything I have.

---
orders:
   - unit: dragon-1
     move: [c3, c4]
---

Cheers,
Alice

On 01/11/2026 18:00, Umpire wrote:
> Turn 3 is open.
> Deadline: Tuesday 12:00.
`),
			orders:     ordersDragon,
			source:     SourceFenced,
			offset:     3, // the chat paragraph is one line once unflowed
			from:       "alice@example.org",
			msgID:      "9f1c2e3a-1111-4c7e-9a1b-2c3d4e5f6a7b@example.org",
			inReplyTo:  "turn3.game7@umpire.local",
			references: []string{"turn2.game7@umpire.local", "turn3.game7@umpire.local"},
			noteHas:    []string{"ignored 1 line of text before", "ignored 2 lines of text after", "removed 2 lines of quoted"},
		},
		{
			name: "gmail alternative qp top-posted with wrapped attribution",
			raw: crlf(`
MIME-Version: 1.0
Date: Mon, 2 Nov 2026 11:02:33 +0100
Message-ID: <CAF=abc123+xyz@mail.gmail.com>
Subject: Re: [game-7] turn 3
From: Bob <Bob.Player@GMail.com>
To: Umpire <referee@umpire.local>
Content-Type: multipart/alternative; boundary="000000000000a1b2c3d4e5f6"

--000000000000a1b2c3d4e5f6
Content-Type: text/plain; charset="UTF-8"
Content-Transfer-Encoding: quoted-printable

orders:
  - unit: knight-2
    attack: ogre-1
  - unit: wizard
    cast: fireball =E2=86=92 c5 # a very long comment that Gmail has to wrap =
with a soft line break

On Sun, Nov 1, 2026 at 6:00=E2=80=AFPM Umpire <referee@umpire.local>
wrote:

> Turn 3 is open.
>

--000000000000a1b2c3d4e5f6
Content-Type: text/html; charset="UTF-8"
Content-Transfer-Encoding: quoted-printable

<div dir=3D"ltr">orders:<br>  - unit: knight-2</div>

--000000000000a1b2c3d4e5f6--
`),
			orders: "orders:\n  - unit: knight-2\n    attack: ogre-1\n  - unit: wizard\n" +
				"    cast: fireball → c5 # a very long comment that Gmail has to wrap with a soft line break\n",
			source:  SourceBody,
			offset:  0,
			from:    "Bob.Player@gmail.com",
			msgID:   "CAF=abc123+xyz@mail.gmail.com",
			noteHas: []string{"removed 2 lines of quoted"},
		},
		{
			name: "apple mail attachment wins over body",
			raw: crlf(`
From: Dave <dave@example.com>
Content-Type: multipart/mixed;
	boundary="Apple-Mail=_5C1B2D3E-0000-4F4F-8E8E-123456789ABC"
Mime-Version: 1.0 (Mac OS X Mail 16.0 \(3774.600.62\))
Subject: orders turn 3
Date: Mon, 2 Nov 2026 12:00:00 +0100
Message-Id: <D1E2F3A4-B5C6-4D7E-8F90-A1B2C3D4E5F6@example.com>
To: referee@umpire.local


--Apple-Mail=_5C1B2D3E-0000-4F4F-8E8E-123456789ABC
Content-Transfer-Encoding: 7bit
Content-Type: text/plain;
	charset=us-ascii

Here are my orders, attached.

--Apple-Mail=_5C1B2D3E-0000-4F4F-8E8E-123456789ABC
Content-Disposition: attachment;
	filename=orders.yml
Content-Type: application/octet-stream;
	x-unix-mode=0644;
	name="orders.yml"
Content-Transfer-Encoding: base64

` + b64([]byte("# turn 3\r\norders:\r\n  - unit: dragon-1\r\n    move: [c3, c4]\r\n\r\n\r\n")) + `
--Apple-Mail=_5C1B2D3E-0000-4F4F-8E8E-123456789ABC
Content-Transfer-Encoding: 7bit
Content-Type: text/plain;
	charset=us-ascii



--Apple-Mail=_5C1B2D3E-0000-4F4F-8E8E-123456789ABC--
`),
			orders:  "# turn 3\n" + ordersDragon,
			source:  "attachment:orders.yml",
			offset:  0,
			from:    "dave@example.com",
			msgID:   "D1E2F3A4-B5C6-4D7E-8F90-A1B2C3D4E5F6@example.com",
			noteHas: []string{"the text of the mail was not read"},
		},
		{
			name: "bottom-posted reply with attribution and signature",
			raw: crlf(`
From: carol@example.net
To: referee@umpire.local
Subject: Re: turn 3
Message-ID: <abc@example.net>
Content-Type: text/plain; charset=utf-8

On Sun, 1 Nov 2026 at 18:00, Umpire <referee@umpire.local> wrote:
> Turn 3 is open.
> Send your orders.

orders:
  - unit: goblin-3
    hold: true

-- 
Carol
carol@example.net
`),
			orders:  "orders:\n  - unit: goblin-3\n    hold: true\n",
			source:  SourceBody,
			offset:  4,
			from:    "carol@example.net",
			noteHas: []string{"removed your signature (2 lines", "removed 2 lines of quoted"},
		},
		{
			name: "french latin1 quoted-printable with a écrit",
			raw: crlf(`
From: =?iso-8859-1?q?Ren=E9?= <rene@exemple.fr>
Subject: =?iso-8859-1?q?R=E9ponse_tour_3?=
Message-ID: <20261102.1@exemple.fr>
Content-Type: text/plain; charset=ISO-8859-1
Content-Transfer-Encoding: quoted-printable

orders:
  - unit: dragon-1
    note: d=E9fense du pont

Le dim. 1 nov. 2026 =E0 18:00, Umpire <referee@umpire.local> a =E9crit=A0:
> Tour 3.
`),
			orders:  "orders:\n  - unit: dragon-1\n    note: défense du pont\n",
			source:  SourceBody,
			offset:  0,
			from:    "rene@exemple.fr",
			noteHas: []string{"removed 1 line of quoted"},
		},
		{
			name: "latin1 base64",
			raw: crlf(`
From: rene@exemple.fr
Message-ID: <20261102.2@exemple.fr>
Content-Type: text/plain; charset="iso-8859-1"
Content-Transfer-Encoding: base64

` + b64([]byte("\n\norders:\n  - unit: dragon-1\n    note: \xe9t\xe9\n")) + `
`),
			orders: "orders:\n  - unit: dragon-1\n    note: été\n",
			source: SourceBody,
			offset: 2,
			from:   "rene@exemple.fr",
		},
		{
			name: "utf-8 base64",
			raw: crlf(`
From: Zoë <zoe@example.org>
Message-ID: <u8b64@example.org>
Content-Type: text/plain; charset=utf-8
Content-Transfer-Encoding: base64

` + b64([]byte("orders:\n  - unit: drache-1 # 🐉\n")) + `
`),
			orders:  "orders:\n  - unit: drache-1 # 🐉\n",
			source:  SourceBody,
			from:    "zoe@example.org",
			noNotes: true,
		},
		{
			name: "nested mixed with alternative and a picture",
			raw: crlf(`
From: erin@example.com
Message-ID: <nested@example.com>
Content-Type: multipart/mixed; boundary="outer"

This is a multi-part message in MIME format.
--outer
Content-Type: multipart/alternative; boundary="inner"

--inner
Content-Type: text/plain; charset=utf-8

---
orders:
  - unit: dragon-1
    move: [c3, c4]
--inner
Content-Type: text/html; charset=utf-8

<p>orders</p>
--inner--

--outer
Content-Type: image/png; name="map.png"
Content-Disposition: attachment; filename="map.png"
Content-Transfer-Encoding: base64

iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==
--outer--
`),
			orders:  ordersDragon,
			source:  SourceFenced,
			offset:  1,
			from:    "erin@example.com",
			noteHas: []string{"ignored the attachment map.png"},
		},
		{
			name: "outlook original message",
			raw: crlf(`
From: frank@example.com
Message-ID: <outlook@example.com>
Content-Type: text/plain; charset="us-ascii"

orders:
  - unit: dragon-1
    move: [c3, c4]

-----Original Message-----
From: Umpire <referee@umpire.local>
Sent: Sunday, November 1, 2026 6:00 PM
Subject: turn 3

Turn 3 is open.
`),
			orders:  ordersDragon,
			source:  SourceBody,
			from:    "frank@example.com",
			noteHas: []string{"removed the earlier mail quoted from line 5"},
		},
		{
			name: "interleaved quote keeps line numbers",
			raw: crlf(`
From: gina@example.com
Message-ID: <inter@example.com>

---
orders:
> what about the dragon?
  - unit: dragon-1
    move: [c3, c4]
...
bye
`),
			orders: "orders:\n\n  - unit: dragon-1\n    move: [c3, c4]\n",
			source: SourceFenced,
			offset: 1,
			from:   "gina@example.com",
			noteHas: []string{"ignored 1 line of text after the closing ... line",
				"removed 1 line of quoted"},
		},
		{
			name: "no message-id gets a hash",
			raw: crlf(`
From: hal@example.com
Subject: orders

orders: []
`),
			orders: "orders: []\n",
			source: SourceBody,
			from:   "hal@example.com",
			msgID: hashID(crlf(`
From: hal@example.com
Subject: orders

orders: []
`)),
		},
		{
			name:    "undeclared 8-bit latin1 read as windows-1252",
			raw:     []byte("From: ivy@example.com\r\nMessage-ID: <x@y>\r\n\r\nnote: caf\xe9\r\n"),
			orders:  "note: café\n",
			source:  SourceBody,
			from:    "ivy@example.com",
			noteHas: []string{"Windows-1252"},
		},
		{
			name: "utf-16 attachment from windows notepad",
			raw: crlf(`
From: jay@example.com
Message-ID: <u16@example.com>
Content-Type: multipart/mixed; boundary=b

--b
Content-Type: text/plain; charset=utf-8; name=orders.yaml
Content-Disposition: inline; filename=orders.yaml
Content-Transfer-Encoding: base64

` + b64(utf16le("\ufefforders:\r\n  - unit: dragon-1\r\n")) + `
--b--
`),
			orders: "orders:\n  - unit: dragon-1\n",
			source: "attachment:orders.yaml",
			from:   "jay@example.com",
		},
		{
			name: "empty attachment falls back to body",
			raw: crlf(`
From: kim@example.com
Message-ID: <empty@example.com>
Content-Type: multipart/mixed; boundary=b

--b
Content-Type: text/plain

orders: [hold]
--b
Content-Type: application/x-yaml
Content-Disposition: attachment; filename="Orders.YAML"


--b--
`),
			orders:  "orders: [hold]\n",
			source:  SourceBody,
			from:    "kim@example.com",
			noteHas: []string{"Orders.YAML was empty"},
		},
		{
			name: "long attachment name",
			raw: crlf(`
From: max@example.com
Content-Type: multipart/mixed; boundary=b

--b
Content-Disposition: attachment; filename="` + strings.Repeat("o", 80) + `.yaml"

orders: [hold]
--b--
`),
			orders: "orders: [hold]\n",
			source: "attachment:" + strings.Repeat("o", 60) + "...",
			from:   "max@example.com",
		},
		{
			name: "rfc2231 encoded attachment name",
			raw: crlf(`
From: lea@example.com
Message-ID: <2231@example.com>
Content-Type: multipart/mixed; boundary=b

--b
Content-Type: text/yaml; charset=utf-8
Content-Disposition: attachment; filename*=UTF-8''ordres%20%C3%A9t%C3%A9.yaml

orders: [hold]
--b--
`),
			orders: "orders: [hold]\n",
			source: "attachment:ordres été.yaml",
			from:   "lea@example.com",
		},
	}
}

func utf16le(s string) []byte {
	var b []byte
	for _, r := range s {
		if r > 0xffff {
			panic("test helper handles the BMP only")
		}
		b = append(b, byte(r), byte(r>>8))
	}
	return b
}

func TestExtractOK(t *testing.T) {
	for _, c := range okCases() {
		t.Run(c.name, func(t *testing.T) {
			m, err := Extract(c.raw, Limits{})
			if err != nil {
				t.Fatalf("Extract: %v", err)
			}
			if got := string(m.Orders); got != c.orders {
				t.Errorf("Orders:\n%q\nwant\n%q", got, c.orders)
			}
			if m.Source != c.source {
				t.Errorf("Source = %q, want %q", m.Source, c.source)
			}
			if m.LineOffset != c.offset {
				t.Errorf("LineOffset = %d, want %d", m.LineOffset, c.offset)
			}
			if m.From != c.from {
				t.Errorf("From = %q, want %q", m.From, c.from)
			}
			if c.msgID != "" && m.MessageID != c.msgID {
				t.Errorf("MessageID = %q, want %q", m.MessageID, c.msgID)
			}
			if c.inReplyTo != "" && m.InReplyTo != c.inReplyTo {
				t.Errorf("InReplyTo = %q, want %q", m.InReplyTo, c.inReplyTo)
			}
			if c.references != nil && !slices.Equal(m.References, c.references) {
				t.Errorf("References = %q, want %q", m.References, c.references)
			}
			for _, want := range c.noteHas {
				if !slices.ContainsFunc(m.Notes, func(n string) bool { return strings.Contains(n, want) }) {
					t.Errorf("no note contains %q; notes: %q", want, m.Notes)
				}
			}
			if c.noNotes && len(m.Notes) > 0 {
				t.Errorf("unexpected notes %q", m.Notes)
			}
		})
	}
}

func TestHeaderFields(t *testing.T) {
	m, err := Extract(okCases()[0].raw, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if m.Subject != "Re: [game-7] turn 3" {
		t.Errorf("Subject = %q", m.Subject)
	}
	want := time.Date(2026, 11, 2, 9, 15, 0, 0, time.UTC)
	if !m.Date.Equal(want) {
		t.Errorf("Date = %v, want %v", m.Date, want)
	}
	m, err = Extract(okCases()[4].raw, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if m.Subject != "Réponse tour 3" {
		t.Errorf("encoded Subject = %q", m.Subject)
	}
}

// TestLineOffset checks the promise behind LineOffset: line n of the orders
// is line n+LineOffset of the text the player sees, for every way the orders
// can be cut out of a body.
func TestLineOffset(t *testing.T) {
	bodies := []string{
		"orders: [a]\nmore: [b]\n",
		"\n\n\norders: [a]\n\n\n",
		"Hello\nthere\n---\n\norders: [a]\nx: 1\n---\nthanks\n",
		"> quoted\n> more\n\norders: [a]\n> inline\nx: 1\n-- \nsig\n",
		"On Mon, Nov 2, 2026 at 9:00 AM Ref <r@x>\nwrote:\n> q\n---\norders: [a]\n...\n",
		"chat\n---\n---\norders: [a]\n",
		"a: 1\r\nb: 2\r\n",
	}
	for i, text := range bodies {
		raw := []byte("From: p@example.com\nContent-Type: text/plain; charset=utf-8\n\n" + text)
		m, err := Extract(raw, Limits{})
		if i == 5 {
			// "---" then "---" at once: an empty fence.
			if !isCode(err, CodeNoOrders) {
				t.Errorf("body %d: err = %v, want no-orders", i, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("body %d: %v", i, err)
		}
		visible := splitLines(text)
		for n, line := range splitLines(string(m.Orders)) {
			if line == "" {
				continue // a blanked quote line
			}
			if got := visible[n+m.LineOffset]; got != line {
				t.Errorf("body %d: orders line %d = %q but mail line %d = %q", i, n+1, line, n+1+m.LineOffset, got)
			}
		}
	}
}

func isCode(err error, code string) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == code
}

type errCase struct {
	name string
	raw  []byte
	lim  Limits
	code string
}

func errCases() []errCase {
	big := bytes.Repeat([]byte("x"), 10<<20)
	yamlBig := []byte(strings.Repeat("- unit: dragon-1\n", 300<<10/17+1))
	return []errCase{
		{
			name: "html only",
			raw: crlf(`
From: Outlook User <ou@example.com>
Message-ID: <html@example.com>
Content-Type: text/html; charset="utf-8"

<html><body><p>orders:</p></body></html>
`),
			code: CodeHTMLOnly,
		},
		{
			name: "alternative with empty plain part",
			raw: crlf(`
From: ou@example.com
Content-Type: multipart/alternative; boundary=b

--b
Content-Type: text/plain; charset=utf-8


--b
Content-Type: text/html; charset=utf-8

<p>orders: [hold]</p>
--b--
`),
			code: CodeHTMLOnly,
		},
		{
			name: "html with related images",
			raw: crlf(`
From: ou@example.com
Content-Type: multipart/related; boundary=b

--b
Content-Type: text/html; charset=utf-8

<p>orders: [hold]</p><img src="cid:x">
--b
Content-Type: image/gif
Content-ID: <x>
Content-Transfer-Encoding: base64

R0lGODlhAQABAAAAACw=
--b--
`),
			code: CodeHTMLOnly,
		},
		{
			name: "10 MB attachment",
			raw: crlf(`
From: big@example.com
Content-Type: multipart/mixed; boundary=b

--b
Content-Type: text/plain

orders: [hold]
--b
Content-Type: application/octet-stream
Content-Disposition: attachment; filename=movie.mp4
Content-Transfer-Encoding: base64

` + b64(big) + `
--b--
`),
			code: CodeTooLarge,
		},
		{
			name: "300 KiB yaml attachment",
			raw: crlf(`
From: big@example.com
Content-Type: multipart/mixed; boundary=b

--b
Content-Type: application/yaml
Content-Disposition: attachment; filename=orders.yaml
Content-Transfer-Encoding: base64

` + b64(yamlBig) + `
--b--
`),
			code: CodeTooLarge,
		},
		{
			name: "300 KiB body",
			raw:  append([]byte("From: big@example.com\r\n\r\n"), yamlBig...),
			code: CodeTooLarge,
		},
		{
			name: "small limit",
			raw:  []byte("From: p@example.com\r\n\r\norders: [hold, hold, hold]\r\n"),
			lim:  Limits{MaxBytes: 8},
			code: CodeTooLarge,
		},
		{
			name: "no body",
			raw:  crlf("From: p@example.com\nSubject: orders\n\n"),
			code: CodeNoOrders,
		},
		{
			name: "only quote and signature",
			raw:  crlf("From: p@example.com\n\nOn Mon, 2 Nov 2026, Ref <r@x> wrote:\n> turn 3\n\n-- \nP\n"),
			code: CodeNoOrders,
		},
		{
			name: "only a picture",
			raw: crlf(`
From: p@example.com
Content-Type: image/png
Content-Transfer-Encoding: base64

iVBORw0KGgo=
`),
			code: CodeNoOrders,
		},
		{
			name: "two yaml attachments",
			raw: crlf(`
From: p@example.com
Content-Type: multipart/mixed; boundary=b

--b
Content-Disposition: attachment; filename=a.yaml

orders: [a]
--b
Content-Disposition: attachment; filename=b.yml

orders: [b]
--b--
`),
			code: CodeAmbiguous,
		},
		{
			name: "multipart without closing boundary",
			raw: crlf(`
From: p@example.com
Content-Type: multipart/mixed; boundary=b

--b
Content-Type: text/plain

orders: [a]
`),
			code: CodeMalformed,
		},
		{
			name: "multipart without boundary parameter",
			raw:  crlf("From: p@example.com\nContent-Type: multipart/mixed\n\norders: [a]\n"),
			code: CodeMalformed,
		},
		{
			name: "damaged header",
			raw:  []byte("this is not a mail\r\nat all\r\n"),
			code: CodeMalformed,
		},
		{
			name: "unknown transfer encoding",
			raw:  crlf("From: p@example.com\nContent-Transfer-Encoding: x-uuencode\n\nbegin 644 o\n"),
			code: CodeMalformed,
		},
		{
			name: "bad base64",
			raw:  crlf("From: p@example.com\nContent-Transfer-Encoding: base64\n\n!!!notbase64***\n"),
			code: CodeMalformed,
		},
		{
			name: "unknown charset",
			raw:  crlf("From: p@example.com\nContent-Type: text/plain; charset=x-klingon\n\norders: [a]\n"),
			code: CodeBadCharset,
		},
		{
			name: "utf-8 declared, latin1 sent",
			raw:  []byte("From: p@example.com\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nnote: caf\xe9\r\n"),
			code: CodeBadCharset,
		},
		{
			name: "binary junk body",
			raw:  []byte("From: p@example.com\r\n\r\n\x00\x01\x02\x89PNG\r\n"),
			code: CodeNotText,
		},
		{
			name: "picture named orders.yaml",
			raw: crlf(`
From: p@example.com
Content-Type: multipart/mixed; boundary=b

--b
Content-Type: image/png
Content-Disposition: attachment; filename=orders.yaml
Content-Transfer-Encoding: base64

iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==
--b--
`),
			code: CodeNotText,
		},
		{
			name: "no from",
			raw:  crlf("Subject: orders\nMessage-ID: <nofrom@x>\n\norders: [a]\n"),
			code: CodeNoSender,
		},
		{
			name: "nested too deep",
			raw:  deepMail(40),
			code: CodeMalformed,
		},
	}
}

func deepMail(depth int) []byte {
	var sb strings.Builder
	sb.WriteString("From: p@example.com\r\nContent-Type: multipart/mixed; boundary=b0\r\n\r\n")
	for i := 1; i <= depth; i++ {
		fmt.Fprintf(&sb, "--b%d\r\nContent-Type: multipart/mixed; boundary=b%d\r\n\r\n", i-1, i)
	}
	fmt.Fprintf(&sb, "--b%d\r\n\r\norders: [a]\r\n", depth)
	for i := depth; i >= 0; i-- {
		fmt.Fprintf(&sb, "--b%d--\r\n", i)
	}
	return []byte(sb.String())
}

func TestExtractErrors(t *testing.T) {
	for _, c := range errCases() {
		t.Run(c.name, func(t *testing.T) {
			m, err := Extract(c.raw, c.lim)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("err = %v (%T), want *Error %s", err, err, c.code)
			}
			if e.Code != c.code {
				t.Fatalf("Code = %q (%v), want %q", e.Code, err, c.code)
			}
			if e.Msg == "" || strings.Contains(e.Msg, "%!") {
				t.Errorf("bad player message %q", e.Msg)
			}
			if m != nil && m.Orders != nil {
				t.Errorf("Orders set on error: %q", m.Orders)
			}
			// The daemon answers failed mails: keep the sender when the
			// header was readable.
			if c.code != CodeMalformed || c.name != "damaged header" {
				if c.code != CodeNoSender && (m == nil || m.From == "") {
					t.Errorf("no From on error")
				}
				if m == nil || m.MessageID == "" {
					t.Errorf("no MessageID on error")
				}
			}
		})
	}
}

func TestTooLargeIsCheckedFirst(t *testing.T) {
	// Over MaxMessage, the body is never parsed: even a broken one is
	// reported as too large, with the sender known.
	raw := append(crlf("From: Big <big@Example.COM>\nMessage-ID: <big@x>\nContent-Type: multipart/mixed\n\n"),
		bytes.Repeat([]byte{0}, 11<<20)...)
	m, err := Extract(raw, Limits{})
	if !isCode(err, CodeTooLarge) {
		t.Fatalf("err = %v", err)
	}
	if m.From != "big@example.com" || m.MessageID != "big@x" {
		t.Errorf("header not kept: %+v", m)
	}
}

func TestErrorText(t *testing.T) {
	e := &Error{Code: CodeMalformed, Msg: "m", Err: errors.New("cause")}
	if !strings.Contains(e.Error(), "cause") || !errors.Is(e, e.Err) {
		t.Errorf("Error() = %q", e.Error())
	}
}

func TestUnflow(t *testing.T) {
	in := []string{
		"a long ",
		"paragraph ",
		"ends here",
		" stuffed line",
		"> quoted ",
		"> soft",
		"-- ",
		"sig",
	}
	want := []string{"a long paragraph ends here", "stuffed line", "> quoted soft", "-- ", "sig"}
	if got := unflow(in, false); !slices.Equal(got, want) {
		t.Errorf("unflow = %q, want %q", got, want)
	}
	if got := unflow([]string{"ab ", "cd"}, true); !slices.Equal(got, []string{"abcd"}) {
		t.Errorf("unflow delsp = %q", got)
	}
}
