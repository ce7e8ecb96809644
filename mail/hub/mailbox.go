package hub

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
)

const (
	inboxName = "INBOX"
	delim     = '/'
)

// user is a hub account. All fields are guarded by Hub.mu.
type user struct {
	name      string
	hash      string
	mailboxes map[string]*mailbox
}

// mailbox is one folder of one user. All fields are guarded by Hub.mu;
// st is exactly what state.json holds.
type mailbox struct {
	dir      string
	st       mailboxState
	tracker  *imapserver.MailboxTracker
	watchers map[chan struct{}]struct{} // IDLE sessions to wake
	deleted  bool
}

func (mb *mailbox) statePath() string { return filepath.Join(mb.dir, "state.json") }

func (mb *mailbox) msgPath(uid imap.UID) string {
	return filepath.Join(mb.dir, strconv.FormatUint(uint64(uid), 10)+".eml")
}

func (mb *mailbox) save() error { return writeJSON(mb.statePath(), &mb.st) }

// notify wakes the sessions idling on the mailbox. Call it after queueing
// updates on the tracker.
func (mb *mailbox) notify() {
	for ch := range mb.watchers {
		select {
		case ch <- struct{}{}:
		default: // already has a wake-up pending
		}
	}
}

// index returns the position of uid in the message list, or -1.
func (mb *mailbox) index(uid imap.UID) int {
	i, ok := slices.BinarySearchFunc(mb.st.Messages, uid, func(m messageState, u imap.UID) int {
		return int(int64(m.UID) - int64(u))
	})
	if !ok {
		return -1
	}
	return i
}

// canonicalMailbox spells INBOX in capitals whatever the client sent, and
// drops a trailing delimiter.
func canonicalMailbox(name string) string {
	name = strings.TrimRight(name, string(delim))
	if strings.EqualFold(name, inboxName) {
		return inboxName
	}
	return name
}

func validMailboxName(name string) error {
	if name == "" || len(name) > 200 {
		return fmt.Errorf("mailbox names are 1 to 200 bytes")
	}
	if strings.ContainsAny(name, "*%\x00\r\n") {
		return fmt.Errorf("mailbox names cannot contain *, %% or control characters")
	}
	for _, part := range strings.Split(name, string(delim)) {
		if part == "" {
			return fmt.Errorf("mailbox names cannot have empty levels")
		}
	}
	return nil
}

// nextUIDValidityLocked hands out a UIDVALIDITY never used before in this
// hub. It starts from the clock, so a hub directory wiped and made again
// does not reuse values a client may remember.
func (h *Hub) nextUIDValidityLocked() (uint32, error) {
	v := uint32(time.Now().Unix())
	if v <= h.lastUIDValidity {
		v = h.lastUIDValidity + 1
	}
	old := h.lastUIDValidity
	h.lastUIDValidity = v
	if err := h.saveHubLocked(); err != nil {
		h.lastUIDValidity = old
		return 0, err
	}
	return v, nil
}

