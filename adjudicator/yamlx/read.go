package yamlx

import (
	"fmt"
	"io"
)

// TooLargeError says that a text is larger than the limit for its kind.
// Every reader of untrusted or hand-made input (orders, scripts, maps, the
// configuration, an audit bundle) is bounded by one, so that an endless
// source (/dev/zero, a FIFO, a hostile stream) fails fast instead of eating
// all memory.
type TooLargeError struct {
	Name  string // where the text comes from: a file name, "standard input"; "" when the caller says it
	What  string // what the limit is for, in the plural: "orders", "game scripts"
	Limit int64  // the limit, in bytes
}

func (e *TooLargeError) Error() string {
	msg := fmt.Sprintf("larger than the %s limit for %s", FormatSize(e.Limit), e.What)
	if e.Name != "" {
		return e.Name + ": " + msg
	}
	return msg
}

// LimitReader returns a reader of r that ends with a *TooLargeError as soon
// as r has more than limit bytes. It reads at most limit+1 bytes from r.
// Unlike io.LimitReader it never cuts a text short silently (a cut text may
// still parse, as something else).
func LimitReader(r io.Reader, limit int64, name, what string) io.Reader {
	return &limitReader{r: r, left: limit, err: &TooLargeError{Name: name, What: what, Limit: limit}}
}

type limitReader struct {
	r    io.Reader
	left int64 // bytes that may still come
	err  *TooLargeError
	over bool
}

func (l *limitReader) Read(p []byte) (int, error) {
	if l.over {
		return 0, l.err
	}
	if len(p) == 0 {
		return 0, nil
	}
	if l.left <= 0 {
		// At the limit: one more byte means the text is too large.
		var one [1]byte
		n, err := l.r.Read(one[:])
		if n > 0 {
			l.over = true
			return 0, l.err
		}
		return 0, err
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	return n, err
}

// ReadAll reads r to its end, refusing more than limit bytes with a
// *TooLargeError naming name, what and the limit. It reads at most limit+1
// bytes from r, so memory stays bounded whatever r is.
func ReadAll(r io.Reader, limit int64, name, what string) ([]byte, error) {
	return io.ReadAll(LimitReader(r, limit, name, what))
}

// FormatSize writes a number of bytes for people: "256 KiB", "1 MiB",
// "1000 bytes".
func FormatSize(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
