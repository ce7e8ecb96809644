package dice

import (
	"encoding/hex"
	"errors"
	"slices"
	"testing"
)

func pinSeed() []byte {
	s := make([]byte, SeedSize)
	for i := range s {
		s[i] = byte(i)
	}
	return s
}

// TestPinnedFaces fixes the derivation forever: if this test fails, the dice
// of every game in progress would change on upgrade. The expected faces were
// also computed by an independent Python implementation (docs/dice.md).
func TestPinnedFaces(t *testing.T) {
	seed := pinSeed()
	var d6, d10 []int
	for n := 0; n < 12; n++ {
		d6 = append(d6, Face(seed, "pin-game", 1, "melee on 1108 by ORC-3", n, 6))
	}
	for n := 0; n < 6; n++ {
		d10 = append(d10, Face(seed, "pin-game", 7, "activation", n, 10))
	}
	if want := []int{6, 6, 2, 3, 6, 1, 3, 1, 6, 6, 4, 1}; !slices.Equal(d6, want) {
		t.Errorf("d6 faces = %v, pinned %v", d6, want)
	}
	if want := []int{1, 1, 1, 7, 7, 4}; !slices.Equal(d10, want) {
		t.Errorf("d10 faces = %v, pinned %v", d10, want)
	}
}

func TestPinnedChain(t *testing.T) {
	ch, err := NewChain(pinSeed(), 3)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := hex.EncodeToString(ch.Commitment()), "4e05063392f42b5180353ef82da86c714042155044d91ab3253f1bab08120a0a"; got != want {
		t.Errorf("commitment %s, pinned %s", got, want)
	}
	s1, _ := ch.Seed(1)
	if got, want := hex.EncodeToString(s1), "2f287b4d3d4910f6cada9e1bd1b4648099e8c52c81aa4a6aebfa6fc86f19834e"; got != want {
		t.Errorf("s_1 %s, pinned %s", got, want)
	}
	// Each seed must hash to the one before it, and the secret is the last.
	prev := ch.Commitment()
	for k := 1; k <= 3; k++ {
		s, _ := ch.Seed(k)
		if !Follows(s, prev) {
			t.Fatalf("seed %d does not follow seed %d", k, k-1)
		}
		prev = s
	}
	if !slices.Equal(prev, pinSeed()) {
		t.Error("the last seed is not the secret")
	}
	if _, err := ch.Seed(4); err == nil {
		t.Error("seed past the end of the chain was given")
	}
	if Follows(pinSeed(), ch.Commitment()) {
		t.Error("a seed two links away was accepted as the next one")
	}
}

func TestNewChainRejects(t *testing.T) {
	if _, err := NewChain(make([]byte, 16), 10); err == nil {
		t.Error("a short secret was accepted")
	}
	if _, err := NewChain(pinSeed(), 0); err == nil {
		t.Error("an empty chain was accepted")
	}
}

// TestFacesUniform is a coarse check that rejection sampling leaves every
// face equally likely: 60,000 d6 from a fixed seed, each face within 4 % of
// 10,000 (about 4 standard deviations). Deterministic, so never flaky.
func TestFacesUniform(t *testing.T) {
	for _, faces := range []int{2, 3, 6, 10, 20} {
		counts := make([]int, faces+1)
		const per = 10000
		for n := 0; n < per*faces; n++ {
			v := Face(pinSeed(), "uniform", 3, "x", n, faces)
			if v < 1 || v > faces {
				t.Fatalf("d%d gave %d", faces, v)
			}
			counts[v]++
		}
		for f := 1; f <= faces; f++ {
			if c := counts[f]; c < per*96/100 || c > per*104/100 {
				t.Errorf("d%d face %d came %d times in %d", faces, f, c, per*faces)
			}
		}
	}
}

func TestFaceDependsOnEveryInput(t *testing.T) {
	base := func(game string, k int, label string) []int {
		var out []int
		for n := 0; n < 16; n++ {
			out = append(out, Face(pinSeed(), game, k, label, n, 6))
		}
		return out
	}
	ref := base("g", 1, "l")
	for name, other := range map[string][]int{"game": base("h", 1, "l"), "k": base("g", 2, "l"), "label": base("g", 1, "m")} {
		if slices.Equal(ref, other) {
			t.Errorf("changing the %s did not change the dice", name)
		}
	}
}

func TestStreamAndScript(t *testing.T) {
	s := NewStream(pinSeed(), "pin-game", 1)
	for n, want := range []int{6, 6, 2} {
		if v, _ := s.Roll("melee on 1108 by ORC-3", 6); v != want {
			t.Errorf("stream die %d = %d, want %d", n, v, want)
		}
	}
	sc := &Script{Faces: []int{3, 7}}
	if v, err := sc.Roll("a", 6); v != 3 || err != nil {
		t.Errorf("script gave %d, %v", v, err)
	}
	if _, err := sc.Roll("b", 6); err == nil {
		t.Error("a scripted 7 was accepted on a d6")
	}
	sc = &Script{Faces: []int{1}}
	sc.Roll("a", 6)
	if _, err := sc.Roll("b", 6); !errors.Is(err, ErrScriptEnded) {
		t.Errorf("exhausted script: %v", err)
	}
	sc = &Script{Faces: []int{1}, Then: NewStream(pinSeed(), "pin-game", 1)}
	sc.Roll("a", 6)
	if v, err := sc.Roll("melee on 1108 by ORC-3", 6); err != nil || v != 6 {
		t.Errorf("script fallback gave %d, %v", v, err)
	}
}

func TestParseFaces(t *testing.T) {
	got, err := ParseFaces("6, 2,5")
	if err != nil || !slices.Equal(got, []int{6, 2, 5}) {
		t.Errorf("ParseFaces = %v, %v", got, err)
	}
	if _, err := ParseFaces("6,x"); err == nil {
		t.Error("a bad face was accepted")
	}
	if _, err := ParseSeed("abc"); err == nil {
		t.Error("a short seed was accepted")
	}
}
