package main

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
)

// The commands for a damaged data file: check, recover and import. See
// docs/recovery.md.

const checkDoc = `Checks the data file through and through, without trusting it: every page
of the file, every stored record, every game's hash chain, bbolt's own
consistency check, and for each game whether its private values are there
to go on (the dice secret of the chain in use, each player's check value,
the text of orders still sealed). Lists every game, intact or damaged, and
the outbox, intake marks and meta values. Exits 1 if anything is damaged.
It is for the bbolt file: for a PostgreSQL store, 'umpire store status
--verify --store URL' checks every game's hash chain.

Every command checks each page of the file when it opens it, and umpire
serve checks everything; this is the command to run when one of them says
the file is damaged. Stop umpire serve first: it holds the file.`

func cmdCheck(a *app, ctx context.Context, args []string) error {
	f := a.flags("check", "[--data DIR]", checkDoc).withData()
	if err := f.parse(args); err != nil {
		return err
	}
	if len(f.pos) > 0 {
		return usagef("unexpected %q", f.pos[0])
	}
	dir, err := f.boltDir("check", "the database keeps its own pages sound; 'umpire store status --verify --store URL' checks every game's hash chain")
	if err != nil {
		return err
	}
	sal, err := salvage(ctx, dir)
	if err != nil {
		return err
	}
	w := a.stdout
	r := sal.Report
	if r.PageSize > 0 {
		fmt.Fprintf(w, "data file %s: %d pages of %d bytes, as of transaction %d\n", r.Path, r.Pages, r.PageSize, r.Txid)
	} else {
		fmt.Fprintf(w, "data file %s: its meta pages cannot be read, so nothing in it can\n", r.Path)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	damaged, events := 0, uint64(0)
	for _, g := range r.Games {
		events += g.Events
		problems := gameProblems(g)
		if g.Intact() {
			health, err := games.Health(sal.Events[g.Game], sal.Secrets[g.Game], a.rules.With(games.MetaModules(sal.Meta)))
			switch {
			case err != nil:
				fmt.Fprintf(w, "%-10s %s  %d events, head %s; its log is intact, but this umpire cannot load it: %v\n", "ok", g.Game, g.Events, short(g.Head.String()), err)
				continue
			case len(health) == 0:
				fmt.Fprintf(w, "%-10s %s  %d events, head %s\n", "ok", g.Game, g.Events, short(g.Head.String()))
				continue
			}
			problems = health
			fmt.Fprintf(w, "%-10s %s  %d events, head %s, intact; but it cannot go on:\n", "INCOMPLETE", g.Game, g.Events, short(g.Head.String()))
		} else {
			fmt.Fprintf(w, "%-10s %s  %d events intact from the first\n", "DAMAGED", g.Game, g.Events)
		}
		damaged++
		for _, p := range problems {
			fmt.Fprintf(w, "%-10s   %s\n", "", p)
		}
	}
	var file []string
	for _, d := range r.Damage {
		if d.Game == "" {
			file = append(file, d.String())
		}
	}
	for _, p := range file {
		fmt.Fprintf(w, "%-10s %s\n", "DAMAGED", p)
	}
	if r.More > 0 {
		fmt.Fprintf(w, "%-10s and %d more problems not listed\n", "", r.More)
	}
	o := r.Outbox
	sent := fmt.Sprintf("%d sent", o.Sent)
	if o.Pruned > 0 {
		sent += fmt.Sprintf(", %d of them pruned", o.Pruned)
	}
	fmt.Fprintf(w, "outbox: %d messages (%d pending, %s, %d failed); %d intake marks; %d meta values\n", o.Messages, o.Pending, sent, o.Failed, r.Marks, r.Meta)
	if damaged == 0 && r.OK() {
		fmt.Fprintf(w, "the data file is sound: %d games, %d events, every hash chain intact\n", len(r.Games), events)
		return nil
	}
	switch {
	case len(r.Games) == 0:
		fmt.Fprintf(w, "The file's own structure is damaged and no game can be read from it")
	default:
		fmt.Fprintf(w, "%d of %d games damaged or unable to go on", damaged, len(r.Games))
		if len(file) > 0 {
			fmt.Fprintf(w, "; the file's own structure is damaged too (games stored on a damaged page may be missing from this list)")
		}
	}
	fmt.Fprintf(w, ".\nTo rebuild: umpire recover --data %s --to NEWDIR --bundles BUNDLEDIR (intact games are copied as they are; see docs/recovery.md)\n", dir)
	return exitError{1}
}

// gameProblems lists a damaged game's problems, as check prints them.
func gameProblems(g store.GameReport) []string {
	var out []string
	for _, d := range g.Damage {
		p := d.Problem
		if d.Seq > 0 {
			p = fmt.Sprintf("event %d: %s", d.Seq, p)
		}
		if d.Bucket != "" && d.Seq == 0 {
			p = fmt.Sprintf("%s: %s", d.Bucket, p)
		}
		out = append(out, p)
	}
	return out
}

// salvage reads whatever is readable in DIR/umpire.db.
func salvage(ctx context.Context, dir string) (*store.Salvaged, error) {
	path := filepath.Join(dir, "umpire.db")
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("no data file at %s (give --data DIR)", path)
	}
	sal, err := store.Salvage(ctx, path)
	if errors.Is(err, store.ErrLocked) {
		return nil, fmt.Errorf("%w: stop it first", err)
	}
	return sal, err
}

