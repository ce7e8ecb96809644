package backend

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/umpire-pbem/umpire/store"
)

// How much one Load call of a copy carries at most: a few thousand
// records, and no more than a few megabytes of them (an outbox message
// with a picture is a few hundred KB).
const (
	ChunkItems = 2000
	ChunkBytes = 8 << 20
)

// Counts are what a store holds, counted from its Dump.
type Counts struct {
	Games    int
	Events   uint64
	Secrets  int
	Marks    int
	Meta     int
	Messages int
	Pending  int // of Messages
}

// Head is a game's version and the hash of its last event.
type Head struct {
	Version uint64
	Hash    store.Hash
}

// Side is what Copy found in one store after the copy: its counts, every
// game's head, and a digest of each kind of record, so that the two sides
// can be compared without holding either in memory.
type Side struct {
	Counts
	Heads map[string]Head
	// Verified is how many games store.Verify found intact (all of them
	// when Broken is empty).
	Verified int
	// Broken holds the errors of games whose chain does not verify.
	Broken []string

	digest map[string]store.Hash // by kind: "secret", "mark", "meta", "message"
}

// Report is what Copy did and found.
type Report struct {
	From, To   Side
	Chunks     int           // Load calls
	Took       time.Duration // the copy, without the verification
	Verify     time.Duration // the verification of both sides
	Mismatches []string      // every difference between the two sides
}

// OK reports whether both sides verify and are equal.
func (r *Report) OK() bool {
	return len(r.Mismatches) == 0 && len(r.From.Broken) == 0 && len(r.To.Broken) == 0
}

// Progress is what a copy has loaded so far.
type Progress struct {
	Items, Chunks int
	Counts
}

// ErrNotEmpty is returned by Copy when the target holds anything already.
var ErrNotEmpty = errors.New("the target store is not empty")

// Copy dumps from into to, in Load calls of at most ChunkItems records
// and ChunkBytes bytes, calling progress (if not nil) after each. It
// refuses a target that holds anything (a game, a secret, a mark, a meta
// value or a message) and writes nothing then. Once copied, it runs
// store.Verify on every game of both stores, and compares their heads
// (each game's version and last hash), the counts of each kind of record
// and a digest of each kind (secrets, marks, meta values, outbox messages
// with their states and times): the Report lists every difference. An
// error is returned when the copy could not be made; a copy made but
// found different is a Report that is not OK.
//
// from is not changed; it should not be written while it is copied (a
// bbolt file opened read-only, a daemon stopped).
func Copy(ctx context.Context, from, to store.Store, progress func(Progress)) (*Report, error) {
	d, ok := from.(store.Dumper)
	if !ok {
		return nil, fmt.Errorf("the source store (%T) cannot be read whole (it has no Dump)", from)
	}
	l, ok := to.(store.Loader)
	if !ok {
		return nil, fmt.Errorf("the target store (%T) cannot be written whole (it has no Load)", to)
	}
	if err := checkEmpty(ctx, to); err != nil {
		return nil, err
	}
	start := time.Now()
	rep := &Report{}
	var p Progress
	var chunk []store.Item
	size := 0
	flush := func() error {
		if len(chunk) == 0 {
			return nil
		}
		if err := l.Load(ctx, chunk); err != nil {
			return fmt.Errorf("loading records %d to %d into the target: %w", p.Items-len(chunk)+1, p.Items, err)
		}
		p.Chunks++
		if progress != nil {
			progress(p)
		}
		chunk, size = chunk[:0], 0
		return nil
	}
	lastGame := ""
	err := d.Dump(ctx, func(it store.Item) error {
		if it.Event != nil && it.Game != lastGame {
			p.Games++
			lastGame = it.Game
		}
		count(&p.Counts, &it)
		p.Items++
		chunk = append(chunk, it)
		size += itemSize(&it)
		if len(chunk) >= ChunkItems || size >= ChunkBytes {
			return flush()
		}
		return nil
	})
	if err == nil {
		err = flush()
	}
	if err != nil {
		return nil, fmt.Errorf("copying %d records: %w (the target holds part of the copy: empty it before trying again)", p.Items, err)
	}
	rep.Chunks = p.Chunks
	rep.Took = time.Since(start)
	start = time.Now()
	if rep.From, err = Survey(ctx, from); err != nil {
		return nil, fmt.Errorf("verifying the source: %w", err)
	}
	if rep.To, err = Survey(ctx, to); err != nil {
		return nil, fmt.Errorf("verifying the target: %w", err)
	}
	rep.Verify = time.Since(start)
	rep.Mismatches = compare(&rep.From, &rep.To)
	return rep, nil
}

