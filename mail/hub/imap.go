package hub

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-message/textproto"
)

// imapSession is one IMAP connection. Its own fields are used only by the
// connection's goroutine; shared state is read and changed under Hub.mu.
type imapSession struct {
	h    *Hub
	user *user
	sel  *mailbox
	view *imapserver.SessionTracker
	ro   bool // EXAMINE

	// mu guards closed, sel and view against Close, which the server may
	// call from another goroutine (shutting down) while Idle runs.
	mu     sync.Mutex
	closed bool
}

var _ interface {
	imapserver.Session
	imapserver.SessionNamespace
	imapserver.SessionMove
	imapserver.SessionAppendLimit
} = (*imapSession)(nil)

func (h *Hub) newIMAPSession(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.stopping {
		return nil, nil, &imap.Error{Type: imap.StatusResponseTypeBye, Text: "The hub is shutting down"}
	}
	h.sessions.Add(1)
	return &imapSession{h: h}, nil, nil
}

var (
	errNoMailbox = &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeNonExistent, Text: "No such mailbox"}
	errTryCreate = &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeTryCreate, Text: "No such mailbox"}
	errReadOnly  = &imap.Error{Type: imap.StatusResponseTypeNo, Text: "The mailbox is open read-only (EXAMINE)"}
	errInternal  = &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeServerBug, Text: "The hub could not store the change; see its log"}
	errHubClosed = &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeUnavailable, Text: "The hub is shutting down"}
)

// internal logs err for the operator and returns a generic NO.
func (s *imapSession) internal(err error) error {
	s.h.cfg.Logger.Printf("hub: IMAP %s: %v", s.user.name, err)
	return errInternal
}

func (s *imapSession) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	// Only the tracker is closed here: the fields stay, since the
	// connection's goroutine may still be reading them.
	if s.view != nil {
		s.view.Close()
	}
	s.mu.Unlock()
	s.h.sessions.Done()
	return nil
}

func (s *imapSession) Login(username, password string) error {
	u, err := s.h.authenticate(username, password)
	if err != nil {
		return imapserver.ErrAuthFailed
	}
	s.user = u
	return nil
}

// mailboxLocked finds a mailbox of the session's user.
func (s *imapSession) mailboxLocked(name string) *mailbox {
	if s.h.closed {
		return nil
	}
	return s.user.mailboxes[canonicalMailbox(name)]
}

func (s *imapSession) Select(name string, options *imap.SelectOptions) (*imap.SelectData, error) {
	s.unselect()
	h := s.h
	h.mu.Lock()
	defer h.mu.Unlock()
	mb := s.mailboxLocked(name)
	if mb == nil {
		return nil, errNoMailbox
	}
	s.mu.Lock()
	s.sel, s.view, s.ro = mb, mb.tracker.NewSession(), options.ReadOnly
	s.mu.Unlock()
	flags := mb.mailboxFlagsLocked()
	var firstUnseen uint32
	for i, m := range mb.st.Messages {
		if !hasFlag(m.Flags, string(imap.FlagSeen)) {
			firstUnseen = uint32(i) + 1
			break
		}
	}
	return &imap.SelectData{
		Flags:             flags,
		PermanentFlags:    append(slices.Clone(flags), imap.FlagWildcard),
		NumMessages:       uint32(len(mb.st.Messages)),
		FirstUnseenSeqNum: firstUnseen,
		UIDNext:           mb.st.UIDNext,
		UIDValidity:       mb.st.UIDValidity,
	}, nil
}

func (s *imapSession) unselect() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.view != nil {
		s.view.Close()
	}
	s.sel, s.view, s.ro = nil, nil, false
}

func (s *imapSession) Unselect() error {
	s.unselect()
	return nil
}

