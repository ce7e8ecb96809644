package game

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"
)

var adjudicatedSeeds = []string{
	`{"k":3,"chain":0,"index":3,"seed":"9f2c","requests":["t2.red.move","t2.blue.move"],"events":2,"rolls":[{"n":0,"label":"red attacks","dice":"2d6","faces":[3,5],"total":8,"outcome":"hit"},{"n":2,"label":"x","dice":"1d6","faces":[4],"total":4,"to":["red","referee"]},{"n":3,"dice":"1d6","sealed":true}],"report":[{"text":"Red moves."},{"text":"Blue hides.","to":["blue"]}],"sealed":"c0ffee","state_hash":"ab12","ruleset_version":"1.2.0"}`,
	`{"k":1,"chain":0,"index":1,"seed":"","requests":null,"events":0,"rolls":null,"report":null,"state_hash":"x","ruleset_version":"v"}`,
	`{"k":1,"requests":[],"rolls":[],"report":[],"events":-0}`,
	`{"rolls":[{"faces":[],"to":[]}],"report":[{"to":[],"text":""}]}`,
	`{"rolls":[null]}`, `{"report":[null]}`, `{"requests":[null]}`, `{"rolls":[{"faces":[null]}]}`, `{"rolls":[{"faces":[1,2],"faces":[3]}]}`,
	`{"k":1,"k":2}`, `{"k":1,"k":null}`, `{"K":1}`, `{"rolls":[{"Label":"a"}]}`, `{"report":[{"TEXT":"a"}]}`, `{"rolls":[{"n":1.5}]}`,
	`{"rolls":[{"faces":[1e2]}]}`, `{"rolls":[{"sealed":"true"}]}`, `{"rolls":[1]}`, `{"report":["a"]}`, `{"requests":[1]}`,
	`{"seed":"\u0041\n"}`, `{"report":[{"text":"line\none \"q\" \\ \/ \té"}],"seed":"\n"}`, `{"rolls":[{"label":"\xff"}]}`, `{"report":[{"text":"a\"b","to":["r\u00e9d"]}]}`, `{"state_hash":99999999999999999999}`,
	`{"k":99999999999999999999}`, `{"rolls":[{"faces":[99999999999999999999]}]}`, `{"rolls":[{"other":{"a":[1,{}]},"n":2}]}`,
	` { "k" : 1 , "rolls" : [ { "n" : 0 , "faces" : [ 1 , 2 ] } ] } `, `[]`, `null`, `{}`, `{"rolls":{}}`, `{"report":{"text":"a"}}`,
	`{"rolls":[{"n":0}],"rolls":[{"label":"b"}]}`, `{"rolls":[{"n":0,"n":1}]}`, `{"report":[{"to":["a"],"to":["b"]}]}`,
}

func sameAdjudicatedAsJSON(t *testing.T, p []byte) {
	var fast, slow Adjudicated
	errF := decodeAdjudicated(p, &fast)
	errS := json.Unmarshal(p, &slow)
	if (errF == nil) != (errS == nil) || !reflect.DeepEqual(fast, slow) {
		t.Fatalf("%q: fast %+v %v, json %+v %v", p, fast, errF, slow, errS)
	}
	var nf Adjudicated
	errF = decodeAdjudicatedFor(p, &nf, false)
	if nf.Report == nil {
		nf.Report = slow.Report // left out, not compared
	}
	if (errF == nil) != (errS == nil) || !reflect.DeepEqual(nf, slow) {
		t.Fatalf("%q: without the report %+v %v, json %+v %v", p, nf, errF, slow, errS)
	}
	var cs adjCheck
	errS = json.Unmarshal(p, &cs)
	cf, errF := adjudicationCheck(p)
	if (errF == nil) != (errS == nil) || cf != cs {
		t.Fatalf("%q: check %+v %v, json %+v %v", p, cf, errF, cs, errS)
	}
}

func FuzzAdjudicated(f *testing.F) {
	for _, s := range adjudicatedSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(sameAdjudicatedAsJSON)
}

// TestAdjudicatedMutations: random cuts, insertions and changed bytes of
// turn.adjudicated payloads decode exactly as json.Unmarshal decodes them,
// and the seeds themselves are read by the fast path where they can be.
func TestAdjudicatedMutations(t *testing.T) {
	var out Adjudicated
	if !fastAdjudicated([]byte(adjudicatedSeeds[0]), &out, true) || len(out.Rolls) != 3 || out.Rolls[1].To[0] != "red" || out.Report[1].To[0] != "blue" {
		t.Fatalf("the fast path does not read a whole adjudication: %+v", out)
	}
	r := rand.New(rand.NewPCG(9, 10))
	alphabet := []byte(`{}[]":,\ -+.0123456789eEtrufalsnk` + "\t\n\x00\x1f\xc3\xa9")
	for _, s := range adjudicatedSeeds {
		sameAdjudicatedAsJSON(t, []byte(s))
		mutants(r, alphabet, s, 3000, func(p []byte) { sameAdjudicatedAsJSON(t, p) })
	}
}
