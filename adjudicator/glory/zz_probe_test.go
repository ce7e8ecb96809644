package glory

import (
	"fmt"
	"testing"
)

func TestProbe(t *testing.T) {
	m, _ := ruleset{}.BuiltinModule("demo")
	d, _ := LoadModule(m)
	g := d.Geo
	path := func(a, b string) []string {
		prev := map[string]string{a: ""}
		front := []string{a}
		for len(front) > 0 {
			var next []string
			for _, x := range front {
				for _, n := range g.fleetNear(x) {
					if _, ok := prev[n]; !ok {
						prev[n] = x
						next = append(next, n)
					}
				}
			}
			front = next
		}
		var out []string
		for x := b; x != a && x != ""; x = prev[x] {
			out = append([]string{x}, out...)
		}
		return out
	}
	fmt.Println(path("1913", "2306"))
	fmt.Println(path("1913", "1714"))
	fmt.Println(path("0814", "0614"))
	for _, h := range []string{"0714", "0713", "0813", "0814", "2407", "2408", "2307","1813","1812", "2305", "2304"} {
		fmt.Println(h, g.Terrain(h), g.Coastal(h), g.Port(h), g.fleetNear(h), g.Nation(h))
	}
}
