package store

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// Checking a data file before anything trusts it: Open walks every page
// (pagewalk.go) before bbolt reads a file, CheckFile reports on a file as
// `umpire check` prints it, and Salvage reads what is intact for `umpire
// recover`. layout, below, is what the walk knows of umpire's buckets.

// CheckLevel says how much Open checks before it hands the file to bbolt.
type CheckLevel int

const (
	// CheckPages walks every page (see pagewalk.go): enough that nothing
	// can crash, and cheap. Records are checked as they are read.
	CheckPages CheckLevel = iota + 1
	// CheckAll also decodes every stored record, checks every game's hash
	// chain, and runs bbolt's own consistency check.
	CheckAll
	// CheckNone trusts the file. Only for tools that examine a file in
	// another way, and for tests that forge damage.
	CheckNone
)

// WithCheck sets what Open checks (default CheckPages).
func WithCheck(l CheckLevel) Option {
	return func(o *boltOptions) { o.check = l }
}

// Damage is one thing wrong in a data file.
type Damage struct {
	Bucket  string // the bucket where it was found, e.g. "games/race-1/events"; "" for the file's own structure
	Game    string // the game it harms; "" when none, or when it cannot be told which
	Seq     uint64 // the first event of Game's log that is lost or wrong; 0 when not about one event
	Problem string // what is wrong, with the page number when it is about a page
}

func (d Damage) String() string {
	switch {
	case d.Game != "" && d.Seq > 0:
		return fmt.Sprintf("game %s, event %d: %s", d.Game, d.Seq, d.Problem)
	case d.Game != "":
		return fmt.Sprintf("game %s: %s", d.Game, d.Problem)
	case d.Bucket != "":
		return fmt.Sprintf("%s: %s", d.Bucket, d.Problem)
	}
	return d.Problem
}

// CorruptError says that a data file is damaged: what is wrong, and what to
// do about it. It wraps ErrCorrupt.
type CorruptError struct {
	Path   string
	Damage []Damage // everything found, or at least the first problem
}

func (e *CorruptError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "store: the data file %s is damaged: ", e.Path)
	if len(e.Damage) == 0 {
		b.WriteString("(no details)")
	} else {
		b.WriteString(e.Damage[0].String())
	}
	if n := len(e.Damage) - 1; n == 1 {
		b.WriteString(" (and 1 more problem)")
	} else if n > 1 {
		fmt.Fprintf(&b, " (and %d more problems)", n)
	}
	dir := filepath.Dir(e.Path)
	fmt.Fprintf(&b, ". Run `umpire check --data %s` to see every damaged game, and `umpire recover --data %s --to NEWDIR --bundles DIR` to build a new data file from what is intact and the export bundles (see docs/recovery.md)", dir, dir)
	return b.String()
}

func (e *CorruptError) Unwrap() error { return ErrCorrupt }

// Report is what checking a data file found.
type Report struct {
	Path     string
	PageSize int
	Pages    uint64 // pages in use or free (bbolt's high water mark)
	Txid     uint64 // the last transaction, as of which the file is read
	Full     bool   // records were decoded and hash chains checked, not only pages
	// Notes are odd but harmless, such as a meta page that fails its
	// checksum (bbolt then reads the file as of the other one).
	Notes  []string
	Damage []Damage     // everything wrong, in the order found
	Games  []GameReport // every game found, in id order
	Outbox OutboxReport // the outbox, as far as readable
	Marks  int          // intake marks
	Meta   int          // global meta values
	More   int          // damage found past the first maxDamage, not listed
	Bolt   []string     // what bbolt's own check said (CheckAll, when the pages were sound)
}

// GameReport is one game in a Report.
type GameReport struct {
	Game    string
	Events  uint64   // the events that chain unbroken from event 1
	Head    Hash     // the hash of the last of them
	Secrets []string // the names of its readable secrets, sorted
	Damage  []Damage // what is wrong with it; empty when it is intact
}