const recoverDoc = `Builds a new data file in NEWDIR from a damaged one, which it only reads:

  - every game intact in the damaged file is copied exactly: its events (the
    same hashes) and its private values (dice secrets, players' check values,
    the texts of sealed orders);
  - every damaged game is rebuilt from its last export bundle BUNDLEDIR/GAME.tar,
    which must verify, or from the intact beginning of its log in the damaged
    file, whichever is longer when they agree (the bundle when they do not);
  - the outbox, the intake marks and the meta values are copied as far as
    they can be read. Mail of rebuilt games not sent yet is marked failed,
    not sent: it may tell of events the rebuilt game no longer has.

A bundle holds no private values. What the damaged file no longer has of a
rebuilt game's is made good and printed: a fresh dice chain committed by the
referee (the players must be told), new player secrets (send each player
theirs), hidden orders whose text is lost dropped (their sides send them
again). Exits 1 if a damaged game could not be rebuilt.

Then check NEWDIR with umpire check, keep the damaged file, put the new one in
its place, and tell the players of every rebuilt game (docs/recovery.md).`

func cmdRecover(a *app, ctx context.Context, args []string) error {
	f := a.flags("recover", "--data DAMAGEDDIR --to NEWDIR [--bundles BUNDLEDIR]", recoverDoc).withData()
	to := f.String("to", "", "the new data `directory` to build (must not hold a data file)")
	bundles := f.String("bundles", "", "the `directory` of export bundles, GAME.tar each")
	if err := f.parse(args); err != nil {
		return err
	}
	if len(f.pos) > 0 {
		return usagef("unexpected %q", f.pos[0])
	}
	if *to == "" {
		return usagef("give --to NEWDIR, the directory of the new data file")
	}
	newPath := filepath.Join(*to, "umpire.db")
	if _, err := os.Stat(newPath); err == nil {
		return fmt.Errorf("%s exists already: recover builds a new data file, give an empty --to directory", newPath)
	}
	if *bundles != "" {
		if fi, err := os.Stat(*bundles); err != nil || !fi.IsDir() {
			return fmt.Errorf("--bundles %s is not a directory", *bundles)
		}
	}
	dir, err := f.boltDir("recover", "with PostgreSQL, restore the database from its backups, or import the games' export bundles into a new one (umpire import --store URL)")
	if err != nil {
		return err
	}
	sal, err := salvage(ctx, dir)
	if err != nil {
		return err
	}
	w := a.stdout
	if sal.OK() {
		fmt.Fprintf(w, "reading %s: its pages, records and hash chains are sound\n", sal.Path)
	} else {
		fmt.Fprintf(w, "reading %s: damaged (%s; umpire check lists them)\n", sal.Path, plural(len(sal.Damage)+sal.More, "problem"))
	}
	if err := os.MkdirAll(*to, 0o700); err != nil {
		return err
	}
	st, err := store.Open(newPath)
	if err != nil {
		return err
	}
	svc := &games.Service{Store: st, Rules: a.rules, Now: a.now}
	rec, err := games.Recover(ctx, sal, svc, *bundles)
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("%w (the new data file in %s is incomplete: delete it and try again)", err, *to)
	}
	for _, r := range rec.Copied {
		a.printRestored("copied", r)
	}
	for _, r := range rec.Restored {
		a.printRestored("REBUILT", r)
	}
	for _, l := range rec.Lost {
		fmt.Fprintf(w, "%-8s %s  not recovered: %s\n", "LOST", l.Game, l.Why)
	}
	for _, p := range rec.Unused {
		fmt.Fprintf(w, "unused: %s (its game is intact)\n", p)
	}
	fmt.Fprintf(w, "outbox: %d messages copied", rec.Messages)
	if rec.Held > 0 {
		fmt.Fprintf(w, " (%d of rebuilt or lost games not sent yet: marked failed; `umpire serve --retry ID` sends one)", rec.Held)
	}
	fmt.Fprintf(w, "; %d intake marks; %d meta values\n", rec.Marks, rec.Meta)
	rep, err := store.CheckFile(ctx, newPath)
	switch {
	case err != nil:
		return fmt.Errorf("checking the new data file: %w", err)
	case !rep.OK():
		return fmt.Errorf("the new data file does not check: %s", rep.Damage[0])
	}
	fmt.Fprintf(w, "new data file: %s (checked: sound)\n", newPath)
	fmt.Fprintf(w, "Keep the damaged file; put the new one in its place (move %s to %s) before umpire serve.\n", *to, dir)
	if len(rec.Restored) > 0 {
		fmt.Fprintln(w, "Tell the players of every rebuilt game what happened and what it lost (docs/recovery.md).")
	}
	if len(rec.Lost) > 0 {
		return exitError{1}
	}
	return nil
}