func (s *imapSession) Create(name string, options *imap.CreateOptions) error {
	name = canonicalMailbox(name)
	if err := validMailboxName(name); err != nil {
		return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeCannot, Text: err.Error()}
	}
	h := s.h
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return errHubClosed
	}
	if s.user.mailboxes[name] != nil {
		return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeAlreadyExists, Text: "Mailbox already exists"}
	}
	if _, err := h.createMailboxLocked(s.user, name); err != nil {
		return s.internal(err)
	}
	return nil
}

func (s *imapSession) Delete(name string) error {
	name = canonicalMailbox(name)
	if name == inboxName {
		return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeCannot, Text: "INBOX cannot be deleted"}
	}
	h := s.h
	h.mu.Lock()
	defer h.mu.Unlock()
	mb := s.mailboxLocked(name)
	if mb == nil {
		return errNoMailbox
	}
	if err := h.deleteMailboxLocked(s.user, mb); err != nil {
		return s.internal(err)
	}
	return nil
}

func (s *imapSession) Rename(oldName, newName string, options *imap.RenameOptions) error {
	oldName, newName = canonicalMailbox(oldName), canonicalMailbox(newName)
	if oldName == inboxName || newName == inboxName {
		return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeCannot, Text: "This hub cannot rename INBOX"}
	}
	if err := validMailboxName(newName); err != nil {
		return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeCannot, Text: err.Error()}
	}
	h := s.h
	h.mu.Lock()
	defer h.mu.Unlock()
	if s.mailboxLocked(oldName) == nil {
		return errNoMailbox
	}
	// The mailbox and its children ("a" renames "a/b" too).
	renames := map[string]string{}
	for name := range s.user.mailboxes {
		if name == oldName || strings.HasPrefix(name, oldName+string(delim)) {
			renames[name] = newName + strings.TrimPrefix(name, oldName)
		}
	}
	for _, to := range renames {
		if s.user.mailboxes[to] != nil {
			return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeAlreadyExists, Text: "Mailbox already exists: " + to}
		}
	}
	for _, from := range slices.Sorted(maps.Keys(renames)) {
		mb := s.user.mailboxes[from]
		mb.st.Name = renames[from]
		if err := mb.save(); err != nil {
			mb.st.Name = from
			return s.internal(err)
		}
		delete(s.user.mailboxes, from)
		s.user.mailboxes[mb.st.Name] = mb
	}
	return nil
}

func (s *imapSession) Subscribe(name string) error   { return s.setSubscribed(name, true) }
func (s *imapSession) Unsubscribe(name string) error { return s.setSubscribed(name, false) }

func (s *imapSession) setSubscribed(name string, on bool) error {
	h := s.h
	h.mu.Lock()
	defer h.mu.Unlock()
	mb := s.mailboxLocked(name)
	if mb == nil {
		return errNoMailbox
	}
	if mb.st.Subscribed == on {
		return nil
	}
	mb.st.Subscribed = on
	if err := mb.save(); err != nil {
		mb.st.Subscribed = !on
		return s.internal(err)
	}
	return nil
}

func (s *imapSession) List(w *imapserver.ListWriter, ref string, patterns []string, options *imap.ListOptions) error {
	if len(patterns) == 0 {
		// LIST "" "": the hierarchy delimiter.
		return w.WriteList(&imap.ListData{Attrs: []imap.MailboxAttr{imap.MailboxAttrNoSelect}, Delim: delim})
	}
	h := s.h
	h.mu.Lock()
	var list []imap.ListData
	for _, name := range slices.Sorted(maps.Keys(s.user.mailboxes)) {
		mb := s.user.mailboxes[name]
		if !slices.ContainsFunc(patterns, func(p string) bool {
			return imapserver.MatchList(name, delim, ref, p) || (name == inboxName && imapserver.MatchList("inbox", delim, strings.ToLower(ref), strings.ToLower(p)))
		}) {
			continue
		}
		if options.SelectSubscribed && !mb.st.Subscribed {
			continue
		}
		data := imap.ListData{Mailbox: name, Delim: delim}
		if mb.st.Subscribed && (options.ReturnSubscribed || options.SelectSubscribed) {
			data.Attrs = append(data.Attrs, imap.MailboxAttrSubscribed)
		}
		if options.ReturnStatus != nil {
			data.Status = mb.statusLocked(options.ReturnStatus)
		}
		list = append(list, data)
	}
	h.mu.Unlock()
	for i := range list {
		if err := w.WriteList(&list[i]); err != nil {
			return err
		}
	}
	return nil
}

