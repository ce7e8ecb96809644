package game

import (
	"errors"
	"fmt"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// Source is where a fold finds what a game.created names: its ruleset, by
// name, and the files of the module it was created with, by digest. A
// Lookup is a Source that finds the modules its rulesets ship (their
// builtin modules); Lookup.With adds the modules a store's library or a
// bundle holds.
type Source interface {
	Ruleset(name string) (adjudicator.Ruleset, bool)
	// Module returns the files of the module ref names for the ruleset:
	// ErrNoModule (wrapped) when there are none with that digest.
	Module(ruleset string, ref adjudicator.ModuleRef) (adjudicator.Module, error)
}

// Modules finds the files of a module by digest, for a ruleset: a store's
// module library, a bundle's module files. ErrNoModule when it has none.
type Modules func(ruleset string, ref adjudicator.ModuleRef) (adjudicator.Module, error)

// ErrNoModule says that the files of a module a game was created with are
// not at hand.
var ErrNoModule = errors.New("module files not found")

// Ruleset finds a ruleset by name.
func (l Lookup) Ruleset(name string) (adjudicator.Ruleset, bool) { return l(name) }

// Module finds a builtin module of the ruleset by digest.
func (l Lookup) Module(ruleset string, ref adjudicator.ModuleRef) (adjudicator.Module, error) {
	rs, ok := l(ruleset)
	if !ok {
		return adjudicator.Module{}, fmt.Errorf("%w: no ruleset %q", ErrNoModule, ruleset)
	}
	if m, ok := Builtin(rs, ref); ok {
		return m, nil
	}
	return adjudicator.Module{}, fmt.Errorf("%w: %s ships no module with digest %s", ErrNoModule, ruleset, ref.Digest)
}

// Builtin returns the module a ruleset ships whose digest ref names, under
// the name ref gives.
func Builtin(rs adjudicator.Ruleset, ref adjudicator.ModuleRef) (adjudicator.Module, bool) {
	md, ok := rs.(adjudicator.Modular)
	if !ok {
		return adjudicator.Module{}, false
	}
	names := md.BuiltinModules()
	// The one of that name first: it is nearly always the one.
	if i := indexOf(names, ref.Name); i > 0 {
		names = append([]string{ref.Name}, append(names[:i:i], names[i+1:]...)...)
	}
	for _, n := range names {
		if m, ok := md.BuiltinModule(n); ok && m.Digest() == ref.Digest {
			m.Name = ref.Name
			return m, true
		}
	}
	return adjudicator.Module{}, false
}

func indexOf(s []string, v string) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}

// With is l with more modules: the builtin ones first, then those mods
// finds.
func (l Lookup) With(mods Modules) Source {
	if mods == nil {
		return l
	}
	return withModules{l, mods}
}

type withModules struct {
	Lookup
	mods Modules
}

func (w withModules) Module(ruleset string, ref adjudicator.ModuleRef) (adjudicator.Module, error) {
	m, err := w.Lookup.Module(ruleset, ref)
	if err == nil {
		return m, nil
	}
	return w.mods(ruleset, ref)
}

// FilesOf is a Modules that finds these modules by digest, whatever
// their ruleset: the files a bundle carries.
func FilesOf(ms ...adjudicator.Module) Modules {
	return func(ruleset string, ref adjudicator.ModuleRef) (adjudicator.Module, error) {
		for _, m := range ms {
			if m.Digest() == ref.Digest {
				m.Name = ref.Name
				return m, nil
			}
		}
		return adjudicator.Module{}, fmt.Errorf("%w: no module with digest %s was given", ErrNoModule, ref.Digest)
	}
}

// DefaultModule is the module a game of rs is created with when nobody
// names one: its first builtin module. ok is false for a ruleset that is
// not Modular; an error says a Modular ruleset ships none.
func DefaultModule(rs adjudicator.Ruleset) (m adjudicator.Module, ok bool, err error) {
	md, modular := rs.(adjudicator.Modular)
	if !modular {
		return adjudicator.Module{}, false, nil
	}
	names := md.BuiltinModules()
	if len(names) == 0 {
		return adjudicator.Module{}, true, fmt.Errorf("%s ships no module: name one (umpire module list)", rs.Info().Name)
	}
	m, found := md.BuiltinModule(names[0])
	if !found {
		return adjudicator.Module{}, true, fmt.Errorf("%s lists module %q but does not ship it (a ruleset bug)", rs.Info().Name, names[0])
	}
	if m.Name == "" {
		m.Name = names[0]
	}
	return m, true, nil
}

// CheckModule checks that m may be the module of a game of rs: rs plays
// from modules, m's name and paths are valid, and rs's CheckModule
// accepts every file.
func CheckModule(rs adjudicator.Ruleset, m adjudicator.Module) error {
	md, ok := rs.(adjudicator.Modular)
	if !ok {
		return fmt.Errorf("%s is not played from module data: give no module", rs.Info().Name)
	}
	if !adjudicator.ValidModuleName(m.Name) {
		return fmt.Errorf("module name %q: use lower-case letters, digits and dashes", m.Name)
	}
	if len(m.Files) == 0 {
		return fmt.Errorf("module %s has no files", m.Name)
	}
	for _, p := range m.Paths() {
		if !adjudicator.ValidModulePath(p) {
			return fmt.Errorf("module %s: %q cannot name a module file (lower-case letters, digits, dots, dashes and underscores)", m.Name, p)
		}
	}
	if err := md.CheckModule(m); err != nil {
		return fmt.Errorf("module %s: %w", m.Name, err)
	}
	return nil
}

// moduleOf finds the files of the module a game.created names, checks
// their digest, and says clearly why a game cannot start without them.
func moduleOf(seq uint64, c Created, rs adjudicator.Ruleset, src Source) (*adjudicator.Module, error) {
	_, modular := rs.(adjudicator.Modular)
	switch {
	case !modular && c.Module == nil:
		return nil, nil
	case !modular:
		return nil, &LogError{Seq: seq, Msg: fmt.Sprintf("game.created names module %s, but %s is not played from module data", c.Module.Name, c.Ruleset)}
	case c.Module == nil:
		return nil, &LogError{Seq: seq, Msg: fmt.Sprintf("game.created names no module, but %s is played from module data", c.Ruleset)}
	}
	ref := *c.Module
	m, err := src.Module(c.Ruleset, ref)
	if err != nil {
		return nil, &LogError{Seq: seq, Err: ErrNoModule, Msg: fmt.Sprintf("the game was created with %s module %q (digest %s), whose files are not here: %v (add them with umpire module add, or import the game's bundle, which carries them)",
			c.Ruleset, ref.Name, ref.Digest, err)}
	}
	if d := m.Digest(); d != ref.Digest {
		return nil, &LogError{Seq: seq, Err: ErrNoModule, Msg: fmt.Sprintf("the files found for %s module %q hash to %s, but the game was created with digest %s: they were changed", c.Ruleset, ref.Name, d, ref.Digest)}
	}
	m.Name = ref.Name
	return &m, nil
}