func (h *Hub) createMailboxLocked(u *user, name string) (*mailbox, error) {
	uv, err := h.nextUIDValidityLocked()
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(h.dir, "mail", u.name, "mb-"+strconv.FormatUint(uint64(uv), 10))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	mb := &mailbox{
		dir: dir,
		st: mailboxState{
			Version:     formatVersion,
			Name:        name,
			UIDValidity: uv,
			UIDNext:     1,
			Subscribed:  true,
			Messages:    []messageState{},
		},
		tracker:  imapserver.NewMailboxTracker(0),
		watchers: map[chan struct{}]struct{}{},
	}
	if err := mb.save(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	syncDir(filepath.Dir(dir))
	u.mailboxes[name] = mb
	return mb, nil
}

func (h *Hub) deleteMailboxLocked(u *user, mb *mailbox) error {
	// state.json first: a directory without it is a leftover that Open
	// removes.
	if err := os.Remove(mb.statePath()); err != nil && !isNotExist(err) {
		return err
	}
	delete(u.mailboxes, mb.st.Name)
	mb.deleted = true
	mb.notify()
	os.RemoveAll(mb.dir)
	return nil
}

// newMessage is a message about to be stored.
type newMessage struct {
	raw   []byte // the bytes, or
	src   string // a file to link or copy
	flags []string
	date  time.Time
	size  int64
}

// appendLocked stores messages at the end of mb, writing the files first
// and the state once. It returns their UIDs.
func (mb *mailbox) appendLocked(msgs []newMessage) ([]imap.UID, error) {
	if mb.deleted {
		return nil, errMailboxGone
	}
	uids := make([]imap.UID, 0, len(msgs))
	undo := func() {
		for _, uid := range uids {
			os.Remove(mb.msgPath(uid))
		}
	}
	next := mb.st.UIDNext
	for _, m := range msgs {
		uid := next
		next++
		var err error
		if m.src != "" {
			err = linkOrCopy(m.src, mb.msgPath(uid))
		} else {
			err = writeFileAtomic(mb.msgPath(uid), m.raw)
		}
		if err != nil {
			undo()
			return nil, err
		}
		uids = append(uids, uid)
	}
	old := mb.st
	mb.st.Messages = slices.Clone(mb.st.Messages)
	for i, m := range msgs {
		mb.st.Messages = append(mb.st.Messages, messageState{
			UID: uids[i], Flags: m.flags, Date: m.date.UTC().Round(0), Size: m.size,
		})
	}
	mb.st.UIDNext = next
	if err := mb.save(); err != nil {
		mb.st = old
		undo()
		return nil, err
	}
	n := len(old.Messages)
	for range msgs {
		n++
		// One update per message: the tracker maps sequence numbers
		// correctly only for steps of one.
		mb.tracker.QueueNumMessages(uint32(n))
	}
	mb.notify()
	return uids, nil
}

// expungeLocked removes the messages at the given indexes (any order).
func (mb *mailbox) expungeLocked(idx []int) error {
	if len(idx) == 0 {
		return nil
	}
	idx = slices.Clone(idx)
	slices.Sort(idx)
	idx = slices.Compact(idx)
	old := mb.st
	gone := make([]imap.UID, 0, len(idx))
	kept := make([]messageState, 0, len(mb.st.Messages)-len(idx))
	j := 0
	for i, m := range mb.st.Messages {
		if j < len(idx) && idx[j] == i {
			gone = append(gone, m.UID)
			j++
			continue
		}
		kept = append(kept, m)
	}
	mb.st.Messages = kept
	if err := mb.save(); err != nil {
		mb.st = old
		return err
	}
	// Highest first, so each sequence number is still valid when queued.
	for k := len(idx) - 1; k >= 0; k-- {
		mb.tracker.QueueExpunge(uint32(idx[k]) + 1)
	}
	mb.notify()
	for _, uid := range gone {
		os.Remove(mb.msgPath(uid))
	}
	return nil
}

// Flags. System flags are kept in their canonical spelling; keywords as
// first given, compared without regard to case.
var systemFlags = map[string]string{
	`\seen`:     string(imap.FlagSeen),
	`\answered`: string(imap.FlagAnswered),
	`\flagged`:  string(imap.FlagFlagged),
	`\deleted`:  string(imap.FlagDeleted),
	`\draft`:    string(imap.FlagDraft),
}

// canonicalFlags returns the storable flags among fl, canonical and sorted.
// \Recent and unknown system flags are dropped.
func canonicalFlags(fl []imap.Flag) []string {
	var out []string
	for _, f := range fl {
		s := string(f)
		if strings.HasPrefix(s, `\`) {
			c, ok := systemFlags[strings.ToLower(s)]
			if !ok {
				continue
			}
			s = c
		}
		if !hasFlag(out, s) {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out
}

func hasFlag(flags []string, f string) bool {
	return slices.ContainsFunc(flags, func(g string) bool { return strings.EqualFold(g, f) })
}

// applyFlags returns flags changed by a STORE operation, and whether they
// changed.
func applyFlags(flags []string, op imap.StoreFlagsOp, given []string) ([]string, bool) {
	var out []string
	switch op {
	case imap.StoreFlagsSet:
		out = slices.Clone(given)
	case imap.StoreFlagsAdd:
		out = slices.Clone(flags)
		for _, f := range given {
			if !hasFlag(out, f) {
				out = append(out, f)
			}
		}
	case imap.StoreFlagsDel:
		for _, f := range flags {
			if !hasFlag(given, f) {
				out = append(out, f)
			}
		}
	default:
		return flags, false
	}
	slices.Sort(out)
	return out, !slices.Equal(out, flags)
}

func imapFlags(flags []string) []imap.Flag {
	out := make([]imap.Flag, len(flags))
	for i, f := range flags {
		out[i] = imap.Flag(f)
	}
	return out
}

// mailboxFlagsLocked lists the system flags and every keyword in use.
func (mb *mailbox) mailboxFlagsLocked() []imap.Flag {
	set := []string{string(imap.FlagAnswered), string(imap.FlagDeleted), string(imap.FlagDraft),
		string(imap.FlagFlagged), string(imap.FlagSeen)}
	for _, m := range mb.st.Messages {
		for _, f := range m.Flags {
			if !hasFlag(set, f) {
				set = append(set, f)
			}
		}
	}
	slices.Sort(set)
	return imapFlags(set)
}

func (mb *mailbox) statusLocked(options *imap.StatusOptions) *imap.StatusData {
	data := &imap.StatusData{Mailbox: mb.st.Name}
	count := func(flag imap.Flag) uint32 {
		var n uint32
		for _, m := range mb.st.Messages {
			if hasFlag(m.Flags, string(flag)) {
				n++
			}
		}
		return n
	}
	if options.NumMessages {
		n := uint32(len(mb.st.Messages))
		data.NumMessages = &n
	}
	if options.UIDNext {
		data.UIDNext = mb.st.UIDNext
	}
	if options.UIDValidity {
		data.UIDValidity = mb.st.UIDValidity
	}
	if options.NumUnseen {
		n := uint32(len(mb.st.Messages)) - count(imap.FlagSeen)
		data.NumUnseen = &n
	}
	if options.NumDeleted {
		n := count(imap.FlagDeleted)
		data.NumDeleted = &n
	}
	if options.Size {
		var size int64
		for _, m := range mb.st.Messages {
			size += m.Size
		}
		data.Size = &size
	}
	if options.NumRecent {
		var n uint32
		data.NumRecent = &n
	}
	return data
}

var errMailboxGone = &imap.Error{
	Type: imap.StatusResponseTypeNo,
	Code: imap.ResponseCodeNonExistent,
	Text: "This mailbox has been deleted",
}
