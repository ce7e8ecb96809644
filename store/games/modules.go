package games

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/store"
)

// The module library.
//
// A game played from module data records the name and digest of its
// module in its game.created; the store keeps the module's files by
// digest, written in the transaction that creates the game, so that the
// game folds, replays and exports exactly whatever becomes of the module
// later. A group may also add modules of its own (umpire module add or
// import); each name of a ruleset points at its current version. Both are
// meta values of the store:
//
//	module/files/DIGEST        the files (encodeModule), never changed
//	module/name/RULESET/NAME   the name's current version (libraryEntry, JSON)
//
// A name points at new files when a group adds it again; the files of the
// old version stay under their digest for the games created with them.

const (
	metaModuleFiles = "module/files/"
	metaModuleName  = "module/name/"
)

// ModuleInfo is one module as the library lists it.
type ModuleInfo struct {
	Ruleset string
	Name    string
	Digest  string
	Builtin bool      // shipped in this build (and not in the store's names)
	How     string    // for a stored name: "add" or "import"
	Added   time.Time // for a stored name: when it was last added
	Files   int
	Summary string   // the ruleset's summary of where its values come from, if it gives one
	Notes   []string // an import's notes
}

// libraryEntry is the value of module/name/RULESET/NAME.
type libraryEntry struct {
	Digest string    `json:"digest"`
	How    string    `json:"how"`
	Added  time.Time `json:"added"`
	Notes  []string  `json:"notes,omitempty"`
}

func nameKey(ruleset, name string) string { return metaModuleName + ruleset + "/" + name }

// moduleFormat starts every encoded module, so a later encoding can be
// told from this one.
const moduleFormat = "umpire-module-1\n"

// encodeModule is the files of a module as the store keeps them: the
// format line, then for each file in path order its path and its bytes,
// each as a uvarint length and the bytes. It is the same for the same
// files, so writing it again is harmless.
func encodeModule(m adjudicator.Module) []byte {
	b := []byte(moduleFormat)
	for _, p := range m.Paths() {
		b = binary.AppendUvarint(b, uint64(len(p)))
		b = append(b, p...)
		b = binary.AppendUvarint(b, uint64(len(m.Files[p])))
		b = append(b, m.Files[p]...)
	}
	return b
}

// decodeModule reads what encodeModule wrote, bounded by what it holds.
func decodeModule(b []byte) (adjudicator.Module, error) {
	rest, ok := strings.CutPrefix(string(b), moduleFormat)
	if !ok {
		return adjudicator.Module{}, errors.New("not a module as this build stores them")
	}
	m := adjudicator.Module{Files: map[string][]byte{}}
	next := func() (string, error) {
		n, k := binary.Uvarint([]byte(rest[:min(len(rest), binary.MaxVarintLen64)]))
		if k <= 0 || n > uint64(len(rest)-k) {
			return "", errors.New("the stored module is cut short")
		}
		s := rest[k : k+int(n)]
		rest = rest[k+int(n):]
		return s, nil
	}
	for rest != "" {
		p, err := next()
		if err != nil {
			return m, err
		}
		body, err := next()
		if err != nil {
			return m, err
		}
		if !adjudicator.ValidModulePath(p) {
			return m, fmt.Errorf("the stored module names a file %q", p)
		}
		m.Files[p] = []byte(body)
	}
	return m, nil
}

// storedFiles reads the files kept under a digest, checked against it.
func storedFiles(ctx context.Context, st store.Store, digest string) (adjudicator.Module, error) {
	b, err := st.Meta(ctx, metaModuleFiles+digest)
	if errors.Is(err, store.ErrNotFound) {
		return adjudicator.Module{}, fmt.Errorf("%w: the data file has no module files with digest %s", game.ErrNoModule, digest)
	}
	if err != nil {
		return adjudicator.Module{}, err
	}
	m, err := decodeModule(b)
	if err != nil {
		return adjudicator.Module{}, fmt.Errorf("module files %s: %w", digest, err)
	}
	return m, nil
}

// source is where this service's folds find rulesets and module files
// (the builtin modules of its rulesets, then the store's library) and the
// openings of sealed events (each game's private part).
func (s *Service) source(ctx context.Context) game.Source {
	return game.WithOpenings(s.Rules.With(func(ruleset string, ref adjudicator.ModuleRef) (adjudicator.Module, error) {
		return storedFiles(ctx, s.Store, ref.Digest)
	}), s.opening(ctx))
}

// MetaModules is a game.Modules that finds module files among a store's
// meta values as Salvage read them (umpire check, on a damaged file).
func MetaModules(meta map[string][]byte) game.Modules {
	return func(ruleset string, ref adjudicator.ModuleRef) (adjudicator.Module, error) {
		b, ok := meta[metaModuleFiles+ref.Digest]
		if !ok {
			return adjudicator.Module{}, fmt.Errorf("%w: the data file has no module files with digest %s", game.ErrNoModule, ref.Digest)
		}
		return decodeModule(b)
	}
}

// keepModule adds the files of a game's module to its first batch, unless
// the store has them already (files under a digest never change and are
// never removed, so they need not be written again).
func (s *Service) keepModule(ctx context.Context, b *store.Batch, m *adjudicator.Module) {
	if m == nil {
		return
	}
	key := metaModuleFiles + m.Digest()
	if _, err := s.Store.Meta(ctx, key); err == nil {
		return
	}
	if b.Meta == nil {
		b.Meta = map[string][]byte{}
	}
	b.Meta[key] = encodeModule(*m)
}

