package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/backend"
	"github.com/umpire-pbem/umpire/store/games"
)

const moduleDoc = `Module data is the content of a game that is not in its rulebook (the map,
the counters, the scenarios, the events, the turn track), kept as files a
group may read, correct from its own printed components, and add again
under another name. A game records the name and digest of the module it was
created with and replays with exactly those files, whatever becomes of the
name later (docs/modules.md).

  umpire module list                        every module, builtin and added, per ruleset
  umpire module show [RULESET/]NAME         one module: digest, files, where its values come from
  umpire module add RULESET DIR [--name N]  add a module in umpire's own format (checked first)
  umpire module import RULESET DIR [--name N]
                                            convert data published in another format
  umpire module export [RULESET/]NAME DIR   write a module's files to edit them`

func cmdModule(a *app, ctx context.Context, args []string) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "-help" {
		fmt.Fprintf(a.stdout, "usage: umpire module list|show|add|import|export ...\n\n%s\n", moduleDoc)
		if len(args) == 0 {
			return usagef("name what to do: list, show, add, import or export")
		}
		return nil
	}
	switch args[0] {
	case "list":
		return moduleList(a, ctx, args[1:])
	case "show":
		return moduleShow(a, ctx, args[1:])
	case "add", "import":
		return moduleAdd(a, ctx, args[0], args[1:])
	case "export":
		return moduleExport(a, ctx, args[1:])
	}
	return usagef("no module command %q: use list, show, add, import or export", args[0])
}

// moduleRulesets are the shipped rulesets played from module data.
func (a *app) moduleRulesets() []adjudicator.Ruleset {
	var out []adjudicator.Ruleset
	for _, rs := range a.all() {
		if _, ok := rs.(adjudicator.Modular); ok {
			out = append(out, rs)
		}
	}
	return out
}

// moduleService opens the data file if there is one: modules can be
// listed, shown and exported without one (the builtin ones).
func (a *app) moduleService(ctx context.Context, f *flags, create bool) (*games.Service, func(), error) {
	if !create {
		if s, err := f.spec(); err == nil && s.Kind() == backend.KindBolt {
			if _, err := os.Stat(s.Path()); errors.Is(err, os.ErrNotExist) {
				st := store.NewMemory()
				return &games.Service{Store: st, Rules: a.rules, Now: a.now}, func() { st.Close() }, nil
			}
		}
	}
	return a.service(ctx, f, create)
}

func moduleList(a *app, ctx context.Context, args []string) error {
	f := a.flags("module list", "", "Lists the modules of every ruleset played from module data: those shipped\nwith umpire (builtin) and those added to the data file, with their digests.").withData()
	if err := f.parse(args); err != nil {
		return err
	}
	if len(f.pos) > 0 {
		return usagef("unexpected %q", f.pos[0])
	}
	svc, done, err := a.moduleService(ctx, f, false)
	if err != nil {
		return err
	}
	defer done()
	all := a.moduleRulesets()
	if len(all) == 0 {
		fmt.Fprintln(a.stdout, "no ruleset of this build is played from module data")
		return nil
	}
	list, err := svc.ListModules(ctx, all)
	if err != nil {
		return err
	}
	for _, m := range list {
		printModuleLine(a, m)
	}
	if n, err := svc.StoredVersions(ctx); err == nil && n > 0 {
		fmt.Fprintf(a.stdout, "(the data file keeps %d module versions by digest, for the games created with them)\n", n)
	}
	return nil
}

func printModuleLine(a *app, m games.ModuleInfo) {
	how := "builtin"
	if !m.Builtin {
		how = m.How + "ed " + m.Added.Format("2006-01-02")
	}
	fmt.Fprintf(a.stdout, "%s/%s  %s  %s", m.Ruleset, m.Name, m.Digest[:16], how)
	if m.Summary != "" {
		fmt.Fprintf(a.stdout, "  %s", m.Summary)
	}
	fmt.Fprintln(a.stdout)
}

// findModule finds [RULESET/]NAME among the modules of the Modular
// rulesets: a name alone must belong to one ruleset only.
func findModule(a *app, ctx context.Context, svc *games.Service, arg string) (adjudicator.Module, *games.ModuleInfo, error) {
	if rs, name, ok := strings.Cut(arg, "/"); ok {
		return svc.FindModule(ctx, rs, name)
	}
	var found []string
	var mod adjudicator.Module
	var info *games.ModuleInfo
	for _, rs := range a.moduleRulesets() {
		m, in, err := svc.FindModule(ctx, rs.Info().Name, arg)
		if err == nil {
			found, mod, info = append(found, rs.Info().Name+"/"+arg), m, in
		}
	}
	switch len(found) {
	case 0:
		return mod, nil, fmt.Errorf("no module %q (umpire module list shows them)", arg)
	case 1:
		return mod, info, nil
	}
	return mod, nil, usagef("%q is a module of several rulesets: name one of %s", arg, strings.Join(found, ", "))
}