// printRestored prints what became of one game, and what the players of a
// changed one must be told.
func (a *app) printRestored(verb string, r *games.Restored) {
	w := a.stdout
	fmt.Fprintf(w, "%-8s %s  %d events, head %s, from %s\n", verb, r.Game, r.Events, short(r.Head.String()), r.From)
	say := func(format string, args ...any) { fmt.Fprintf(w, "%-8s   %s\n", "", fmt.Sprintf(format, args...)) }
	if r.Unchecked != "" {
		say("copied as it was without loading it: %s", r.Unchecked)
	}
	if r.Damage != "" {
		say("in the damaged file: %s", r.Damage)
	}
	if r.Damage != "" && len(r.Kept) > 0 {
		say("kept from the damaged file: %s", strings.Join(r.Kept, ", "))
	}
	if r.OldEvents > 0 {
		say("its log had %d events, head %s, where it came from", r.OldEvents, short(r.OldHead.String()))
	}
	for _, c := range r.Cut {
		say("dropped %s", c)
	}
	if c := r.NewChain; c != nil {
		say("dice: the secret of the chain in use was lost; event %d commits a fresh chain %d, commitment %s, for adjudications from %d on. Tell the players: the dice of the old chain's unused seeds will never be rolled.", r.ChainSeq, c.Chain, c.Commitment, c.FromK)
	}
	for _, side := range slices.Sorted(maps.Keys(r.NewSecrets)) {
		say("new secret of %s's player: %s (the old one is lost; send it to that player alone)", side, r.NewSecrets[side])
	}
	for _, l := range r.Lost {
		say("lost: %s", l)
	}
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

const importDoc = `Adds the game of an export bundle to the data file (created if need be),
for instance to move a game to another referee. The bundle must verify
(hash chain, seeds, dice, every file, a replay with this build's rules) and
the game must not be in the data file yet.

A bundle holds no private values, so the game gets a fresh dice chain,
committed by the referee in its log, and new player secrets, printed here
for the referee to send each player; hidden orders whose text is sealed in
the bundle are dropped and must be sent again. See docs/recovery.md.`

func cmdImport(a *app, ctx context.Context, args []string) error {
	f := a.flags("import", "BUNDLE.tar [--data DIR]", importDoc).withData()
	if err := f.parse(args); err != nil {
		return err
	}
	if len(f.pos) != 1 {
		return usagef("give the bundle")
	}
	in, err := openCapped(f.pos[0], maxBundle, "an audit bundle")
	if err != nil {
		return err
	}
	defer in.Close()
	svc, done, err := a.service(ctx, f, true)
	if err != nil {
		return err
	}
	defer done()
	r, err := svc.Import(ctx, in, nil)
	if err != nil {
		return fmt.Errorf("%s: %w", f.pos[0], err)
	}
	a.printRestored("imported", r)
	if r.Changed() {
		fmt.Fprintln(a.stdout, "Tell the players of the game what changed (docs/recovery.md).")
	}
	return nil
}
