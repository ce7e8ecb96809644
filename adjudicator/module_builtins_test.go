package adjudicator

import (
	"testing"
	"testing/fstest"
)

// TestBuiltins: the shipped modules of a ruleset are read from its data
// directory, the first is the default, and an unknown name or a missing
// directory is no module.
func TestBuiltins(t *testing.T) {
	fsys := fstest.MapFS{
		"data/first/module.yaml":  {Data: []byte("name: first\n")},
		"data/second/module.yaml": {Data: []byte("name: second\n")},
	}
	b := Builtins{FS: fsys, Dir: "data", Names: []string{"first", "second", "gone"}}
	if m, ok := b.Module("second"); !ok || string(m.Files["module.yaml"]) != "name: second\n" || m.Name != "second" {
		t.Errorf("Module(second) = %+v, %v", m, ok)
	}
	if _, ok := b.Module("third"); ok {
		t.Error("Module(third) found a module that is not listed")
	}
	if m, err := b.Or(nil); err != nil || m.Name != "first" {
		t.Errorf("Or(nil) = %v, %v; want the default, first", m.Name, err)
	}
	own := Module{Name: "own"}
	if m, err := b.Or(&own); err != nil || m.Name != "own" {
		t.Errorf("Or(own) = %v, %v", m.Name, err)
	}
	l := b.List()
	l[0] = "changed"
	if b.Names[0] != "first" {
		t.Error("List returned the Builtins' own slice")
	}
	missing := Builtins{FS: fsys, Dir: "data", Names: []string{"gone"}}
	if _, err := missing.Or(nil); err == nil {
		t.Error("Or(nil) with the default missing from the build: no error")
	}
}
