package game

import (
	"bytes"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// TestSeedChainIsDiceChain: the sparse chain gives every seed dice.Chain
// gives, for lengths around its step.
func TestSeedChainIsDiceChain(t *testing.T) {
	secret := bytes.Repeat([]byte{7}, dice.SeedSize)
	for _, length := range []int{1, 2, 63, 64, 65, 127, 128, 200, 4096, 5000} {
		want, err := dice.NewChain(secret, length)
		if err != nil {
			t.Fatal(err)
		}
		got, err := newSeedChain(secret, length)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.commitment(), want.Commitment()) {
			t.Fatalf("length %d: commitments differ", length)
		}
		for k := 0; k <= length; k++ {
			w, _ := want.Seed(k)
			g, err := got.seed(k)
			if err != nil || !bytes.Equal(g, w) {
				t.Fatalf("length %d: seed %d differs (%v)", length, k, err)
			}
		}
		if _, err := got.seed(length + 1); err == nil {
			t.Fatalf("length %d: a seed past the end", length)
		}
		if len(got.marks) > 66 {
			t.Fatalf("length %d keeps %d seeds", length, len(got.marks))
		}
	}
	if _, err := newSeedChain(secret[:5], 10); err == nil {
		t.Fatal("a short secret was taken")
	}
}
