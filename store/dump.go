package store

import (
	"context"
	"encoding/binary"
	"fmt"
	"maps"
	"slices"

	bolt "go.etcd.io/bbolt"
)

// Dump and Load of the bolt and memory stores: how `umpire store copy`
// moves a whole data set from one store to another, hashes and outbox
// states included. The rules a loaded record must follow are here too,
// exported for a store outside this package (CheckItem, CheckLoadEvent,
// LoadedMessage), so that every store refuses exactly the same things.

var (
	_ Dumper = (*Bolt)(nil)
	_ Loader = (*Bolt)(nil)
	_ Dumper = (*Memory)(nil)
	_ Loader = (*Memory)(nil)
)

// CheckItem returns an ErrInvalid error if it can never be loaded: not
// exactly one part set, an event or secret without a game, a key that
// breaks the rules of Append, an event without a type, schema or time, or
// a message whose status is not one of Pending, Sent and Failed. It needs
// no state.
func CheckItem(it *Item) error {
	parts := 0
	for _, set := range []bool{it.Event != nil, it.Secret != nil, it.Mark != "", it.Meta != nil, it.Message != nil} {
		if set {
			parts++
		}
	}
	if parts != 1 {
		return fmt.Errorf("%w: a loaded item has %d parts set, not exactly one", ErrInvalid, parts)
	}
	switch {
	case it.Event != nil:
		e := it.Event
		b := Batch{Game: it.Game, Events: []NewEvent{e.NewEvent}}
		if it.Game == "" {
			return fmt.Errorf("%w: event %d is loaded without its game", ErrInvalid, e.Seq)
		}
		if err := checkBatch(&b); err != nil {
			return fmt.Errorf("%w (loading event %d)", err, e.Seq)
		}
	case it.Secret != nil:
		if it.Game == "" {
			return fmt.Errorf("%w: secret %q is loaded without its game", ErrInvalid, it.Secret.Key)
		}
		if err := checkBatch(&Batch{Game: it.Game, Secrets: map[string][]byte{it.Secret.Key: nil}}); err != nil {
			return err
		}
	case it.Mark != "":
		if err := checkKey(it.Mark); err != nil {
			return fmt.Errorf("%w: mark %q: %v", ErrInvalid, it.Mark, err)
		}
	case it.Meta != nil:
		if err := checkKey(it.Meta.Key); err != nil {
			return fmt.Errorf("%w: meta key %q: %v", ErrInvalid, it.Meta.Key, err)
		}
	case it.Message != nil:
		m := it.Message
		if err := checkKey(m.ID); err != nil {
			return fmt.Errorf("%w: outbox message ID %q: %v", ErrInvalid, m.ID, err)
		}
		switch m.Status {
		case Pending, Sent, Failed:
		default:
			return fmt.Errorf("%w: outbox message %q has status %q, not pending, sent or failed", ErrInvalid, m.ID, m.Status)
		}
	}
	return nil
}

// CheckLoadEvent returns an ErrCorrupt error unless e follows a game whose
// log is at version with last hash prev: the next sequence number, Prev
// equal to prev, and a Hash that is ChainHash of its content. Time is
// compared as stored (UnixNano), which is what the hash covers.
func CheckLoadEvent(game string, e *Event, version uint64, prev Hash) error {
	switch {
	case e.Seq != version+1:
		return fmt.Errorf("%w: game %q: loaded event %d does not follow event %d, the game's last", ErrCorrupt, game, e.Seq, version)
	case e.Prev != prev:
		return fmt.Errorf("%w: game %q: loaded event %d has prev %s, but event %d has hash %s", ErrCorrupt, game, e.Seq, e.Prev, version, prev)
	}
	if h := ChainHash(prev, e.Seq, e.NewEvent); h != e.Hash {
		return fmt.Errorf("%w: game %q: loaded event %d has hash %s, but its content hashes to %s", ErrCorrupt, game, e.Seq, e.Hash, h)
	}
	return nil
}

// LoadedEvent is e as a store keeps it: time in UTC cut to nanoseconds
// since 1970, payload copied.
func LoadedEvent(e *Event) Event {
	c := cloneEvent(e)
	c.Time = eventTime(e.Time.UnixNano())
	return c
}

