package store

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// File layout. Every top-level bucket exists once Open has run on a writable
// file; readers still treat a missing one as empty, so that OpenReadOnly
// works on a file that was never written.
//
//	umpire/format            "1": the layout version, checked by Open
//	games/<game>/events/<seq>  event record (codec.go); seq 8 bytes big-endian
//	secrets/<game>/<name>    0x01 + value
//	outbox/msgs/<id>         message, JSON (a pruned one without "raw", with "pruned")
//	outbox/order/<n>         id; n 8 bytes big-endian, the queue order
//	outbox/bygame/<g><n>     id; g is uvarint(len(game)) + game
//	outbox/due/<t><id>       empty; t is NextAttempt (dueKey), Pending only
//	marks/<mark>             0x01
//	meta/<key>               0x01 + value
//
// Values that callers may leave empty carry a leading 0x01 so that an empty
// value is never confused with an absent one (bolt may hand back nil for
// both).
var (
	bucketUmpire  = []byte("umpire")
	bucketGames   = []byte("games")
	bucketEvents  = []byte("events")
	bucketSecrets = []byte("secrets")
	bucketOutbox  = []byte("outbox")
	bucketMsgs    = []byte("msgs")
	bucketOrder   = []byte("order")
	bucketByGame  = []byte("bygame")
	bucketDue     = []byte("due")
	bucketMarks   = []byte("marks")
	bucketMeta    = []byte("meta")
	keyFormat     = []byte("format")
)

// fileFormat is the layout version in umpire/format. A file with a higher
// number was written by a newer umpire and is refused rather than misread.
const fileFormat = 1

const valuePresent = 0x01

// scanChunk is how many events Scan decodes per read transaction. Scan calls
// fn outside any transaction: a long replay must not keep bolt from growing
// its memory map (writers would stall), and fn may itself write to the store.
const scanChunk = 512

// Bolt is a Store in a single bbolt file. It is safe for concurrent use; bolt
// runs one write transaction at a time and any number of readers.
type Bolt struct {
	db       *bolt.DB
	path     string
	batching bool
	closed   atomic.Bool
	report   *Report
}

var _ Store = (*Bolt)(nil)

// Option adjusts Open.
type Option func(*boltOptions)

type boltOptions struct {
	lockTimeout   time.Duration
	batching      bool
	maxBatchSize  int
	maxBatchDelay time.Duration
	check         CheckLevel
}

func options(opts []Option) boltOptions {
	o := boltOptions{lockTimeout: time.Second, maxBatchSize: 64, maxBatchDelay: 500 * time.Microsecond, check: CheckPages}
	for _, opt := range opts {
		opt(&o)
	}
	return o
}

// WithLockTimeout sets how long Open waits for another process to release
// the file before failing with ErrLocked (default 1s).
func WithLockTimeout(d time.Duration) Option {
	return func(o *boltOptions) { o.lockTimeout = d }
}

// WithBatching makes Append behave like AppendBatched.
func WithBatching() Option {
	return func(o *boltOptions) { o.batching = true }
}

// WithBatchLimits sets how many AppendBatched calls share one transaction at
// most (default 64) and how long the first waits for others (default 0.5ms).
// The defaults were the best of sizes 16 to 256 and delays 0.5ms to 10ms with
// 8 and 64 writers on a 2-core machine; a longer delay only slows a lone
// writer, a larger size makes each commit slower without more throughput.
func WithBatchLimits(size int, delay time.Duration) Option {
	return func(o *boltOptions) { o.maxBatchSize, o.maxBatchDelay = size, delay }
}

// Open opens or creates the bolt file at path. If another process has it
// open, Open waits for the lock timeout and then fails with an error
// wrapping ErrLocked.
//
// Before bbolt reads an existing file, Open checks it (see check.go): every
// page by default, every record and hash chain as well WithCheck(CheckAll).
// A damaged file fails with a *CorruptError, which wraps ErrCorrupt and
// says what is damaged and what to do.
func Open(path string, opts ...Option) (*Bolt, error) {
	return open(path, false, opts)
}

// OpenReadOnly opens an existing bolt file for reading only. It shares the
// file with other readers but not with a writer; every write method fails
// with ErrReadOnly.
func OpenReadOnly(path string, opts ...Option) (*Bolt, error) {
	return open(path, true, opts)
}

