package dragonnoir

import (
	"fmt"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

func TestZZGeo(t *testing.T) {
	d, _ := builtinData()
	mp := d.maps["fosse"]
	for _, kk := range []string{"guard", "queen"} {
		k := d.Kinds[kk]
		for _, a := range []string{"0703", "0602"} {
			h, _, _ := hex.ParseLoc(a)
			fp, _ := footprintOf(mp, k, h.Hex, "SW")
			fmt.Println(kk, fp, fp.Hexes())
			for _, c := range fp.Around() {
				fmt.Println("  ", c.Hex, c.Aspect, len(c.Edges))
			}
		}
	}
}
