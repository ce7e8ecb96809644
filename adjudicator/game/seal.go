package game

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// Sealing. What not every side may read yet — hidden orders, orders sent
// ahead, a side's own notices, a referee's roll — is kept out of the
// hashed log: the event carries a commitment, the hex SHA-256 of an
// "opening" (a JSON object with a random salt and the hidden content), and
// the opening itself goes to the referee's data file beside the event
// (Record.Private), never to the log or an export. When every side may read
// it, a sealed.revealed event puts the opening in the log, where anyone can
// check it against the commitment. docs/trust.md describes every byte.

// SaltSize is the number of random bytes in each opening's salt.
const SaltSize = 16

// Unseal returns the opening of a commitment made earlier in the game.
type Unseal func(commitment string) ([]byte, error)

// ErrSealed says that something sealed was needed and is not available.
var ErrSealed = errors.New("sealed")

// Vault keeps openings in memory, by commitment: the game scripts' and
// tests' stand-in for the data file's private part.
type Vault map[string][]byte

// Keep stores the openings of recs.
func (v Vault) Keep(recs []Record) {
	for _, r := range recs {
		if r.Private != nil {
			v[Digest(r.Private)] = r.Private
		}
	}
}

// Unseal implements Unseal.
func (v Vault) Unseal(c string) ([]byte, error) {
	b, ok := v[c]
	if !ok {
		return nil, fmt.Errorf("%w: no opening for commitment %s", ErrSealed, c)
	}
	return b, nil
}

// Lost is the payload of sealed.lost: the opening of the commitment made by
// event Of can never be revealed (the referee's data file was damaged and
// the game restored without it). Nothing waits for it any more: orders sent
// ahead in that text are given up, and the end of the game reveals the rest.
type Lost struct {
	Of         uint64 `json:"of"`
	Commitment string `json:"commitment"`
	Reason     string `json:"reason"`
}

// LostRecord records that the opening of ref is lost, folded into g.
func (g *Game) LostRecord(now time.Time, ref SealedRef, reason string) (Record, error) {
	return g.fold(now, ActorReferee, TypeLost, Lost{Of: ref.Seq, Commitment: ref.Commitment, Reason: reason})
}

// SealedRef is a commitment in the log that is not revealed yet.
type SealedRef struct {
	Seq        uint64 // the event that made it
	Commitment string
}

// salt draws a fresh salt from in.Rand.
func salt(in Input) (string, error) {
	if in.Rand == nil {
		return "", fmt.Errorf("%w: no randomness given to seal with", ErrInternal)
	}
	b := make([]byte, SaltSize)
	if _, err := io.ReadFull(in.Rand, b); err != nil {
		return "", fmt.Errorf("%w: drawing a salt: %v", ErrInternal, err)
	}
	return hex.EncodeToString(b), nil
}

// seal encodes an opening and returns its bytes and commitment.
func seal(opening any) ([]byte, string, error) {
	b, err := json.Marshal(opening)
	if err != nil {
		return nil, "", fmt.Errorf("%w: encoding a sealed part: %v", ErrInternal, err)
	}
	return b, Digest(b), nil
}

// open fetches and checks the opening of c: from the records of this
// outcome, not stored yet, or else through in.Unseal.
func open(in Input, out *Outcome, c string) ([]byte, error) {
	if out != nil {
		for _, r := range out.Records {
			if r.Private != nil && Digest(r.Private) == c {
				return r.Private, nil
			}
		}
	}
	if in.Unseal == nil {
		return nil, fmt.Errorf("%w: %w: nothing to unseal commitment %s with", ErrInternal, ErrSealed, c)
	}
	b, err := in.Unseal(c)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInternal, err)
	}
	if Digest(b) != c {
		return nil, fmt.Errorf("%w: the kept opening of commitment %s does not match it: the data file was changed", ErrInternal, c)
	}
	return b, nil
}

// reveal appends a sealed.revealed record for ref to g and out.
func (g *Game) reveal(in Input, out *Outcome, ref SealedRef) error {
	b, err := open(in, out, ref.Commitment)
	if err != nil {
		return err
	}
	rec, err := record(TypeRevealed, in.Time, ActorEngine, Revealed{Of: ref.Seq, Commitment: ref.Commitment, Opening: string(b)})
	if err != nil {
		return err
	}
	return g.append(out, rec)
}

// revealAll reveals everything still sealed: the game is over.
func (g *Game) revealAll(in Input, out *Outcome) error {
	for len(g.Unrevealed) > 0 {
		if err := g.reveal(in, out, g.Unrevealed[0]); err != nil {
			return err
		}
	}
	return nil
}

// RevealAllRecords reveals every sealed part, for a game that ended
// outside a submission (a forfeit, the referee's word): the records,
// folded into g.
func (g *Game) RevealAllRecords(now time.Time, unseal Unseal) ([]Record, error) {
	out := &Outcome{}
	err := g.revealAll(Input{Time: now, Unseal: unseal}, out)
	return out.Records, err
}

// append folds rec into g and adds it to out.
func (g *Game) append(out *Outcome, rec Record) error {
	if err := g.Apply(Entry{Seq: g.Version + 1, Record: rec}); err != nil {
		return fmt.Errorf("%w: %v", ErrInternal, err)
	}
	out.Records = append(out.Records, rec)
	return nil
}