// checkEmpty refuses a store that holds anything, saying why and what to do.
func checkEmpty(ctx context.Context, s store.Store) error {
	why := ""
	if d, ok := s.(store.Dumper); ok {
		stop := errors.New("not empty")
		err := d.Dump(ctx, func(it store.Item) error {
			why = describe(&it)
			return stop
		})
		if err != nil && !errors.Is(err, stop) {
			return fmt.Errorf("reading the target: %w", err)
		}
	} else {
		games, err := s.Games(ctx)
		if err != nil {
			return err
		}
		msgs, err := s.Messages(ctx, "")
		if err != nil {
			return err
		}
		meta, err := s.MetaKeys(ctx, "")
		if err != nil {
			return err
		}
		switch {
		case len(games) > 0:
			why = fmt.Sprintf("game %q", games[0])
		case len(msgs) > 0:
			why = fmt.Sprintf("outbox message %q", msgs[0].ID)
		case len(meta) > 0:
			why = fmt.Sprintf("meta value %q", meta[0])
		}
	}
	if why == "" {
		return nil
	}
	return fmt.Errorf("%w: it holds %s and more, and a copy never merges two data sets: copy into a new data directory, or a new PostgreSQL database (or schema) made with `umpire store migrate`", ErrNotEmpty, why)
}

func describe(it *store.Item) string {
	switch {
	case it.Event != nil:
		return fmt.Sprintf("game %q", it.Game)
	case it.Secret != nil:
		return fmt.Sprintf("a secret of game %q", it.Game)
	case it.Mark != "":
		return fmt.Sprintf("intake mark %q", it.Mark)
	case it.Meta != nil:
		return fmt.Sprintf("meta value %q", it.Meta.Key)
	case it.Message != nil:
		return fmt.Sprintf("outbox message %q", it.Message.ID)
	}
	return "a record"
}

func count(c *Counts, it *store.Item) {
	switch {
	case it.Event != nil:
		c.Events++
	case it.Secret != nil:
		c.Secrets++
	case it.Mark != "":
		c.Marks++
	case it.Meta != nil:
		c.Meta++
	case it.Message != nil:
		c.Messages++
		if it.Message.Status == store.Pending {
			c.Pending++
		}
	}
}

func itemSize(it *store.Item) int {
	n := 64 + len(it.Game) + len(it.Mark)
	switch {
	case it.Event != nil:
		n += len(it.Event.Payload) + len(it.Event.Type) + len(it.Event.Actor)
	case it.Secret != nil:
		n += len(it.Secret.Key) + len(it.Secret.Value)
	case it.Meta != nil:
		n += len(it.Meta.Key) + len(it.Meta.Value)
	case it.Message != nil:
		n += len(it.Message.Raw) + len(it.Message.ID) + len(it.Message.LastError)
	}
	return n
}

// Survey reads a whole store: its counts, every game's head and a digest
// of each kind of record from its Dump, and store.Verify of every game.
func Survey(ctx context.Context, s store.Store) (Side, error) {
	side := Side{Heads: map[string]Head{}, digest: map[string]store.Hash{}}
	d, ok := s.(store.Dumper)
	if !ok {
		return side, fmt.Errorf("the store (%T) cannot be read whole (it has no Dump)", s)
	}
	err := d.Dump(ctx, func(it store.Item) error {
		count(&side.Counts, &it)
		if it.Event != nil {
			side.Heads[it.Game] = Head{it.Event.Seq, it.Event.Hash}
			return nil
		}
		kind, h := digest(&it)
		x := side.digest[kind]
		for i := range x {
			x[i] ^= h[i]
		}
		side.digest[kind] = x
		return nil
	})
	if err != nil {
		return side, err
	}
	games, err := s.Games(ctx)
	if err != nil {
		return side, err
	}
	side.Games = len(games)
	for _, g := range games {
		if err := store.Verify(ctx, s, g); err != nil {
			if ctx.Err() != nil {
				return side, ctx.Err()
			}
			side.Broken = append(side.Broken, err.Error())
			continue
		}
		side.Verified++
		v, err := s.Version(ctx, g)
		if err != nil {
			return side, err
		}
		if h := side.Heads[g]; h.Version != v {
			side.Broken = append(side.Broken, fmt.Sprintf("game %q: Version says %d events, its dump has %d", g, v, h.Version))
		}
	}
	if len(games) != len(side.Heads) {
		side.Broken = append(side.Broken, fmt.Sprintf("Games lists %d games, the dump has events of %d", len(games), len(side.Heads)))
	}
	return side, nil
}

