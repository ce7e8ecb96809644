package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/umpire-pbem/umpire/mail/config"
	"github.com/umpire-pbem/umpire/mail/daemon"
	"github.com/umpire-pbem/umpire/mail/hub"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/backend"
)

const serveDoc = `Runs the mail daemon: reads orders from the referee's mailbox by IMAP, records
them, adjudicates, and mails acknowledgements and results by SMTP.

With --config it uses the mail servers of umpire.yaml (see docs/mail.md).
Without it, it starts a local mail hub on this machine (IMAP and SMTP on
loopback, mailboxes kept in the data directory) and talks to it exactly as to
a real provider; it prints how to point a mail program at it.

--outbox lists the mail not yet delivered (and the mail refused for good);
--retry ID sends a refused mail again. Both work on the data directory while
the daemon is stopped (the daemon holds the data file while it runs; mail it
"command: outbox" or "command: retry" instead).

The games are kept in the data directory's umpire.db, or where the
configuration's store: says (a PostgreSQL database; docs/hosting.md), or
where --store says. On PostgreSQL the start-up check is that the schema is
current (umpire store migrate) and that every game's hash chain verifies.`

func cmdServe(a *app, ctx context.Context, args []string) error {
	f := a.flags("serve", "[--config umpire.yaml]", serveDoc).withData()
	cfgPath := f.String("config", "", "the configuration `file` (default: run a local mail hub)")
	hubIMAP := f.String("hub-imap", hub.DefaultIMAPAddr, "local hub: the IMAP `address` to listen on")
	hubSMTP := f.String("hub-smtp", hub.DefaultSMTPAddr, "local hub: the SMTP submission `address` to listen on")
	outbox := f.Bool("outbox", false, "list the outbox and exit")
	retry := f.String("retry", "", "make the failed outbox message `ID` pending again, and exit")
	if err := f.parse(args); err != nil {
		return err
	}
	if len(f.pos) > 0 {
		return usagef("unexpected %q", f.pos[0])
	}
	var cfg *config.Config
	if *cfgPath != "" {
		var err error
		if cfg, err = config.Load(*cfgPath); err != nil {
			return err
		}
		f.useConfig(cfg)
	}
	if *outbox || *retry != "" {
		return a.outbox(ctx, f, *retry)
	}
	level := slog.LevelInfo
	if cfg != nil {
		level = cfg.Log.Level()
	}
	log := slog.New(slog.NewTextHandler(a.stderr, &slog.HandlerOptions{Level: level}))
	spec, err := f.spec()
	if err != nil {
		return err
	}
	st, err := openForServe(ctx, spec, log)
	if err != nil {
		return err
	}
	defer st.Close()
	d := &daemon.Daemon{Config: cfg, Rules: a.rules, All: a.all, Log: log, Now: a.now, Store: st}
	if cfg != nil {
		d.LeaseTTL = cfg.LeaseTTL.D()
	}
	if cfg == nil {
		// The hub outlives ctx: the daemon finishes the mail in hand
		// through it before the hub is closed.
		l, err := daemon.StartLocalHub(context.WithoutCancel(ctx), *f.data, *hubIMAP, *hubSMTP, log)
		if err != nil {
			return fmt.Errorf("starting the local mail hub: %w", err)
		}
		defer l.Hub.Close()
		d.Config, d.PrepareAddresses = l.Config, l.PrepareAddresses
		fmt.Fprint(a.stdout, l.Hub.HowTo())
		fmt.Fprintf(a.stdout, "\numpire reads the mailbox %s: players mail their orders there, and the referee\nmails commands there from the referee's own mailbox, %s. For example, from\n%s to %s:\n", d.Config.From.Address, d.Config.Referee.Address, d.Config.Referee.Address, d.Config.From.Address)
		fmt.Fprintf(a.stdout, "\n  command: new\n  ruleset: RULESET\n  scenario: SCENARIO\n  players:\n    SIDE: alice@%s\n    SIDE: bob@%s\n\nand each player gets a mailbox on the hub (their passwords come in the reply).\n\"command: help\" lists every command. A lost password: stop umpire and run\n  umpire hub passwd referee   (or any user; \"umpire hub users\" lists them)\n", l.Hub.Domain(), l.Hub.Domain())
		for _, u := range slices.Sorted(maps.Keys(l.NewPasswords)) {
			fmt.Fprintf(a.stdout, "New hub user %s, password: %s (shown once; the hub keeps only a hash)\n", u, l.NewPasswords[u])
		}
	}
	return d.Run(ctx)
}

// openForServe opens the store for the daemon after checking all of it.
// A bbolt file is created if need be, and checked through: every page,
// every record and every game's hash chain (store.CheckAll); a damaged
// file is refused before any mail is read or sent, with what is damaged
// and what to do (umpire check, umpire recover). A PostgreSQL store must
// have this umpire's schema (umpire store migrate), and every game's hash
// chain is verified.
func openForServe(ctx context.Context, spec backend.Spec, log *slog.Logger) (store.Store, error) {
	start := time.Now()
	st, err := backend.Open(ctx, spec, backend.Options{Create: true, Bolt: []store.Option{store.WithCheck(store.CheckAll)}})
	if err != nil {
		return nil, err
	}
	if b, ok := backend.AsBolt(st); ok {
		if r := b.Report(); r != nil {
			events := uint64(0)
			for _, g := range r.Games {
				events += g.Events
			}
			log.Info("data file checked: every page, record and hash chain", "games", len(r.Games), "events", events, "ms", time.Since(start).Milliseconds())
			for _, n := range r.Notes {
				log.Warn("data file: " + n)
			}
		}
		return st, nil
	}
	ids, err := st.Games(ctx)
	if err == nil {
		for _, id := range ids {
			if err = store.Verify(ctx, st, id); err != nil {
				break
			}
		}
	}
	if err != nil {
		st.Close()
		return nil, fmt.Errorf("checking %s: %w (nothing was read or sent; umpire store status --verify lists every game that does not verify)", spec, err)
	}
	log.Info("store checked: schema current, every hash chain intact", "store", spec.String(), "games", len(ids), "ms", time.Since(start).Milliseconds())
	return st, nil
}

// outbox lists the outbox, or retries one failed message.
func (a *app) outbox(ctx context.Context, f *flags, retry string) error {
	st, err := a.open(ctx, f, backend.Options{Bolt: []store.Option{store.WithLockTimeout(500 * time.Millisecond)}})
	if errors.Is(err, store.ErrLocked) {
		return fmt.Errorf("%w (is umpire serve running? mail it \"command: outbox\" instead)", err)
	}
	if err != nil {
		return err
	}
	defer st.Close()
	if retry != "" {
		if err := st.Retry(ctx, retry, a.now(), "retry asked by the referee"); err != nil {
			return err
		}
		fmt.Fprintf(a.stdout, "%s will be sent again by umpire serve\n", retry)
		return nil
	}
	msgs, err := st.Messages(ctx, "")
	if err != nil {
		return err
	}
	n := 0
	for _, m := range msgs {
		if m.Status == store.Sent {
			continue
		}
		n++
		fmt.Fprintf(a.stdout, "%-7s %s game=%s to=%s attempts=%d", m.Status, m.ID, m.Game, strings.Join(m.To, ","), m.Attempts)
		if m.LastError != "" {
			fmt.Fprintf(a.stdout, " error=%q", m.LastError)
		}
		fmt.Fprintln(a.stdout)
	}
	fmt.Fprintf(a.stdout, "%d of %d mails not delivered\n", n, len(msgs))
	return nil
}
