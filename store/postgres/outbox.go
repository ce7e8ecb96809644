package postgres

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/umpire-pbem/umpire/store"
)

// msgCols are the columns scanMessage reads; stateCols are the same
// without the body, for the moves, which need everything but the body.
const (
	msgCols   = `id, game, sender, recipients, raw, created_s, created_ns, status, attempts, next_s, next_ns, last_error, sent_s, sent_ns, pruned`
	stateCols = `id, game, sender, recipients, ''::bytea, created_s, created_ns, status, attempts, next_s, next_ns, last_error, sent_s, sent_ns, pruned`
)

// stamp splits t into the seconds and nanoseconds columns; the zero time
// is NULL. It keeps every time.Time exactly, which UnixNano does not.
func stamp(t time.Time) (*int64, *int32) {
	if t.IsZero() {
		return nil, nil
	}
	s, ns := t.Unix(), int32(t.Nanosecond())
	return &s, &ns
}

func unstamp(s *int64, ns *int32) time.Time {
	if s == nil {
		return time.Time{}
	}
	var n int64
	if ns != nil {
		n = int64(*ns)
	}
	return time.Unix(*s, n).UTC()
}

// scanMessage reads one row of msgCols or stateCols.
func scanMessage(row pgx.Row) (store.Message, error) {
	var id, game, from, raw, lastErr []byte
	var to [][]byte
	var cs, ns, ss *int64
	var cns, nns, sns *int32
	var status string
	var attempts int64
	var m store.Message
	if err := row.Scan(&id, &game, &from, &to, &raw, &cs, &cns, &status, &attempts, &ns, &nns, &lastErr, &ss, &sns, &m.Pruned); err != nil {
		return store.Message{}, err
	}
	m.ID, m.Game, m.From, m.LastError = string(id), string(game), string(from), string(lastErr)
	for _, t := range to {
		m.To = append(m.To, string(t))
	}
	m.Raw = read(raw)
	m.Created, m.NextAttempt, m.SentAt = unstamp(cs, cns), unstamp(ns, nns), unstamp(ss, sns)
	m.Status = store.MessageStatus(status)
	m.Attempts = int(attempts)
	return m, nil
}

// queueMessages inserts msgs, whose places in the queue are (order,
// ords[i]), in ID order, so that two transactions writing the same IDs
// cannot deadlock; one that another transaction wrote meanwhile sets *dup
// (if not set yet) to a *DuplicateError.
func queueMessages(b *pgx.Batch, order int64, msgs []store.Message, ords []int, dup *error) {
	idx := make([]int, len(msgs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(x, y int) int { return strings.Compare(msgs[x].ID, msgs[y].ID) })
	for _, i := range idx {
		m := &msgs[i]
		cs, cns := stamp(m.Created)
		ns, nns := stamp(m.NextAttempt)
		ss, sns := stamp(m.SentAt)
		b.Queue(`INSERT INTO outbox (n, ord, id, game, sender, recipients, raw, created_s, created_ns, status, attempts,
				next_s, next_ns, due, last_error, sent_s, sent_ns, pruned)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)
			ON CONFLICT (id) DO NOTHING RETURNING true`,
			order, ords[i], key(m.ID), key(m.Game), key(m.From), keys(m.To), value(m.Raw), cs, cns, string(m.Status), int64(m.Attempts),
			ns, nns, store.DueNano(m.NextAttempt), key(m.LastError), ss, sns, m.Pruned).
			QueryRow(func(r pgx.Row) error {
				var ok bool
				err := r.Scan(&ok)
				if errors.Is(err, pgx.ErrNoRows) {
					if *dup == nil {
						*dup = &store.DuplicateError{Kind: "message", Key: m.ID}
					}
					return nil
				}
				return err
			})
	}
}

// messages runs a query of msgCols and collects the rows.
func (s *Store) messages(ctx context.Context, sql string, args ...any) ([]store.Message, error) {
	if err := s.enter(ctx); err != nil {
		return nil, err
	}
	rows, err := s.pool.Query(ctx, sql, args...)
	if err != nil {
		return nil, s.wrap(ctx, err)
	}
	var out []store.Message
	for rows.Next() {
		m, err := scanMessage(rows)
		if err != nil {
			rows.Close()
			return nil, s.wrap(ctx, err)
		}
		out = append(out, m)
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap(ctx, err)
	}
	return out, nil
}

// limit is Due's max as a LIMIT: NULL (none) for max <= 0.
func limit(max int) *int64 {
	if max <= 0 {
		return nil
	}
	n := int64(max)
	return &n
}

// Due implements store.Store, through the index of pending messages.
func (s *Store) Due(ctx context.Context, now time.Time, max int) ([]store.Message, error) {
	return s.messages(ctx, `SELECT `+msgCols+` FROM outbox WHERE status = 'pending' AND due <= $1 ORDER BY due, id LIMIT $2`,
		store.DueNano(now), limit(max))
}

// DueFrom implements store.DueFrom: Due of the messages whose envelope
// sender is from.
func (s *Store) DueFrom(ctx context.Context, now time.Time, max int, from string) ([]store.Message, error) {
	return s.messages(ctx, `SELECT `+msgCols+` FROM outbox WHERE status = 'pending' AND sender = $3 AND due <= $1 ORDER BY due, id LIMIT $2`,
		store.DueNano(now), limit(max), key(from))
}

// Messages implements store.Store.
func (s *Store) Messages(ctx context.Context, game string) ([]store.Message, error) {
	if game == "" {
		return s.messages(ctx, `SELECT `+msgCols+` FROM outbox ORDER BY n, ord`)
	}
	return s.messages(ctx, `SELECT `+msgCols+` FROM outbox WHERE game = $1 ORDER BY n, ord`, key(game))
}

// MarkSent implements store.Store.
func (s *Store) MarkSent(ctx context.Context, id string, at time.Time) error {
	return s.move(ctx, id, func(m *store.Message) error { store.MarkSentRule(m, at); return nil })
}

// Retry implements store.Store.
func (s *Store) Retry(ctx context.Context, id string, next time.Time, reason string) error {
	return s.move(ctx, id, func(m *store.Message) error { return store.MarkRetryRule(m, next, reason) })
}

// Fail implements store.Store.
func (s *Store) Fail(ctx context.Context, id string, reason string) error {
	return s.move(ctx, id, func(m *store.Message) error { return store.MarkFailedRule(m, reason) })
}

// move locks one message's row, applies the rule of package store to it
// and writes back what the rule changed (never the body).
func (s *Store) move(ctx context.Context, id string, change func(*store.Message) error) error {
	if err := s.enter(ctx); err != nil {
		return err
	}
	return s.tx(ctx, func(tx pgx.Tx) error {
		m, err := scanMessage(tx.QueryRow(ctx, `SELECT `+stateCols+` FROM outbox WHERE id = $1 FOR UPDATE`, key(id)))
		if errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("%w: outbox message %q", store.ErrNotFound, id)
		}
		if err != nil {
			return err
		}
		if err := change(&m); err != nil {
			return err
		}
		ns, nns := stamp(m.NextAttempt)
		ss, sns := stamp(m.SentAt)
		_, err = tx.Exec(ctx, `UPDATE outbox SET status = $2, attempts = $3, next_s = $4, next_ns = $5, due = $6,
				last_error = $7, sent_s = $8, sent_ns = $9 WHERE id = $1`,
			key(id), string(m.Status), int64(m.Attempts), ns, nns, store.DueNano(m.NextAttempt), key(m.LastError), ss, sns)
		return err
	})
}