func (s *imapSession) Status(name string, options *imap.StatusOptions) (*imap.StatusData, error) {
	h := s.h
	h.mu.Lock()
	defer h.mu.Unlock()
	mb := s.mailboxLocked(name)
	if mb == nil {
		return nil, errNoMailbox
	}
	return mb.statusLocked(options), nil
}

func (s *imapSession) Namespace() (*imap.NamespaceData, error) {
	return &imap.NamespaceData{Personal: []imap.NamespaceDescriptor{{Prefix: "", Delim: delim}}}, nil
}

func (s *imapSession) AppendLimit() uint32 { return uint32(s.h.cfg.MaxMessageBytes) }

func (s *imapSession) Append(name string, r imap.LiteralReader, options *imap.AppendOptions) (*imap.AppendData, error) {
	// The server checked r.Size() against AppendLimit; read it before
	// taking the lock.
	raw, err := io.ReadAll(io.LimitReader(r, s.h.cfg.MaxMessageBytes+1))
	if err != nil {
		return nil, err
	}
	if int64(len(raw)) > s.h.cfg.MaxMessageBytes {
		return nil, &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeTooBig, Text: "Message too large"}
	}
	date := options.Time
	if date.IsZero() {
		date = time.Now()
	}
	h := s.h
	h.mu.Lock()
	defer h.mu.Unlock()
	mb := s.mailboxLocked(name)
	if mb == nil {
		return nil, errTryCreate
	}
	uids, err := mb.appendLocked([]newMessage{{raw: raw, flags: canonicalFlags(options.Flags), date: date, size: int64(len(raw))}})
	if err != nil {
		return nil, s.internal(err)
	}
	return &imap.AppendData{UID: uids[0], UIDValidity: mb.st.UIDValidity}, nil
}

func (s *imapSession) Poll(w *imapserver.UpdateWriter, allowExpunge bool) error {
	if s.view == nil {
		return nil
	}
	return s.view.Poll(w, allowExpunge)
}

// Idle sends updates until stop is closed. The wake-up channel is
// registered before the first Poll, so a message that arrives at any moment
// around the IDLE command is reported (unlike imapmemserver, which can
// miss one queued just before it starts waiting).
func (s *imapSession) Idle(w *imapserver.UpdateWriter, stop <-chan struct{}) error {
	s.mu.Lock()
	view, mb := s.view, s.sel
	s.mu.Unlock()
	if view == nil {
		<-stop
		return nil
	}
	wake := make(chan struct{}, 1)
	h := s.h
	h.mu.Lock()
	mb.watchers[wake] = struct{}{}
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		delete(mb.watchers, wake)
		h.mu.Unlock()
	}()
	for {
		s.mu.Lock()
		closed := s.closed
		s.mu.Unlock()
		if closed {
			return nil
		}
		if err := view.Poll(w, true); err != nil {
			return err
		}
		select {
		case <-wake:
		case <-stop:
			return nil
		}
	}
}

// target is a message picked by a sequence set, as the client sees it.
type target struct {
	idx       int    // position in the mailbox now
	clientSeq uint32 // sequence number in the client's view
	msg       messageState
}

