package main

import (
	"context"
	"fmt"
	"time"

	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/backend"
)

const storeDoc = `The store is where umpire keeps the games, the outbox and the intake marks:
the bbolt file umpire.db in the data directory (--data DIR, the default), or
a PostgreSQL database (--store postgres://USER@HOST/DATABASE), which several
umpire daemons may share. Every command that reads games takes --store;
umpire serve also reads store: from umpire.yaml (docs/hosting.md).

  umpire store migrate --store URL      make or update the database's schema
  umpire store status [--store SPEC] [--verify]
                                        kind, schema, games, events, mail pending
  umpire store copy --from SPEC --to SPEC
                                        copy everything into an empty store, verified

A SPEC is a postgres:// URL, bolt:DIR or a data directory. A password never
goes in the URL (it would be seen in ps and in logs): give it in a file,
--store-password-file (--from-password-file, --to-password-file). TLS is
the URL's sslmode: verify-full by default, disable on loopback.`

func cmdStore(a *app, ctx context.Context, args []string) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "-help" {
		fmt.Fprintf(a.stdout, "usage: umpire store migrate|status|copy ...\n\n%s\n", storeDoc)
		if len(args) == 0 {
			return usagef("name what to do: migrate, status or copy")
		}
		return nil
	}
	switch args[0] {
	case "migrate":
		return storeMigrate(a, ctx, args[1:])
	case "status":
		return storeStatus(a, ctx, args[1:])
	case "copy":
		return storeCopy(a, ctx, args[1:])
	}
	return usagef("no store command %q: use migrate, status or copy", args[0])
}

func storeMigrate(a *app, ctx context.Context, args []string) error {
	f := a.flags("store migrate", "--store URL [--store-password-file FILE]", "Makes the PostgreSQL database's schema this umpire's, applying the\nmigrations it lacks in order, and prints each one applied. Running it again\napplies nothing. A database written by a newer umpire is left alone. umpire\nserve and every other command refuse a database whose schema is not current.\nA bbolt file needs no migration.").withData()
	if err := f.parse(args); err != nil {
		return err
	}
	if len(f.pos) > 0 {
		return usagef("unexpected %q", f.pos[0])
	}
	s, err := f.spec()
	if err != nil {
		return err
	}
	if s.Kind() != backend.KindPostgres {
		fmt.Fprintf(a.stdout, "%s: a bbolt file needs no migration (its layout is checked when it is opened): up to date\n", s)
		return nil
	}
	applied, err := backend.Migrate(ctx, s)
	for _, m := range applied {
		fmt.Fprintf(a.stdout, "applied %s\n", m)
	}
	if err != nil {
		return err
	}
	if len(applied) == 0 {
		fmt.Fprintf(a.stdout, "%s: up to date\n", s)
	} else {
		fmt.Fprintf(a.stdout, "%s: schema current\n", s)
	}
	return nil
}

func storeStatus(a *app, ctx context.Context, args []string) error {
	f := a.flags("store status", "[--store SPEC] [--verify]", "Prints the kind of store, its schema, and how many games, events and mails\nnot yet sent it holds. With --verify it checks every game's hash chain\n(store.Verify) and exits 1 if one does not verify.").withData()
	verify := f.Bool("verify", false, "check every game's hash chain too")
	if err := f.parse(args); err != nil {
		return err
	}
	if len(f.pos) > 0 {
		return usagef("unexpected %q", f.pos[0])
	}
	s, err := f.spec()
	if err != nil {
		return err
	}
	st, err := a.open(ctx, f, backend.Options{ReadOnly: s.Kind() == backend.KindBolt})
	if err != nil {
		return err
	}
	defer st.Close()
	w := a.stdout
	switch s.Kind() {
	case backend.KindBolt:
		fmt.Fprintf(w, "store: bbolt file %s\n", s)
	default:
		fmt.Fprintf(w, "store: PostgreSQL %s\nschema: current (this umpire's)\n", s)
	}
	var c backend.Counts
	var broken []string
	if *verify {
		side, err := backend.Survey(ctx, st)
		if err != nil {
			return err
		}
		c, broken = side.Counts, side.Broken
	} else if c, err = backend.Count(ctx, st); err != nil {
		return err
	}
	fmt.Fprintf(w, "games: %d\nevents: %d\noutbox: %d messages, %d pending\nintake marks: %d\nmeta values: %d\n", c.Games, c.Events, c.Messages, c.Pending, c.Marks, c.Meta)
	if !*verify {
		return nil
	}
	for _, b := range broken {
		fmt.Fprintf(w, "DAMAGED %s\n", b)
	}
	if len(broken) > 0 {
		return exitError{1}
	}
	fmt.Fprintf(w, "verified: every game's hash chain is intact\n")
	return nil
}

