package game

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestAcceptedIndex checks the persistent index against a map, through
// clones that both go on inserting (as a submission's fold and the cached
// one, or a replay's fold and the copy it decides on).
func TestAcceptedIndex(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	digest := func(i int) string { return Digest([]byte{byte(i), byte(i >> 8)}) }
	type model = map[string]AcceptedRef
	var idx []acceptedIndex
	var models []model
	idx = append(idx, acceptedIndex{})
	models = append(models, model{})
	for step := 0; step < 3000; step++ {
		k := r.IntN(len(idx))
		if r.IntN(20) == 0 && len(idx) < 8 { // a clone: both go on
			idx = append(idx, idx[k])
			m := model{}
			for d, ref := range models[k] {
				m[d] = ref
			}
			models = append(models, m)
			continue
		}
		d := digest(r.IntN(400)) // some digests come again: the latest wins
		ref := AcceptedRef{Seq: uint64(step), Turn: r.IntN(9), Phase: "move", Side: "red"}
		pd, _ := parseDigest(d)
		idx[k] = idx[k].with(pd, ref)
		models[k][d] = ref
	}
	for k := range idx {
		for i := 0; i < 450; i++ {
			d := digest(i)
			pd, _ := parseDigest(d)
			got, ok := idx[k].get(pd)
			want, wok := models[k][d]
			if ok != wok || got != want {
				t.Fatalf("index %d, digest %d: got %v %v, want %v %v", k, i, got, ok, want, wok)
			}
		}
		if all := idx[k].all(); len(all) != len(models[k]) {
			t.Fatalf("index %d holds %d digests, the map %d", k, len(all), len(models[k]))
		}
	}
	if _, ok := parseDigest("ABCD"); ok {
		t.Error("a short string parsed as a digest")
	}
	if _, ok := parseDigest(strings.Repeat("AB", 32)); ok {
		t.Error("upper-case hex parsed as a digest (Digest writes lower case)")
	}
}
