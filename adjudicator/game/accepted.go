package game

import (
	"bytes"
	"encoding/hex"
	"slices"
	"sort"
)

// acceptedIndex maps the digest of every text of orders accepted to where
// it was accepted, to answer a resend of orders already used.
//
// A game's fold is cloned at every submission and every adjudication of a
// replay, and both copies may go on folding; a map copied on write made
// each clone-then-accept cost the whole history. The index is persistent
// instead: sorted runs that are never changed once built, the largest
// first, each at least twice as long as the next (a binary counter). An
// insert makes a run of one and merges it with the runs no longer than it,
// so an entry is copied about log2(n) times over the game's life, a clone
// shares every run, and a lookup is a binary search per run (newest first,
// so that a later acceptance of the same digest wins, as in a map).
type acceptedIndex struct {
	runs [][]acceptedEntry
	n    int // entries, counting a digest accepted twice twice
}

type acceptedEntry struct {
	digest [32]byte
	ref    AcceptedRef
}

func compareDigest(a, b *acceptedEntry) int { return bytes.Compare(a.digest[:], b.digest[:]) }

// parseDigest reads a hex SHA-256 digest; ok is false for anything else.
func parseDigest(s string) (d [32]byte, ok bool) {
	if len(s) != 64 {
		return d, false
	}
	if _, err := hex.Decode(d[:], []byte(s)); err != nil {
		return d, false
	}
	// Only lower-case hex is a digest as Digest writes it; the index keys
	// by bytes, so refuse the other spellings rather than merge them.
	if hex.EncodeToString(d[:]) != s {
		return d, false
	}
	return d, true
}

// with returns the index with one more entry; x is unchanged.
func (x acceptedIndex) with(digest [32]byte, ref AcceptedRef) acceptedIndex {
	run := []acceptedEntry{{digest: digest, ref: ref}}
	n := len(x.runs)
	for n > 0 && len(x.runs[n-1]) <= len(run) {
		run = mergeRuns(x.runs[n-1], run)
		n--
	}
	runs := make([][]acceptedEntry, n+1)
	copy(runs, x.runs[:n])
	runs[n] = run
	return acceptedIndex{runs: runs, n: x.n + 1}
}

// mergeRuns merges two sorted runs into a new one; on equal digests the
// newer run's entry is kept and the older one dropped.
func mergeRuns(older, newer []acceptedEntry) []acceptedEntry {
	out := make([]acceptedEntry, 0, len(older)+len(newer))
	i, j := 0, 0
	for i < len(older) && j < len(newer) {
		switch c := compareDigest(&older[i], &newer[j]); {
		case c < 0:
			out = append(out, older[i])
			i++
		case c > 0:
			out = append(out, newer[j])
			j++
		default:
			i++ // the newer one wins; it is appended in its turn
		}
	}
	out = append(out, older[i:]...)
	return append(out, newer[j:]...)
}

// get looks a digest up, newest run first.
func (x acceptedIndex) get(digest [32]byte) (AcceptedRef, bool) {
	key := acceptedEntry{digest: digest}
	for i := len(x.runs) - 1; i >= 0; i-- {
		run := x.runs[i]
		if k, ok := slices.BinarySearchFunc(run, &key, func(e acceptedEntry, k *acceptedEntry) int { return compareDigest(&e, k) }); ok {
			return run[k].ref, true
		}
	}
	return AcceptedRef{}, false
}

// all returns every digest once with its latest place, sorted by digest.
func (x acceptedIndex) all() []acceptedEntry {
	var out []acceptedEntry
	for _, run := range x.runs {
		out = mergeRuns(out, run)
	}
	return out
}

// fromSorted builds an index of entries sorted by digest without repeats.
func fromSorted(entries []acceptedEntry) acceptedIndex {
	if len(entries) == 0 {
		return acceptedIndex{}
	}
	if !sort.SliceIsSorted(entries, func(i, j int) bool { return compareDigest(&entries[i], &entries[j]) < 0 }) {
		slices.SortStableFunc(entries, func(a, b acceptedEntry) int { return compareDigest(&a, &b) })
	}
	return acceptedIndex{runs: [][]acceptedEntry{entries}, n: len(entries)}
}
