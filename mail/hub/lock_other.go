//go:build !unix

package hub

import "os"

// lockDir opens dir/lock. Outside Unix it takes no lock: run one hub per
// directory.
func lockDir(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
}