// RemoveSecret returns src without the top-level "secret:" entry of the
// YAML mapping root (parsed from src), and whether there was one. In a
// block mapping the entry's lines are removed; in a flow mapping
// ("{game: g, secret: s}") the value is replaced by "(removed)".
func RemoveSecret(src []byte, root *yaml.Node) ([]byte, bool) {
	if root == nil || root.Kind != yaml.MappingNode {
		return src, false
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if k.Value != "secret" || k.Line < 1 {
			continue
		}
		lines := strings.SplitAfter(string(src), "\n")
		if k.Line > len(lines) {
			return src, false
		}
		if root.Style&yaml.FlowStyle != 0 || v.Kind != yaml.ScalarNode {
			if v.Line < 1 || v.Line > len(lines) || v.Kind != yaml.ScalarNode {
				return src, false
			}
			l := lines[v.Line-1]
			col := v.Column - 1
			end := col + len(v.Value)
			if v.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
				end += 2
			}
			if col < 0 || end > len(l) {
				return src, false
			}
			lines[v.Line-1] = l[:col] + `"(removed)"` + l[end:]
			return []byte(strings.Join(lines, "")), true
		}
		// The entry runs from its key's line to the line before the next
		// key (a block scalar may span lines), or to the end of the text.
		last := k.Line
		if v.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 || v.Line > k.Line {
			last = len(lines)
			if i+2 < len(root.Content) {
				last = root.Content[i+2].Line - 1
			}
		}
		out := append(lines[:k.Line-1:k.Line-1], lines[last:]...)
		return []byte(strings.Join(out, "")), true
	}
	return src, false
}

// encodeOrders re-encodes an "orders:" node alone, as a text that
// readEnvelope reads back with the same orders.
func encodeOrders(n *yaml.Node) (string, error) {
	b, err := yaml.Marshal(struct {
		Orders *yaml.Node `yaml:"orders"`
	}{n})
	if err != nil {
		return "", fmt.Errorf("%w: orders do not encode: %v", ErrInternal, err)
	}
	return string(b), nil
}

// ReportFor returns the lines of a result viewer may read, in order. A
// result read from the log alone (no Full report) has its public lines.
func (r Result) ReportFor(viewer adjudicator.Side) []adjudicator.Line {
	if r.Full == nil {
		return r.Report
	}
	return adjudicator.For(r.Full, viewer)
}

// RollsFor returns the rolls of a result viewer may see, in order; a roll
// viewer may not see is left out (a result read from the log alone has
// its public rolls and sealed stand-ins).
func (r Result) RollsFor(viewer adjudicator.Side) []*adjudicator.Roll {
	if r.AllRolls == nil {
		return r.Rolls
	}
	var out []*adjudicator.Roll
	for _, x := range r.AllRolls {
		if x.To.Includes(viewer) {
			out = append(out, x)
		}
	}
	return out
}

// splitReport separates the public lines and rolls of an adjudication from
// the sealed ones.
func splitReport(lines []adjudicator.Line, rolls []*adjudicator.Roll) (public []adjudicator.Line, pubRolls []*adjudicator.Roll, op AdjudicationOpening, sealed bool) {
	public = []adjudicator.Line{}
	pubRolls = []*adjudicator.Roll{}
	for i, l := range lines {
		if l.To.Public() {
			public = append(public, l)
			continue
		}
		op.Lines = append(op.Lines, PlacedLine{At: i, Line: l})
		sealed = true
	}
	for _, r := range rolls {
		if r.To.Public() {
			pubRolls = append(pubRolls, r)
			continue
		}
		pubRolls = append(pubRolls, &adjudicator.Roll{N: r.N, Dice: r.Dice, Sealed: true})
		op.Rolls = append(op.Rolls, r)
		sealed = true
	}
	return public, pubRolls, op, sealed
}

// Opened is a turn.adjudicated payload with its sealed part put back, for
// the referee or, once revealed, anyone: the whole report and every roll.
func Opened(a Adjudicated, opening []byte) (lines []adjudicator.Line, rolls []*adjudicator.Roll, err error) {
	if a.Sealed == "" || opening == nil {
		return a.Report, a.Rolls, nil
	}
	if Digest(opening) != a.Sealed {
		return nil, nil, fmt.Errorf("the opening does not match the commitment %s", a.Sealed)
	}
	var op AdjudicationOpening
	if err := json.Unmarshal(opening, &op); err != nil {
		return nil, nil, err
	}
	lines = make([]adjudicator.Line, 0, len(a.Report)+len(op.Lines))
	pub := a.Report
	for _, pl := range op.Lines {
		for len(lines) < pl.At && len(pub) > 0 {
			lines, pub = append(lines, pub[0]), pub[1:]
		}
		lines = append(lines, pl.Line)
	}
	lines = append(lines, pub...)
	hidden := map[int]*adjudicator.Roll{}
	for _, r := range op.Rolls {
		hidden[r.N] = r
	}
	for _, r := range a.Rolls {
		if r.Sealed {
			if h, ok := hidden[r.N]; ok {
				r = h
			}
		}
		rolls = append(rolls, r)
	}
	return lines, rolls, nil
}
