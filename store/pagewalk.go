package store

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"strings"
)

// Walking a bbolt file page by page, without trusting it.
//
// bbolt trusts its file: it follows page numbers straight into its memory
// map, so one damaged page header can send it outside the file (a SIGSEGV
// or SIGBUS, which no recover() catches), into a loop, or into a panic.
// Before bbolt reads a file, Open therefore walks every page itself with
// plain reads: both meta pages, the freelist and every bucket's B+tree. It
// checks each page's header, that every page number lies inside the file
// and is used once, that every key and value lies inside its page and that
// keys are in order; it finds everything bbolt's own tx.Check finds, but
// cannot crash doing so. Only a file that passes is handed to bbolt.
//
// The same walk can read every record of umpire's layout (events, whose
// hash chains it checks, secrets, outbox, marks, meta). That is how
// `umpire check` reports on a damaged file and how Salvage reads what is
// intact without ever asking bbolt to read a damaged page.

// The bbolt file format (version 2), as go.etcd.io/bbolt writes it; all
// integers in the machine's byte order.
//
//	page header   id u64, flags u16, count u16, overflow u32   (16 bytes)
//	meta          magic u32, version u32, pageSize u32, flags u32,
//	              root bucket (root u64, sequence u64), freelist u64,
//	              pgid u64 (the high water mark), txid u64, checksum u64
//	              (FNV-64a of the fields before it)
//	branch elem   pos u32, ksize u32, pgid u64            (16 bytes)
//	leaf elem     flags u32, pos u32, ksize u32, vsize u32 (16 bytes)
//	              pos counts from the element itself; the value follows the key
//	bucket value  root u64, sequence u64, then an inline leaf page when root is 0
//	freelist      count page ids, u64 each; count 0xFFFF means the first u64 is the count
const (
	pageHeaderSize   = 16
	elemSize         = 16
	bucketHeaderSize = 16
	metaSize         = 64
	boltMagic        = 0xED0CDAED
	boltVersion      = 2
	branchPageFlag   = 0x01
	leafPageFlag     = 0x02
	metaPageFlag     = 0x04
	freelistPageFlag = 0x10
	bucketLeafFlag   = 0x01
	noFreelist       = ^uint64(0)
	// maxDepth bounds the walk: the tree of a few million events in nested
	// buckets is far shallower.
	maxDepth = 64
)

var ne = binary.NativeEndian

type meta struct {
	magic, version, pageSize, flags uint32
	root, sequence, freelist, pgid  uint64
	txid, checksum                  uint64
}

func parseMeta(p []byte) (meta, error) {
	if len(p) < pageHeaderSize+metaSize {
		return meta{}, errors.New("cut short")
	}
	b := p[pageHeaderSize:]
	m := meta{
		magic: ne.Uint32(b[0:]), version: ne.Uint32(b[4:]), pageSize: ne.Uint32(b[8:]), flags: ne.Uint32(b[12:]),
		root: ne.Uint64(b[16:]), sequence: ne.Uint64(b[24:]), freelist: ne.Uint64(b[32:]), pgid: ne.Uint64(b[40:]),
		txid: ne.Uint64(b[48:]), checksum: ne.Uint64(b[56:]),
	}
	h := fnv.New64a()
	h.Write(b[:56])
	switch {
	case m.magic != boltMagic:
		return m, errors.New("it is not a bbolt meta page (wrong magic number)")
	case m.version != boltVersion:
		return m, fmt.Errorf("it has bbolt format version %d, not %d", m.version, boltVersion)
	case h.Sum64() != m.checksum:
		return m, errors.New("its checksum does not match")
	}
	return m, nil
}

// visitor is told what the walk finds, in key order within each bucket.
// Slices handed to it are only valid during the call.
type visitor interface {
	bucket(path []string, name []byte)    // a bucket entry, before its contents
	value(path []string, key, val []byte) // a plain key/value in the bucket at path
	leave(path []string)                  // the end of the bucket at path
	// problem records damage found in the bucket at path (at key, when it
	// is about one entry; nil when it is about a page).
	problem(path []string, key []byte, seq uint64, format string, args ...any)
}

