package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
	"github.com/umpire-pbem/umpire/mail/extract"
	"github.com/umpire-pbem/umpire/store/backend"
	"github.com/umpire-pbem/umpire/store/games"
)

// app is the command line, with its I/O and ruleset registry injected so
// tests can run it in-process with a test ruleset.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	rules          game.Lookup
	all            func() []adjudicator.Ruleset
	now            func() time.Time
	build          func() (*debug.BuildInfo, bool) // debug.ReadBuildInfo when nil
	// hubHashes is the local hub's password hashing cost for 'umpire hub'
	// (0: the hub's secure default; tests set a cheap one).
	hubHashes int
	// children are the games a series reached during the command, printed
	// with their secrets once it succeeded (cmd_series.go).
	children map[string]childNote
}

type command struct {
	name, args, summary string
	run                 func(a *app, ctx context.Context, args []string) error
}

var commands []command

func init() {
	// The table refers to the functions; declaring it in init avoids an
	// initialisation cycle through the help command.
	commands = []command{
		{"new", "--ruleset R --scenario S --player SIDE=ADDRESS ... [--option K=V ...]", "create a game; prints its id, then the dice commitment", cmdNew},
		{"submit", "GAME SIDE ORDERS.yaml", "record one side's orders; adjudicates when all that is due is in", cmdSubmit},
		{"show", "GAME [--turn T | --at EVENT] [--as SIDE] [--json]", "print a game's state, as a side sees it", cmdShow},
		{"log", "GAME [--as SIDE] [--json]", "list a game's events", cmdLog},
		{"replay", "GAME [--adjudication K --dice 6,2,5]", "decide every adjudication again and report the first divergence; or a what-if", cmdReplay},
		{"verify", "GAME | BUNDLE.tar", "check the hash chain, the revealed seeds and every die", cmdVerify},
		{"export", "GAME -o BUNDLE.tar", "write a self-contained audit bundle", cmdExport},
		{"run", "SCRIPT.yaml ... [--json] [--dice 6,2,5]", "play game scripts in memory and check their expectations", cmdRun},
		{"map", "check|show FILE.yaml|NAME", "check a map file of a ruleset against its rules, or print it", cmdMap},
		{"render", "GAME [--turn T] [--as SIDE] [--svg] -o FILE", "draw the board as PNG or SVG", cmdRender},
		{"games", "", "list the games in the data file", cmdGames},
		{"series", "new|show|log|verify|export ...", "campaigns and tournaments: a series and every game it reached, as one", cmdSeries},
		{"handicaps", "[--combined] [ADDRESS ...]", "list the players' handicaps (rulesets that keep them), counted from the finished games", cmdHandicaps},
		{"hub", "passwd USER | users", "reset a local hub user's password (e.g. the referee's), or list the users", cmdHub},
		{"command", "[--config umpire.yaml] FILE.yaml | -", "run a referee command (pause, extend, end, replace, rollback…) as if mailed", cmdCommand},
		{"upgrade", "[--data DIR]", "rewrite games of an older umpire whose logs kept players' secrets", cmdUpgrade},
		{"check", "[--data DIR]", "check the data file through and through; list every damaged game", cmdCheck}, {"recover", "--data DIR --to NEWDIR [--bundles DIR]", "build a new data file from a damaged one and the export bundles", cmdRecover}, {"import", "BUNDLE.tar", "add the game of an export bundle to the data file", cmdImport},
		{"outbox", "[prune --older-than AGE]", "list the mail not yet delivered; or drop the bodies of old sent mail", cmdOutbox},
		{"compact", "[--data DIR]", "rewrite the data file without its free space (after outbox prune)", cmdCompact},
		{"store", "migrate|status|copy ...", "the store of the games: a PostgreSQL database's schema, what a store holds, a verified copy", cmdStore},
		{"serve", "[--config umpire.yaml]", "run the mail daemon (a local mail hub when no config is given)", cmdServe},
		{"rulesets", "", "list the rulesets, their scenarios and options", cmdRulesets},
		{"module", "list|show|add|import|export ...", "the module data (map, counters, scenarios) of rulesets played from modules", cmdModule},
		{"help", "[COMMAND]", "show help", cmdHelp},
		{"version", "", "print the version of umpire and of each ruleset", cmdVersion},
	}
}

