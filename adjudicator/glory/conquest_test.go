package glory_test

import (
	"bytes"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/glory"
)

// TestNoConquestNations: a nation the module marks no-conquest (Maquesta's
// pirates, Lord Soth's legions: DG-CONQ-3, -4, DG-AMB-66) is not conquered
// when the enemy holds every fortification it has; the same nation without
// the mark is. The demonstration's Karthay (one fortification) stands in for them.
func TestNoConquestNations(t *testing.T) {
	for _, mark := range []bool{false, true} {
		m, _ := glory.Ruleset.(adjudicator.Modular).BuiltinModule("demo")
		if mark {
			files := map[string][]byte{}
			for p, b := range m.Files {
				files[p] = b
			}
			b := files["nations.yaml"]
			i := bytes.Index(b, []byte("- id: karthay\n"))
			if i < 0 {
				t.Fatal("no karthay in the demo's nations.yaml")
			}
			files["nations.yaml"] = append(append(append([]byte{}, b[:i]...), "- id: karthay\n  no-conquest: true\n"...), b[i+len("- id: karthay\n"):]...)
			m = adjudicator.Module{Name: "demo-pirates", Files: files}
		}
		pos := []byte(`turn: 1
step: move
mover: highlord
allies: {khelmar: highlord, valen: whitestone, karthay: whitestone}
units:
  - {units: [khelmar-inf-1], at: "1210"}
  - {units: [karthay-dwarf-2], at: "1412"}
`)
		s, err := glory.Ruleset.Setup(adjudicator.Setup{Position: pos, Module: &m})
		if err != nil {
			t.Fatal(err)
		}
		st := s.(*glory.State)
		req := glory.Ruleset.Due(st)[0]
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(`moves: [{unit: khelmar-inf-1, path: ["1211"]}]`), &doc); err != nil {
			t.Fatal(err)
		}
		o, err := glory.Ruleset.ParseOrders(st, req, doc.Content[0])
		if err != nil {
			t.Fatal(err)
		}
		r := adjudicator.NewResolution(glory.Ruleset, st.Clone(), dice.NewStream([]byte("no conquest"), "t", 1))
		if err := glory.Ruleset.Decide(r, []adjudicator.Submission{{Request: req, Side: glory.Highlord, Orders: o}}); err != nil {
			t.Fatal(err)
		}
		after := r.State().(*glory.State)
		if after.Controller("1211") != glory.Highlord {
			t.Fatalf("mark %v: 1211 is held by %q after the Highlord entered it", mark, after.Controller("1211"))
		}
		conquered := after.Nations["karthay"].Conquered != ""
		if conquered == mark {
			t.Errorf("no-conquest %v: Karthay conquered %v", mark, conquered)
		}
	}
}
