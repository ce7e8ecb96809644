// Command umpire is a play-by-email referee for hex-and-counter wargames.
//
// Run `umpire help` for the commands. `umpire serve` is the daemon that
// reads orders from a mailbox and mails results back; every other command
// works on the data file directly, for the referee.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/umpire-pbem/umpire/adjudicator/rulesets"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		// A second signal exits at once, for a shutdown that hangs.
		<-ctx.Done()
		stop()
		sig := make(chan os.Signal, 1)
		signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
		<-sig
		os.Exit(130)
	}()
	a := &app{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, rules: rulesets.Lookup, all: rulesets.All}
	os.Exit(a.run(ctx, os.Args[1:]))
}
