package postgres

import (
	"encoding/binary"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/umpire-pbem/umpire/store"
)

// decoder reads rows of eventCols from their binary wire form, interning
// event types and actors (a log repeats a few of each): a load of a log
// then costs about one allocation per event, the payload, rather than
// one per column. Rows in another form are read by scanEvent.
type decoder struct {
	raw   bool
	names map[string]string
}

func newDecoder(rows pgx.Rows) *decoder {
	d := &decoder{raw: true, names: map[string]string{}}
	fds := rows.FieldDescriptions()
	if len(fds) != 8 {
		d.raw = false
	}
	for _, fd := range fds {
		if fd.Format != pgx.BinaryFormatCode {
			d.raw = false
		}
	}
	return d
}

func (d *decoder) intern(p []byte) string {
	if s, ok := d.names[string(p)]; ok {
		return s
	}
	s := string(p)
	d.names[s] = s
	return s
}

func int8At(p []byte) (int64, bool) {
	if len(p) != 8 {
		return 0, false
	}
	return int64(binary.BigEndian.Uint64(p)), true
}

// event reads the current row.
func (d *decoder) event(rows pgx.Rows) (store.Event, error) {
	if !d.raw {
		return scanEvent(rows)
	}
	v := rows.RawValues()
	var e store.Event
	seq, ok1 := int8At(v[0])
	schema, ok2 := int8At(v[2])
	at, ok3 := int8At(v[3])
	if !ok1 || !ok2 || !ok3 || v[1] == nil || v[4] == nil || v[5] == nil {
		return e, fmt.Errorf("%w: an event row with a malformed or missing column", store.ErrCorrupt)
	}
	e.Seq, e.Type, e.Schema, e.Time, e.Actor = uint64(seq), d.intern(v[1]), int(schema), store.EventTime(at), d.intern(v[4])
	if len(v[5]) > 0 {
		e.Payload = append([]byte(nil), v[5]...) // pgx reuses the row's buffer
	}
	var err error
	if e.Prev, err = toHash(v[6]); err != nil {
		return e, fmt.Errorf("event %d prev: %w", seq, err)
	}
	if e.Hash, err = toHash(v[7]); err != nil {
		return e, fmt.Errorf("event %d: %w", seq, err)
	}
	return e, nil
}
