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

// Digest is the SHA-256, in hex, of the module's manifest (Manifest):
// one line per file, in path order, giving the file's own SHA-256 and its
// path. The name is not part of it: two copies of the same files have the
// same digest whatever they are called. Hashing the manifest rather than
// the files one after the other lets a checker that holds the manifest
// name the very file that was changed.
func (m Module) Digest() string {
	h := sha256.Sum256(m.Manifest())
	return hex.EncodeToString(h[:])
}

// Manifest lists the module's files as sha256sum(1) does: for each file in
// path order, the hex SHA-256 of its bytes, two spaces, its path and a
// newline. `sha256sum -c` checks a directory of module files against it,
// and the SHA-256 of the manifest itself is the module's Digest.
func (m Module) Manifest() []byte {
	var b []byte
	for _, p := range m.Paths() {
		h := sha256.Sum256(m.Files[p])
		b = hex.AppendEncode(b, h[:])
		b = append(b, "  "...)
		b = append(b, p...)
		b = append(b, '\n')
	}
	return b
}

// ParseManifest reads a manifest Manifest wrote: each file's path and the
// hex SHA-256 of its bytes. It refuses a line it cannot read, a path that
// may not name a module file, and paths out of order or repeated, so that
// a manifest that parses is the only one with its digest.
func ParseManifest(b []byte) (map[string]string, error) {
	out := map[string]string{}
	last := ""
	for i, line := range strings.SplitAfter(string(b), "\n") {
		if line == "" {
			continue
		}
		sum, p, ok := strings.Cut(strings.TrimSuffix(line, "\n"), "  ")
		raw, err := hex.DecodeString(sum)
		switch {
		case !strings.HasSuffix(line, "\n"):
			return nil, fmt.Errorf("line %d: the last line has no newline", i+1)
		case !ok || err != nil || len(raw) != sha256.Size || sum != strings.ToLower(sum):
			return nil, fmt.Errorf("line %d: not \"SHA256  PATH\" (64 lower-case hex digits, two spaces, the file's path)", i+1)
		case !ValidModulePath(p):
			return nil, fmt.Errorf("line %d: %q cannot name a module file", i+1, p)
		case p <= last:
			return nil, fmt.Errorf("line %d: %s is out of order or repeated (the paths are sorted)", i+1, p)
		}
		out[p], last = sum, p
	}
	return out, nil
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

// ValidModuleName reports whether name may name a module: lower-case
// letters, digits and dashes, up to 63, starting with a letter or digit.
func ValidModuleName(name string) bool {
	if name == "" || len(name) > 63 || name[0] == '-' {
		return false
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
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

// Limits on the module ModuleFromFS reads, so that a wrong directory
// (a home directory, a disk image) is refused rather than read whole.
const (
	MaxModuleFiles = 2000     // files in a module
	MaxModuleFile  = 16 << 20 // bytes in one file
	MaxModuleTotal = 64 << 20 // bytes in all its files
)

// Builtins are the modules a ruleset ships in umpire: one directory each
// under Dir of FS (an embedded data directory), the default first.
type Builtins struct {
	FS    fs.FS
	Dir   string
	Names []string
}

// List returns the names of the shipped modules, the default first.
func (b Builtins) List() []string { return slices.Clone(b.Names) }

// Module returns the shipped module name, read from FS; false if there is
// no such module (or it is missing from this build).
func (b Builtins) Module(name string) (Module, bool) {
	if !slices.Contains(b.Names, name) {
		return Module{}, false
	}
	m, err := ModuleFromFS(name, b.FS, path.Join(b.Dir, name))
	if err != nil {
		return Module{}, false
	}
	return m, true
}

// Or returns m, or the default shipped module when m is nil (a game
// created without a module plays the default).
func (b Builtins) Or(m *Module) (Module, error) {
	if m != nil {
		return *m, nil
	}
	d, ok := b.Module(b.Names[0])
	if !ok {
		return Module{}, fmt.Errorf("the builtin module %s is missing from this build", b.Names[0])
	}
	return d, nil
}

// ModuleFromFS reads every regular file under root of fsys into a module.
// Hidden files and directories (a name starting with a dot: .git,
// .DS_Store, an editor's swap file) are left out.
func ModuleFromFS(name string, fsys fs.FS, root string) (Module, error) {
	m := Module{Name: name, Files: map[string][]byte{}}
	total := int64(0)
	err := fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != root && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(p, root), "/")
		if root == "." {
			rel = p
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s: not a plain file (a module holds only files and directories)", rel)
		}
		if !ValidModulePath(rel) {
			return fmt.Errorf("%s: a module file's name may hold only lower-case letters, digits, dots, dashes and underscores", rel)
		}
		if len(m.Files) >= MaxModuleFiles {
			return fmt.Errorf("more than %d files: is this the module's directory?", MaxModuleFiles)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if info.Size() > MaxModuleFile {
			return fmt.Errorf("%s: %d bytes, over the %d MiB a module file may hold", rel, info.Size(), MaxModuleFile>>20)
		}
		if total += info.Size(); total > MaxModuleTotal {
			return fmt.Errorf("the files hold over %d MiB, more than a module may: is this the module's directory?", MaxModuleTotal>>20)
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		if len(b) > MaxModuleFile {
			return fmt.Errorf("%s: over the %d MiB a module file may hold", rel, MaxModuleFile>>20)
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

// ModuleSummarizer is implemented by a Modular ruleset that can say, in a
// line for people, where a module's values come from: how many follow the
// rulebook, how many were assumed for want of a source, how many a group
// entered from its own components. `umpire module list` shows it.
type ModuleSummarizer interface {
	ModuleSummary(m Module) string
}