// Intact reports whether nothing is wrong with the game.
func (g *GameReport) Intact() bool { return len(g.Damage) == 0 }

// OutboxReport counts the outbox's messages by status, and the sent ones
// whose body PruneSent dropped.
type OutboxReport struct {
	Messages, Pending, Sent, Failed int
	Pruned                          int
}

// OK reports whether nothing is wrong with the file.
func (r *Report) OK() bool { return len(r.Damage) == 0 }

// Game returns the report of one game, or nil.
func (r *Report) Game(id string) *GameReport {
	for i := range r.Games {
		if r.Games[i].Game == id {
			return &r.Games[i]
		}
	}
	return nil
}

// Salvaged is everything readable in a data file, as Salvage found it.
type Salvaged struct {
	*Report
	Events   map[string][]Event           // each game's events that chain unbroken from event 1
	Secrets  map[string]map[string][]byte // each game's readable secrets
	Messages []Message                    // every readable outbox message, in the order queued
	Marks    []string                     // every readable intake mark
	Meta     map[string][]byte            // every readable global value
}

// CheckFile examines the data file at path without trusting it: it never
// hands a damaged page to bbolt. It holds the file as a reader while it
// works (so it fails with ErrLocked while `umpire serve` runs). A damaged
// file is not an error: the Report says what is wrong. With CheckAll (the
// default here) it decodes every record and checks every hash chain.
func CheckFile(ctx context.Context, path string, opts ...Option) (*Report, error) {
	o := options(append([]Option{WithCheck(CheckAll)}, opts...))
	s, err := examine(ctx, path, o, false)
	if err != nil {
		return nil, err
	}
	return s.Report, nil
}

// Salvage reads everything readable in the data file at path, like
// CheckFile with CheckAll, and keeps it: every game's events as far as they
// chain unbroken from event 1, its secrets, the outbox, marks and meta.
func Salvage(ctx context.Context, path string, opts ...Option) (*Salvaged, error) {
	o := options(append([]Option{WithCheck(CheckAll)}, opts...))
	o.check = CheckAll
	return examine(ctx, path, o, true)
}

// precheck is what Open does before bbolt opens the file.
func precheck(path string, o boltOptions) (*Report, error) {
	if o.check == CheckNone {
		return nil, nil
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() == 0 {
		return nil, nil // nothing yet: bbolt creates it (or says why it cannot)
	}
	s, err := examine(context.Background(), path, o, false)
	if err != nil {
		return nil, err
	}
	if !s.OK() {
		return nil, &CorruptError{Path: path, Damage: s.Damage}
	}
	return s.Report, nil
}

// examine walks the file. It opens it with bbolt read-only first, which is
// safe on any file (bbolt reads only the two meta pages then) and takes the
// shared lock, so that no writer changes the file under the walk.
func examine(ctx context.Context, path string, o boltOptions, keep bool) (*Salvaged, error) {
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: o.lockTimeout, ReadOnly: true})
	switch {
	case errors.Is(err, berrors.ErrTimeout):
		return nil, &lockedError{path: path}
	case errors.Is(err, os.ErrNotExist):
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	case err == nil:
		defer db.Close()
	}
	// Any other error from bbolt is about the meta pages; the walk says
	// exactly what.
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	rep := &Report{Path: path, Full: o.check == CheckAll}
	s := &Salvaged{Report: rep}
	l := newLayout(s, o.check == CheckAll, keep)
	w := &walker{ctx: ctx, r: &blockReader{r: f, size: fi.Size()}, size: fi.Size(), rep: rep, v: l}
	if err := w.run(); err != nil {
		return nil, err
	}
	l.finish()
	if rep.OK() && rep.Full && db != nil {
		boltCheck(db, rep)
	}
	return s, nil
}

