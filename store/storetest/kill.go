package storetest

import (
	"bufio"
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"
)

// The kill harness of the crash tests: a test re-runs its own binary as a
// child that writes and prints a number after each write that returned,
// kills it with SIGKILL at some point, and checks the data file.

// KillChildAfter runs this test binary's test name as a child with env set
// to path, reads its confirmations until n more have arrived, kills it —
// at once, or with spread at a random point of its next write — and
// returns the last confirmed number. The child never outlives the call.
func KillChildAfter(t *testing.T, name, env, path string, n int, spread bool) (uint64, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+name+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), env+"="+path)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waited := false
	defer func() {
		if !waited {
			cmd.Process.Kill()
			cmd.Wait()
		}
	}()
	var last uint64
	var first, lastAt time.Time
	lines := bufio.NewScanner(out)
	for got := 0; got < n && lines.Scan(); {
		seq, err := strconv.ParseUint(lines.Text(), 10, 64)
		if err != nil {
			continue // not ours: something the test framework printed
		}
		last = seq
		if got++; got == 1 {
			first = time.Now()
		}
		lastAt = time.Now()
	}
	// Killed at once, the child would always die at the start of its next
	// call. A random pause of up to one and a half calls (as long as the
	// child's calls took on average) moves the kill to any point of a call:
	// between the transactions of one if AppendAll were not atomic. It only
	// picks the moment; nothing waits on it, and what the check expects
	// does not depend on it.
	if spread && n > 1 {
		if per := lastAt.Sub(first) / time.Duration(n-1); per > 0 {
			time.Sleep(rand.N(per * 3 / 2))
		}
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	waited = true
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != -1 {
		// The child ended by itself rather than by the kill.
		t.Fatalf("child did not die by SIGKILL: %v; stderr:\n%s", err, stderr.String())
	}
	return last, stderr.String()
}
