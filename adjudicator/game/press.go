package game

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// Press: players write to each other through umpire. The game option
// "press" says how (PressPolicies); each message is a press.sent event.
// What not every side may read — a private message, or the sender of a
// grey one — is sealed like a hidden order: the event holds a commitment,
// the referee's data file the opening (a PressOpening), and the log reveals
// it when the game ends (revealAll).

// TypePressSent is the press event (schema 1): PressSent.
const TypePressSent = "press.sent"

// PressOption is the game option that sets the press policy; the ruleset
// never sees it (SplitOptions).
const PressOption = "press"

// The press policies.
const (
	PressNone    = "none"    // no press (the default)
	PressOpen    = "open"    // every side reads every message, with its sender and addressee
	PressPrivate = "private" // the addressee (and the referee) alone
	PressGrey    = "grey"    // the addressee without the sender's side named; the referee reads all
)

// PressPolicies are the values of the press option.
var PressPolicies = []string{PressNone, PressOpen, PressPrivate, PressGrey}

// PressOptions describes the press option, for help texts.
var PressOptions = []adjudicator.OptionInfo{
	{Name: PressOption, Default: PressNone, Values: PressPolicies,
		Doc: "players write to each other through umpire: none; open (all read all); private (the addressee alone); grey (the addressee, without the sender named)"},
}

// PressAll addresses a message to every other side.
const PressAll = "all"

// MaxPressText bounds the text of one message, in bytes.
const MaxPressText = 8 << 10

// PressSent is the payload of press.sent. An open message (and a private
// one to all) has its sender, addressee and text in the event; any other
// has only Sealed, the commitment of a PressOpening.
type PressSent struct {
	Policy string           `json:"policy"`
	From   adjudicator.Side `json:"from,omitempty"`
	To     string           `json:"to,omitempty"` // a side, or "all"
	Text   string           `json:"text,omitempty"`
	Sealed string           `json:"sealed,omitempty"`
}

// PressOpening is the sealed part of press.sent.
type PressOpening struct {
	Salt string           `json:"salt"`
	From adjudicator.Side `json:"from"`
	To   string           `json:"to"`
	Text string           `json:"text"`
}

// Press is one message.
type Press struct {
	From adjudicator.Side
	To   string // a side, or PressAll
	Text string
}

// ParsePress checks a value of the press option ("" is none).
func ParsePress(v string) (string, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return PressNone, nil
	}
	if !slices.Contains(PressPolicies, v) {
		return "", fmt.Errorf("option %s=%q: give %s", PressOption, v, strings.Join(PressPolicies, ", "))
	}
	return v, nil
}

// PressPolicy is the game's press policy.
func (g *Game) PressPolicy() string {
	p, err := ParsePress(g.Created.Clock[PressOption])
	if err != nil {
		return PressNone // checked when the game was created
	}
	return p
}

// Readers are the sides that get message m: the addressee, or with
// PressAll every side but the sender's; under open press, every side.
func (g *Game) Readers(m Press) []adjudicator.Side {
	var out []adjudicator.Side
	for _, s := range g.Sides() {
		if s == m.From {
			continue
		}
		if m.To == PressAll || string(s) == m.To || g.PressPolicy() == PressOpen {
			out = append(out, s)
		}
	}
	return out
}

// PressSealed reports whether message m is sealed in the log: whenever
// not every side may read all of it.
func (g *Game) PressSealed(m Press) bool {
	switch g.PressPolicy() {
	case PressOpen:
		return false
	case PressPrivate:
		return m.To != PressAll
	}
	return true
}

// CheckPress says what is wrong with message m in g, if anything: a
// player's mistake, as an *adjudicator.OrderError.
func (g *Game) CheckPress(m Press) error {
	switch {
	case g.PressPolicy() == PressNone:
		return adjudicator.Rejection("press-off", "game %s has no press (its option press is none): players cannot write to each other through umpire; ask the referee", g.ID)
	case g.Over():
		return adjudicator.Rejection(adjudicator.CodeGameOver, "game %s is over: press has ended with it", g.ID)
	}
	if _, ok := g.Player(m.From); !ok {
		return adjudicator.Rejection(adjudicator.CodeUnknownSide, "game %s has no side %q", g.ID, m.From)
	}
	if m.To != PressAll {
		if _, ok := g.Player(adjudicator.Side(m.To)); !ok {
			return adjudicator.Rejection(adjudicator.CodeUnknownSide, "to: game %s has no side %q; write to one of %s, or to all", g.ID, m.To, joinSides(g.Sides()))
		}
		if adjudicator.Side(m.To) == m.From {
			return adjudicator.Rejection(adjudicator.CodeUnknownSide, "to: %s is your own side; write to another side, or to all", m.To)
		}
	}
	switch {
	case strings.TrimSpace(m.Text) == "":
		return adjudicator.Rejection(adjudicator.CodeMissingField, "there is no text: put the message under \"text: |\"")
	case len(m.Text) > MaxPressText:
		return adjudicator.Rejection(adjudicator.CodeTooLarge, "the text has %d bytes; a message may have %d (%d KiB)", len(m.Text), MaxPressText, MaxPressText>>10)
	case !utf8.ValidString(m.Text):
		return adjudicator.Rejection(adjudicator.CodeBadValue, "the text is not valid UTF-8")
	}
	return nil
}

// PressRecord records message m, folded into g; rnd draws the salt of a
// sealed message. The record's Private part is the opening to keep.
func (g *Game) PressRecord(now time.Time, rnd io.Reader, m Press) (Record, error) {
	if err := g.CheckPress(m); err != nil {
		return Record{}, err
	}
	policy := g.PressPolicy()
	if !g.PressSealed(m) {
		rec, err := g.fold(now, SideActor(m.From), TypePressSent, PressSent{Policy: policy, From: m.From, To: m.To, Text: m.Text})
		return rec, err
	}
	op := PressOpening{From: m.From, To: m.To, Text: m.Text}
	var err error
	if op.Salt, err = salt(Input{Rand: rnd}); err != nil {
		return Record{}, err
	}
	private, c, err := seal(op)
	if err != nil {
		return Record{}, err
	}
	// The sender is sealed too: the actor is umpire's, not the side's.
	rec, err := record(TypePressSent, now, ActorEngine, PressSent{Policy: policy, Sealed: c})
	if err != nil {
		return Record{}, err
	}
	rec.Private = private
	if err := g.Apply(Entry{Seq: g.Version + 1, Record: rec}); err != nil {
		return Record{}, err
	}
	return rec, nil
}

// applyPress folds a press event into g: a sealed message waits for the
// end of the game to be revealed.
func (g *Game) applyPress(e Entry) error {
	var p PressSent
	if err := json.Unmarshal(e.Payload, &p); err != nil {
		return &LogError{Seq: e.Seq, Msg: "bad press.sent: " + err.Error()}
	}
	if p.Sealed != "" {
		g.seal(e.Seq, p.Sealed)
	}
	return nil
}

// OpenPress returns a press.sent payload with its sealed part put back.
func OpenPress(p PressSent, opening []byte) (PressSent, error) {
	if p.Sealed == "" || opening == nil {
		return p, nil
	}
	if Digest(opening) != p.Sealed {
		return p, fmt.Errorf("the opening does not match the commitment %s", p.Sealed)
	}
	var op PressOpening
	if err := json.Unmarshal(opening, &op); err != nil {
		return p, err
	}
	p.From, p.To, p.Text = op.From, op.To, op.Text
	return p, nil
}