// boltCheck runs bbolt's own check, a second opinion, on a file whose pages
// the walk found sound (only then is it safe: tx.Check follows page numbers
// without bounds, on a goroutine of its own where nothing can catch a
// fault).
func boltCheck(db *bolt.DB, rep *Report) {
	_ = db.View(func(tx *bolt.Tx) error {
		for err := range tx.Check() {
			rep.Bolt = append(rep.Bolt, err.Error())
			if len(rep.Damage) < maxDamage {
				rep.Damage = append(rep.Damage, Damage{Problem: "bbolt's check: " + err.Error()})
			} else {
				rep.More++
			}
		}
		return nil
	})
}

// Reports stop listing damage after this much; the rest is counted.
const (
	maxDamage     = 200
	maxGameDamage = 10
)

// layout is the visitor that knows umpire's buckets (see bolt.go).
type layout struct {
	s      *Salvaged
	full   bool // decode records and check chains
	keep   bool // keep what is read (Salvage)
	games  map[string]*GameReport
	chains map[string]*chain
	in     interner
	msgs   []queuedMessage
	msgIDs map[string]bool
	index  []string // message IDs the outbox indexes name
	seen   map[string]bool
	format bool
	// outbox messages marked pruned that are not sent or kept a body
	oddPruned int
	firstOdd  string
}

type queuedMessage struct {
	n uint64
	m Message
}

// chain is the state of one game's log as its events go by.
type chain struct {
	next   uint64 // the event expected next
	prev   Hash
	broken bool
}

func newLayout(s *Salvaged, full, keep bool) *layout {
	l := &layout{s: s, full: full, keep: keep, games: map[string]*GameReport{}, chains: map[string]*chain{},
		in: make(interner), msgIDs: map[string]bool{}, seen: map[string]bool{}}
	if keep {
		s.Events = map[string][]Event{}
		s.Secrets = map[string]map[string][]byte{}
		s.Meta = map[string][]byte{}
	}
	return l
}

func (l *layout) rep() *Report { return l.s.Report }

func (l *layout) game(id string) *GameReport {
	g := l.games[id]
	if g == nil {
		g = &GameReport{Game: id}
		l.games[id] = g
	}
	return g
}

// problem implements visitor. Damage in the games or secrets bucket below
// a game's own entry harms that game; a page of those buckets themselves
// harms the games stored on it, which cannot be told.
func (l *layout) problem(path []string, key []byte, seq uint64, format string, args ...any) {
	d := Damage{Bucket: strings.Join(path, "/"), Seq: seq, Problem: fmt.Sprintf(format, args...)}
	switch {
	case len(path) >= 2 && (path[0] == "games" || path[0] == "secrets"):
		d.Game = path[1]
	case len(path) == 1 && key != nil && (path[0] == "games" || path[0] == "secrets"):
		d.Game = string(key)
	}
	l.record(d)
}

func (l *layout) record(d Damage) {
	r := l.rep()
	if d.Game != "" {
		if g := l.game(d.Game); len(g.Damage) < maxGameDamage {
			g.Damage = append(g.Damage, d)
		}
	}
	if len(r.Damage) < maxDamage {
		r.Damage = append(r.Damage, d)
	} else {
		r.More++
	}
}

func (l *layout) bucket(path []string, name []byte) {
	n := string(name)
	switch {
	case len(path) == 0:
		switch n {
		case "games", "secrets", "outbox", "marks", "meta", "umpire":
			l.seen[n] = true
		case "snapshots": // a cache of folds (snapshot.go), never trusted: not checked
		default:
			l.problem(path, name, 0, "unexpected bucket %q at the top of the file", name)
		}
	case len(path) == 1 && path[0] == "games":
		l.game(n)
		l.chains[n] = &chain{next: 1}
	case len(path) == 1 && path[0] == "secrets":
		if l.keep {
			l.s.Secrets[n] = map[string][]byte{}
		}
	case len(path) == 1 && path[0] == "outbox":
		switch n {
		case "msgs", "order", "bygame", "due":
		default:
			l.problem(path, name, 0, "unexpected bucket %q", name)
		}
	case len(path) == 2 && path[0] == "games" && n == "events":
	default:
		l.problem(path, name, 0, "unexpected bucket %q", name)
	}
}

