package store

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
)

// Memory is a Store held in memory, for tests and dry runs. It behaves like
// the bolt store in every respect the conformance suite can see, including
// copying data in and out so that callers cannot change what is stored.
type Memory struct {
	mu      sync.RWMutex
	closed  bool
	games   map[string][]Event // never changed in place, only appended to
	secrets map[string]map[string][]byte
	marks   map[string]bool
	meta    map[string][]byte
	msgs    map[string]*Message
	order   []string // message IDs in the order they were queued
	snaps   map[string]Snapshot
}

var _ Store = (*Memory)(nil)

// NewMemory returns an empty memory store.
func NewMemory() *Memory {
	return &Memory{
		games:   make(map[string][]Event),
		secrets: make(map[string]map[string][]byte),
		marks:   make(map[string]bool),
		meta:    make(map[string][]byte),
		msgs:    make(map[string]*Message),
	}
}

// enter checks ctx and closed; the caller holds mu.
func (m *Memory) enter(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if m.closed {
		return ErrClosed
	}
	return nil
}

// Append implements Store. It is AppendAll of one batch.
func (m *Memory) Append(ctx context.Context, b Batch) ([]Event, error) {
	out, err := m.AppendAll(ctx, []Batch{b})
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// AppendAll implements Store: it checks every batch under the lock before
// changing anything, so a refused call leaves no trace.
func (m *Memory) AppendAll(ctx context.Context, bs []Batch) ([][]Event, error) {
	if err := checkBatches(bs); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.enter(ctx); err != nil {
		return nil, err
	}
	if len(bs) == 0 {
		return nil, nil
	}
	chained := make([][]Event, len(bs))
	var keys callKeys
	markStored := func(k string) bool { return m.marks[k] }
	messageStored := func(id string) bool { return m.msgs[id] != nil }
	for i := range bs {
		b := &bs[i]
		log, exists := m.games[b.Game]
		version := uint64(len(log))
		if err := checkVersion(b, exists, version); err != nil {
			return nil, err
		}
		if err := keys.check(b, markStored, messageStored); err != nil {
			return nil, err
		}
		if i < len(bs)-1 {
			keys.add(b)
		}
		var prev Hash
		if version > 0 {
			prev = log[version-1].Hash
		}
		chained[i] = chainEvents(b.Events, version, prev)
	}

	out := make([][]Event, len(bs))
	for i := range bs {
		m.write(&bs[i], chained[i])
		if len(chained[i]) > 0 {
			out[i] = make([]Event, len(chained[i]))
			for j := range chained[i] {
				out[i][j] = cloneEvent(&chained[i][j])
			}
		}
	}
	return out, nil
}

// write applies one checked batch whose events are chained; the caller
// holds mu.
func (m *Memory) write(b *Batch, events []Event) {
	if len(events) > 0 {
		m.games[b.Game] = append(m.games[b.Game], events...)
	}
	for _, msg := range b.Outbox {
		q := queued(msg)
		m.msgs[q.ID] = &q
		m.order = append(m.order, q.ID)
	}
	for _, k := range b.Marks {
		m.marks[k] = true
	}
	if len(b.Secrets) > 0 {
		s := m.secrets[b.Game]
		if s == nil {
			s = make(map[string][]byte)
			m.secrets[b.Game] = s
		}
		for k, v := range b.Secrets {
			s[k] = cloneBytes(v)
		}
	}
	for k, v := range b.Meta {
		m.meta[k] = cloneBytes(v)
	}
}

// log returns the game's events with Seq >= from. The slice must not be
// changed; elements are never rewritten, so it may be read after unlocking.
func (m *Memory) log(ctx context.Context, game string, from uint64) ([]Event, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if err := m.enter(ctx); err != nil {
		return nil, err
	}
	log, ok := m.games[game]
	if !ok {
		return nil, fmt.Errorf("%w %q", ErrUnknownGame, game)
	}
	if from < 1 {
		from = 1
	}
	if from > uint64(len(log)) {
		return nil, nil
	}
	return log[from-1 : len(log) : len(log)], nil
}

// Events implements Store.
func (m *Memory) Events(ctx context.Context, game string, from uint64) ([]Event, error) {
	log, err := m.log(ctx, game, from)
	if err != nil || len(log) == 0 {
		return nil, err
	}
	out := make([]Event, len(log))
	for i := range log {
		out[i] = cloneEvent(&log[i])
	}
	return out, nil
}

// Scan implements Store.
func (m *Memory) Scan(ctx context.Context, game string, from uint64, fn func(Event) error) error {
	log, err := m.log(ctx, game, from)
	if err != nil {
		return err
	}
	for i := range log {
		if i%scanChunk == 0 && i > 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if err := fn(cloneEvent(&log[i])); err != nil {
			return err
		}
	}
	return nil
}

// Version implements Store.
func (m *Memory) Version(ctx context.Context, game string) (uint64, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if err := m.enter(ctx); err != nil {
		return 0, err
	}
	log, ok := m.games[game]
	if !ok {
		return 0, fmt.Errorf("%w %q", ErrUnknownGame, game)
	}
	return uint64(len(log)), nil
}

// Games implements Store.
func (m *Memory) Games(ctx context.Context) ([]string, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if err := m.enter(ctx); err != nil {
		return nil, err
	}
	var ids []string
	for id := range m.games {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids, nil
}

// Secret implements Store.
func (m *Memory) Secret(ctx context.Context, game, name string) ([]byte, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if err := m.enter(ctx); err != nil {
		return nil, err
	}
	v, ok := m.secrets[game][name]
	if !ok {
		return nil, fmt.Errorf("%w: secret %q of game %q", ErrNotFound, name, game)
	}
	return cloneBytes(v), nil
}

// MetaKeys implements Store.
func (m *Memory) MetaKeys(ctx context.Context, prefix string) ([]string, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if err := m.enter(ctx); err != nil {
		return nil, err
	}
	var out []string
	for k := range m.meta {
		if strings.HasPrefix(k, prefix) {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out, nil
}

// Marked implements Store.
func (m *Memory) Marked(ctx context.Context, mark string) (bool, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if err := m.enter(ctx); err != nil {
		return false, err
	}
	return m.marks[mark], nil
}

// Meta implements Store.
func (m *Memory) Meta(ctx context.Context, key string) ([]byte, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if err := m.enter(ctx); err != nil {
		return nil, err
	}
	v, ok := m.meta[key]
	if !ok {
		return nil, fmt.Errorf("%w: meta %q", ErrNotFound, key)
	}
	return cloneBytes(v), nil
}

// Due implements Store.
func (m *Memory) Due(ctx context.Context, now time.Time, max int) ([]Message, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if err := m.enter(ctx); err != nil {
		return nil, err
	}
	limit := dueNano(now)
	var due []*Message
	for _, msg := range m.msgs {
		if msg.Status == Pending && dueNano(msg.NextAttempt) <= limit {
			due = append(due, msg)
		}
	}
	// The order of the bolt store's index: NextAttempt, then ID.
	slices.SortFunc(due, func(a, b *Message) int {
		an, bn := dueNano(a.NextAttempt), dueNano(b.NextAttempt)
		switch {
		case an < bn:
			return -1
		case an > bn:
			return 1
		}
		return strings.Compare(a.ID, b.ID)
	})
	if max > 0 && len(due) > max {
		due = due[:max]
	}
	var out []Message
	for _, msg := range due {
		out = append(out, cloneMessage(msg))
	}
	return out, nil
}

// Messages implements Store.
func (m *Memory) Messages(ctx context.Context, game string) ([]Message, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if err := m.enter(ctx); err != nil {
		return nil, err
	}
	var out []Message
	for _, id := range m.order {
		if msg := m.msgs[id]; game == "" || msg.Game == game {
			out = append(out, cloneMessage(msg))
		}
	}
	return out, nil
}

// MarkSent implements Store.
func (m *Memory) MarkSent(ctx context.Context, id string, at time.Time) error {
	return m.move(ctx, id, func(msg *Message) error { markSent(msg, at); return nil })
}

// Retry implements Store.
func (m *Memory) Retry(ctx context.Context, id string, next time.Time, reason string) error {
	return m.move(ctx, id, func(msg *Message) error { return markRetry(msg, next, reason) })
}

// Fail implements Store.
func (m *Memory) Fail(ctx context.Context, id string, reason string) error {
	return m.move(ctx, id, func(msg *Message) error { return markFailed(msg, reason) })
}

func (m *Memory) move(ctx context.Context, id string, change func(*Message) error) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.enter(ctx); err != nil {
		return err
	}
	msg := m.msgs[id]
	if msg == nil {
		return fmt.Errorf("%w: outbox message %q", ErrNotFound, id)
	}
	c := cloneMessage(msg)
	if err := change(&c); err != nil {
		return err
	}
	*msg = c
	return nil
}

// PruneSent implements Store. It holds the lock for PruneChunk messages at
// a time, as the bolt store writes them.
func (m *Memory) PruneSent(ctx context.Context, before time.Time) (PruneStats, error) {
	var st PruneStats
	for next := 0; ; {
		done, err := func() (bool, error) {
			m.mu.Lock()
			defer m.mu.Unlock()
			if err := m.enter(ctx); err != nil {
				return false, err
			}
			n := 0
			for ; next < len(m.order) && n < PruneChunk; next++ {
				msg := m.msgs[m.order[next]]
				if prunable(msg.Status, msg.SentAt, msg.Pruned, before) {
					st.Messages++
					st.Bytes += prune(msg)
					n++
				}
			}
			return next == len(m.order), nil
		}()
		if err != nil || done {
			return st, err
		}
	}
}

// Close implements Store. A second Close returns ErrClosed.
func (m *Memory) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return ErrClosed
	}
	m.closed = true
	return nil
}
