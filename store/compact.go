package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"
)

// bbolt never gives a file's freed pages back to the disk: PruneSent (or
// anything else that frees space) makes the file stop growing, since later
// writes reuse the pages, but not shrink. Compact writes a copy with only
// what is in use.

// CompactStats is what Compact did.
type CompactStats struct {
	Before, After int64 // the file's size in bytes
}

// compactTxSize is how many bytes of keys and values Compact copies per
// transaction of the new file.
const compactTxSize = 16 << 20

// Compact rewrites the data file at path without its free pages. It holds
// the file as Open does, so it fails with ErrLocked while `umpire serve`
// runs, and checks all of it first (CheckAll): a damaged file is refused
// (that is `umpire recover`'s work). It copies every bucket, key, value and
// bucket sequence into path + ".compact", checks the copy the same way and
// compares what both hold (every game's events and head hash, its secrets'
// names, the outbox's counts, the marks and meta values), and only then
// renames the copy over the file. Until that rename the file is untouched;
// a copy left by a crash is overwritten by the next Compact.
func Compact(ctx context.Context, path string, opts ...Option) (CompactStats, error) {
	var st CompactStats
	if _, err := os.Stat(path); err != nil {
		return st, fmt.Errorf("store: compact %s: %w", path, err) // and not create it
	}
	src, err := Open(path, append(opts, WithCheck(CheckAll))...)
	if err != nil {
		return st, err
	}
	defer src.Close()
	fi, err := os.Stat(path)
	if err != nil {
		return st, err
	}
	st.Before = fi.Size()
	want := src.Report()
	if want == nil {
		return st, fmt.Errorf("store: %s is empty: nothing to compact", path)
	}

	tmp := path + ".compact"
	if err := os.Remove(tmp); err != nil && !errors.Is(err, os.ErrNotExist) {
		return st, err
	}
	keep := false
	defer func() {
		if !keep {
			os.Remove(tmp)
		}
	}()
	if err := ctx.Err(); err != nil {
		return st, err
	}
	dst, err := bolt.Open(tmp, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		return st, fmt.Errorf("store: create %s: %w", tmp, err)
	}
	err = src.guard(func() error { return bolt.Compact(dst, src.db, compactTxSize) })
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return st, fmt.Errorf("store: compact %s into %s: %w", path, tmp, err)
	}

	got, err := CheckFile(ctx, tmp, append(opts, WithCheck(CheckAll))...)
	if err != nil {
		return st, err
	}
	if !got.OK() {
		return st, fmt.Errorf("store: the compacted copy %s does not pass the check (%s); the data file was not changed", tmp, got.Damage[0])
	}
	if err := sameContent(want, got); err != nil {
		return st, fmt.Errorf("store: the compacted copy %s differs from the data file: %v; the data file was not changed", tmp, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return st, err
	}
	keep = true
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		err = d.Sync()
		d.Close()
		if err != nil {
			return st, fmt.Errorf("store: sync %s: %w", filepath.Dir(path), err)
		}
	}
	if fi, err = os.Stat(path); err != nil {
		return st, err
	}
	st.After = fi.Size()
	return st, nil
}

// sameContent compares what two full reports found.
func sameContent(a, b *Report) error {
	if len(a.Games) != len(b.Games) {
		return fmt.Errorf("%d games, not %d", len(b.Games), len(a.Games))
	}
	for i, g := range a.Games {
		h := b.Games[i]
		if g.Game != h.Game || g.Events != h.Events || g.Head != h.Head || !slices.Equal(g.Secrets, h.Secrets) {
			return fmt.Errorf("game %s: %d events ending %s, secrets %v; the copy has game %s: %d events ending %s, secrets %v",
				g.Game, g.Events, short(g.Head), g.Secrets, h.Game, h.Events, short(h.Head), h.Secrets)
		}
	}
	if a.Outbox != b.Outbox {
		return fmt.Errorf("outbox %+v; the copy's %+v", a.Outbox, b.Outbox)
	}
	if a.Marks != b.Marks || a.Meta != b.Meta {
		return fmt.Errorf("%d marks and %d meta values; the copy has %d and %d", a.Marks, a.Meta, b.Marks, b.Meta)
	}
	return nil
}