// resolveLocked returns the messages of the selected mailbox in numSet, in
// mailbox order. "*" is the last message the client knows of (sequence
// numbers) or the highest UID.
func (s *imapSession) resolveLocked(numSet imap.NumSet) []target {
	mb := s.sel
	msgs := mb.st.Messages
	var out []target
	switch set := numSet.(type) {
	case imap.SeqSet:
		var maxSeq uint32
		for i := len(msgs) - 1; i >= 0 && maxSeq == 0; i-- {
			maxSeq = s.view.EncodeSeqNum(uint32(i) + 1)
		}
		for i, m := range msgs {
			seq := s.view.EncodeSeqNum(uint32(i) + 1)
			if seq != 0 && inRanges(seq, maxSeq, seqRanges(set)) {
				out = append(out, target{idx: i, clientSeq: seq, msg: m})
			}
		}
	case imap.UIDSet:
		var maxUID uint32
		if len(msgs) > 0 {
			maxUID = uint32(msgs[len(msgs)-1].UID)
		}
		for i, m := range msgs {
			if inRanges(uint32(m.UID), maxUID, uidRanges(set)) {
				seq := s.view.EncodeSeqNum(uint32(i) + 1)
				out = append(out, target{idx: i, clientSeq: seq, msg: m})
			}
		}
	}
	return out
}

func seqRanges(set imap.SeqSet) [][2]uint32 {
	r := make([][2]uint32, len(set))
	for i, x := range set {
		r[i] = [2]uint32{x.Start, x.Stop}
	}
	return r
}

func uidRanges(set imap.UIDSet) [][2]uint32 {
	r := make([][2]uint32, len(set))
	for i, x := range set {
		r[i] = [2]uint32{uint32(x.Start), uint32(x.Stop)}
	}
	return r
}

// inRanges reports whether n is in one of the ranges, where 0 stands for
// "*", the largest number max.
func inRanges(n, max uint32, ranges [][2]uint32) bool {
	for _, r := range ranges {
		lo, hi := r[0], r[1]
		if lo == 0 {
			lo = max
		}
		if hi == 0 {
			hi = max
		}
		if lo > hi {
			lo, hi = hi, lo
		}
		if lo <= n && n <= hi {
			return true
		}
	}
	return false
}

func (s *imapSession) checkSelectedLocked() error {
	if s.h.closed {
		return errHubClosed
	}
	if s.sel.deleted {
		return errMailboxGone
	}
	return nil
}

func (s *imapSession) Expunge(w *imapserver.ExpungeWriter, uids *imap.UIDSet) error {
	if s.ro {
		return errReadOnly
	}
	h := s.h
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := s.checkSelectedLocked(); err != nil {
		return err
	}
	var idx []int
	for i, m := range s.sel.st.Messages {
		if hasFlag(m.Flags, string(imap.FlagDeleted)) && (uids == nil || uids.Contains(m.UID)) {
			idx = append(idx, i)
		}
	}
	if err := s.sel.expungeLocked(idx); err != nil {
		return s.internal(err)
	}
	// The EXPUNGE responses reach this client through Poll, which the
	// server runs before completing the command.
	return nil
}

func (s *imapSession) Store(w *imapserver.FetchWriter, numSet imap.NumSet, flags *imap.StoreFlags, options *imap.StoreOptions) error {
	if s.ro {
		return errReadOnly
	}
	given := canonicalFlags(flags.Flags)
	h := s.h
	h.mu.Lock()
	if err := s.checkSelectedLocked(); err != nil {
		h.mu.Unlock()
		return err
	}
	mb := s.sel
	targets := s.resolveLocked(numSet)
	old := slices.Clone(mb.st.Messages)
	var changed []int
	for k, t := range targets {
		nf, ok := applyFlags(t.msg.Flags, flags.Op, given)
		targets[k].msg.Flags = nf
		if ok {
			mb.st.Messages[t.idx].Flags = nf
			changed = append(changed, k)
		}
	}
	if len(changed) > 0 {
		if err := mb.save(); err != nil {
			mb.st.Messages = old
			h.mu.Unlock()
			return s.internal(err)
		}
		for _, k := range changed {
			t := targets[k]
			mb.tracker.QueueMessageFlags(uint32(t.idx)+1, t.msg.UID, imapFlags(t.msg.Flags), s.view)
		}
		mb.notify()
	}
	h.mu.Unlock()
	if flags.Silent {
		return nil
	}
	for _, t := range targets {
		if t.clientSeq == 0 {
			continue
		}
		rw := w.CreateMessage(t.clientSeq)
		rw.WriteUID(t.msg.UID)
		rw.WriteFlags(imapFlags(t.msg.Flags))
		if err := rw.Close(); err != nil {
			return err
		}
	}
	return nil
}

