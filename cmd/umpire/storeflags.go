package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/umpire-pbem/umpire/mail/config"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/backend"
)

// The store a command works on: --store SPEC, else the store: of the
// configuration a command read (--config), else the bbolt file in --data.

// useConfig makes the command work on the configuration's data directory
// and store, unless --store was given.
func (f *flags) useConfig(cfg *config.Config) {
	*f.data = cfg.Data
	f.cfgSpec = cfg.Spec()
}

// spec is the store the command names.
func (f *flags) spec() (backend.Spec, error) {
	switch {
	case *f.store != "":
		return specOf(*f.store, *f.storePW, "store")
	case *f.storePW != "":
		return backend.Spec{}, usagef("--store-password-file is for a PostgreSQL --store")
	case f.cfgSpec.Where != "":
		return f.cfgSpec, f.cfgSpec.Check()
	}
	s := backend.Bolt(*f.data)
	return s, s.Check()
}

// specOf is the store where names, with the password in pwFile; name is
// the flag that gave them (store, from, to).
func specOf(where, pwFile, name string) (backend.Spec, error) {
	s := backend.Spec{Where: where}
	if pwFile != "" {
		if s.Kind() != backend.KindPostgres {
			return s, usagef("--%s-password-file is for a PostgreSQL --%s", name, name)
		}
		b, err := readFile(pwFile, config.MaxSecretBytes, "password files")
		if err != nil {
			return s, fmt.Errorf("--%s-password-file: %w", name, err)
		}
		if s.Password = strings.TrimRight(string(b), "\r\n"); s.Password == "" {
			return s, fmt.Errorf("--%s-password-file: %s is empty", name, pwFile)
		}
	}
	if err := s.Check(); err != nil {
		return s, usagef("--%s: %v", name, err)
	}
	return s, nil
}

// open opens the command's store. A missing bbolt file is an error that
// says how to make one or where else to look.
func (a *app) open(ctx context.Context, f *flags, o backend.Options) (store.Store, error) {
	s, err := f.spec()
	if err != nil {
		return nil, err
	}
	st, err := backend.Open(ctx, s, o)
	if errors.Is(err, backend.ErrNoData) {
		return nil, fmt.Errorf("no data file at %s (create a game with 'umpire new', or give --data DIR or --store URL)", s.Path())
	}
	return st, err
}

// boltDir is the data directory of a command that works on the bbolt file
// itself (check, recover, compact, upgrade); with PostgreSQL it says what
// to use instead.
func (f *flags) boltDir(command, instead string) (string, error) {
	s, err := f.spec()
	if err != nil {
		return "", err
	}
	if s.Kind() != backend.KindBolt {
		return "", fmt.Errorf("umpire %s is for the bbolt data file, not a PostgreSQL store (%s): %s", command, s, instead)
	}
	return s.Dir(), nil
}