func moduleShow(a *app, ctx context.Context, args []string) error {
	f := a.flags("module show", "[RULESET/]NAME", "Shows a module: its ruleset, digest and files (each with its SHA-256), and where\nits values come from when the ruleset says.").withData()
	if err := f.parse(args); err != nil {
		return err
	}
	if len(f.pos) != 1 {
		return usagef("give one module: [RULESET/]NAME")
	}
	svc, done, err := a.moduleService(ctx, f, false)
	if err != nil {
		return err
	}
	defer done()
	m, in, err := findModule(a, ctx, svc, f.pos[0])
	if err != nil {
		return err
	}
	fmt.Fprintf(a.stdout, "module:  %s/%s\ndigest:  %s\n", in.Ruleset, in.Name, in.Digest)
	if in.Builtin {
		fmt.Fprintln(a.stdout, "source:  builtin (shipped with umpire)")
	} else {
		fmt.Fprintf(a.stdout, "source:  %sed %s\n", in.How, in.Added.Format("2006-01-02 15:04 MST"))
	}
	if in.Summary != "" {
		fmt.Fprintf(a.stdout, "values:  %s\n", in.Summary)
	}
	for _, n := range in.Notes {
		fmt.Fprintf(a.stdout, "note:    %s\n", n)
	}
	fmt.Fprintf(a.stdout, "files (%d, as sha256sum lists them):\n", len(m.Files))
	for _, line := range strings.SplitAfter(string(m.Manifest()), "\n") {
		if line != "" {
			fmt.Fprint(a.stdout, "  "+line)
		}
	}
	return nil
}

func moduleAdd(a *app, ctx context.Context, verb string, args []string) error {
	doc := "Adds a module in umpire's own format from the files under DIR (hidden files\nleft out), after the ruleset has checked every file; errors name the file\nand line. The name (default: DIR's name) then points at these files; a\nname added again points at the new files, and games created before keep\ntheirs."
	if verb == "import" {
		doc = "Converts module data published in another format (a player's own copy)\ninto umpire's module format with the ruleset's importer, checks it, adds it\nunder the name (default: DIR's name), and prints the importer's notes: what\nwas converted, left out and assumed."
	}
	f := a.flags("module "+verb, "RULESET DIR [--name N]", doc).withData()
	name := f.String("name", "", "the module's `name` (lower-case letters, digits and dashes)")
	if err := f.parse(args); err != nil {
		return err
	}
	if len(f.pos) != 2 {
		return usagef("give the ruleset and the directory: umpire module %s RULESET DIR", verb)
	}
	rsName, dir := f.pos[0], f.pos[1]
	rs, ok := a.rules(rsName)
	if !ok {
		return fmt.Errorf("no ruleset %q in this build (umpire rulesets lists them)", rsName)
	}
	if _, ok := rs.(adjudicator.Modular); !ok {
		return fmt.Errorf("%s is not played from module data", rsName)
	}
	if *name == "" {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return err
		}
		*name = strings.ToLower(filepath.Base(abs))
	}
	if !adjudicator.ValidModuleName(*name) {
		return usagef("module name %q: use lower-case letters, digits and dashes (give one with --name)", *name)
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return fmt.Errorf("%s: not a directory", dir)
	}
	var m adjudicator.Module
	var notes []string
	var err error
	if verb == "import" {
		imp, ok := rs.(adjudicator.ModuleImporter)
		if !ok {
			return fmt.Errorf("%s has no importer: add a module in umpire's own format with umpire module add", rsName)
		}
		m, notes, err = imp.ImportModule(*name, os.DirFS(dir))
		if err != nil {
			return fmt.Errorf("importing %s: %w", dir, err)
		}
		m.Name = *name
	} else if m, err = adjudicator.ModuleFromFS(*name, os.DirFS(dir), "."); err != nil {
		return fmt.Errorf("%s: %w", dir, err)
	}
	svc, done, err := a.service(ctx, f, true)
	if err != nil {
		return err
	}
	defer done()
	in, err := svc.AddModule(ctx, rsName, m, verb, notes)
	if err != nil {
		return err
	}
	for _, n := range notes {
		fmt.Fprintf(a.stdout, "note: %s\n", n)
	}
	printModuleLine(a, *in)
	fmt.Fprintf(a.stdout, "digest %s; create a game with it: umpire new --ruleset %s --module %s ...\n", in.Digest, rsName, in.Name)
	return nil
}

func moduleExport(a *app, ctx context.Context, args []string) error {
	f := a.flags("module export", "[RULESET/]NAME DIR", "Writes a module's files under DIR (which must be empty or absent), for a group\nto read or correct them and add them again under another name.").withData()
	if err := f.parse(args); err != nil {
		return err
	}
	if len(f.pos) != 2 {
		return usagef("give the module and a directory: umpire module export [RULESET/]NAME DIR")
	}
	svc, done, err := a.moduleService(ctx, f, false)
	if err != nil {
		return err
	}
	defer done()
	m, in, err := findModule(a, ctx, svc, f.pos[0])
	if err != nil {
		return err
	}
	dir := f.pos[1]
	if ents, err := os.ReadDir(dir); err == nil && len(ents) > 0 {
		return fmt.Errorf("%s is not empty: give a new directory, so no file of yours is overwritten", dir)
	}
	for _, p := range m.Paths() {
		out := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(out, m.Files[p], 0o644); err != nil {
			return err
		}
	}
	fmt.Fprintf(a.stdout, "wrote %d files of %s/%s (digest %s) to %s\n", len(m.Files), in.Ruleset, in.Name, in.Digest, dir)
	return nil
}
