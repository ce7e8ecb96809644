package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"mime/quotedprintable"
	"net/mail"
	"os"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
	"github.com/umpire-pbem/umpire/mail/compose"
	"github.com/umpire-pbem/umpire/mail/config"
	"github.com/umpire-pbem/umpire/mail/daemon"
	"github.com/umpire-pbem/umpire/mail/extract"
	"github.com/umpire-pbem/umpire/mail/hub"
	"github.com/umpire-pbem/umpire/mail/referee"
	"github.com/umpire-pbem/umpire/templates"
)

const commandDoc = `Runs one referee command — the same YAML the referee mails (see
"umpire help" by mail, or docs/mail.md): pause, resume, extend, process, end,
replace, eject, rollback, observe, unobserve, away, back, new, show, resend,
status, history… — as if the referee had mailed it, on the data file
directly. What it causes is recorded as by mail: the events, and the mails
to the players (welcomes, notices, results) queued in the outbox, which
'umpire serve' sends when it next runs. The referee's reply is printed.

Stop 'umpire serve' first: it holds the data file. The sender is the
referee of --config's umpire.yaml, or the local hub's referee.

  umpire command --data DIR pause.yaml
  printf 'command: extend\ngame: club-1\nside: red\nby: 48h\n' | umpire command -`

func cmdCommand(a *app, ctx context.Context, args []string) error {
	f := a.flags("command", "[--config umpire.yaml] FILE.yaml | -", commandDoc).withData()
	cfgPath := f.String("config", "", "the configuration `file` (default: the local hub's addresses)")
	if err := f.parse(args); err != nil {
		return err
	}
	if len(f.pos) != 1 {
		return usagef("give the command's file, or - for standard input")
	}
	from := compose.Address{Name: config.DefaultName, Address: daemon.HubDaemonUser + "@" + hub.DefaultDomain}
	ref := daemon.HubRefereeUser + "@" + hub.DefaultDomain
	tmplDir := ""
	if *cfgPath != "" {
		cfg, err := config.Load(*cfgPath)
		if err != nil {
			return err
		}
		f.useConfig(cfg)
		from = compose.Address{Name: cfg.From.Name, Address: cfg.From.Address}
		ref, tmplDir = cfg.Referee.Address, cfg.Templates
	}
	if ref == "" {
		return fmt.Errorf("umpire.yaml names no referee address: the command would come from nobody")
	}
	var src []byte
	var err error
	if f.pos[0] == "-" {
		src, err = yamlx.ReadAll(a.stdin, extract.DefaultMaxBytes, "standard input", "commands")
	} else {
		var file *os.File
		if file, err = os.Open(f.pos[0]); err == nil {
			src, err = yamlx.ReadAll(file, extract.DefaultMaxBytes, f.pos[0], "commands")
			file.Close()
		}
	}
	if err != nil {
		return err
	}
	tmpl, err := templates.Overlay(tmplDir)
	if err != nil {
		return err
	}
	svc, done, err := a.service(ctx, f, false)
	if err != nil {
		return err
	}
	defer done()
	// Local access to the data file is the referee's: no referee secret.
	d := &referee.Desk{Games: svc, Templates: tmpl, From: from, Referee: ref, Rulesets: a.all}
	// As if mailed: the games a series reaches are mailed to their players
	// (queued for umpire serve), not printed.
	d.HookSeries()
	nonce := make([]byte, 12)
	rand.Read(nonce)
	id := "cli-" + hex.EncodeToString(nonce) + "@" + compose.Domain(from.Address)
	raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: command\r\nMessage-ID: <%s>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s",
		ref, from.Address, id, strings.ReplaceAll(string(src), "\n", "\r\n"))
	before, err := svc.Store.Messages(ctx, "")
	if err != nil {
		return err
	}
	out, err := d.Handle(ctx, []byte(raw))
	if err != nil {
		return err
	}
	// Print the reply to this command, and say what else was queued.
	after, err := svc.Store.Messages(ctx, "")
	if err != nil {
		return err
	}
	for _, m := range after[min(len(before), len(after)):] {
		if body, ok := replyBody(m.Raw, id); ok {
			fmt.Fprint(a.stdout, body)
		}
	}
	if n := len(after) - len(before) - 1; n > 0 {
		fmt.Fprintf(a.stdout, "\n%d other mails (to the players, the referee) are queued for 'umpire serve' to send.\n", n)
	}
	if out.Folder == referee.Rejected {
		return exitError{1}
	}
	return nil
}

// replyBody is the text of raw when it answers the mail id.
func replyBody(raw []byte, id string) (string, bool) {
	m, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil || !strings.Contains(m.Header.Get("In-Reply-To"), id) {
		return "", false
	}
	var r io.Reader = m.Body
	if strings.EqualFold(m.Header.Get("Content-Transfer-Encoding"), "quoted-printable") {
		r = quotedprintable.NewReader(r)
	}
	b, err := io.ReadAll(io.LimitReader(r, 1<<20))
	return string(b), err == nil
}
