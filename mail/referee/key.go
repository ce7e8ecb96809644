package referee

import (
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
	"github.com/umpire-pbem/umpire/mail/extract"
)

// Keys names, from the raw mail alone, what Handle may read or change
// because of it, so that the intake can handle mails concurrently and
// still give each the same answer as when they are handled one at a time
// in arrival order. Two mails whose keys share a string must be handled in
// arrival order; mails with disjoint keys may be handled at the same time.
// No keys (nil) means the mail may touch anything: it must be handled
// alone, after every earlier mail and before every later one.
//
// The keys are:
//
//   - "game:ID" for the game the mail's envelope names ("game:" in its
//     YAML) and for each game its thread names (Subject, In-Reply-To,
//     References; the first five, as Handle looks no further). Everything
//     a mail changes is in one of these games; what it reads of a game
//     (what is due, whether the sender plays) is read there too.
//   - "from:ADDRESS", the sender: the counts of wrong secrets and their
//     pauses (throttle.go) are kept per address as well as per side of a
//     game, and a player's mails are answered in the order they were sent
//     whichever game they name.
//   - "id:MESSAGE-ID": two copies of one mail are recognised by the
//     first one's intake mark, as in one-at-a-time handling.
//
// A referee's command (any "command:" but those history.go and press.go
// answer for players) gets no keys: it may create a game (new, rollback),
// give a side to another address (replace) or lift pauses (unlock), which
// changes whom every later mail comes from in umpire's eyes. So does a
// mail whose header cannot be read.
//
// Keys reads the mail as Handle does (the desk's Limits, the same
// envelope) and loads nothing from the store; its cost is one extraction
// and one YAML parse.
func (d *Desk) Keys(raw []byte) []string {
	m, xerr := extract.Extract(raw, d.Limits)
	if m == nil {
		return nil
	}
	var keys []string
	add := func(k string) {
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	if m.MessageID != "" {
		add("id:" + m.MessageID)
	}
	if from := strings.ToLower(strings.TrimSpace(m.From)); from != "" {
		add("from:" + from)
	}
	threads := m.ThreadGames()
	for _, g := range threads[:min(len(threads), 5)] {
		add("game:" + g)
	}
	if xerr != nil {
		return keys // unreadable: answered in the sender's thread, if at all
	}
	root, err := yamlx.Parse(m.Orders)
	if err != nil {
		return keys // bad orders: answered in the sender's thread, if at all
	}
	if commandKey(root) && !isPress(m.Orders) && !isAsk(m.Orders) {
		return nil // the referee's
	}
	if r := readRoute(root); r.Game != "" {
		add("game:" + r.Game)
	}
	return keys
}

// commandKey is hasCommand on orders already parsed.
func commandKey(root *yaml.Node) bool {
	if root.Kind != yaml.MappingNode {
		return false
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "command" {
			return true
		}
	}
	return false
}
