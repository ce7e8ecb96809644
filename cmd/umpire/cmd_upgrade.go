package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/backend"
	"github.com/umpire-pbem/umpire/store/games"
)

const upgradeDoc = `Rewrites the logs of games written by an older umpire (schema 1, before
November 2026), whose logs kept each player's secret: the orders texts with
their "secret:" line, and an unsalted hash of each secret. Each such log is
rewritten as this umpire writes logs: the secret lines removed, each player's
old secret kept as a check value outside the log (so the players go on with
the secrets they have), and a last event, log.upgraded, that records the old
number of events and head hash. Every rewritten game is verified and
replayed. Games already current are left as they are.

A copy of the data file is written first, as umpire.db.schema1-TIME beside
it; it still holds the secrets: keep it safe, or delete it once you have
checked the games. The head hash in players' earlier results mails no longer
matches the log: tell them (the log.upgraded event names the old one).
Stop 'umpire serve' first: it holds the data file. It works on the bbolt
file only: upgrade a file before copying it to PostgreSQL.`

func cmdUpgrade(a *app, ctx context.Context, args []string) error {
	f := a.flags("upgrade", "[--data DIR]", upgradeDoc).withData()
	if err := f.parse(args); err != nil {
		return err
	}
	if len(f.pos) > 0 {
		return usagef("unexpected %q", f.pos[0])
	}
	dir, err := f.boltDir("upgrade", "games of an older umpire are upgraded in their bbolt file, before it is copied (umpire store copy refuses none, but umpire serve refuses them)")
	if err != nil {
		return err
	}
	*f.data, *f.store = dir, ""
	st, err := a.open(ctx, f, backend.Options{})
	if err != nil {
		return err
	}
	defer st.Close()
	bolt, _ := backend.AsBolt(st)
	svc := &games.Service{Store: bolt, Rules: a.rules, Now: a.now}
	old, err := svc.Outdated(ctx)
	if err != nil {
		return err
	}
	if len(old) == 0 {
		fmt.Fprintln(a.stdout, "every game is current: nothing to upgrade")
		return nil
	}
	backup := filepath.Join(dir, "umpire.db.schema1-"+a.now().UTC().Format("20060102T150405Z"))
	if err := writeBackup(bolt, backup); err != nil {
		return fmt.Errorf("writing the backup %s (nothing was changed): %w", backup, err)
	}
	fmt.Fprintf(a.stdout, "backup written: %s (it still holds the old secrets)\n", backup)
	failed := 0
	for _, id := range old {
		res, err := svc.Upgrade(ctx, id)
		if err != nil {
			fmt.Fprintf(a.stderr, "umpire upgrade: %v\n", err)
			failed++
			continue
		}
		au, err := svc.Verify(ctx, id, games.Known{})
		if err == nil && au.OK() {
			au, err = svc.Replay(ctx, id)
		}
		if err != nil || !au.OK() {
			fmt.Fprintf(a.stderr, "umpire upgrade: game %s was rewritten but does not check: %v %v (the backup has the old log)\n", id, err, au)
			failed++
			continue
		}
		fmt.Fprintf(a.stdout, "%s: upgraded, %d events → %d; old head %s (event %d), new head %s\n", id, res.OldEvents, res.NewEvents, res.OldHead, res.OldEvents, res.NewHead)
	}
	if failed > 0 {
		return exitError{1}
	}
	fmt.Fprintln(a.stdout, "done: tell the players that the head hash of their earlier results mails was replaced (umpire log shows log.upgraded)")
	return nil
}

// writeBackup copies the data file to path, never over an existing file.
func writeBackup(st *store.Bolt, path string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := st.WriteTo(f); err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	return f.Close()
}