// blockReader reads a file through a few cached blocks: a walk reads pages
// roughly in file order, and one read of a block beats a read per page.
type blockReader struct {
	r      io.ReaderAt
	size   int64
	blocks [4]struct {
		off  int64
		data []byte
	}
	next int
}

const blockSize = 1 << 20

func (b *blockReader) ReadAt(p []byte, off int64) (int, error) {
	start := off - off%blockSize
	if off < 0 || off+int64(len(p)) > start+blockSize {
		return b.r.ReadAt(p, off) // spans blocks: an overflow page
	}
	for i := range b.blocks {
		blk := &b.blocks[i]
		if blk.data != nil && blk.off == start {
			return b.copy(p, blk.data, off-start)
		}
	}
	blk := &b.blocks[b.next]
	b.next = (b.next + 1) % len(b.blocks)
	n := min(blockSize, b.size-start)
	if n <= 0 {
		return 0, io.EOF
	}
	if blk.data == nil {
		blk.data = make([]byte, blockSize)
	}
	blk.off = -1
	m, err := b.r.ReadAt(blk.data[:n], start)
	if m < int(n) {
		return 0, err
	}
	blk.off, blk.data = start, blk.data[:n]
	return b.copy(p, blk.data, off-start)
}

func (b *blockReader) copy(p, data []byte, at int64) (int, error) {
	if at+int64(len(p)) > int64(len(data)) {
		n := copy(p, data[min(at, int64(len(data))):])
		return n, io.EOF
	}
	return copy(p, data[at:]), nil
}

// walker reads a bbolt file page by page with plain reads.
type walker struct {
	ctx      context.Context
	r        io.ReaderAt
	size     int64
	rep      *Report
	v        visitor
	pageSize uint64
	hwm      uint64 // pages the meta page counts
	limit    uint64 // pages actually in the file (<= hwm when it is whole)
	owner    []int32
	owners   []string
	listBad  bool     // the freelist could not be read
	bufs     [][]byte // one page buffer per depth
	reads    int
}

const (
	ownerFree = -1
	ownerMeta = -2
	ownerList = -3
)

// damage records a problem found at path (and key, when it is about an
// entry of that bucket).
func (w *walker) damage(path []string, key []byte, format string, args ...any) {
	w.v.problem(path, key, 0, format, args...)
}

func (w *walker) run() error {
	m, ok := w.metas()
	if !ok {
		return nil
	}
	w.rep.PageSize, w.rep.Pages, w.rep.Txid = int(w.pageSize), m.pgid, m.txid
	w.hwm = m.pgid
	w.limit = min(w.hwm, uint64(w.size)/w.pageSize)
	if w.limit < w.hwm {
		w.damage(nil, nil, "the file is %d bytes, but its meta page counts %d pages of %d bytes: it was cut short, and pages %d to %d are lost",
			w.size, w.hwm, w.pageSize, w.limit, w.hwm-1)
	}
	w.owner = make([]int32, w.limit)
	w.owner[0], w.owner[1] = ownerMeta, ownerMeta
	if m.freelist != noFreelist {
		w.freelist(m.freelist)
	}
	if err := w.page(nil, w.ownerOf(nil), m.root, nil, nil, 0); err != nil {
		return err
	}
	if m.freelist == noFreelist || w.listBad {
		return nil // bbolt rebuilds the freelist from what is unused; or it is damaged, which is said
	}
	var lost []uint64
	for id := uint64(2); id < w.limit; id++ {
		if w.owner[id] == 0 {
			lost = append(lost, id)
		}
	}
	if len(lost) > 0 {
		// Only damage makes this: a page number changed in a branch page
		// (then that is reported too) or in the freelist.
		w.damage(nil, nil, "%d pages (%s) are neither in use nor free", len(lost), pageList(lost))
	}
	return nil
}