func (s *imapSession) Fetch(w *imapserver.FetchWriter, numSet imap.NumSet, options *imap.FetchOptions) error {
	markSeen := false
	for _, bs := range options.BodySection {
		markSeen = markSeen || !bs.Peek
	}
	for _, bs := range options.BinarySection {
		markSeen = markSeen || !bs.Peek
	}
	markSeen = markSeen && !s.ro

	h := s.h
	h.mu.Lock()
	if err := s.checkSelectedLocked(); err != nil {
		h.mu.Unlock()
		return err
	}
	mb := s.sel
	targets := s.resolveLocked(numSet)
	seenNow := map[imap.UID]bool{}
	if markSeen {
		old := slices.Clone(mb.st.Messages)
		for k, t := range targets {
			if nf, ok := applyFlags(t.msg.Flags, imap.StoreFlagsAdd, []string{string(imap.FlagSeen)}); ok {
				mb.st.Messages[t.idx].Flags = nf
				targets[k].msg.Flags = nf
				seenNow[t.msg.UID] = true
			}
		}
		if len(seenNow) > 0 {
			if err := mb.save(); err != nil {
				mb.st.Messages = old
				h.mu.Unlock()
				return s.internal(err)
			}
			for _, t := range targets {
				if seenNow[t.msg.UID] {
					mb.tracker.QueueMessageFlags(uint32(t.idx)+1, t.msg.UID, imapFlags(t.msg.Flags), s.view)
				}
			}
			mb.notify()
		}
	}
	paths := make([]string, len(targets))
	for k, t := range targets {
		paths[k] = mb.msgPath(t.msg.UID)
	}
	h.mu.Unlock()

	needBody := options.Envelope || options.BodyStructure != nil || len(options.BodySection) > 0 ||
		len(options.BinarySection) > 0 || len(options.BinarySectionSize) > 0
	for k, t := range targets {
		if t.clientSeq == 0 {
			continue
		}
		var raw []byte
		if needBody {
			var err error
			raw, err = os.ReadFile(paths[k])
			if isNotExist(err) {
				continue // expunged meanwhile by another session
			} else if err != nil {
				return s.internal(err)
			}
		}
		if err := writeFetch(w.CreateMessage(t.clientSeq), t.msg, raw, options, seenNow[t.msg.UID]); err != nil {
			return err
		}
	}
	return nil
}

func writeFetch(rw *imapserver.FetchResponseWriter, m messageState, raw []byte, options *imap.FetchOptions, flagsChanged bool) error {
	rw.WriteUID(m.UID)
	if options.Flags || flagsChanged {
		rw.WriteFlags(imapFlags(m.Flags))
	}
	if options.InternalDate {
		rw.WriteInternalDate(m.Date)
	}
	if options.RFC822Size {
		rw.WriteRFC822Size(m.Size)
	}
	if options.Envelope {
		hdr, err := textproto.ReadHeader(bufio.NewReader(bytes.NewReader(raw)))
		if err == nil {
			rw.WriteEnvelope(imapserver.ExtractEnvelope(hdr))
		} else {
			rw.WriteEnvelope(&imap.Envelope{})
		}
	}
	if options.BodyStructure != nil {
		rw.WriteBodyStructure(imapserver.ExtractBodyStructure(bytes.NewReader(raw)))
	}
	for _, bs := range options.BodySection {
		buf := imapserver.ExtractBodySection(bytes.NewReader(raw), bs)
		if err := writeLiteral(rw.WriteBodySection(bs, int64(len(buf))), buf); err != nil {
			return err
		}
	}
	for _, bs := range options.BinarySection {
		buf := imapserver.ExtractBinarySection(bytes.NewReader(raw), bs)
		if err := writeLiteral(rw.WriteBinarySection(bs, int64(len(buf))), buf); err != nil {
			return err
		}
	}
	for _, bss := range options.BinarySectionSize {
		rw.WriteBinarySectionSize(bss, imapserver.ExtractBinarySectionSize(bytes.NewReader(raw), bss))
	}
	return rw.Close()
}