// exitError carries an exit status; its message is already printed.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

func (a *app) run(ctx context.Context, args []string) int {
	if a.now == nil {
		a.now = time.Now
	}
	if len(args) == 0 {
		a.usage(a.stderr)
		return 2
	}
	name := args[0]
	switch name {
	case "-h", "-help", "--help":
		name = "help"
	case "-version", "--version":
		name = "version"
	}
	for _, c := range commands {
		if c.name == name {
			err := c.run(a, ctx, args[1:])
			if err == nil {
				a.printChildren()
			}
			var ee exitError
			switch {
			case err == nil:
				return 0
			case errors.As(err, &ee):
				return ee.code
			case errors.Is(err, flag.ErrHelp):
				return 0
			case errors.As(err, new(usageError)):
				fmt.Fprintf(a.stderr, "umpire %s: %v\n%s", c.name, err, c.hint())
				return 2
			}
			fmt.Fprintf(a.stderr, "umpire %s: %v\n", c.name, err)
			return 1
		}
	}
	names := make([]string, len(commands))
	for i, c := range commands {
		names[i] = c.name
	}
	msg := fmt.Sprintf("umpire: unknown command %q", name)
	if s := yamlx.Nearest(name, names); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	fmt.Fprintf(a.stderr, "%s\nusage: umpire COMMAND [ARGS] (umpire help lists the commands)\n", msg)
	return 2
}

// hint is the one-line usage printed under a usage error.
func (c command) hint() string {
	args := c.args
	if args != "" {
		args = " " + args
	}
	return fmt.Sprintf("usage: umpire %s%s (umpire help %s for more)\n", c.name, args, c.name)
}

// usageError is a mistake in the command line: exit status 2, the message
// and a one-line usage on stderr.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return usageError{fmt.Sprintf(format, args...)}
}

func (a *app) usage(w io.Writer) {
	fmt.Fprint(w, "umpire referees hex-and-counter wargames played by email.\n\nUsage: umpire COMMAND [ARGS]\n\nCommands:\n")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprint(w, "\nEvery command that reads games takes --data DIR (default ./umpire-data), or\n--store postgres://USER@HOST/DATABASE for a PostgreSQL store (umpire help store).\nRun 'umpire help COMMAND' or 'umpire COMMAND --help' for details.\n")
}

func cmdHelp(a *app, _ context.Context, args []string) error {
	if len(args) == 0 {
		a.usage(a.stdout)
		return nil
	}
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(a, context.Background(), []string{"--help"})
		}
	}
	return usagef("no command %q", args[0])
}

func cmdVersion(a *app, _ context.Context, args []string) error {
	f := a.flags("version", "", "Prints the version of umpire (or its source revision) and of each ruleset.\nA game records its ruleset's version; replay compares them.")
	if err := f.parse(args); err != nil {
		return err
	}
	if len(f.pos) > 0 {
		return usagef("unexpected %q", f.pos[0])
	}
	build := a.build
	if build == nil {
		build = debug.ReadBuildInfo
	}
	version, goVersion := "(devel)", ""
	if bi, ok := build(); ok {
		if v := bi.Main.Version; v != "" {
			version = v
		}
		goVersion = bi.GoVersion
		for _, s := range bi.Settings {
			switch {
			case s.Key == "vcs.revision":
				version += " revision " + s.Value
			case s.Key == "vcs.modified" && s.Value == "true":
				version += " (modified)"
			}
		}
	}
	fmt.Fprintf(a.stdout, "umpire %s\n", version)
	if goVersion != "" {
		fmt.Fprintf(a.stdout, "built with %s\n", goVersion)
	}
	fmt.Fprintln(a.stdout, "rulesets:")
	for _, r := range a.all() {
		in := r.Info()
		fmt.Fprintf(a.stdout, "  %s %s\n", in.Name, in.Version)
	}
	return nil
}

// flags is a FlagSet that accepts flags before, between and after the
// positional arguments, as people type them. -h and --help print the
// command's whole help on stdout; a mistake is a usage error (stderr).
type flags struct {
	*flag.FlagSet
	data    *string
	store   *string      // --store SPEC
	storePW *string      // --store-password-file FILE
	cfgSpec backend.Spec // the store of the configuration the command read
	pos     []string
	help    func()
}

