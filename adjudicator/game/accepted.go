package game

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"slices"
	"sort"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
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
	// base is the index a snapshot restored, still packed (packAccepted):
	// it is searched where it lies rather than decoded, so that loading a
	// game from its snapshot costs nothing per order of its history.
	base packedIndex
}

// packedIndex is index entries packed in fixed-width records sorted by
// digest, with the strings they name.
type packedIndex struct {
	b     []byte
	table []string
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
	return acceptedIndex{runs: runs, base: x.base}
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
	return x.base.get(digest)
}

// all returns every digest once with its latest place, sorted by digest.
func (x acceptedIndex) all() []acceptedEntry {
	out := x.base.all()
	for _, run := range x.runs {
		out = mergeRuns(out, run)
	}
	return out
}

// A packed entry: digest, event (8 bytes), turn (8, two's complement),
// phase and side (4 each, indexes in the table), time (8 bytes of Unix
// seconds, 4 of nanoseconds, 1 that is 0 for UTC and 1 for local).
const packedLen = 32 + 8 + 8 + 4 + 4 + 8 + 4 + 1

// packAccepted packs entries sorted by digest.
func packAccepted(all []acceptedEntry) packedIndex {
	p := packedIndex{b: make([]byte, 0, len(all)*packedLen)}
	index := map[string]uint32{}
	str := func(s string) uint32 {
		i, ok := index[s]
		if !ok {
			i = uint32(len(p.table))
			index[s] = i
			p.table = append(p.table, s)
		}
		return i
	}
	for _, e := range all {
		p.b = append(p.b, e.digest[:]...)
		p.b = binary.BigEndian.AppendUint64(p.b, e.ref.Seq)
		p.b = binary.BigEndian.AppendUint64(p.b, uint64(int64(e.ref.Turn)))
		p.b = binary.BigEndian.AppendUint32(p.b, str(e.ref.Phase))
		p.b = binary.BigEndian.AppendUint32(p.b, str(string(e.ref.Side)))
		p.b = binary.BigEndian.AppendUint64(p.b, uint64(e.ref.Time.Unix()))
		p.b = binary.BigEndian.AppendUint32(p.b, uint32(e.ref.Time.Nanosecond()))
		local := byte(0)
		if e.ref.Time.Location() != time.UTC {
			local = 1
		}
		p.b = append(p.b, local)
	}
	return p
}

// checkPacked checks the shape of a packed index read from a snapshot.
// Its order is not checked (that would cost a pass over every order of
// the game's history at every load): a snapshot is bound to the hash of
// its event and written by this code, and an index out of order could
// only make a resend go unrecognised.
func checkPacked(p packedIndex) error {
	if len(p.b)%packedLen != 0 {
		return errors.New("the index of accepted texts is cut")
	}
	return nil
}

func (p packedIndex) len() int { return len(p.b) / packedLen }

func (p packedIndex) entry(i int) acceptedEntry {
	r := p.b[i*packedLen : (i+1)*packedLen]
	var e acceptedEntry
	copy(e.digest[:], r)
	e.ref.Seq = binary.BigEndian.Uint64(r[32:])
	e.ref.Turn = int(int64(binary.BigEndian.Uint64(r[40:])))
	e.ref.Phase = p.str(binary.BigEndian.Uint32(r[48:]))
	e.ref.Side = adjudicator.Side(p.str(binary.BigEndian.Uint32(r[52:])))
	e.ref.Time = time.Unix(int64(binary.BigEndian.Uint64(r[56:])), int64(binary.BigEndian.Uint32(r[64:])))
	if r[68] == 0 {
		e.ref.Time = e.ref.Time.UTC()
	}
	return e
}

func (p packedIndex) str(i uint32) string {
	if int(i) < len(p.table) {
		return p.table[i]
	}
	return ""
}

func (p packedIndex) get(digest [32]byte) (AcceptedRef, bool) {
	n := p.len()
	i := sort.Search(n, func(i int) bool { return bytes.Compare(p.b[i*packedLen:i*packedLen+32], digest[:]) >= 0 })
	if i < n && bytes.Equal(p.b[i*packedLen:i*packedLen+32], digest[:]) {
		return p.entry(i).ref, true
	}
	return AcceptedRef{}, false
}

func (p packedIndex) all() []acceptedEntry {
	out := make([]acceptedEntry, p.len())
	for i := range out {
		out[i] = p.entry(i)
	}
	return out
}
