package main

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/umpire-pbem/umpire/mail/hub"
)

const hubDoc = `Manages the local mail hub's users while 'umpire serve' is stopped (the
hub's files are in the data directory).

  umpire hub passwd USER    give USER (e.g. referee) a new password, printed once
  umpire hub users          list the hub's users and their addresses`

func cmdHub(a *app, ctx context.Context, args []string) error {
	f := a.flags("hub", "passwd USER | users", hubDoc).withData()
	if err := f.parse(args); err != nil {
		return err
	}
	if len(f.pos) == 0 {
		return usagef("say what to do: passwd USER, or users")
	}
	h, err := hub.Open(filepath.Join(*f.data, "hub"), hub.Config{HashIterations: a.hubHashes})
	if err != nil {
		return fmt.Errorf("opening the local hub in %s (is 'umpire serve' running? stop it first): %w", *f.data, err)
	}
	defer h.Close()
	switch f.pos[0] {
	case "users":
		if len(f.pos) != 1 {
			return usagef("users takes nothing more")
		}
		for _, u := range h.Users() {
			fmt.Fprintf(a.stdout, "%-12s %s\n", u, h.Address(u))
		}
		return nil
	case "passwd":
		if len(f.pos) != 2 {
			return usagef("give the user whose password to reset, e.g. referee")
		}
		pw, err := h.ResetPassword(f.pos[1])
		if err != nil {
			return err
		}
		fmt.Fprintf(a.stdout, "New password of %s (%s): %s\n(shown once; the hub keeps only a hash; mail programs logged in with the old one must log in again)\n", f.pos[1], h.Address(f.pos[1]), pw)
		return nil
	}
	return usagef("no hub action %q: passwd USER, or users", f.pos[0])
}
