package hub

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStateReadsAreBounded: a state file that is endless (a device, a
// FIFO, a damaged disk) fails with its name and the limit.
func TestStateReadsAreBounded(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero here")
	}
	var st hubState
	err := readJSON("/dev/zero", &st)
	if err == nil || err.Error() != "/dev/zero: larger than the 64 MiB limit for hub state files" {
		t.Errorf("readJSON(/dev/zero): %v", err)
	}
}

func TestWriteAtomicFromStreams(t *testing.T) {
	dir := t.TempDir()
	src, dst := filepath.Join(dir, "1.eml"), filepath.Join(dir, "copy.eml")
	body := strings.Repeat("Subject: x\r\n", 1000)
	if err := os.WriteFile(src, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	if err := writeAtomicFrom(dst, in); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(dst); err != nil || string(b) != body {
		t.Errorf("copy: %d bytes, %v", len(b), err)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, ".tmp-*")); len(m) != 0 {
		t.Errorf("temporary files left: %v", m)
	}
}
