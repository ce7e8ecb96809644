package game

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"
)

var ordersSeeds = []string{
	`{"request":"t1.red.bid","side":"red","kind":"orders","turn":1,"phase":"bid","text":"turn: 1\nphase: bid\norders:\n  bid: 1\n","digest":"ab","normalized":"bid: 1\n","via":"mail"}`,
	`{"request":"r","side":"blue","turn":-3,"phase":"p","sealed":"c0ffee","ahead":true,"queued":false,"queue_of":4,"queue_index":2,"queue_done":true}`,
	`{"Request":"r"}`, `{"request":"a\"b\\u00e9"}`, `{"turn":1.5}`, `{"turn":1e3}`, `{"turn":"1"}`, `{"turn":null,"side":null}`,
	`{"turn":99999999999999999999}`, `{"request":"x","request":"y"}`, ` { "ahead" : true } `, `{"ahead":1}`, `{}`, `[]`, `null`,
	`{"text":{"a":[1,2,{"b":null}],"c":"\u0041"}}`, `{"x":-0.5e-3,"y":[true,false,null]}`, `{"side":"\xff"}`, `{"text":"\xff"}`,
	`{"salt":"00","text":"t","digest":"d1","queue":[]}`, `{"salt":"00","text":"t","digest":"d1","orders":"o","normalized":"n","queue":[{"index":0,"turn":2,"phase":"move"}]}`, `{"queue":null,"salt":null}`, `{"queue":[ ]}`,
	`{"request":"r","kind":"orders","text":"t","secret_removed":true,"via":"mail","message_id":"<a@b>","replaces":false,"queue_of":18446744073709551615}`, `{"queue_of":18446744073709551616}`, `{"message_id":1}`, `{"digest":"x","queue":[{"index":"a"}]}`, `{"of":3,"commitment":"c","opening":"{\"digest\":\"d\"}"}`,
	`{"request":"t0.setup","side":"defender","seat":"invader","kind":"setup","turn":0,"phase":"setup"}`, `{"seat":7}`, `{"seat":null,"side":"a"}`,
	`{"request":"t1.move.red","side":"red","seat":"red/2","by":"b@x.org","parts":["r2"],"turn":1}`, `{"by":3}`, `{"parts":"r1"}`, `{"parts":null,"by":null}`, `{"Parts":["a"]}`,
	`{"of":-1}`, `{"text":5,"turn":1}`, `{"secret_removed":"yes"}`, `{"queue_of":-2}`,
	`{"text":"a\n\t\/\b\f\r\\ \"é\n","orders":"\u0041\n","via":"\ud800"}`, `{"text":"\n` + "\xff" + `"}`, `{"text":"\\"}`,
	`{"a":01}`, `{"a":"\t"}`, `{"a":"\x"}`, `{"a":}`, `{"a":1,}`, `{"a":1} x`, `{"ſide":"red"}`, `{"turn":-}`, `{"a":[1,]}`,
}

func sameAsJSON(t *testing.T, p []byte) {
	var fast, slow ordersFold
	errF := fast.decode(p)
	errS := json.Unmarshal(p, &slow)
	whole := fast.whole
	fast.whole = false
	if (errF == nil) != (errS == nil) || !reflect.DeepEqual(fast, slow) {
		t.Fatalf("%q: fast %+v %v, json %+v %v", p, fast, errF, slow, errS)
	}
	var oa OrdersAccepted
	if err := json.Unmarshal(p, &oa); whole && err != nil {
		t.Fatalf("%q: taken as a whole OrdersAccepted, which json refuses: %v", p, err)
	}
	if d, ok := openingDigest(p); ok {
		var op OrdersOpening
		if err := json.Unmarshal(p, &op); err != nil || op.Digest != d {
			t.Fatalf("%q: opening digest %q, json %q %v", p, d, op.Digest, err)
		}
	}
	var x struct {
		Sealed string `json:"sealed"`
	}
	errS = json.Unmarshal(p, &x)
	if got, err := sealedOf(p); (err == nil) != (errS == nil) || got != x.Sealed {
		t.Fatalf("%q: sealed %q %v, json %q %v", p, got, err, x.Sealed, errS)
	}
	var af, as OrdersAccepted
	errF, errS = decodeAccepted(p, &af), json.Unmarshal(p, &as)
	if (errF == nil) != (errS == nil) || !reflect.DeepEqual(af, as) {
		t.Fatalf("%q: accepted %+v %v, json %+v %v", p, af, errF, as, errS)
	}
	var of, os OrdersOpening
	errF, errS = decodeOpening(p, &of), json.Unmarshal(p, &os)
	if (errF == nil) != (errS == nil) || !reflect.DeepEqual(of, os) {
		t.Fatalf("%q: opening %+v %v, json %+v %v", p, of, errF, os, errS)
	}
	var rf, rs Revealed
	errF, errS = decodeRevealed(p, &rf), json.Unmarshal(p, &rs)
	if (errF == nil) != (errS == nil) || rf != rs {
		t.Fatalf("%q: revealed %+v %v, json %+v %v", p, rf, errF, rs, errS)
	}
}

func FuzzOrdersFold(f *testing.F) {
	for _, s := range ordersSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(sameAsJSON)
}

// TestOrdersFoldMutations: random cuts, insertions and changed bytes of
// real payloads decode exactly as json.Unmarshal decodes them.
func TestOrdersFoldMutations(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	alphabet := []byte(`{}[]":,\ -+.0123456789eEtrufalsn` + "\t\n\x00\x1f\xc3\xa9")
	for _, s := range ordersSeeds {
		sameAsJSON(t, []byte(s))
		mutants(r, alphabet, s, 3000, func(p []byte) { sameAsJSON(t, p) })
	}
}

// mutants calls f with n mutants of seed: each one to three random cuts,
// insertions or changes of a byte, drawn from alphabet.
func mutants(r *rand.Rand, alphabet []byte, seed string, n int, f func(p []byte)) {
	for range n {
		p := []byte(seed)
		for range 1 + r.IntN(3) {
			if len(p) == 0 {
				break
			}
			i := r.IntN(len(p))
			switch r.IntN(3) {
			case 0:
				p[i] = alphabet[r.IntN(len(alphabet))]
			case 1:
				p = append(p[:i:i], p[i+1:]...)
			default:
				p = append(p[:i:i], append([]byte{alphabet[r.IntN(len(alphabet))]}, p[i:]...)...)
			}
		}
		f(p)
	}
}
