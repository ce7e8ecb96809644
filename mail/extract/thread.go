package extract

import (
	"regexp"
	"slices"
	"strings"
)

var (
	subjectGameRe = regexp.MustCompile(`\[umpire ([a-z0-9][a-z0-9-]*)\]`)
	gameIDRe      = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)
)

// ThreadGames returns the games a mail's thread names, most telling first,
// without repeats: the game of In-Reply-To, then those of References (the
// last first), then the one in the Subject. umpire's own mails carry
// Message-IDs "umpire.GAME.…@domain" and subjects "[umpire GAME] …" (see
// mail/compose), and a reply keeps them. The names are only what the mail
// says: check that the game exists and that the sender plays in it.
func (m *Mail) ThreadGames() []string {
	var out []string
	add := func(g string) {
		if g != "" && !slices.Contains(out, g) {
			out = append(out, g)
		}
	}
	add(idGame(m.InReplyTo))
	for i := len(m.References) - 1; i >= 0; i-- {
		add(idGame(m.References[i]))
	}
	for _, s := range subjectGameRe.FindAllStringSubmatch(m.Subject, -1) {
		add(s[1])
	}
	return out
}

// idGame returns GAME of a Message-ID "umpire.GAME.TAG@domain", or "".
func idGame(id string) string {
	local, _, ok := strings.Cut(id, "@")
	if !ok {
		return ""
	}
	rest, ok := strings.CutPrefix(local, "umpire.")
	if !ok {
		return ""
	}
	i := strings.LastIndexByte(rest, '.')
	if i <= 0 {
		return "" // "umpire.HASH@…": a mail of no game
	}
	g := rest[:i]
	if !gameIDRe.MatchString(g) {
		return ""
	}
	return g
}
