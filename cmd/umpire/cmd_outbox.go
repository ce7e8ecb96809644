package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/backend"
)

const outboxDoc = `Lists the outbox: the mail not yet delivered, and the mail refused for good
(as 'umpire serve --outbox' does).

'umpire outbox prune --older-than AGE' drops the bodies of the mail sent
more than AGE ago (30d, 1d12h, 36h: d is a day of 24 hours). A results mail
with its picture is 200-300 KB; the data file keeps every mail umpire sends,
so over a game-year the sent mail is far more than the games' logs. What is
kept of a pruned mail is what 'outbox' and "command: outbox" show: its ID
(so it is never sent twice), recipients, status, attempts, time sent and
last error. Mail not yet delivered and mail refused is never pruned. The
games' logs, export bundles and 'umpire verify' do not need sent mail.

The data file keeps its size: the space is reused for what umpire writes
next, so it stops growing. 'umpire compact' gives the space back to the disk.
Both work while 'umpire serve' is stopped (it holds the data file). With a
PostgreSQL store (--store) prune works while umpire serve runs, and the
database reuses and returns the space itself.`

func cmdOutbox(a *app, ctx context.Context, args []string) error {
	f := a.flags("outbox", "[prune --older-than AGE] [--data DIR | --store URL]", outboxDoc).withData()
	olderThan := f.String("older-than", "", "prune: the `age` of the oldest sent mail to keep whole, e.g. 30d")
	if err := f.parse(args); err != nil {
		return err
	}
	switch {
	case len(f.pos) == 0:
		if *olderThan != "" {
			return usagef("--older-than is for 'umpire outbox prune'")
		}
		return a.outbox(ctx, f, "")
	case f.pos[0] != "prune":
		return usagef("unknown subcommand %q (outbox knows prune)", f.pos[0])
	case len(f.pos) > 1:
		return usagef("unexpected %q", f.pos[1])
	case *olderThan == "":
		return usagef("give --older-than AGE, e.g. --older-than 30d")
	}
	age, err := parseAge(*olderThan)
	if err != nil {
		return usagef("--older-than %q: %v", *olderThan, err)
	}
	st, err := a.open(ctx, f, backend.Options{})
	if err != nil {
		return err
	}
	defer st.Close()
	before := a.now().Add(-age).UTC().Truncate(time.Second)
	res, err := st.PruneSent(ctx, before)
	if err != nil {
		return err
	}
	if res.Messages == 0 {
		fmt.Fprintf(a.stdout, "no sent mail to prune: none was sent before %s\n", before.Format(time.RFC3339))
		return nil
	}
	mails := "mails"
	if res.Messages == 1 {
		mails = "mail"
	}
	fmt.Fprintf(a.stdout, "dropped the bodies of %d sent %s sent before %s: %s (about %s in the data file)\n",
		res.Messages, mails, before.Format(time.RFC3339), megabytes(res.Bytes), megabytes(res.Bytes*4/3))
	fmt.Fprintln(a.stdout, "the data file keeps its size and reuses the space; 'umpire compact' shrinks it")
	return nil
}

// parseAge reads an age as days ("30d"), a Go duration ("36h") or both
// ("1d12h").
func parseAge(s string) (time.Duration, error) {
	bad := fmt.Errorf("give an age such as 30d, 1d12h or 36h")
	var d time.Duration
	rest := s
	if i := strings.IndexByte(s, 'd'); i >= 0 {
		days, err := strconv.Atoi(s[:i])
		if err != nil || days < 0 || days > 100*366 {
			return 0, bad
		}
		d, rest = time.Duration(days)*24*time.Hour, s[i+1:]
		if rest == "" {
			return d, nil
		}
	}
	if rest == "0" {
		return d, nil
	}
	more, err := time.ParseDuration(rest)
	if err != nil || more < 0 {
		return 0, bad
	}
	return d + more, nil
}

func megabytes(n int64) string {
	return fmt.Sprintf("%.1f MB", float64(n)/1e6)
}

const compactDoc = `Rewrites the data file without its free space. Pruning sent mail ('umpire
outbox prune') frees space in the data file but does not shrink it: it is
reused for what umpire writes next. compact writes a copy holding only what
is in use (umpire.db.compact, beside the file), checks the copy as 'umpire
check' does and compares it with the file (every game's events and head
hash, secrets, outbox, intake marks and meta values), and only then puts it
in the file's place. A damaged file is refused: see 'umpire check' and
'umpire recover'. It needs free disk space for the copy, and 'umpire serve'
stopped (it holds the data file).`

func cmdCompact(a *app, ctx context.Context, args []string) error {
	f := a.flags("compact", "[--data DIR]", compactDoc).withData()
	if err := f.parse(args); err != nil {
		return err
	}
	if len(f.pos) > 0 {
		return usagef("unexpected %q", f.pos[0])
	}
	dir, err := f.boltDir("compact", "PostgreSQL gives the space of pruned mail back itself (autovacuum; VACUUM FULL shrinks the tables)")
	if err != nil {
		return err
	}
	path := filepath.Join(dir, backend.DataFile)
	if _, err := os.Stat(path); err != nil {
		return fmt.Errorf("no data file at %s (give --data DIR)", path)
	}
	res, err := store.Compact(ctx, path, store.WithLockTimeout(500*time.Millisecond))
	if err != nil {
		return err
	}
	fmt.Fprintf(a.stdout, "compacted %s: %s -> %s, checked\n", path, megabytes(res.Before), megabytes(res.After))
	return nil
}