// PruneSent implements store.Store. Each transaction locks at most
// PruneChunk sent, unpruned messages, in queue order after the last one
// looked at, decides with store.Prunable and drops the chosen bodies.
func (s *Store) PruneSent(ctx context.Context, before time.Time) (store.PruneStats, error) {
	var st store.PruneStats
	afterN, afterOrd := int64(math.MinInt64), int32(math.MinInt32)
	for {
		if err := s.enter(ctx); err != nil {
			return st, err
		}
		var chunk store.PruneStats
		var nextN int64
		var nextOrd int32
		more := false
		err := s.tx(ctx, func(tx pgx.Tx) error {
			chunk, nextN, nextOrd, more = store.PruneStats{}, afterN, afterOrd, false
			// sent_s <= before's seconds is implied by SentAt before
			// before; Prunable then decides exactly.
			rows, err := tx.Query(ctx, `SELECT n, ord, id, status, sent_s, sent_ns, pruned, octet_length(raw) FROM outbox
				WHERE status = 'sent' AND NOT pruned AND (sent_s IS NULL OR sent_s <= $1) AND (n, ord) > ($2, $3)
				ORDER BY n, ord LIMIT $4 FOR UPDATE`, before.Unix(), afterN, afterOrd, store.PruneChunk)
			if err != nil {
				return err
			}
			var ids [][]byte
			seen := 0
			for rows.Next() {
				var id []byte
				var status string
				var ss *int64
				var sns *int32
				var pruned bool
				var size int64
				if err := rows.Scan(&nextN, &nextOrd, &id, &status, &ss, &sns, &pruned, &size); err != nil {
					rows.Close()
					return err
				}
				seen++
				if store.Prunable(store.MessageStatus(status), unstamp(ss, sns), pruned, before) {
					ids = append(ids, id)
					chunk.Messages++
					chunk.Bytes += size
				}
			}
			if err := rows.Err(); err != nil {
				return err
			}
			more = seen == store.PruneChunk
			if len(ids) == 0 {
				return nil
			}
			_, err = tx.Exec(ctx, `UPDATE outbox SET raw = '', pruned = true WHERE id = ANY($1)`, ids)
			return err
		})
		if err != nil {
			return st, err
		}
		st.Messages += chunk.Messages
		st.Bytes += chunk.Bytes
		afterN, afterOrd = nextN, nextOrd
		if !more {
			return st, nil
		}
	}
}