func (l *layout) leave(path []string) {
	if len(path) == 2 && path[0] == "games" {
		c := l.chains[path[1]]
		if c != nil && c.next == 1 && !c.broken && l.game(path[1]).Intact() {
			l.problem(path, nil, 0, "the game has no events")
		}
	}
}

func (l *layout) value(path []string, k, v []byte) {
	switch {
	case len(path) == 0:
		l.problem(path, k, 0, "unexpected value %q at the top of the file", k)
	case path[0] == "games":
		if len(path) == 3 && path[2] == "events" {
			l.event(path, k, v)
			return
		}
		l.problem(path, k, 0, "%q should be a bucket but holds a value", k)
	case path[0] == "secrets":
		if len(path) != 2 {
			l.problem(path, k, 0, "%q should be a bucket but holds a value", k)
			return
		}
		if len(v) == 0 || v[0] != valuePresent {
			l.problem(path, nil, 0, "secret %q does not decode", k)
			return
		}
		g := l.game(path[1])
		g.Secrets = append(g.Secrets, string(k))
		if l.keep {
			l.s.Secrets[path[1]][string(k)] = bytes.Clone(v[1:])
		}
	case path[0] == "outbox" && len(path) == 2:
		l.outbox(path, k, v)
	case path[0] == "marks" && len(path) == 1:
		if len(v) != 1 || v[0] != valuePresent {
			l.problem(path, nil, 0, "mark %q does not decode", k)
			return
		}
		l.rep().Marks++
		if l.keep {
			l.s.Marks = append(l.s.Marks, string(k))
		}
	case path[0] == "meta" && len(path) == 1:
		if len(v) == 0 || v[0] != valuePresent {
			l.problem(path, nil, 0, "meta value %q does not decode", k)
			return
		}
		l.rep().Meta++
		if l.keep {
			l.s.Meta[string(k)] = bytes.Clone(v[1:])
		}
	case path[0] == "snapshots" && len(path) == 1:
		// A snapshot is a cache that every reader checks against the log.
	case path[0] == "umpire" && len(path) == 1 && bytes.Equal(k, keyFormat):
		l.format = true
		n, err := strconv.Atoi(string(v))
		switch {
		case err != nil:
			l.problem(path, nil, 0, "the format marker %q does not decode", v)
		case n > fileFormat:
			l.problem(path, nil, 0, "written by a newer umpire (format %d; this one reads up to %d)", n, fileFormat)
		}
	default:
		l.problem(path, k, 0, "unexpected value %q", k)
	}
}

// event checks one stored event of a game's log: that it stands under the
// next number, and (when full) that it decodes, says it is that event,
// follows the one before and hashes to what it records. After the first
// break the rest of the log is not trusted.
func (l *layout) event(path []string, k, v []byte) {
	game := path[1]
	c := l.chains[game]
	if c == nil || c.broken {
		return
	}
	if len(k) != 8 {
		c.broken = true
		l.problem(path, nil, c.next, "a record is stored under key %x, not an event number", k)
		return
	}
	seq := binary.BigEndian.Uint64(k)
	if seq != c.next {
		c.broken = true
		if seq > c.next {
			l.problem(path, nil, c.next, "events %d to %d are missing", c.next, seq-1)
		} else {
			l.problem(path, nil, c.next, "event %d is stored out of order", seq)
		}
		return
	}
	g := l.game(game)
	if !l.full {
		c.next++
		g.Events = seq
		return
	}
	e, err := decodeEvent(v, l.in)
	switch {
	case err != nil:
		err = errors.New("its record does not decode: " + strings.TrimPrefix(err.Error(), ErrCorrupt.Error()+": "))
	case e.Seq != seq:
		err = fmt.Errorf("its record says it is event %d", e.Seq)
	case e.Prev != c.prev:
		err = fmt.Errorf("it does not chain onto event %d (it names %s as the hash before it, but event %d has %s)", seq-1, short(e.Prev), seq-1, short(c.prev))
	default:
		if h := ChainHash(c.prev, seq, e.NewEvent); h != e.Hash {
			err = fmt.Errorf("its content hashes to %s but it records %s: it was changed", short(h), short(e.Hash))
		}
	}
	if err != nil {
		c.broken = true
		l.problem(path, nil, seq, "%v", err)
		return
	}
	g.Events, g.Head = seq, e.Hash
	c.next, c.prev = seq+1, e.Hash
	if l.keep {
		l.s.Events[game] = append(l.s.Events[game], e)
	}
}