// digest is one record's SHA-256 over every field, with the kind it is
// summed under; the digests of a kind are combined by XOR, so the order
// records come in does not matter (no record comes twice).
func digest(it *store.Item) (string, store.Hash) {
	h := sha256.New()
	var b [8]byte
	str := func(s string) {
		binary.BigEndian.PutUint64(b[:], uint64(len(s)))
		h.Write(b[:])
		h.Write([]byte(s))
	}
	num := func(n int64) {
		binary.BigEndian.PutUint64(b[:], uint64(n))
		h.Write(b[:])
	}
	tm := func(t time.Time) {
		if t.IsZero() {
			str("zero")
			return
		}
		num(t.Unix())
		num(int64(t.Nanosecond()))
	}
	var kind string
	switch {
	case it.Secret != nil:
		kind = "secret"
		str(it.Game)
		str(it.Secret.Key)
		str(string(it.Secret.Value))
	case it.Mark != "":
		kind = "mark"
		str(it.Mark)
	case it.Meta != nil:
		kind = "meta"
		str(it.Meta.Key)
		str(string(it.Meta.Value))
	case it.Message != nil:
		kind = "message"
		m := it.Message
		str(m.ID)
		str(m.Game)
		str(m.From)
		num(int64(len(m.To)))
		for _, to := range m.To {
			str(to)
		}
		str(string(m.Raw))
		tm(m.Created)
		str(string(m.Status))
		num(int64(m.Attempts))
		tm(m.NextAttempt)
		str(m.LastError)
		tm(m.SentAt)
		str(fmt.Sprint(m.Pruned))
	}
	var out store.Hash
	h.Sum(out[:0])
	return kind, out
}

// compare lists every difference between two surveyed stores.
func compare(a, b *Side) []string {
	var out []string
	diff := func(what string, x, y any) {
		if x != y {
			out = append(out, fmt.Sprintf("%s: %v in the source, %v in the target", what, x, y))
		}
	}
	diff("games", a.Games, b.Games)
	diff("events", a.Events, b.Events)
	diff("secrets", a.Secrets, b.Secrets)
	diff("intake marks", a.Marks, b.Marks)
	diff("meta values", a.Meta, b.Meta)
	diff("outbox messages", a.Messages, b.Messages)
	diff("pending messages", a.Pending, b.Pending)
	for _, g := range slices.Sorted(maps.Keys(a.Heads)) {
		ha := a.Heads[g]
		hb, ok := b.Heads[g]
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("game %q is missing from the target", g))
		case ha != hb:
			out = append(out, fmt.Sprintf("game %q: %d events, head %s in the source; %d events, head %s in the target", g, ha.Version, ha.Hash, hb.Version, hb.Hash))
		}
	}
	for _, g := range slices.Sorted(maps.Keys(b.Heads)) {
		if _, ok := a.Heads[g]; !ok {
			out = append(out, fmt.Sprintf("game %q is in the target only", g))
		}
	}
	for _, kind := range []string{"secret", "mark", "meta", "message"} {
		if a.digest[kind] != b.digest[kind] {
			out = append(out, fmt.Sprintf("the %ss differ in content (their digests differ)", kind))
		}
	}
	return out
}

// Count counts what a store holds from its Dump, without verifying it.
func Count(ctx context.Context, s store.Store) (Counts, error) {
	var c Counts
	d, ok := s.(store.Dumper)
	if !ok {
		return c, fmt.Errorf("the store (%T) cannot be read whole (it has no Dump)", s)
	}
	lastGame := ""
	err := d.Dump(ctx, func(it store.Item) error {
		if it.Event != nil && it.Game != lastGame {
			c.Games++
			lastGame = it.Game
		}
		count(&c, &it)
		return nil
	})
	return c, err
}