func writeLiteral(wc io.WriteCloser, buf []byte) error {
	_, err := wc.Write(buf)
	if cerr := wc.Close(); err == nil {
		err = cerr
	}
	return err
}

func (s *imapSession) Copy(numSet imap.NumSet, destName string) (*imap.CopyData, error) {
	data, _, err := s.copyOrMove(numSet, destName, false)
	return data, err
}

func (s *imapSession) Move(w *imapserver.MoveWriter, numSet imap.NumSet, destName string) error {
	if s.ro {
		return errReadOnly
	}
	data, n, err := s.copyOrMove(numSet, destName, true)
	if err != nil || n == 0 {
		return err
	}
	// The EXPUNGE responses follow through Poll.
	return w.WriteCopyData(data)
}

func (s *imapSession) copyOrMove(numSet imap.NumSet, destName string, move bool) (*imap.CopyData, int, error) {
	h := s.h
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := s.checkSelectedLocked(); err != nil {
		return nil, 0, err
	}
	dest := s.mailboxLocked(destName)
	if dest == nil {
		return nil, 0, errTryCreate
	}
	src := s.sel
	if move && dest == src {
		return nil, 0, &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeCannot, Text: "Source and destination are the same mailbox"}
	}
	targets := s.resolveLocked(numSet)
	if len(targets) == 0 {
		return &imap.CopyData{UIDValidity: dest.st.UIDValidity}, 0, nil
	}
	msgs := make([]newMessage, len(targets))
	var srcUIDs imap.UIDSet
	idx := make([]int, len(targets))
	for k, t := range targets {
		msgs[k] = newMessage{src: src.msgPath(t.msg.UID), flags: slices.Clone(t.msg.Flags), date: t.msg.Date, size: t.msg.Size}
		srcUIDs.AddNum(t.msg.UID)
		idx[k] = t.idx
	}
	// Destination first: a crash in between leaves a copy, never a loss.
	uids, err := dest.appendLocked(msgs)
	if err != nil {
		return nil, 0, s.internal(err)
	}
	if move {
		if err := src.expungeLocked(idx); err != nil {
			return nil, 0, s.internal(err)
		}
	}
	var destUIDs imap.UIDSet
	destUIDs.AddNum(uids...)
	return &imap.CopyData{UIDValidity: dest.st.UIDValidity, SourceUIDs: srcUIDs, DestUIDs: destUIDs}, len(uids), nil
}

func (s *imapSession) Search(kind imapserver.NumKind, criteria *imap.SearchCriteria, options *imap.SearchOptions) (*imap.SearchData, error) {
	h := s.h
	h.mu.Lock()
	if err := s.checkSelectedLocked(); err != nil {
		h.mu.Unlock()
		return nil, err
	}
	mb := s.sel
	all := s.resolveLocked(imap.UIDSet{{Start: 1, Stop: 0}})
	var maxSeq uint32
	for _, t := range all {
		maxSeq = max(maxSeq, t.clientSeq)
	}
	var maxUID uint32
	if n := len(mb.st.Messages); n > 0 {
		maxUID = uint32(mb.st.Messages[n-1].UID)
	}
	paths := make([]string, len(all))
	for k, t := range all {
		paths[k] = mb.msgPath(t.msg.UID)
	}
	h.mu.Unlock()

	data := &imap.SearchData{}
	var seqs imap.SeqSet
	var uids imap.UIDSet
	for k, t := range all {
		if t.clientSeq == 0 {
			continue // not yet announced to this client
		}
		c := &candidate{t: t, path: paths[k], maxSeq: maxSeq, maxUID: maxUID}
		if !c.match(criteria) {
			continue
		}
		num := t.clientSeq
		if kind == imapserver.NumKindUID {
			num = uint32(t.msg.UID)
			uids.AddNum(t.msg.UID)
		} else {
			seqs.AddNum(t.clientSeq)
		}
		if data.Count == 0 || num < data.Min {
			data.Min = num
		}
		data.Max = max(data.Max, num)
		data.Count++
	}
	if kind == imapserver.NumKindUID {
		data.All = uids
	} else {
		data.All = seqs
	}
	return data, nil
}