func open(path string, readOnly bool, opts []Option) (*Bolt, error) {
	o := options(opts)
	report, err := precheck(path, o)
	if err != nil {
		return nil, err
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: o.lockTimeout, ReadOnly: readOnly})
	if errors.Is(err, berrors.ErrTimeout) {
		return nil, &lockedError{path: path}
	}
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	db.MaxBatchSize = o.maxBatchSize
	db.MaxBatchDelay = o.maxBatchDelay
	s := &Bolt{db: db, path: path, batching: o.batching, report: report}
	if err := s.init(readOnly); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

type lockedError struct{ path string }

func (e *lockedError) Error() string {
	return fmt.Sprintf("store: data file %s is in use by another umpire process (is `umpire serve` running?)", e.path)
}

func (e *lockedError) Unwrap() error { return ErrLocked }

// init checks the layout version and creates the top-level buckets. A file
// that already has them is not written to, so opening never changes a file
// needlessly.
func (s *Bolt) init(readOnly bool) error {
	ready := false
	err := s.view(func(tx *bolt.Tx) error {
		u := tx.Bucket(bucketUmpire)
		if u == nil {
			return nil
		}
		v := u.Get(keyFormat)
		n, err := strconv.Atoi(string(v))
		if err != nil {
			return fmt.Errorf("%w: format marker %q", ErrCorrupt, v)
		}
		if n > fileFormat {
			return fmt.Errorf("written by a newer umpire (format %d; this one reads up to %d)", n, fileFormat)
		}
		ready = true
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: open %s: %w", s.path, err)
	}
	if ready || readOnly {
		return nil
	}
	err = s.update(func(tx *bolt.Tx) error {
		for _, name := range [][]byte{bucketGames, bucketSecrets, bucketMarks, bucketMeta} {
			if _, err := tx.CreateBucketIfNotExists(name); err != nil {
				return err
			}
		}
		ob, err := tx.CreateBucketIfNotExists(bucketOutbox)
		if err != nil {
			return err
		}
		for _, name := range [][]byte{bucketMsgs, bucketOrder, bucketByGame, bucketDue} {
			if _, err := ob.CreateBucketIfNotExists(name); err != nil {
				return err
			}
		}
		u, err := tx.CreateBucketIfNotExists(bucketUmpire)
		if err != nil {
			return err
		}
		return u.Put(keyFormat, []byte(strconv.Itoa(fileFormat)))
	})
	if err != nil {
		return fmt.Errorf("store: initialise %s: %w", s.path, err)
	}
	return nil
}

// Report returns what the check on open found in a file it passed: notes,
// the games and the outbox. It is nil for a new file and with CheckNone.
func (s *Bolt) Report() *Report { return s.report }

// Path returns the file the store was opened on.
func (s *Bolt) Path() string { return s.path }

// enter checks ctx and closed at the start of every method.
func (s *Bolt) enter(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if s.closed.Load() {
		return ErrClosed
	}
	return nil
}

// guard turns a panic in fn (and, through SetPanicOnFault, a fault on
// bbolt's memory map) into an error. Open checked every page, so neither
// should happen; this is for a file damaged while it is open (a failing
// disk under a running daemon), which must give ErrCorrupt rather than
// kill the process.
func (s *Bolt) guard(fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = &CorruptError{Path: s.path, Damage: []Damage{{Problem: fmt.Sprintf("bbolt failed on it: %v", r)}}}
		}
	}()
	return fn()
}

func (s *Bolt) view(fn func(*bolt.Tx) error) error {
	return s.guard(func() error { return s.db.View(fn) })
}

func (s *Bolt) update(fn func(*bolt.Tx) error) error {
	return s.guard(func() error { return s.db.Update(fn) })
}

func (s *Bolt) batch(fn func(*bolt.Tx) error) error {
	return s.guard(func() error { return s.db.Batch(fn) })
}

// wrap turns bolt's errors into the package's and says which file failed.
// The package's own errors already say what they need to.
func (s *Bolt) wrap(err error) error {
	var ce *ConflictError
	var de *DuplicateError
	var ke *CorruptError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ke):
		return err
	case errors.Is(err, ErrCorrupt):
		// A record that does not decode: say what to do about it.
		return &CorruptError{Path: s.path, Damage: []Damage{{Problem: strings.ReplaceAll(err.Error(), ErrCorrupt.Error()+": ", "")}}}
	case errors.Is(err, berrors.ErrDatabaseNotOpen):
		return ErrClosed
	case errors.Is(err, berrors.ErrDatabaseReadOnly), errors.Is(err, berrors.ErrTxNotWritable):
		return fmt.Errorf("%w: %s", ErrReadOnly, s.path)
	case errors.As(err, &ce), errors.As(err, &de),
		errors.Is(err, ErrInvalid), errors.Is(err, ErrUnknownGame), errors.Is(err, ErrNotFound), errors.Is(err, ErrPruned),
		errors.Is(err, ErrClosed), errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	}
	return fmt.Errorf("store: %s: %w", s.path, err)
}