func pageList(ids []uint64) string {
	var b strings.Builder
	for i, id := range ids {
		if i == 5 {
			fmt.Fprintf(&b, ", …")
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprint(&b, id)
	}
	return b.String()
}

// metas reads both meta pages and returns the one bbolt would use: the one
// with the higher transaction id of those that are valid.
func (w *walker) metas() (meta, bool) {
	if w.size < 1024*2 {
		w.damage(nil, nil, "the file is %d bytes: too short to be a data file", w.size)
		return meta{}, false
	}
	first := make([]byte, pageHeaderSize+metaSize)
	if _, err := w.r.ReadAt(first, 0); err != nil {
		w.damage(nil, nil, "reading meta page 0: %v", err)
		return meta{}, false
	}
	m0, err0 := parseMeta(first)
	// bbolt finds meta page 1 after meta page 0; when page 0 is damaged,
	// its page size is found by trying each one bbolt can write.
	var m1 meta
	var err1 error = errors.New("it could not be found")
	sizes := []uint32{1024, 2048, 4096, 8192, 16384, 32768, 65536}
	if err0 == nil {
		sizes = []uint32{m0.pageSize}
	}
	second := make([]byte, pageHeaderSize+metaSize)
	var hdr1 []byte
	for _, sz := range sizes {
		if int64(sz)*2 > w.size {
			break
		}
		if _, err := w.r.ReadAt(second, int64(sz)); err != nil {
			continue
		}
		m, err := parseMeta(second)
		if err0 == nil || err == nil || sz == 4096 {
			m1, err1, hdr1 = m, err, second
		}
		if err == nil {
			break
		}
	}
	var m meta
	var used int
	switch {
	case err0 == nil && (err1 != nil || m0.txid >= m1.txid):
		m, used = m0, 0
	case err1 == nil:
		m, used = m1, 1
	default:
		w.damage(nil, nil, "both meta pages are damaged (page 0: %v; page 1: %v): bbolt cannot open the file", err0, err1)
		return meta{}, false
	}
	if err0 != nil {
		w.rep.Notes = append(w.rep.Notes, fmt.Sprintf("meta page 0 is damaged (%v); the file is read as of meta page 1, transaction %d", err0, m1.txid))
	}
	if err1 != nil {
		w.rep.Notes = append(w.rep.Notes, fmt.Sprintf("meta page 1 is damaged (%v); the file is read as of meta page 0, transaction %d", err1, m0.txid))
	}
	if err0 != nil || err1 != nil {
		w.rep.Notes = append(w.rep.Notes, "a meta page is only damaged this way by a crash while writing it (then nothing is lost) or by the disk; bbolt replaces it at the next write")
	}
	w.pageSize = uint64(m.pageSize)
	if m.pageSize < 1024 || m.pageSize > 65536 || m.pageSize&(m.pageSize-1) != 0 {
		w.damage(nil, nil, "meta page %d gives a page size of %d bytes", used, m.pageSize)
		return meta{}, false
	}
	// The header of the meta page in use: bbolt does not read it, but its
	// own check does, and only damage changes it.
	hdr := first
	if used == 1 {
		hdr = hdr1
	}
	if id, flags := ne.Uint64(hdr), ne.Uint16(hdr[8:]); id != uint64(used) || flags != metaPageFlag {
		w.damage(nil, nil, "page %d: the header of the meta page in use says page %d of type %#x", used, id, flags)
	}
	switch {
	case m.pgid < 3 || m.pgid > uint64(w.size)/w.pageSize+1<<20:
		w.damage(nil, nil, "meta page %d counts %d pages, which cannot be", used, m.pgid)
		return meta{}, false
	case m.root < 2 || m.root >= m.pgid:
		w.damage(nil, nil, "meta page %d puts the root at page %d, outside pages 2 to %d", used, m.root, m.pgid-1)
		return meta{}, false
	case m.freelist != noFreelist && (m.freelist < 2 || m.freelist >= m.pgid):
		w.damage(nil, nil, "meta page %d puts the freelist at page %d, outside pages 2 to %d", used, m.freelist, m.pgid-1)
		return meta{}, false
	}
	return m, true
}

// claim marks pages id to id+overflow as used by owner, and says whether
// they were all free to claim; it reports what is wrong otherwise.
func (w *walker) claim(path []string, key []byte, id, overflow uint64, owner int32, what string) bool {
	return w.claimFrom(path, key, id, id, overflow, owner, what)
}

// claimFrom claims the pages of page id (id to id+overflow) from page
// first on: a page whose header is yet to be read is claimed on its own
// first, so that a damaged one still counts as used by its bucket.
func (w *walker) claimFrom(path []string, key []byte, id, first, overflow uint64, owner int32, what string) bool {
	if id < 2 || id >= w.hwm || overflow >= w.hwm-id {
		w.damage(path, key, "%s %d runs over %d more pages, past the file's last page %d", what, id, overflow, w.hwm-1)
		return false
	}
	if id+overflow >= w.limit {
		w.damage(path, key, "%s %d runs past the end of the file (%d bytes)", what, id, w.size)
		return false
	}
	for i := first; i <= id+overflow; i++ {
		switch o := w.owner[i]; {
		case o == ownerFree:
			w.damage(path, key, "page %d is in use but also listed as free (a write would overwrite it)", i)
		case o != 0:
			w.damage(path, key, "%s %d takes up page %d, which %s uses already", what, id, i, w.ownerName(o))
			return false
		}
	}
	for i := first; i <= id+overflow; i++ {
		w.owner[i] = owner
	}
	return true
}

func (w *walker) ownerName(o int32) string {
	switch o {
	case ownerMeta:
		return "a meta page"
	case ownerList:
		return "the freelist"
	case ownerFree:
		return "the freelist (as free)"
	}
	if p := w.owners[o-1]; p != "" {
		return "bucket " + p
	}
	return "the root bucket"
}

func (w *walker) ownerOf(path []string) int32 {
	w.owners = append(w.owners, strings.Join(path, "/"))
	return int32(len(w.owners))
}

// read reads n bytes of page id into the buffer of depth d.
func (w *walker) read(id, n uint64, d int) ([]byte, error) {
	for len(w.bufs) <= d {
		w.bufs = append(w.bufs, nil)
	}
	if uint64(cap(w.bufs[d])) < n {
		w.bufs[d] = make([]byte, n)
	}
	b := w.bufs[d][:n]
	if _, err := w.r.ReadAt(b, int64(id*w.pageSize)); err != nil {
		return nil, err
	}
	w.reads++
	if w.reads%1024 == 0 {
		if err := w.ctx.Err(); err != nil {
			return nil, err
		}
	}
	return b, nil
}

func (w *walker) freelist(id uint64) {
	what := "freelist page"
	if !w.claim(nil, nil, id, 0, ownerList, what) {
		return
	}
	// Until the list is read whole, the free pages are not known: if it is
	// damaged, pages unaccounted for are no news.
	w.listBad = true
	hdr, err := w.read(id, pageHeaderSize, 0)
	if err != nil {
		w.damage(nil, nil, "reading the freelist, page %d: %v", id, err)
		return
	}
	if got := ne.Uint64(hdr); got != id {
		w.damage(nil, nil, "page %d, the freelist, says it is page %d", id, got)
		return
	}
	if flags := ne.Uint16(hdr[8:]); flags != freelistPageFlag {
		w.damage(nil, nil, "page %d, the freelist, has type %#x", id, flags)
		return
	}
	overflow := uint64(ne.Uint32(hdr[12:]))
	count := uint64(ne.Uint16(hdr[10:]))
	if overflow > 0 && !w.claimFrom(nil, nil, id, id+1, overflow, ownerList, what) {
		return
	}
	p, err := w.read(id, (overflow+1)*w.pageSize, 0)
	if err != nil {
		w.damage(nil, nil, "reading the freelist, page %d: %v", id, err)
		return
	}
	body := p[pageHeaderSize:]
	first := uint64(0)
	if count == 0xFFFF {
		if len(body) < 8 {
			w.damage(nil, nil, "page %d, the freelist, is cut short", id)
			return
		}
		count, first = ne.Uint64(body), 1
	}
	if count > uint64(len(body))/8-first {
		w.damage(nil, nil, "page %d, the freelist, counts %d free pages, more than fit in it", id, count)
		return
	}
	w.listBad = false
	for i := range count {
		free := ne.Uint64(body[(first+i)*8:])
		switch {
		case free < 2 || free >= w.hwm:
			w.damage(nil, nil, "page %d, the freelist, lists page %d, outside pages 2 to %d", id, free, w.hwm-1)
		case free >= w.limit:
			// Past the end of a file cut short: reported already.
		case w.owner[free] == ownerFree:
			w.damage(nil, nil, "page %d, the freelist, lists page %d twice", id, free)
		case w.owner[free] != 0:
			w.damage(nil, nil, "page %d, the freelist, lists page %d, which %s uses", id, free, w.ownerName(w.owner[free]))
		default:
			w.owner[free] = ownerFree
		}
	}
}

// page walks the B+tree page id of the bucket at path; every key in it must
// lie in [lo, hi) (nil for no bound).
func (w *walker) page(path []string, owner int32, id uint64, lo, hi []byte, depth int) error {
	if depth > maxDepth {
		w.damage(path, nil, "page %d lies deeper than %d pages", id, maxDepth)
		return nil
	}
	if id < 2 || id >= w.limit {
		w.damage(path, nil, "%s points at page %d, outside the file's pages 2 to %d", w.ownerName(owner), id, w.limit-1)
		return nil
	}
	if !w.claim(path, nil, id, 0, owner, "page") {
		return nil
	}
	hdr, err := w.read(id, pageHeaderSize, depth)
	if err != nil {
		if ctxErr := w.ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		w.damage(path, nil, "reading page %d: %v", id, err)
		return nil
	}
	if got := ne.Uint64(hdr); got != id {
		w.damage(path, nil, "page %d says it is page %d", id, got)
		return nil
	}
	flags, count, overflow := ne.Uint16(hdr[8:]), int(ne.Uint16(hdr[10:])), uint64(ne.Uint32(hdr[12:]))
	if flags != branchPageFlag && flags != leafPageFlag {
		w.damage(path, nil, "page %d has type %#x, not a branch or leaf page", id, flags)
		return nil
	}
	if overflow > 0 && !w.claimFrom(path, nil, id, id+1, overflow, owner, "page") {
		return nil
	}
	p, err := w.read(id, (overflow+1)*w.pageSize, depth)
	if err != nil {
		if ctxErr := w.ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		w.damage(path, nil, "reading page %d: %v", id, err)
		return nil
	}
	if flags == leafPageFlag {
		return w.leaf(path, id, nil, p, count, lo, hi, depth)
	}
	if count == 0 || pageHeaderSize+count*elemSize > len(p) {
		w.damage(path, nil, "page %d counts %d entries, which do not fit in it", id, count)
		return nil
	}
	// The children's first keys, then each child in turn: the buffer of
	// this depth is reused below, so the keys are copied.
	type child struct {
		key []byte
		id  uint64
	}
	children := make([]child, 0, count)
	prev := lo
	next := uint64(pageHeaderSize + count*elemSize)
	for i := range count {
		e := pageHeaderSize + i*elemSize
		pos, ksize, cid := uint64(ne.Uint32(p[e:])), uint64(ne.Uint32(p[e+4:])), ne.Uint64(p[e+8:])
		start, end := uint64(e)+pos, uint64(e)+pos+ksize
		if ksize == 0 || end > uint64(len(p)) {
			w.damage(path, nil, "page %d: the key of entry %d lies outside the page", id, i)
			return nil
		}
		if start != next {
			w.damage(path, nil, "page %d: entry %d is not where bbolt puts it (at byte %d, not %d): the page's header or entries were changed", id, i, start, next)
			return nil
		}
		next = end
		k := bytes.Clone(p[start:end])
		if (prev != nil && bytes.Compare(k, prev) < 0) || (i > 0 && len(children) > 0 && bytes.Equal(k, prev)) || (hi != nil && bytes.Compare(k, hi) >= 0) {
			w.damage(path, k, "page %d: key %d is out of order", id, i)
		}
		prev = k
		children = append(children, child{k, cid})
	}
	for i, c := range children {
		next := hi
		if i+1 < len(children) {
			next = children[i+1].key
		}
		if err := w.page(path, owner, c.id, c.key, next, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// leaf walks the entries of leaf page p: page id of the file, or the page
// of the inline bucket named inline (then id is 0).
func (w *walker) leaf(path []string, id uint64, inline []byte, p []byte, count int, lo, hi []byte, depth int) error {
	where := func() string {
		if inline != nil {
			return fmt.Sprintf("inline bucket %q", inline)
		}
		return fmt.Sprintf("page %d", id)
	}
	if pageHeaderSize+count*elemSize > len(p) {
		w.damage(path, nil, "%s counts %d entries, which do not fit in it", where(), count)
		return nil
	}
	// bbolt packs the keys and values right after the entries, in order:
	// anything else means a changed count or entry, and then the page's
	// entries cannot be trusted (a count one lower would silently drop
	// the last entry, say the last event of a log).
	var prev []byte
	next := uint64(pageHeaderSize + count*elemSize)
	for i := range count {
		e := pageHeaderSize + i*elemSize
		flags, pos, ksize, vsize := ne.Uint32(p[e:]), uint64(ne.Uint32(p[e+4:])), uint64(ne.Uint32(p[e+8:])), uint64(ne.Uint32(p[e+12:]))
		start := uint64(e) + pos
		kend := start + ksize
		vend := kend + vsize
		if ksize == 0 || vend > uint64(len(p)) {
			w.damage(path, nil, "%s: entry %d lies outside the page", where(), i)
			return nil
		}
		if start != next {
			w.damage(path, nil, "%s: entry %d is not where bbolt puts it (at byte %d, not %d): the page's header or entries were changed", where(), i, start, next)
			return nil
		}
		next = vend
		k, v := p[start:kend], p[kend:vend]
		if (i == 0 && lo != nil && bytes.Compare(k, lo) < 0) || (i > 0 && prev != nil && bytes.Compare(k, prev) <= 0) || (hi != nil && bytes.Compare(k, hi) >= 0) {
			w.damage(path, k, "%s: key %d is out of order", where(), i)
		}
		prev = k
		if flags&bucketLeafFlag == 0 {
			w.v.value(path, k, v)
			continue
		}
		if inline != nil {
			w.damage(path, k, "%s holds bucket %q, which bbolt never writes inline", where(), k)
			continue
		}
		if err := w.bucket(path, k, v, depth); err != nil {
			return err
		}
	}
	return nil
}

// bucket walks the bucket stored as value v under key name.
func (w *walker) bucket(path []string, name, v []byte, depth int) error {
	if len(v) < bucketHeaderSize {
		w.damage(path, name, "bucket %q has a header of %d bytes", name, len(v))
		return nil
	}
	w.v.bucket(path, name)
	sub := append(path[:len(path):len(path)], string(name))
	defer w.v.leave(sub)
	root := ne.Uint64(v)
	if root != 0 {
		return w.page(sub, w.ownerOf(sub), root, nil, nil, depth+1)
	}
	inline := v[bucketHeaderSize:]
	if len(inline) < pageHeaderSize {
		w.damage(path, name, "inline bucket %q is cut short", name)
		return nil
	}
	if flags := ne.Uint16(inline[8:]); flags != leafPageFlag {
		w.damage(path, name, "inline bucket %q has a page of type %#x", name, flags)
		return nil
	}
	// The inline page lives in the buffer of this depth, which the walk
	// below does not touch (an inline bucket holds no buckets).
	return w.leaf(sub, 0, name, inline, int(ne.Uint16(inline[10:])), nil, nil, depth+1)
}