// LoadedMessage is m as a store keeps it once loaded: its status,
// attempts and last error as they are, times in UTC without a monotonic
// reading, slices copied. Unlike Queued it resets nothing.
func LoadedMessage(m Message) Message {
	c := cloneMessage(&m)
	c.Created = normTime(m.Created)
	c.NextAttempt = normTime(m.NextAttempt)
	c.SentAt = normTime(m.SentAt)
	return c
}

// loadKeys are the marks and message IDs one Load call writes, so that a
// second one within the call is ErrDuplicate as a stored one is.
type loadKeys struct{ marks, msgs map[string]bool }

func (k *loadKeys) mark(m string, stored bool) error {
	if stored || k.marks[m] {
		return &DuplicateError{Kind: "mark", Key: m}
	}
	if k.marks == nil {
		k.marks = make(map[string]bool)
	}
	k.marks[m] = true
	return nil
}

func (k *loadKeys) message(id string, stored bool) error {
	if stored || k.msgs[id] {
		return &DuplicateError{Kind: "message", Key: id}
	}
	if k.msgs == nil {
		k.msgs = make(map[string]bool)
	}
	k.msgs[id] = true
	return nil
}

// Dump implements Dumper. It reads everything in one read transaction, so
// the records are one consistent state of the file, and calls fn inside
// it: fn must not write to this store (open the source of a copy with
// OpenReadOnly).
func (s *Bolt) Dump(ctx context.Context, fn func(Item) error) error {
	if err := s.enter(ctx); err != nil {
		return err
	}
	err := s.view(func(tx *bolt.Tx) error {
		if err := dumpGames(ctx, tx, fn); err != nil {
			return err
		}
		if mb := tx.Bucket(bucketMarks); mb != nil {
			if err := mb.ForEach(func(k, _ []byte) error { return fn(Item{Mark: string(k)}) }); err != nil {
				return err
			}
		}
		if mb := tx.Bucket(bucketMeta); mb != nil {
			err := mb.ForEach(func(k, v []byte) error {
				if len(v) == 0 || v[0] != valuePresent {
					return fmt.Errorf("%w: meta %q does not decode", ErrCorrupt, k)
				}
				return fn(Item{Meta: &KV{Key: string(k), Value: cloneBytes(v[1:])}})
			})
			if err != nil {
				return err
			}
		}
		o, ok := outboxOf(tx)
		if !ok {
			return nil
		}
		return o.order.ForEach(func(_, id []byte) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			_, m, err := o.get(string(id))
			if err != nil {
				return err
			}
			return fn(Item{Message: &m})
		})
	})
	return s.wrap(err)
}

