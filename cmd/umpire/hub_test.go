package main

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/mail/daemon"
	"github.com/umpire-pbem/umpire/mail/hub"
)

// TestHubPasswd: the referee's lost hub password is reset from the
// command line while the daemon is stopped; while the hub runs, the
// command says to stop it.
func TestHubPasswd(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	l, err := daemon.StartLocalHubWith(context.Background(), data,
		hub.Config{IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", HashIterations: 1000}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	c := &cli{t: t, data: data}
	if code, _, errs := c.run("hub", "passwd", "referee"); code == 0 || !strings.Contains(errs, "stop it first") {
		t.Errorf("passwd while the hub runs: exit %d, %s", code, errs)
	}
	l.Hub.Close()
	out := c.ok("hub", "users")
	if !strings.Contains(out, "referee") {
		t.Fatalf("users:\n%s", out)
	}
	out = c.ok("hub", "passwd", "referee")
	if !strings.Contains(out, "New password of referee") {
		t.Fatalf("passwd:\n%s", out)
	}
	if code, _, _ := c.run("hub", "passwd", "nobody"); code == 0 {
		t.Error("a password was set for a user that does not exist")
	}
}