// candidate is a message being matched against SEARCH criteria; its file
// is read only if a criterion needs the content.
type candidate struct {
	t              target
	path           string
	maxSeq, maxUID uint32
	raw            []byte
	loaded         bool
	hdr            textproto.Header
	body           []byte
}

func (c *candidate) load() {
	if c.loaded {
		return
	}
	c.loaded = true
	raw, err := os.ReadFile(c.path)
	if err != nil {
		return
	}
	c.raw = raw
	br := bufio.NewReader(bytes.NewReader(raw))
	if hdr, err := textproto.ReadHeader(br); err == nil {
		c.hdr = hdr
		c.body, _ = io.ReadAll(br)
	} else {
		c.body = raw
	}
}

func dateOnly(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

func inDates(t, since, before time.Time) bool {
	d := dateOnly(t)
	if !since.IsZero() && d.Before(dateOnly(since)) {
		return false
	}
	if !before.IsZero() && !d.Before(dateOnly(before)) {
		return false
	}
	return true
}

func containsFold(b []byte, s string) bool {
	return bytes.Contains(bytes.ToLower(b), bytes.ToLower([]byte(s)))
}

func (c *candidate) match(cr *imap.SearchCriteria) bool {
	m := c.t.msg
	for _, set := range cr.SeqNum {
		if !inRanges(c.t.clientSeq, c.maxSeq, seqRanges(set)) {
			return false
		}
	}
	for _, set := range cr.UID {
		if !inRanges(uint32(m.UID), c.maxUID, uidRanges(set)) {
			return false
		}
	}
	if !inDates(m.Date, cr.Since, cr.Before) {
		return false
	}
	for _, f := range cr.Flag {
		if !hasFlag(m.Flags, string(f)) {
			return false
		}
	}
	for _, f := range cr.NotFlag {
		if hasFlag(m.Flags, string(f)) {
			return false
		}
	}
	if cr.Larger != 0 && m.Size <= cr.Larger {
		return false
	}
	if cr.Smaller != 0 && m.Size >= cr.Smaller {
		return false
	}
	if !cr.SentSince.IsZero() || !cr.SentBefore.IsZero() {
		c.load()
		t, err := parseDate(c.hdr.Get("Date"))
		if err != nil || !inDates(t, cr.SentSince, cr.SentBefore) {
			return false
		}
	}
	for _, hf := range cr.Header {
		c.load()
		vals := c.hdr.Values(hf.Key)
		if len(vals) == 0 {
			return false
		}
		if hf.Value != "" && !slices.ContainsFunc(vals, func(v string) bool { return containsFold([]byte(v), hf.Value) }) {
			return false
		}
	}
	for _, b := range cr.Body {
		c.load()
		if !containsFold(c.body, b) {
			return false
		}
	}
	for _, t := range cr.Text {
		c.load()
		if !containsFold(c.raw, t) {
			return false
		}
	}
	for i := range cr.Not {
		if c.match(&cr.Not[i]) {
			return false
		}
	}
	for i := range cr.Or {
		if !c.match(&cr.Or[i][0]) && !c.match(&cr.Or[i][1]) {
			return false
		}
	}
	return true
}

func parseUID(s string) (imap.UID, error) {
	n, err := strconv.ParseUint(s, 10, 32)
	if err != nil || n == 0 {
		return 0, errors.New("bad UID")
	}
	return imap.UID(n), nil
}