func seqKey(seq uint64) []byte {
	return binary.BigEndian.AppendUint64(make([]byte, 0, 8), seq)
}

// events returns the events bucket of a game, or nil if the game has none.
func eventsBucket(tx *bolt.Tx, game string) *bolt.Bucket {
	games := tx.Bucket(bucketGames)
	if games == nil {
		return nil
	}
	g := games.Bucket([]byte(game))
	if g == nil {
		return nil
	}
	return g.Bucket(bucketEvents)
}

// head returns the version of a game and the hash of its last event.
func head(ev *bolt.Bucket) (uint64, Hash, error) {
	k, v := ev.Cursor().Last()
	if k == nil {
		return 0, Hash{}, nil
	}
	if len(k) != 8 {
		return 0, Hash{}, fmt.Errorf("%w: event key %x", ErrCorrupt, k)
	}
	h, err := storedHash(v)
	return binary.BigEndian.Uint64(k), h, err
}

// outbox holds the outbox sub-buckets of one transaction.
type outbox struct{ msgs, order, bygame, due *bolt.Bucket }

func outboxOf(tx *bolt.Tx) (outbox, bool) {
	ob := tx.Bucket(bucketOutbox)
	if ob == nil {
		return outbox{}, false
	}
	o := outbox{ob.Bucket(bucketMsgs), ob.Bucket(bucketOrder), ob.Bucket(bucketByGame), ob.Bucket(bucketDue)}
	return o, o.msgs != nil && o.order != nil && o.bygame != nil && o.due != nil
}

