package modcache

import (
	"errors"
	"sync"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
)

type data struct{ digest, text string }

func TestLoadReadsOncePerDigest(t *testing.T) {
	var c Cache[*data]
	reads := 0
	parse := func(m adjudicator.Module) (*data, error) {
		reads++
		return &data{digest: m.Digest(), text: string(m.Files["a.yaml"])}, nil
	}
	a := adjudicator.Module{Name: "a", Files: map[string][]byte{"a.yaml": []byte("one")}}
	same := adjudicator.Module{Name: "copy", Files: map[string][]byte{"a.yaml": []byte("one")}}
	other := adjudicator.Module{Name: "a", Files: map[string][]byte{"a.yaml": []byte("two")}}
	d1, err := c.Load(a, parse)
	if err != nil || d1.digest != a.Digest() || d1.text != "one" {
		t.Fatalf("first load: %+v, %v", d1, err)
	}
	d2, _ := c.Load(same, parse)
	if d2 != d1 || reads != 1 {
		t.Errorf("a module with the same files was read again (%d reads)", reads)
	}
	d3, _ := c.Load(other, parse)
	if d3 == d1 || d3.text != "two" || reads != 2 {
		t.Errorf("a module with other files got the first one's data: %+v (%d reads)", d3, reads)
	}
}

func TestLoadDoesNotCacheErrors(t *testing.T) {
	var c Cache[*data]
	fail := true
	parse := func(m adjudicator.Module) (*data, error) {
		if fail {
			return nil, errors.New("bad")
		}
		return &data{digest: m.Digest()}, nil
	}
	m := adjudicator.Module{Name: "a", Files: map[string][]byte{"a.yaml": []byte("x")}}
	if d, err := c.Load(m, parse); err == nil || d != nil {
		t.Fatalf("want the error, got %+v, %v", d, err)
	}
	fail = false
	if d, err := c.Load(m, parse); err != nil || d == nil {
		t.Fatalf("after an error the module is read again: got %+v, %v", d, err)
	}
}

func TestLoadConcurrent(t *testing.T) {
	var c Cache[*data]
	m := adjudicator.Module{Name: "a", Files: map[string][]byte{"a.yaml": []byte("x")}}
	parse := func(m adjudicator.Module) (*data, error) { return &data{digest: m.Digest()}, nil }
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if d, err := c.Load(m, parse); err != nil || d.digest != m.Digest() {
				t.Errorf("concurrent load: %+v, %v", d, err)
			}
		})
	}
	wg.Wait()
}
