package adjudicator

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// Module is a game's module data as files: the map, the counters, the
// scenarios, the events and the turn track of a game whose content is not
// all in its rulebook. A group may edit its own copy (corrected from its
// printed components) or import one; a game records the Digest of the
// module it was created with in its game.created, so it replays exactly
// whatever happens to the module later.
type Module struct {
	Name  string            // e.g. "demo", or a group's own "club-2026"
	Files map[string][]byte // by slash-separated path inside the module, e.g. "map.yaml"
}

// ModuleRef names the module a game was created with: its name and the
// digest of its files (Module.Digest).
type ModuleRef struct {
	Name   string `json:"name"`
	Digest string `json:"digest"`
}

// Digest is the SHA-256 of the module's files, in hex: each file's path,
// its length and its bytes, in path order. The name is not part of it:
// two copies of the same files have the same digest whatever they are
// called.
func (m Module) Digest() string {
	h := sha256.New()
	for _, p := range m.Paths() {
		b := m.Files[p]
		fmt.Fprintf(h, "%s\x00%d\x00", p, len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Ref is the module's name and digest.
func (m Module) Ref() ModuleRef { return ModuleRef{Name: m.Name, Digest: m.Digest()} }

// Paths lists the module's files in order.
func (m Module) Paths() []string {
	out := make([]string, 0, len(m.Files))
	for p := range m.Files {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// ValidModulePath reports whether p may name a module file: a clean,
// relative, slash-separated path of lower-case letters, digits, dots,
// dashes and underscores.
func ValidModulePath(p string) bool {
	if p == "" || p != path.Clean(p) || strings.HasPrefix(p, "/") || strings.HasPrefix(p, "../") || p == ".." || p == "." {
		return false
	}
	for _, r := range p {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || strings.ContainsRune("./-_", r)) {
			return false
		}
	}
	return true
}

// ModuleFromFS reads every regular file under root of fsys into a module.
func ModuleFromFS(name string, fsys fs.FS, root string) (Module, error) {
	m := Module{Name: name, Files: map[string][]byte{}}
	err := fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(p, root), "/")
		if root == "." {
			rel = p
		}
		if !ValidModulePath(rel) {
			return fmt.Errorf("%s: a module file's name may hold only lower-case letters, digits, dots, dashes and underscores", p)
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		m.Files[rel] = b
		return nil
	})
	return m, err
}

// Modular is implemented by a ruleset whose games are played from module
// data. Its Setup is then given the module's files in Setup.Module.
type Modular interface {
	// BuiltinModules lists the modules shipped in umpire itself; the first
	// is the one a game uses when nobody names one.
	BuiltinModules() []string
	// BuiltinModule returns a shipped module.
	BuiltinModule(name string) (Module, bool)
	// CheckModule reads every file of m and checks it against the rules
	// and itself; the errors name the file and line to fix.
	CheckModule(m Module) error
}

// ModuleImporter is implemented by a ruleset that can convert module data
// published in another format (a player's own download) into its own
// module format. The notes say, for people, what was converted, what was
// left out and what was assumed.
type ModuleImporter interface {
	ImportModule(name string, src fs.FS) (m Module, notes []string, err error)
}
