package store_test

import (
	"bytes"
	"encoding/binary"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// Helpers that reach past the store into the bolt file, to forge the damage
// the store must notice.

func rawUpdate(t *testing.T, path string, fn func(tx *bolt.Tx) error) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Update(fn); err != nil {
		t.Fatal(err)
	}
}

func forgeFormat(t *testing.T, path, format string) {
	rawUpdate(t, path, func(tx *bolt.Tx) error {
		return tx.Bucket([]byte("umpire")).Put([]byte("format"), []byte(format))
	})
}

// tamperPayload changes `"n"` to `"m"` in the stored record of one event,
// leaving its stored hash as it was.
func tamperPayload(t *testing.T, path, game string, seq uint64) {
	rawUpdate(t, path, func(tx *bolt.Tx) error {
		ev := tx.Bucket([]byte("games")).Bucket([]byte(game)).Bucket([]byte("events"))
		key := binary.BigEndian.AppendUint64(nil, seq)
		v := bytes.Replace(ev.Get(key), []byte(`"n"`), []byte(`"m"`), 1)
		return ev.Put(key, v)
	})
}