func (a *app) flags(name, args, doc string) *flags {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	// The flag package prints its errors and the usage to the output; the
	// error comes back from parse instead, and the help is printed there.
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	f := &flags{FlagSet: fs}
	f.help = func() {
		fmt.Fprintf(a.stdout, "usage: umpire %s %s\n\n%s\n", name, args, doc)
		if hasFlags(fs) {
			fmt.Fprintln(a.stdout, "\nflags:")
			fs.SetOutput(a.stdout)
			fs.PrintDefaults()
			fs.SetOutput(io.Discard)
		}
	}
	return f
}

func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}

func (f *flags) withData() *flags {
	f.data = f.String("data", "umpire-data", "the data `directory` holding umpire.db")
	f.store = f.String("store", "", "the `store` of the games, instead of --data's umpire.db: postgres://USER@HOST/DATABASE, or bolt:DIR")
	f.storePW = f.String("store-password-file", "", "a `file` holding the PostgreSQL password of --store (never put it in the URL)")
	return f
}

func (f *flags) parse(args []string) error {
	for {
		if err := f.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				f.help()
				return err
			}
			return usagef("%v", err)
		}
		args = f.Args()
		if len(args) == 0 {
			return nil
		}
		if args[0] == "--" {
			f.pos = append(f.pos, args[1:]...)
			return nil
		}
		f.pos = append(f.pos, args[0])
		args = args[1:]
	}
}

// multi is a repeatable string flag.
type multi []string

func (m *multi) String() string     { return strings.Join(*m, ",") }
func (m *multi) Set(v string) error { *m = append(*m, v); return nil }

// The most the command line reads of each kind of file: the same limits as
// the mail daemon's, so that what one accepts the other does too. Every read
// is bounded as it happens, not by a size checked beforehand, so a device
// or a FIFO (umpire submit g red /dev/zero) fails at once.
const (
	maxOrders = extract.DefaultMaxBytes // orders, from a file or standard input (the mail default)
	maxYAML   = yamlx.MaxBytes          // any other YAML: scripts, positions, maps (what the parser accepts)
	maxBundle = 256 << 20               // an audit bundle read by verify
)

// readFile reads file, refusing more than max bytes with an error that
// names the file, the limit and what it is for.
func readFile(file string, max int64, what string) ([]byte, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return yamlx.ReadAll(f, max, file, what)
}

// openCapped opens file for reading; reading more than max bytes of it
// fails with an error that names the file, the limit and what it is for.
func openCapped(file string, max int64, what string) (io.ReadCloser, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	return struct {
		io.Reader
		io.Closer
	}{yamlx.LimitReader(f, max, file, what), f}, nil
}

// service opens the command's store (creating a bbolt file when asked)
// and returns the games service on it, with a function that closes it.
func (a *app) service(ctx context.Context, f *flags, create bool) (*games.Service, func(), error) {
	st, err := a.open(ctx, f, backend.Options{Create: create})
	if err != nil {
		return nil, nil, err
	}
	return &games.Service{Store: st, Rules: a.rules, Now: a.now, ChildMail: a.noteChild}, func() { st.Close() }, nil
}

// printOrderError prints a player's mistake with where it is, and returns
// the exit status for it.
func (a *app) printOrderError(file string, err error) error {
	var es adjudicator.OrderErrors
	var e *adjudicator.OrderError
	switch {
	case errors.As(err, &es):
	case errors.As(err, &e):
		es = adjudicator.OrderErrors{e}
	default:
		return err
	}
	for _, e := range es {
		switch {
		case e.Line > 0 && e.Column > 0:
			fmt.Fprintf(a.stderr, "%s:%d:%d: %s [%s]\n", file, e.Line, e.Column, e.Msg, e.Code)
		case e.Line > 0:
			fmt.Fprintf(a.stderr, "%s:%d: %s [%s]\n", file, e.Line, e.Msg, e.Code)
		default:
			fmt.Fprintf(a.stderr, "%s: %s [%s]\n", file, e.Msg, e.Code)
		}
	}
	fmt.Fprintln(a.stderr, "nothing was recorded")
	return exitError{1}
}
