package hub

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/emersion/go-imap/v2"

	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
)

// On-disk format, version 1. Everything lives under the hub directory:
//
//	hub.json                    hubState: users (with password hashes) and
//	                            the last UIDVALIDITY handed out
//	lock                        held (flock) while a Hub has the directory open
//	mail/USER/MBOXID/state.json mailboxState: name, UIDVALIDITY, UIDNEXT,
//	                            subscription, and each message's UID,
//	                            flags, internal date and size
//	mail/USER/MBOXID/UID.eml    the message, byte for byte as received
//
// MBOXID is "mb-" followed by the mailbox's UIDVALIDITY, which is unique in
// the hub, so a mailbox deleted and created again gets a new directory.
// Every change rewrites the affected JSON file atomically (temporary file,
// fsync, rename, fsync of the directory). Message files are written before
// the state that lists them and removed after it, so a crash can leave an
// unlisted file (removed on the next Open) but never a listed message
// without its file.
const formatVersion = 1

type hubState struct {
	Version         int         `json:"version"`
	LastUIDValidity uint32      `json:"lastUIDValidity"`
	Users           []userState `json:"users"`
}

type userState struct {
	Name string `json:"name"`
	// Password is a PHC-like string: pbkdf2-sha256$ITERATIONS$SALT$HASH,
	// salt and hash in unpadded standard base64.
	Password string `json:"password"`
}

type mailboxState struct {
	Version     int            `json:"version"`
	Name        string         `json:"name"`
	UIDValidity uint32         `json:"uidValidity"`
	UIDNext     imap.UID       `json:"uidNext"`
	Subscribed  bool           `json:"subscribed"`
	Messages    []messageState `json:"messages"`
}

type messageState struct {
	UID   imap.UID  `json:"uid"`
	Flags []string  `json:"flags,omitempty"`
	Date  time.Time `json:"date"`
	Size  int64     `json:"size"`
}

// Bounds on what the hub reads back from its directory, so that a damaged
// or replaced file (a huge one, a device, a FIFO) fails with its name and
// the limit instead of eating the memory.
const (
	// maxStateBytes bounds hub.json and each state.json: some 500,000
	// messages in one mailbox.
	maxStateBytes = 64 << 20
	// maxMessageFile bounds a message file copied by linkOrCopy: the
	// largest MaxMessageBytes a hub accepts.
	maxMessageFile = 1 << 31
)

func readJSON(path string, v any) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	b, err := yamlx.ReadAll(f, maxStateBytes, path, "hub state files")
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "\t")
	if err != nil {
		return err
	}
	return writeFileAtomic(path, append(b, '\n'))
}

// writeFileAtomic replaces path with data so that a crash leaves either the
// old or the new content.
func writeFileAtomic(path string, data []byte) error {
	return writeAtomicFrom(path, bytes.NewReader(data))
}

// writeAtomicFrom is writeFileAtomic with the content read from r.
func writeAtomicFrom(path string, r io.Reader) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = io.Copy(f, r)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	syncDir(dir)
	return nil
}

// syncDir makes a rename or removal in dir durable. It is best effort: some
// systems cannot fsync a directory, and the data itself is already synced.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// linkOrCopy makes dst a copy of the immutable message file src, streamed
// (never whole in memory) and bounded by maxMessageFile.
func linkOrCopy(src, dst string) error {
	if err := os.Link(src, dst); err == nil {
		return nil
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	return writeAtomicFrom(dst, yamlx.LimitReader(in, maxMessageFile, src, "message files"))
}

// cleanTemp removes leftovers of interrupted atomic writes in dir.
func cleanTemp(dir string) {
	matches, _ := filepath.Glob(filepath.Join(dir, ".tmp-*"))
	for _, m := range matches {
		os.Remove(m)
	}
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

func isNotExist(err error) bool { return errors.Is(err, os.ErrNotExist) }