// dumpGames dumps each game's events and then its secrets, for every game
// that has either, in lexical order.
func dumpGames(ctx context.Context, tx *bolt.Tx, fn func(Item) error) error {
	var names []string
	seen := map[string]bool{}
	for _, name := range [][]byte{bucketGames, bucketSecrets} {
		b := tx.Bucket(name)
		if b == nil {
			continue
		}
		err := b.ForEachBucket(func(k []byte) error {
			if !seen[string(k)] {
				seen[string(k)] = true
				names = append(names, string(k))
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	slices.Sort(names)
	in := make(interner)
	for _, game := range names {
		if err := ctx.Err(); err != nil {
			return err
		}
		if ev := eventsBucket(tx, game); ev != nil {
			c := ev.Cursor()
			for k, v := c.First(); k != nil; k, v = c.Next() {
				e, err := decodeEvent(v, in)
				if err == nil && (len(k) != 8 || binary.BigEndian.Uint64(k) != e.Seq) {
					err = fmt.Errorf("%w: record of event %d is stored under key %x", ErrCorrupt, e.Seq, k)
				}
				if err != nil {
					return fmt.Errorf("game %q at key %x: %w", game, k, err)
				}
				if err := fn(Item{Game: game, Event: &e}); err != nil {
					return err
				}
			}
		}
		var sb *bolt.Bucket
		if b := tx.Bucket(bucketSecrets); b != nil {
			sb = b.Bucket([]byte(game))
		}
		if sb == nil {
			continue
		}
		err := sb.ForEach(func(k, v []byte) error {
			if len(v) == 0 || v[0] != valuePresent {
				return fmt.Errorf("%w: secret %q of game %q does not decode", ErrCorrupt, k, game)
			}
			return fn(Item{Game: game, Secret: &KV{Key: string(k), Value: cloneBytes(v[1:])}})
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// Load implements Loader: every item in one write transaction, synced to
// disk before it returns; on any error nothing is written.
func (s *Bolt) Load(ctx context.Context, items []Item) error {
	if err := s.enter(ctx); err != nil {
		return err
	}
	for i := range items {
		if err := CheckItem(&items[i]); err != nil {
			return err
		}
	}
	if len(items) == 0 {
		return nil
	}
	err := s.update(func(tx *bolt.Tx) error {
		games := tx.Bucket(bucketGames)
		marks := tx.Bucket(bucketMarks)
		meta := tx.Bucket(bucketMeta)
		secrets := tx.Bucket(bucketSecrets)
		o, ok := outboxOf(tx)
		if games == nil || marks == nil || meta == nil || secrets == nil || !ok {
			return fmt.Errorf("%w: top-level buckets missing", ErrCorrupt)
		}
		var keys loadKeys
		for i := range items {
			if err := loadBolt(tx, games, marks, meta, secrets, o, &keys, &items[i]); err != nil {
				return err
			}
		}
		return nil
	})
	return s.wrap(err)
}

// loadBolt writes one checked item.
func loadBolt(tx *bolt.Tx, games, marks, meta, secrets *bolt.Bucket, o outbox, keys *loadKeys, it *Item) error {
	switch {
	case it.Event != nil:
		ev := eventsBucket(tx, it.Game)
		var version uint64
		var prev Hash
		if ev != nil {
			var err error
			if version, prev, err = head(ev); err != nil {
				return fmt.Errorf("game %q: %w", it.Game, err)
			}
		}
		if err := CheckLoadEvent(it.Game, it.Event, version, prev); err != nil {
			return err
		}
		if ev == nil {
			g, err := games.CreateBucketIfNotExists([]byte(it.Game))
			if err != nil {
				return fmt.Errorf("create game %q: %w", it.Game, err)
			}
			if ev, err = g.CreateBucket(bucketEvents); err != nil {
				return fmt.Errorf("create game %q: %w", it.Game, err)
			}
		}
		ev.FillPercent = 1.0
		e := LoadedEvent(it.Event)
		return ev.Put(seqKey(e.Seq), encodeEvent(&e))
	case it.Secret != nil:
		sb, err := secrets.CreateBucketIfNotExists([]byte(it.Game))
		if err != nil {
			return fmt.Errorf("secrets of game %q: %w", it.Game, err)
		}
		return sb.Put([]byte(it.Secret.Key), present(it.Secret.Value))
	case it.Mark != "":
		if err := keys.mark(it.Mark, marks.Get([]byte(it.Mark)) != nil); err != nil {
			return err
		}
		return marks.Put([]byte(it.Mark), []byte{valuePresent})
	case it.Meta != nil:
		return meta.Put([]byte(it.Meta.Key), present(it.Meta.Value))
	}
	m := LoadedMessage(*it.Message)
	if err := keys.message(m.ID, o.msgs.Get([]byte(m.ID)) != nil); err != nil {
		return err
	}
	return o.load(m)
}

// load adds a message as it is, status and all, to the outbox and its
// indexes: the pending index only if it is Pending. A message queued by
// Append is loaded as queued made it.
func (o outbox) load(m Message) error {
	n, err := o.order.NextSequence()
	if err != nil {
		return err
	}
	v, err := encodeMessage(n, &m)
	if err != nil {
		return fmt.Errorf("outbox message %q: %w", m.ID, err)
	}
	id := []byte(m.ID)
	o.order.FillPercent = 1.0
	puts := []struct {
		b    *bolt.Bucket
		k, v []byte
	}{
		{o.msgs, id, v},
		{o.order, seqKey(n), id},
		{o.bygame, binary.BigEndian.AppendUint64(byGamePrefix(m.Game), n), id},
	}
	if m.Status == Pending {
		puts = append(puts, struct {
			b    *bolt.Bucket
			k, v []byte
		}{o.due, dueKey(m.NextAttempt, m.ID), []byte{}})
	}
	for _, p := range puts {
		if err := p.b.Put(p.k, p.v); err != nil {
			return fmt.Errorf("outbox message %q: %w", m.ID, err)
		}
	}
	return nil
}

// Dump implements Dumper. It copies the records under the read lock and
// calls fn after releasing it, so fn may use the store.
func (m *Memory) Dump(ctx context.Context, fn func(Item) error) error {
	items, err := m.dumpItems(ctx)
	if err != nil {
		return err
	}
	for _, it := range items {
		if err := fn(it); err != nil {
			return err
		}
	}
	return nil
}

func (m *Memory) dumpItems(ctx context.Context) ([]Item, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if err := m.enter(ctx); err != nil {
		return nil, err
	}
	var names []string
	for g := range m.games {
		names = append(names, g)
	}
	for g := range m.secrets {
		if _, ok := m.games[g]; !ok {
			names = append(names, g)
		}
	}
	slices.Sort(names)
	var items []Item
	for _, g := range names {
		for i := range m.games[g] {
			e := cloneEvent(&m.games[g][i])
			items = append(items, Item{Game: g, Event: &e})
		}
		for _, k := range slices.Sorted(maps.Keys(m.secrets[g])) {
			items = append(items, Item{Game: g, Secret: &KV{Key: k, Value: cloneBytes(m.secrets[g][k])}})
		}
	}
	for _, k := range slices.Sorted(maps.Keys(m.marks)) {
		items = append(items, Item{Mark: k})
	}
	for _, k := range slices.Sorted(maps.Keys(m.meta)) {
		items = append(items, Item{Meta: &KV{Key: k, Value: cloneBytes(m.meta[k])}})
	}
	for _, id := range m.order {
		msg := cloneMessage(m.msgs[id])
		items = append(items, Item{Message: &msg})
	}
	return items, nil
}

// Load implements Loader: it checks every item under the lock before
// changing anything, so a refused call leaves no trace.
func (m *Memory) Load(ctx context.Context, items []Item) error {
	for i := range items {
		if err := CheckItem(&items[i]); err != nil {
			return err
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.enter(ctx); err != nil {
		return err
	}
	type headAt struct {
		version uint64
		prev    Hash
	}
	heads := map[string]headAt{}
	var keys loadKeys
	for i := range items {
		it := &items[i]
		switch {
		case it.Event != nil:
			h, ok := heads[it.Game]
			if log := m.games[it.Game]; !ok && len(log) > 0 {
				h = headAt{uint64(len(log)), log[len(log)-1].Hash}
			}
			if err := CheckLoadEvent(it.Game, it.Event, h.version, h.prev); err != nil {
				return err
			}
			heads[it.Game] = headAt{it.Event.Seq, it.Event.Hash}
		case it.Mark != "":
			if err := keys.mark(it.Mark, m.marks[it.Mark]); err != nil {
				return err
			}
		case it.Message != nil:
			if err := keys.message(it.Message.ID, m.msgs[it.Message.ID] != nil); err != nil {
				return err
			}
		}
	}
	for i := range items {
		it := &items[i]
		switch {
		case it.Event != nil:
			m.games[it.Game] = append(m.games[it.Game], LoadedEvent(it.Event))
		case it.Secret != nil:
			if m.secrets[it.Game] == nil {
				m.secrets[it.Game] = make(map[string][]byte)
			}
			m.secrets[it.Game][it.Secret.Key] = cloneBytes(it.Secret.Value)
		case it.Mark != "":
			m.marks[it.Mark] = true
		case it.Meta != nil:
			m.meta[it.Meta.Key] = cloneBytes(it.Meta.Value)
		case it.Message != nil:
			msg := LoadedMessage(*it.Message)
			m.msgs[msg.ID] = &msg
			m.order = append(m.order, msg.ID)
		}
	}
	return nil
}
