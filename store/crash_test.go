package store_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/storetest"
)

// The crash tests run this test binary again as a child that writes in a
// tight loop (storetest.AppendChild, AppendAllChild), kill it with SIGKILL
// in the middle of a write, and check what survives in the file
// (storetest.CheckAfterAppend, CheckAfterAppendAll). The child is selected
// by these variables, which name the file.
const (
	crashEnv    = "UMPIRE_STORE_CRASH_CHILD_DB"
	crashAllEnv = "UMPIRE_STORE_CRASHALL_CHILD_DB"
)

// crashChild opens the file the variable names, or returns nil when the
// test runs as itself rather than as a child.
func crashChild(env string) store.Store {
	path := os.Getenv(env)
	if path == "" {
		return nil
	}
	s, err := store.Open(path, store.WithLockTimeout(10*time.Second))
	if err != nil {
		os.Stderr.WriteString("crash child: " + err.Error() + "\n")
		os.Exit(3)
	}
	return s
}

// TestCrashChild is the child of TestCrash; run normally, it does nothing.
func TestCrashChild(t *testing.T) {
	if s := crashChild(crashEnv); s != nil {
		storetest.AppendChild(s)
	}
}

// TestCrashAllChild is the child of TestCrashAll; run normally, it does
// nothing.
func TestCrashAllChild(t *testing.T) {
	if s := crashChild(crashAllEnv); s != nil {
		storetest.AppendAllChild(s)
	}
}

// TestCrash kills the child at once after n confirmed appends (it is then
// inside its next Append), five times, varying n so that the kills land at
// different points of the file's growth.
func TestCrash(t *testing.T) {
	path := filepath.Join(t.TempDir(), "crash.db")
	crashRounds(t, "TestCrashChild", crashEnv, path, 5, 50, 7, false, storetest.CheckAfterAppend)
}

// TestCrashAll kills the AppendAll child at a random point of a call, ten
// times.
func TestCrashAll(t *testing.T) {
	path := filepath.Join(t.TempDir(), "crash-all.db")
	crashRounds(t, "TestCrashAllChild", crashAllEnv, path, 10, 10, 3, true, storetest.CheckAfterAppendAll)
}

func crashRounds(t *testing.T, child, env, path string, rounds, first, step int, spread bool, check func(*testing.T, store.Store, uint64) uint64) {
	var confirmed uint64
	for round := range rounds {
		want := first + step*round
		last, stderr := storetest.KillChildAfter(t, child, env, path, want, spread)
		if last < confirmed+uint64(want) {
			t.Fatalf("round %d: child confirmed up to %d, want at least %d; stderr:\n%s", round, last, confirmed+uint64(want), stderr)
		}
		confirmed = last
		s, err := store.Open(path)
		if err != nil {
			t.Fatalf("open after kill: %v", err)
		}
		check(t, s, confirmed)
		s.Close()
	}
}
