package yamlx

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

// endless serves zeros for ever, counting what it served.
type endless struct{ served int64 }

func (e *endless) Read(p []byte) (int, error) {
	clear(p)
	e.served += int64(len(p))
	return len(p), nil
}

func TestReadAllRefusesAnEndlessReader(t *testing.T) {
	src := &endless{}
	b, err := ReadAll(src, 256<<10, "orders.yaml", "orders")
	var tl *TooLargeError
	if !errors.As(err, &tl) || tl.Limit != 256<<10 {
		t.Fatalf("ReadAll of an endless reader: %d bytes, %v", len(b), err)
	}
	if want := "orders.yaml: larger than the 256 KiB limit for orders"; err.Error() != want {
		t.Errorf("message %q, want %q", err, want)
	}
	if src.served > 256<<10+1 {
		t.Errorf("%d bytes read from the source, at most %d expected", src.served, 256<<10+1)
	}
}

func TestReadAllAtTheLimit(t *testing.T) {
	for _, n := range []int{0, 1, 99, 100} {
		b, err := ReadAll(strings.NewReader(strings.Repeat("x", n)), 100, "", "tests")
		if err != nil || len(b) != n {
			t.Errorf("%d bytes under a limit of 100: %d, %v", n, len(b), err)
		}
	}
	_, err := ReadAll(strings.NewReader(strings.Repeat("x", 101)), 100, "", "tests")
	if err == nil || err.Error() != "larger than the 100 bytes limit for tests" {
		t.Errorf("101 bytes under a limit of 100: %v", err)
	}
}

func TestLimitReaderKeepsFailing(t *testing.T) {
	r := LimitReader(bytes.NewReader(make([]byte, 10)), 4, "x", "tests")
	if _, err := io.ReadAll(r); err == nil {
		t.Fatal("no error over the limit")
	}
	if n, err := r.Read(make([]byte, 8)); n != 0 || err == nil || errors.Is(err, io.EOF) {
		t.Errorf("read after the limit: %d, %v", n, err)
	}
}

func TestFormatSize(t *testing.T) {
	for n, want := range map[int64]string{1 << 20: "1 MiB", 256 << 10: "256 KiB", 256 << 20: "256 MiB", 1 << 30: "1 GiB", 1000: "1000 bytes", 1536: "1536 bytes"} {
		if got := FormatSize(n); got != want {
			t.Errorf("FormatSize(%d) = %q, want %q", n, got, want)
		}
	}
}