// FindModule returns the module a game of ruleset would be created with
// under that name: the library's current version of the name, else a
// builtin module of the ruleset.
func (s *Service) FindModule(ctx context.Context, ruleset, name string) (adjudicator.Module, *ModuleInfo, error) {
	rs, ok := s.Rules(ruleset)
	if !ok {
		return adjudicator.Module{}, nil, fmt.Errorf("no ruleset %q in this build (umpire rulesets lists them)", ruleset)
	}
	md, ok := rs.(adjudicator.Modular)
	if !ok {
		return adjudicator.Module{}, nil, fmt.Errorf("%s is not played from module data: give no module", ruleset)
	}
	b, err := s.Store.Meta(ctx, nameKey(ruleset, name))
	switch {
	case err == nil:
		var e libraryEntry
		if err := json.Unmarshal(b, &e); err != nil {
			return adjudicator.Module{}, nil, fmt.Errorf("the library's entry for %s module %s does not read: %v", ruleset, name, err)
		}
		m, err := storedFiles(ctx, s.Store, e.Digest)
		if err != nil {
			return adjudicator.Module{}, nil, err
		}
		m.Name = name
		return m, s.info(rs, m, &e), nil
	case !errors.Is(err, store.ErrNotFound):
		return adjudicator.Module{}, nil, err
	}
	if m, ok := md.BuiltinModule(name); ok && slices.Contains(md.BuiltinModules(), name) {
		m.Name = name
		return m, s.info(rs, m, nil), nil
	}
	known := slices.Clone(md.BuiltinModules())
	if keys, err := s.Store.MetaKeys(ctx, metaModuleName+ruleset+"/"); err == nil {
		for _, k := range keys {
			known = append(known, strings.TrimPrefix(k, metaModuleName+ruleset+"/"))
		}
	}
	return adjudicator.Module{}, nil, fmt.Errorf("%s has no module %q (it has: %s; umpire module list shows them)", ruleset, name, strings.Join(known, ", "))
}

func (s *Service) info(rs adjudicator.Ruleset, m adjudicator.Module, e *libraryEntry) *ModuleInfo {
	in := &ModuleInfo{Ruleset: rs.Info().Name, Name: m.Name, Digest: m.Digest(), Files: len(m.Files), Builtin: e == nil}
	if e != nil {
		in.How, in.Added, in.Notes = e.How, e.Added, e.Notes
	}
	if sum, ok := rs.(adjudicator.ModuleSummarizer); ok {
		in.Summary = sum.ModuleSummary(m)
	}
	return in
}

// AddModule checks m with its ruleset and stores it in the library under
// its name, which then points at these files (a name added again points
// at the new files; games created with the old ones keep them). how says
// where it came from ("add", "import"); notes are an import's.
func (s *Service) AddModule(ctx context.Context, ruleset string, m adjudicator.Module, how string, notes []string) (*ModuleInfo, error) {
	rs, ok := s.Rules(ruleset)
	if !ok {
		return nil, fmt.Errorf("no ruleset %q in this build (umpire rulesets lists them)", ruleset)
	}
	if err := game.CheckModule(rs, m); err != nil {
		return nil, err
	}
	if slices.Contains(rs.(adjudicator.Modular).BuiltinModules(), m.Name) {
		return nil, fmt.Errorf("%s is the name of a module shipped with %s: give yours another name (--name)", m.Name, ruleset)
	}
	e := libraryEntry{Digest: m.Digest(), How: how, Added: s.now(), Notes: notes}
	b, err := json.Marshal(e)
	if err != nil {
		return nil, err
	}
	if _, err := s.Store.Append(ctx, store.Batch{Meta: map[string][]byte{
		metaModuleFiles + e.Digest: encodeModule(m),
		nameKey(ruleset, m.Name):   b,
	}}); err != nil {
		return nil, err
	}
	return s.info(rs, m, &e), nil
}

// ListModules lists the modules of every Modular ruleset of all: its
// builtin ones, then the library's names, each in order.
func (s *Service) ListModules(ctx context.Context, all []adjudicator.Ruleset) ([]ModuleInfo, error) {
	var out []ModuleInfo
	for _, rs := range all {
		md, ok := rs.(adjudicator.Modular)
		if !ok {
			continue
		}
		name := rs.Info().Name
		for _, n := range md.BuiltinModules() {
			if m, ok := md.BuiltinModule(n); ok {
				m.Name = n
				out = append(out, *s.info(rs, m, nil))
			}
		}
		keys, err := s.Store.MetaKeys(ctx, metaModuleName+name+"/")
		if err != nil {
			return nil, err
		}
		for _, k := range keys {
			_, in, err := s.FindModule(ctx, name, strings.TrimPrefix(k, metaModuleName+name+"/"))
			if err != nil {
				return nil, err
			}
			out = append(out, *in)
		}
	}
	return out, nil
}

// StoredVersions counts the module versions the store keeps by digest
// (every version a game was created with, and every one added).
func (s *Service) StoredVersions(ctx context.Context) (int, error) {
	keys, err := s.Store.MetaKeys(ctx, metaModuleFiles)
	return len(keys), err
}

// gameModule returns the files of the module a game was created with.
func (s *Service) gameModule(ctx context.Context, c game.Created) (*adjudicator.Module, error) {
	if c.Module == nil {
		return nil, nil
	}
	m, err := s.source(ctx).Module(c.Ruleset, *c.Module)
	if err != nil {
		return nil, fmt.Errorf("game %s: %w", c.Game, err)
	}
	if m.Digest() != c.Module.Digest {
		return nil, fmt.Errorf("game %s: the files found for module %s do not have the digest its game.created records", c.Game, c.Module.Name)
	}
	m.Name = c.Module.Name
	return &m, nil
}