const copyDoc = `Copies everything in one store into another, empty one: every game's events
with their hashes, the games' private values (dice secrets, players' check
values), the intake marks, the meta values and the outbox with each mail's
status, attempts and times. Then it verifies both stores: every game's hash
chain, each game's number of events and last hash, and the count and a
digest of every other kind of record must agree. It exits 1 if they do not.

The source is only read (a bbolt file is opened read-only, so stop umpire
serve first, or it holds the file). The target must be empty: a new data
directory, or a database made with 'umpire store migrate' and nothing else.

  umpire store copy --from umpire-data --to postgres://umpire@db.example.org/umpire \
      --to-password-file /etc/umpire/db.pw`

func storeCopy(a *app, ctx context.Context, args []string) error {
	f := a.flags("store copy", "--from SPEC --to SPEC", copyDoc).withData()
	from := f.String("from", "", "the `store` to copy (default: the bbolt file in --data)")
	to := f.String("to", "", "the empty `store` to copy into: postgres://USER@HOST/DATABASE, bolt:DIR or a directory")
	fromPW := f.String("from-password-file", "", "a `file` holding the PostgreSQL password of --from")
	toPW := f.String("to-password-file", "", "a `file` holding the PostgreSQL password of --to")
	if err := f.parse(args); err != nil {
		return err
	}
	if len(f.pos) > 0 {
		return usagef("unexpected %q", f.pos[0])
	}
	if *to == "" {
		return usagef("give --to, the empty store to copy into")
	}
	if *from == "" {
		*from = "bolt:" + *f.data
	}
	src, err := specOf(*from, *fromPW, "from")
	if err != nil {
		return err
	}
	dst, err := specOf(*to, *toPW, "to")
	if err != nil {
		return err
	}
	if src.Kind() == dst.Kind() && src.String() == dst.String() {
		return usagef("--from and --to are the same store (%s)", src)
	}
	in, err := backend.Open(ctx, src, backend.Options{ReadOnly: true, Bolt: []store.Option{store.WithLockTimeout(500 * time.Millisecond)}})
	if err != nil {
		return fmt.Errorf("opening --from: %w", err)
	}
	defer in.Close()
	out, err := backend.Open(ctx, dst, backend.Options{Create: true})
	if err != nil {
		return fmt.Errorf("opening --to: %w", err)
	}
	defer out.Close()
	fmt.Fprintf(a.stdout, "copying %s to %s\n", src, dst)
	rep, err := backend.Copy(ctx, in, out, func(p backend.Progress) {
		if p.Chunks%10 == 0 {
			fmt.Fprintf(a.stderr, "copied %d records (%d games, %d events)\n", p.Items, p.Games, p.Events)
		}
	})
	if err != nil {
		return err
	}
	c := rep.To.Counts
	fmt.Fprintf(a.stdout, "copied %d games (%d events), %d private values, %d intake marks, %d meta values, %d outbox messages (%d pending) in %d chunks\n",
		c.Games, c.Events, c.Secrets, c.Marks, c.Meta, c.Messages, c.Pending, rep.Chunks)
	for _, side := range []struct {
		name string
		s    backend.Side
	}{{"source", rep.From}, {"target", rep.To}} {
		fmt.Fprintf(a.stdout, "verified the %s: %d of %d games intact\n", side.name, side.s.Verified, side.s.Games)
		for _, b := range side.s.Broken {
			fmt.Fprintf(a.stdout, "DAMAGED in the %s: %s\n", side.name, b)
		}
	}
	for _, m := range rep.Mismatches {
		fmt.Fprintf(a.stdout, "MISMATCH %s\n", m)
	}
	if !rep.OK() {
		fmt.Fprintf(a.stdout, "the copy does not match its source: do not use %s\n", dst)
		return exitError{1}
	}
	fmt.Fprintln(a.stdout, "the copy matches its source: every game's events and head hash, the private values, marks, meta values and outbox")
	return nil
}