func short(h Hash) string { return h.String()[:12] }

func (l *layout) outbox(path []string, k, v []byte) {
	switch path[1] {
	case "msgs":
		if !l.full {
			l.rep().Outbox.Messages++
			return
		}
		n, m, err := decodeMessage(v)
		if err == nil && m.ID != string(k) {
			err = fmt.Errorf("it says it is message %q", m.ID)
		}
		if err != nil {
			l.problem(path, nil, 0, "message %q: %v", k, err)
			return
		}
		o := &l.rep().Outbox
		o.Messages++
		switch m.Status {
		case Pending:
			o.Pending++
		case Sent:
			o.Sent++
		case Failed:
			o.Failed++
		}
		if m.Pruned {
			o.Pruned++
			// Harmless (nothing sends a pruned message), but no umpire
			// writes it so.
			if m.Status != Sent || len(m.Raw) > 0 {
				if l.oddPruned == 0 {
					l.firstOdd = fmt.Sprintf("%q is %s with a body of %d bytes", m.ID, m.Status, len(m.Raw))
				}
				l.oddPruned++
			}
		}
		l.msgIDs[m.ID] = true
		if l.keep {
			l.msgs = append(l.msgs, queuedMessage{n, m})
		}
	case "order", "bygame":
		if len(k) < 8 {
			l.problem(path, nil, 0, "index key %x is too short", k)
			return
		}
		if l.full {
			l.index = append(l.index, string(v))
		}
	case "due":
		if len(k) < 8 || len(v) != 0 {
			l.problem(path, nil, 0, "index entry %x does not decode", k)
			return
		}
		if l.full {
			l.index = append(l.index, string(k[8:]))
		}
	}
}

// finish checks what can only be checked once everything was read, and
// puts the report in order.
func (l *layout) finish() {
	r := l.rep()
	if len(l.seen) > 0 || l.format {
		for _, b := range []string{"games", "secrets", "outbox", "marks", "meta", "umpire"} {
			if !l.seen[b] {
				l.problem(nil, nil, 0, "the %s bucket is missing", b)
			}
		}
		if l.seen["umpire"] && !l.format {
			l.problem([]string{"umpire"}, nil, 0, "the format marker is missing")
		}
	}
	// A game whose secrets are here but whose log is not lost its log to
	// damage: a game's first events and secrets are written together.
	for _, id := range slices.Sorted(maps.Keys(l.games)) {
		if _, ok := l.chains[id]; !ok && len(l.games[id].Secrets) > 0 {
			l.problem([]string{"games"}, []byte(id), 0, "its secrets are in the file but its log is not")
		}
	}
	if l.oddPruned > 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("%d outbox messages are marked pruned but are not sent or kept their body (harmless: a pruned message is never sent again); the first: %s", l.oddPruned, l.firstOdd))
	}
	if l.full {
		for _, id := range l.index {
			if !l.msgIDs[id] {
				l.problem([]string{"outbox"}, nil, 0, "an index names message %q, which is not stored", id)
				break
			}
		}
	}
	for _, id := range slices.Sorted(maps.Keys(l.games)) {
		g := l.games[id]
		sort.Strings(g.Secrets)
		r.Games = append(r.Games, *g)
	}
	if l.keep {
		sort.SliceStable(l.msgs, func(i, j int) bool { return l.msgs[i].n < l.msgs[j].n })
		for _, q := range l.msgs {
			l.s.Messages = append(l.s.Messages, q.m)
		}
	}
}
