// Package dice makes die rolls that both players can audit after the fact.
//
// At game creation the referee draws a secret s_N and builds the hash chain
// s_{k-1} = SHA-256(s_k) down to s_0, the commitment, which is published at
// once. Adjudication number k (k = 1, 2, …) rolls from s_k: die number n of
// that adjudication is
//
//	HMAC-SHA256(key = s_k, msg = game "|" k "|" label "|" n)
//
// read as big-endian 64-bit words and mapped onto the die's faces by rejection
// sampling (no modulo bias). After adjudication k the referee reveals s_k;
// anyone can check SHA-256(s_k) = s_{k-1} and recompute every roll. Because
// s_k was fixed by the commitment before any orders were sent, the referee
// cannot choose the dice, and because s_{k+1} is unknown until it is revealed,
// no player can predict them.
//
// The derivation is pinned by a test: changing it would change the dice of
// every game in progress. The package is pure (no clock, no global random
// source): the secret comes in from the caller.
package dice

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// SeedSize is the size in bytes of every seed in a chain.
const SeedSize = sha256.Size

// DefaultChainLength is the number of adjudications one chain covers. A
// Dragon Rage turn is up to ten adjudications, so this is some 400 turns; a
// game that uses it up is given a fresh chain (see the game package).
const DefaultChainLength = 4096

// MaxChainLength bounds the work of deriving a seed from the secret.
const MaxChainLength = 1 << 20

// Chain is a hash chain of seeds derived from a secret. Seed(0) is the
// commitment; Seed(Length()) is the secret itself.
type Chain struct {
	secret []byte
	length int
	seeds  [][]byte // all seeds, s_0 … s_length, once computed
}

// NewChain returns the chain of the given length built on secret, which must
// be SeedSize bytes from a cryptographic random source.
func NewChain(secret []byte, length int) (*Chain, error) {
	if len(secret) != SeedSize {
		return nil, fmt.Errorf("dice: secret is %d bytes, want %d", len(secret), SeedSize)
	}
	if length < 1 || length > MaxChainLength {
		return nil, fmt.Errorf("dice: chain length %d out of range 1..%d", length, MaxChainLength)
	}
	return &Chain{secret: append([]byte(nil), secret...), length: length}, nil
}

// Length is the number of adjudications the chain covers.
func (c *Chain) Length() int { return c.length }

// Seed returns s_k for 0 <= k <= Length(). The first call hashes the whole
// chain once (Length SHA-256 blocks) and keeps every seed; later calls are
// free. A Chain is not safe for concurrent first use.
func (c *Chain) Seed(k int) ([]byte, error) {
	if k < 0 || k > c.length {
		return nil, fmt.Errorf("dice: seed %d is outside the chain (0..%d)", k, c.length)
	}
	if c.seeds == nil {
		seeds := make([][]byte, c.length+1)
		s := append([]byte(nil), c.secret...)
		for i := c.length; i >= 0; i-- {
			seeds[i] = s
			if i > 0 {
				s = Hash(s)
			}
		}
		c.seeds = seeds
	}
	return append([]byte(nil), c.seeds[k]...), nil
}

// Commitment returns s_0.
func (c *Chain) Commitment() []byte {
	s, _ := c.Seed(0)
	return s
}

// Hash returns SHA-256(s): the link from s_k to s_{k-1}.
func Hash(s []byte) []byte {
	h := sha256.Sum256(s)
	return h[:]
}

// Follows reports whether revealed is the seed after prev in a chain, that is
// whether SHA-256(revealed) = prev.
func Follows(revealed, prev []byte) bool {
	return hmac.Equal(Hash(revealed), prev)
}

// Face returns die number n (from 0) of adjudication k of the game, with the
// given number of faces (2..1<<32), rolled from seed s_k for label.
func Face(seed []byte, game string, k int, label string, n int, faces int) int {
	if faces < 2 {
		return 1
	}
	msg := []byte(game + "|" + strconv.Itoa(k) + "|" + label + "|" + strconv.Itoa(n))
	// Accept only words below the largest multiple of faces that fits in
	// 2^64; the rest would favour the low faces.
	f := uint64(faces)
	reject := (math.MaxUint64%f + 1) % f // 2^64 mod faces
	for retry := 0; ; retry++ {
		m := hmac.New(sha256.New, seed)
		m.Write(msg)
		if retry > 0 {
			m.Write([]byte("|retry|" + strconv.Itoa(retry)))
		}
		sum := m.Sum(nil)
		for i := 0; i+8 <= len(sum); i += 8 {
			v := binary.BigEndian.Uint64(sum[i:])
			if reject == 0 || v < -reject { // -reject == 2^64 - reject
				return int(v%f) + 1
			}
		}
	}
}

// ParseSeed decodes a seed written in hex.
func ParseSeed(s string) ([]byte, error) {
	b, err := hex.DecodeString(strings.TrimSpace(s))
	if err != nil || len(b) != SeedSize {
		return nil, fmt.Errorf("dice: %q is not a seed (%d hex digits)", s, 2*SeedSize)
	}
	return b, nil
}

// ErrScriptEnded says that scripted dice ran out.
var ErrScriptEnded = errors.New("dice: the scripted dice ran out")

// Stream rolls the dice of one adjudication from its seed.
type Stream struct {
	seed []byte
	game string
	k    int
	n    int
}

// NewStream returns the roller for adjudication k of game, from seed s_k.
func NewStream(seed []byte, game string, k int) *Stream {
	return &Stream{seed: append([]byte(nil), seed...), game: game, k: k}
}

// Roll throws the next die.
func (s *Stream) Roll(label string, faces int) (int, error) {
	v := Face(s.seed, s.game, s.k, label, s.n, faces)
	s.n++
	return v, nil
}

// Script rolls the faces it was given, in order. It is how tests and a
// referee's what-if replays fix the dice. When the faces run out it falls
// back on Then, or fails with ErrScriptEnded if Then is nil.
type Script struct {
	Faces []int
	Then  interface {
		Roll(label string, faces int) (int, error)
	}
	used int
}

// Roll returns the next scripted face, checking it fits the die.
func (s *Script) Roll(label string, faces int) (int, error) {
	if s.used >= len(s.Faces) {
		if s.Then != nil {
			return s.Then.Roll(label, faces)
		}
		return 0, fmt.Errorf("%w: die %d was needed for %q (1d%d); add faces to the script", ErrScriptEnded, s.used+1, label, faces)
	}
	v := s.Faces[s.used]
	if v < 1 || v > faces {
		return 0, fmt.Errorf("dice: scripted die %d is %d, which a d%d cannot show (for %q)", s.used+1, v, faces, label)
	}
	s.used++
	return v, nil
}

// Used is the number of scripted faces consumed so far.
func (s *Script) Used() int { return s.used }

// Left is the number of scripted faces not yet used.
func (s *Script) Left() int { return len(s.Faces) - s.used }

// ParseFaces reads a comma-separated list of faces such as "6,2,5".
func ParseFaces(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		v, err := strconv.Atoi(f)
		if err != nil || v < 1 {
			return nil, fmt.Errorf("dice: %q is not a die face (write faces like 6,2,5)", f)
		}
		out = append(out, v)
	}
	return out, nil
}
