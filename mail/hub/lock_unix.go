//go:build unix

package hub

import (
	"fmt"
	"os"
	"syscall"
)

// lockDir takes an exclusive, non-blocking lock on dir/lock, so that two
// hubs (or a hub and a tool) never write the same directory at once.
func lockDir(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s is in use by another hub: %w", path, err)
	}
	return f, nil
}
