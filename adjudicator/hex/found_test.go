package hex

import (
	"os"
	"path/filepath"
	"testing"

	"gopkg.in/yaml.v3"
)

// foundDir is the public fan data of the continent map, read in place
// (never copied into the repository).
const foundDir = "../../../shared/data/found/dragons_of_glory"

func readFound(t *testing.T, name string, into any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(foundDir, name))
	if os.IsNotExist(err) {
		t.Skipf("%s is absent: the layout-parity check needs the public fan data in ../shared/data/found (read in place)", filepath.Join(foundDir, name))
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(b, into); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// TestFoundDataParity works out from the fan data of the 65×53 continent
// map which pointy-topped layout its [col, row] coordinates use. Two
// independent signs agree on pointy-odd (odd rows shifted right):
//
//   - every nation's territory is one connected piece under pointy-odd;
//     under pointy-even several fall apart;
//   - the river, deep-river and mountain hexsides, given as [col, row,
//     DIR], join into far fewer continuous lines under pointy-odd (hexsides
//     of a run share corners) than under pointy-even.
func TestFoundDataParity(t *testing.T) {
	var cfg struct {
		Master struct {
			Width, Height int
			Hexsides      map[string][][3]any `yaml:"hexsides"`
		} `yaml:"master_map"`
	}
	readFound(t, "map_config.yaml", &cfg)
	var countries map[string]struct {
		Territories [][2]int `yaml:"territories"`
	}
	readFound(t, "countries.yaml", &countries)
	if cfg.Master.Width != 65 || cfg.Master.Height != 53 {
		t.Fatalf("map is %dx%d", cfg.Master.Width, cfg.Master.Height)
	}

	connected := func(l Layout) (ok, total int) {
		for _, c := range countries {
			set := map[Hex]bool{}
			for _, xy := range c.Territories {
				set[Hex{xy[0], xy[1]}] = true
			}
			if len(set) == 0 {
				continue
			}
			total++
			var start Hex
			for h := range set {
				start = h
				break
			}
			seen := map[Hex]bool{start: true}
			stack := []Hex{start}
			for len(stack) > 0 {
				h := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				for _, n := range l.Neighbours(h) {
					if set[n] && !seen[n] {
						seen[n] = true
						stack = append(stack, n)
					}
				}
			}
			if len(seen) == len(set) {
				ok++
			}
		}
		return ok, total
	}
	// runs counts the continuous lines the hexsides of one kind make.
	runs := func(l Layout, kind string) int {
		list := cfg.Master.Hexsides[kind]
		if len(list) == 0 {
			t.Fatalf("no %s hexsides in map_config.yaml", kind)
		}
		parent := make([]int, len(list))
		var find func(int) int
		find = func(i int) int {
			if parent[i] != i {
				parent[i] = find(parent[i])
			}
			return parent[i]
		}
		owner := map[Point]int{}
		for i, e := range list {
			parent[i] = i
			c, ok1 := e[0].(int)
			row, ok2 := e[1].(int)
			dn, ok3 := e[2].(string)
			if !ok1 || !ok2 || !ok3 {
				t.Fatalf("%s hexside %v is not [col, row, DIR]", kind, e)
			}
			d, err := l.ParseDirection(dn)
			if err != nil {
				t.Fatal(err)
			}
			p, q := l.Corners(Hex{c, row}, d)
			for _, x := range []Point{p, q} {
				if j, ok := owner[x]; ok {
					parent[find(i)] = find(j)
				} else {
					owner[x] = i
				}
			}
		}
		n := 0
		for i := range list {
			if find(i) == i {
				n++
			}
		}
		return n
	}

	okOdd, total := connected(PointyOdd)
	okEven, _ := connected(PointyEven)
	t.Logf("nations in one piece: pointy-odd %d/%d, pointy-even %d/%d", okOdd, total, okEven, total)
	if okOdd != total || okEven >= okOdd {
		t.Errorf("territories: pointy-odd %d/%d connected, pointy-even %d/%d: the data does not fit pointy-odd", okOdd, total, okEven, total)
	}
	for _, kind := range []string{"river", "deep_river", "mountain"} {
		odd, even := runs(PointyOdd, kind), runs(PointyEven, kind)
		t.Logf("%s hexsides (%d): %d lines under pointy-odd, %d under pointy-even", kind, len(cfg.Master.Hexsides[kind]), odd, even)
		if 2*odd > even {
			t.Errorf("%s: %d lines under pointy-odd, %d under pointy-even: the runs do not favour pointy-odd", kind, odd, even)
		}
	}
}
