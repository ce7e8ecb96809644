// Package address is the one check of a mail address that umpire stores or
// sends to: a player's address, a referee's, the daemon's own. Every place
// an address comes in (umpire new --player, a mailed "command: new", the
// configuration file, games.Service.Create) calls Check, so an address in
// the store is always one bare addr-spec that is safe to put in a header.
//
// The package imports nothing of umpire, so that store/games may use it
// without depending on the mail daemon.
package address

import (
	"fmt"
	"net/mail"
	"strings"
	"unicode"
)

// MaxLen is the longest address accepted (RFC 5321's limit on a path).
const MaxLen = 254

// Check returns nil when s is exactly one bare mail address, local@domain:
//
//   - net/mail parses it as one address (no lists, no commas between
//     addresses);
//   - it is the addr-spec alone: no display name ("Bob" <bob@example.org>),
//     no angle brackets, no comment, no surrounding spaces — the address
//     is stored as written and compared case-insensitively, so umpire
//     accepts only the form it will use;
//   - no CR, LF or other control character (header injection);
//   - a non-empty local part and domain around the "@", and at most MaxLen
//     bytes.
//
// The error reads `"x" is not one mail address: why`, for the caller to
// prefix with where the address was given.
func Check(s string) error {
	why := reason(s)
	if why == "" {
		return nil
	}
	return fmt.Errorf("%s is not one mail address: %s", quote(s), why)
}

func reason(s string) string {
	if s == "" {
		return "it is empty"
	}
	for _, r := range s {
		if unicode.IsControl(r) {
			return "it contains a line break or another control character"
		}
	}
	if strings.TrimSpace(s) != s {
		return "it has spaces around it"
	}
	if len(s) > MaxLen {
		return fmt.Sprintf("it is longer than %d characters", MaxLen)
	}
	if list, err := mail.ParseAddressList(s); err == nil && len(list) > 1 {
		return fmt.Sprintf("it holds %d addresses; give one", len(list))
	}
	a, err := mail.ParseAddress(s)
	if err != nil {
		if strings.Contains(s, ",") {
			return "a comma does not belong in an address; give one address"
		}
		return "write it as name@domain, e.g. alice@example.org (" + strings.TrimPrefix(err.Error(), "mail: ") + ")"
	}
	if a.Address != s {
		return fmt.Sprintf("give the bare address, %s, without a display name, angle brackets, comments or quotes", quote(a.Address))
	}
	local, domain, ok := strings.Cut(a.Address, "@")
	if !ok || local == "" || domain == "" || strings.Contains(domain, "@") {
		return "it needs a name, an @ and a domain, e.g. alice@example.org"
	}
	if strings.Contains(s, ",") {
		return "a comma does not belong in an address; give one address"
	}
	return ""
}

// quote quotes s for an error message, cut to a readable length.
func quote(s string) string {
	if r := []rune(s); len(r) > 80 {
		s = string(r[:80]) + "…"
	}
	return fmt.Sprintf("%q", s)
}