// Append implements Store: one bolt write transaction per call, synced to
// disk before it returns. With WithBatching it is AppendBatched. It is
// AppendAll of one batch.
func (s *Bolt) Append(ctx context.Context, b Batch) ([]Event, error) {
	out, err := s.AppendAll(ctx, []Batch{b})
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// AppendAll implements Store: every batch in one bolt write transaction,
// synced to disk before it returns. With WithBatching the transaction is
// shared as AppendBatched's is, and the call still succeeds or fails whole.
func (s *Bolt) AppendAll(ctx context.Context, bs []Batch) ([][]Event, error) {
	run := s.update
	if s.batching {
		run = s.batch
	}
	return s.appendAll(ctx, bs, run)
}

// AppendBatched is Append through bolt's DB.Batch: concurrent calls are
// gathered into one transaction and one fsync, which multiplies throughput
// when many goroutines append at once, at the price of a short wait (see
// WithBatchLimits) for a lone caller. The semantics are Append's: a call that
// fails (a conflict, say) is taken out of the shared transaction and fails
// alone, writing nothing.
func (s *Bolt) AppendBatched(ctx context.Context, b Batch) ([]Event, error) {
	out, err := s.appendAll(ctx, []Batch{b}, s.batch)
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

func (s *Bolt) appendAll(ctx context.Context, bs []Batch, run func(func(*bolt.Tx) error) error) ([][]Event, error) {
	if err := s.enter(ctx); err != nil {
		return nil, err
	}
	if err := checkBatches(bs); err != nil {
		return nil, err
	}
	if len(bs) == 0 {
		return nil, nil
	}
	var out [][]Event
	err := run(func(tx *bolt.Tx) error {
		// DB.Batch may run this more than once; only the last run counts.
		var err error
		out, err = s.appendTx(tx, bs)
		return err
	})
	if err != nil {
		return nil, s.wrap(err)
	}
	return out, nil
}

// appendTx checks every batch before writing anything, so that a refused
// call leaves no trace even when it shares a transaction with others.
// Games are distinct across bs (checkBatches), so the head read for one
// game is not changed by another batch's events.
func (s *Bolt) appendTx(tx *bolt.Tx, bs []Batch) ([][]Event, error) {
	games := tx.Bucket(bucketGames)
	marks := tx.Bucket(bucketMarks)
	ob, ok := outboxOf(tx)
	if games == nil || marks == nil || !ok {
		return nil, fmt.Errorf("%w: top-level buckets missing", ErrCorrupt)
	}

	out := make([][]Event, len(bs))
	evs := make([]*bolt.Bucket, len(bs))
	var keys callKeys
	markStored := func(k string) bool { return marks.Get([]byte(k)) != nil }
	messageStored := func(id string) bool { return ob.msgs.Get([]byte(id)) != nil }
	for i := range bs {
		b := &bs[i]
		var version uint64
		var prev Hash
		ev := eventsBucket(tx, b.Game)
		if ev != nil {
			var err error
			if version, prev, err = head(ev); err != nil {
				return nil, fmt.Errorf("game %q: %w", b.Game, err)
			}
		}
		if err := checkVersion(b, ev != nil, version); err != nil {
			return nil, err
		}
		if err := keys.check(b, markStored, messageStored); err != nil {
			return nil, err
		}
		if i < len(bs)-1 {
			keys.add(b)
		}
		evs[i] = ev
		out[i] = chainEvents(b.Events, version, prev)
	}
	for i := range bs {
		if err := writeBatch(tx, games, marks, ob, &bs[i], evs[i], out[i]); err != nil {
			return nil, err
		}
	}
	// The events are the caller's own: chainEvents copied the payloads and
	// bolt keeps its own copy of what was Put.
	return out, nil
}

// writeBatch writes one checked batch: its chained events into ev (created
// if nil and there are events), its mail, marks, secrets and meta.
func writeBatch(tx *bolt.Tx, games, marks *bolt.Bucket, ob outbox, b *Batch, ev *bolt.Bucket, events []Event) error {
	if len(events) > 0 {
		if ev == nil {
			g, err := games.CreateBucketIfNotExists([]byte(b.Game))
			if err != nil {
				return fmt.Errorf("create game %q: %w", b.Game, err)
			}
			if ev, err = g.CreateBucket(bucketEvents); err != nil {
				return fmt.Errorf("create game %q: %w", b.Game, err)
			}
		}
		// Keys only ever grow, so full pages are never split again.
		ev.FillPercent = 1.0
		for i := range events {
			if err := ev.Put(seqKey(events[i].Seq), encodeEvent(&events[i])); err != nil {
				return fmt.Errorf("game %q event %d: %w", b.Game, events[i].Seq, err)
			}
		}
	}
	for _, m := range b.Outbox {
		if err := ob.load(queued(m)); err != nil {
			return err
		}
	}
	for _, k := range b.Marks {
		if err := marks.Put([]byte(k), []byte{valuePresent}); err != nil {
			return fmt.Errorf("mark %q: %w", k, err)
		}
	}
	if len(b.Secrets) > 0 {
		sb, err := tx.Bucket(bucketSecrets).CreateBucketIfNotExists([]byte(b.Game))
		if err != nil {
			return fmt.Errorf("secrets of game %q: %w", b.Game, err)
		}
		for k, v := range b.Secrets {
			if err := sb.Put([]byte(k), present(v)); err != nil {
				return fmt.Errorf("secret %q of game %q: %w", k, b.Game, err)
			}
		}
	}
	if len(b.Meta) > 0 {
		mb := tx.Bucket(bucketMeta)
		for k, v := range b.Meta {
			if err := mb.Put([]byte(k), present(v)); err != nil {
				return fmt.Errorf("meta %q: %w", k, err)
			}
		}
	}
	return nil
}

func present(v []byte) []byte {
	return append([]byte{valuePresent}, v...)
}

// storedMessage is a Message as the outbox bucket keeps it.
type storedMessage struct {
	V           int           `json:"v"`
	N           uint64        `json:"n"` // position in the queue order
	ID          string        `json:"id"`
	Game        string        `json:"game,omitempty"`
	From        string        `json:"from,omitempty"`
	To          []string      `json:"to,omitempty"`
	Raw         []byte        `json:"raw,omitempty"`
	Created     *stamp        `json:"created,omitempty"`
	Status      MessageStatus `json:"status"`
	Attempts    int           `json:"attempts,omitempty"`
	NextAttempt *stamp        `json:"next,omitempty"`
	LastError   string        `json:"error,omitempty"`
	SentAt      *stamp        `json:"sent,omitempty"`
	// Pruned: PruneSent dropped Raw. Added after the first release without
	// a new "v": an older umpire ignores it and reads a pruned message as a
	// sent one with an empty body.
	Pruned bool `json:"pruned,omitempty"`
}

// messageState is the part of a stored message PruneSent looks at; decoding
// it skips the body.
type messageState struct {
	Status MessageStatus `json:"status"`
	SentAt *stamp        `json:"sent,omitempty"`
	Pruned bool          `json:"pruned,omitempty"`
}

// stamp keeps a time exactly over its whole range, which neither UnixNano
// nor time.Time's JSON form (years 0 to 9999) does.
type stamp struct {
	S int64 `json:"s"`
	N int32 `json:"n,omitempty"`
}

func toStamp(t time.Time) *stamp {
	if t.IsZero() {
		return nil
	}
	return &stamp{S: t.Unix(), N: int32(t.Nanosecond())}
}

func (p *stamp) time() time.Time {
	if p == nil {
		return time.Time{}
	}
	return time.Unix(p.S, int64(p.N)).UTC()
}

func encodeMessage(n uint64, m *Message) ([]byte, error) {
	return json.Marshal(storedMessage{
		V: 1, N: n, ID: m.ID, Game: m.Game, From: m.From, To: m.To, Raw: m.Raw,
		Created: toStamp(m.Created), Status: m.Status, Attempts: m.Attempts,
		NextAttempt: toStamp(m.NextAttempt), LastError: m.LastError, SentAt: toStamp(m.SentAt),
		Pruned: m.Pruned,
	})
}

func decodeMessage(p []byte) (uint64, Message, error) {
	var sm storedMessage
	if err := json.Unmarshal(p, &sm); err != nil {
		return 0, Message{}, fmt.Errorf("%w: outbox message: %v", ErrCorrupt, err)
	}
	if sm.V != 1 {
		return 0, Message{}, fmt.Errorf("%w: outbox message %q has format %d; this umpire reads 1", ErrCorrupt, sm.ID, sm.V)
	}
	return sm.N, Message{
		ID: sm.ID, Game: sm.Game, From: sm.From, To: sm.To, Raw: sm.Raw,
		Created: sm.Created.time(), Status: sm.Status, Attempts: sm.Attempts,
		NextAttempt: sm.NextAttempt.time(), LastError: sm.LastError, SentAt: sm.SentAt.time(),
		Pruned: sm.Pruned,
	}, nil
}

func byGamePrefix(game string) []byte {
	p := binary.AppendUvarint(nil, uint64(len(game)))
	return append(p, game...)
}

func (o outbox) get(id string) (uint64, Message, error) {
	v := o.msgs.Get([]byte(id))
	if v == nil {
		return 0, Message{}, fmt.Errorf("%w: outbox message %q", ErrNotFound, id)
	}
	n, m, err := decodeMessage(v)
	if err != nil {
		return 0, Message{}, fmt.Errorf("outbox message %q: %w", id, err)
	}
	return n, m, nil
}

// Events implements Store.
func (s *Bolt) Events(ctx context.Context, game string, from uint64) ([]Event, error) {
	if err := s.enter(ctx); err != nil {
		return nil, err
	}
	var out []Event
	err := s.view(func(tx *bolt.Tx) error {
		var err error
		out, _, err = readEvents(tx, game, from, 0)
		return err
	})
	if err != nil {
		return nil, s.wrap(err)
	}
	return out, nil
}

// readEvents decodes up to max events (all for max 0) with Seq >= from and
// says whether there are more.
func readEvents(tx *bolt.Tx, game string, from uint64, max int) ([]Event, bool, error) {
	ev := eventsBucket(tx, game)
	if ev == nil {
		return nil, false, fmt.Errorf("%w %q", ErrUnknownGame, game)
	}
	if from < 1 {
		from = 1
	}
	var out []Event
	if max > 0 {
		out = make([]Event, 0, max)
	} else if k, _ := ev.Cursor().Last(); len(k) == 8 && binary.BigEndian.Uint64(k) >= from {
		// Keys run from 1 without gaps (the check on open and every
		// append see to it), so the last key says how many there are.
		out = make([]Event, 0, min(binary.BigEndian.Uint64(k)-from+1, 1<<20))
	}
	in := make(interner)
	c := ev.Cursor()
	for k, v := c.Seek(seqKey(from)); k != nil; k, v = c.Next() {
		if max > 0 && len(out) == max {
			return out, true, nil
		}
		e, err := decodeEvent(v, in)
		if err == nil && (len(k) != 8 || binary.BigEndian.Uint64(k) != e.Seq) {
			err = fmt.Errorf("%w: record of event %d is stored under key %x", ErrCorrupt, e.Seq, k)
		}
		if err != nil {
			return nil, false, fmt.Errorf("game %q at key %x: %w", game, k, err)
		}
		out = append(out, e)
	}
	return out, false, nil
}

// Scan implements Store. It reads scanChunk events per read transaction and
// calls fn between transactions, so fn may write to the store.
func (s *Bolt) Scan(ctx context.Context, game string, from uint64, fn func(Event) error) error {
	for {
		if err := s.enter(ctx); err != nil {
			return err
		}
		var chunk []Event
		var more bool
		err := s.view(func(tx *bolt.Tx) error {
			var err error
			chunk, more, err = readEvents(tx, game, from, scanChunk)
			return err
		})
		if err != nil {
			return s.wrap(err)
		}
		for _, e := range chunk {
			if err := fn(e); err != nil {
				return err
			}
		}
		if !more || len(chunk) == 0 {
			return nil
		}
		from = chunk[len(chunk)-1].Seq + 1
	}
}

// CopyEvents reads the stored records of a game's events with Seq >= from
// in one read transaction and hands fn a copy of each key and value, not
// decoded: the least any reader of a log must do, which benchmarks measure
// loads, replays and checks against (docs/PERFORMANCE.md).
func (s *Bolt) CopyEvents(ctx context.Context, game string, from uint64, fn func(key, value []byte) error) error {
	if err := s.enter(ctx); err != nil {
		return err
	}
	err := s.view(func(tx *bolt.Tx) error {
		ev := eventsBucket(tx, game)
		if ev == nil {
			return fmt.Errorf("%w %q", ErrUnknownGame, game)
		}
		c := ev.Cursor()
		for k, v := c.Seek(seqKey(max(from, 1))); k != nil; k, v = c.Next() {
			if err := fn(cloneBytes(k), cloneBytes(v)); err != nil {
				return err
			}
		}
		return nil
	})
	return s.wrap(err)
}

// Version implements Store.
func (s *Bolt) Version(ctx context.Context, game string) (uint64, error) {
	if err := s.enter(ctx); err != nil {
		return 0, err
	}
	var version uint64
	err := s.view(func(tx *bolt.Tx) error {
		ev := eventsBucket(tx, game)
		if ev == nil {
			return fmt.Errorf("%w %q", ErrUnknownGame, game)
		}
		var err error
		version, _, err = head(ev)
		return err
	})
	return version, s.wrap(err)
}

// Games implements Store.
func (s *Bolt) Games(ctx context.Context) ([]string, error) {
	if err := s.enter(ctx); err != nil {
		return nil, err
	}
	var ids []string
	err := s.view(func(tx *bolt.Tx) error {
		games := tx.Bucket(bucketGames)
		if games == nil {
			return nil
		}
		return games.ForEachBucket(func(k []byte) error {
			ids = append(ids, string(k))
			return nil
		})
	})
	if err != nil {
		return nil, s.wrap(err)
	}
	return ids, nil
}

// value reads a 0x01-prefixed value.
func (s *Bolt) value(ctx context.Context, bucket func(*bolt.Tx) *bolt.Bucket, key string, what string) ([]byte, error) {
	if err := s.enter(ctx); err != nil {
		return nil, err
	}
	var out []byte
	err := s.view(func(tx *bolt.Tx) error {
		var v []byte
		if b := bucket(tx); b != nil {
			v = b.Get([]byte(key))
		}
		if v == nil {
			return fmt.Errorf("%w: %s", ErrNotFound, what)
		}
		if len(v) == 0 || v[0] != valuePresent {
			return fmt.Errorf("%w: %s starts with %#x", ErrCorrupt, what, v[0])
		}
		out = cloneBytes(v[1:])
		return nil
	})
	if err != nil {
		return nil, s.wrap(err)
	}
	return out, nil
}

// Secret implements Store.
func (s *Bolt) Secret(ctx context.Context, game, name string) ([]byte, error) {
	return s.value(ctx, func(tx *bolt.Tx) *bolt.Bucket {
		if sb := tx.Bucket(bucketSecrets); sb != nil {
			return sb.Bucket([]byte(game))
		}
		return nil
	}, name, fmt.Sprintf("secret %q of game %q", name, game))
}

// Meta implements Store.
func (s *Bolt) Meta(ctx context.Context, key string) ([]byte, error) {
	return s.value(ctx, func(tx *bolt.Tx) *bolt.Bucket { return tx.Bucket(bucketMeta) }, key, fmt.Sprintf("meta %q", key))
}

// MetaKeys implements Store.
func (s *Bolt) MetaKeys(ctx context.Context, prefix string) ([]string, error) {
	if err := s.enter(ctx); err != nil {
		return nil, err
	}
	var out []string
	err := s.view(func(tx *bolt.Tx) error {
		mb := tx.Bucket(bucketMeta)
		if mb == nil {
			return nil
		}
		c := mb.Cursor()
		for k, _ := c.Seek([]byte(prefix)); k != nil && bytes.HasPrefix(k, []byte(prefix)); k, _ = c.Next() {
			out = append(out, string(k))
		}
		return nil
	})
	if err != nil {
		return nil, s.wrap(err)
	}
	return out, nil
}

// Marked implements Store.
func (s *Bolt) Marked(ctx context.Context, mark string) (bool, error) {
	if err := s.enter(ctx); err != nil {
		return false, err
	}
	var ok bool
	err := s.view(func(tx *bolt.Tx) error {
		if mb := tx.Bucket(bucketMarks); mb != nil && mark != "" {
			ok = mb.Get([]byte(mark)) != nil
		}
		return nil
	})
	return ok, s.wrap(err)
}

// Due implements Store. It walks the pending index only, so its cost grows
// with the number of due messages, not with the outbox's history.
func (s *Bolt) Due(ctx context.Context, now time.Time, max int) ([]Message, error) {
	if err := s.enter(ctx); err != nil {
		return nil, err
	}
	limit := dueKey(now, "")
	var out []Message
	err := s.view(func(tx *bolt.Tx) error {
		o, ok := outboxOf(tx)
		if !ok {
			return nil
		}
		c := o.due.Cursor()
		for k, _ := c.First(); k != nil; k, _ = c.Next() {
			if len(k) < 8 {
				return fmt.Errorf("%w: outbox index key %x", ErrCorrupt, k)
			}
			if bytes.Compare(k[:8], limit) > 0 || (max > 0 && len(out) == max) {
				break
			}
			_, m, err := o.get(string(k[8:]))
			if err != nil {
				return err
			}
			out = append(out, m)
		}
		return nil
	})
	if err != nil {
		return nil, s.wrap(err)
	}
	return out, nil
}

// Messages implements Store.
func (s *Bolt) Messages(ctx context.Context, game string) ([]Message, error) {
	if err := s.enter(ctx); err != nil {
		return nil, err
	}
	var out []Message
	err := s.view(func(tx *bolt.Tx) error {
		o, ok := outboxOf(tx)
		if !ok {
			return nil
		}
		c := o.order.Cursor()
		k, v := c.First()
		var prefix []byte
		if game != "" {
			prefix = byGamePrefix(game)
			c = o.bygame.Cursor()
			k, v = c.Seek(prefix)
		}
		for ; k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			_, m, err := o.get(string(v))
			if err != nil {
				return err
			}
			out = append(out, m)
		}
		return nil
	})
	if err != nil {
		return nil, s.wrap(err)
	}
	return out, nil
}

// MarkSent implements Store.
func (s *Bolt) MarkSent(ctx context.Context, id string, at time.Time) error {
	return s.move(ctx, id, func(m *Message) error { markSent(m, at); return nil })
}

// Retry implements Store.
func (s *Bolt) Retry(ctx context.Context, id string, next time.Time, reason string) error {
	return s.move(ctx, id, func(m *Message) error { return markRetry(m, next, reason) })
}

// Fail implements Store.
func (s *Bolt) Fail(ctx context.Context, id string, reason string) error {
	return s.move(ctx, id, func(m *Message) error { return markFailed(m, reason) })
}

// move rewrites one message and keeps the pending index in step: an entry
// exactly for each Pending message, under its current NextAttempt.
func (s *Bolt) move(ctx context.Context, id string, change func(*Message) error) error {
	if err := s.enter(ctx); err != nil {
		return err
	}
	err := s.update(func(tx *bolt.Tx) error {
		o, ok := outboxOf(tx)
		if !ok {
			return fmt.Errorf("%w: outbox message %q", ErrNotFound, id)
		}
		n, m, err := o.get(id)
		if err != nil {
			return err
		}
		was, wasNext := m.Status, m.NextAttempt
		if err := change(&m); err != nil {
			return err
		}
		if was == Pending {
			if err := o.due.Delete(dueKey(wasNext, id)); err != nil {
				return err
			}
		}
		if m.Status == Pending {
			if err := o.due.Put(dueKey(m.NextAttempt, id), []byte{}); err != nil {
				return err
			}
		}
		v, err := encodeMessage(n, &m)
		if err != nil {
			return fmt.Errorf("outbox message %q: %w", id, err)
		}
		return o.msgs.Put([]byte(id), v)
	})
	return s.wrap(err)
}

// rawKey starts the body in a stored message, as json.Marshal writes it.
var rawKey = []byte(`,"raw":"`)

// withoutRaw returns the stored message p without its "raw" field, and the
// length of the body that field held, without decoding the body (a results
// mail's is hundreds of KB, which json.Unmarshal would scan twice and
// decode). The body is base64, which holds no quote, and json.Marshal
// escapes every quote within a string, so the first rawKey is the field
// itself. Without one, p is returned as it is, and decoding it reads its
// body, if any, as usual.
func withoutRaw(p []byte) ([]byte, int64) {
	i := bytes.Index(p, rawKey)
	if i < 0 {
		return p, 0
	}
	start := i + len(rawKey)
	j := bytes.IndexByte(p[start:], '"')
	if j < 0 {
		return p, 0
	}
	b64 := p[start : start+j]
	n := len(b64) / 4 * 3
	for k := len(b64) - 1; k >= 0 && b64[k] == '='; k-- {
		n--
	}
	out := make([]byte, 0, len(p)-j-len(rawKey)-1)
	out = append(out, p[:i]...)
	return append(out, p[start+j+1:]...), int64(n)
}

// PruneSent implements Store. It finds the messages to prune in read
// transactions, PruneChunk at a time, decoding no body, and rewrites each
// chunk in one write transaction that checks every message again (a
// message may have moved in between).
func (s *Bolt) PruneSent(ctx context.Context, before time.Time) (PruneStats, error) {
	var st PruneStats
	var after []byte // the last key looked at
	for {
		if err := s.enter(ctx); err != nil {
			return st, err
		}
		var ids [][]byte
		more := false
		err := s.view(func(tx *bolt.Tx) error {
			o, ok := outboxOf(tx)
			if !ok {
				return nil
			}
			c := o.msgs.Cursor()
			k, v := c.First()
			if after != nil {
				if k, v = c.Seek(after); bytes.Equal(k, after) {
					k, v = c.Next()
				}
			}
			for ; k != nil; k, v = c.Next() {
				var ms messageState
				rest, _ := withoutRaw(v)
				if err := json.Unmarshal(rest, &ms); err != nil {
					return fmt.Errorf("%w: outbox message %q: %v", ErrCorrupt, k, err)
				}
				after = cloneBytes(k)
				if prunable(ms.Status, ms.SentAt.time(), ms.Pruned, before) {
					ids = append(ids, after)
					if len(ids) == PruneChunk {
						more = true
						return nil
					}
				}
			}
			return nil
		})
		if err != nil {
			return st, s.wrap(err)
		}
		if len(ids) > 0 {
			var chunk PruneStats
			err = s.update(func(tx *bolt.Tx) error {
				chunk = PruneStats{}
				o, ok := outboxOf(tx)
				if !ok {
					return fmt.Errorf("%w: the outbox buckets are missing", ErrCorrupt)
				}
				for _, id := range ids {
					v := o.msgs.Get(id)
					if v == nil {
						continue
					}
					rest, body := withoutRaw(v)
					n, m, err := decodeMessage(rest)
					if err != nil {
						return fmt.Errorf("outbox message %q: %w", id, err)
					}
					if !prunable(m.Status, m.SentAt, m.Pruned, before) {
						continue
					}
					chunk.Messages++
					chunk.Bytes += body + prune(&m)
					v, err = encodeMessage(n, &m)
					if err != nil {
						return fmt.Errorf("outbox message %q: %w", id, err)
					}
					if err := o.msgs.Put(id, v); err != nil {
						return fmt.Errorf("outbox message %q: %w", id, err)
					}
				}
				return nil
			})
			if err != nil {
				return st, s.wrap(err)
			}
			st.Messages += chunk.Messages
			st.Bytes += chunk.Bytes
		}
		if !more {
			return st, nil
		}
	}
}

// WriteTo writes a consistent copy of the whole file to w, for backups,
// while the store stays in use.
func (s *Bolt) WriteTo(w io.Writer) (int64, error) {
	if s.closed.Load() {
		return 0, ErrClosed
	}
	var n int64
	err := s.view(func(tx *bolt.Tx) error {
		var err error
		n, err = tx.WriteTo(w)
		return err
	})
	return n, s.wrap(err)
}

// Close implements Store. It waits for running transactions; a second Close
// returns ErrClosed.
func (s *Bolt) Close() error {
	if s.closed.Swap(true) {
		return ErrClosed
	}
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("store: close %s: %w", s.path, err)
	}
	return nil
}
