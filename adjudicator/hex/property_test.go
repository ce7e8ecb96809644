package hex

import "testing"

func clampHex(c, r int) Hex { return Hex{((c%60)+60)%60 + 1, ((r%60)+60)%60 + 1} }

func FuzzNeighbour(f *testing.F) {
	f.Add(6, 6, 2)
	f.Add(1, 9, 5)
	f.Fuzz(func(t *testing.T, c, r, d int) {
		h := clampHex(c, r)
		dir := Direction(d).Rotate(0)
		n := h.Neighbour(dir)
		if n.Neighbour(dir.Opposite()) != h {
			t.Fatalf("%s %s and back", h, dir)
		}
		if Distance(h, n) != 1 {
			t.Fatalf("neighbour distance")
		}
		if got, ok := h.DirectionTo(n); !ok || got != dir {
			t.Fatalf("DirectionTo")
		}
		// Neighbours of a neighbour are at distance 0, 1 or 2.
		for _, m := range n.Neighbours() {
			if d := Distance(h, m); d > 2 {
				t.Fatalf("distance %d", d)
			}
		}
	})
}

func FuzzDistanceTriangle(f *testing.F) {
	f.Add(1, 1, 20, 15, 7, 3)
	f.Fuzz(func(t *testing.T, a1, a2, b1, b2, c1, c2 int) {
		a, b, c := clampHex(a1, a2), clampHex(b1, b2), clampHex(c1, c2)
		if Distance(a, c) > Distance(a, b)+Distance(b, c) {
			t.Fatalf("triangle %s %s %s", a, b, c)
		}
		if Distance(a, b) != Distance(b, a) {
			t.Fatal("symmetry")
		}
	})
}

// Distance equals the number of steps a breadth-first search needs.
func TestDistanceIsBFS(t *testing.T) {
	for _, start := range []Hex{{10, 10}, {11, 10}} {
		dist := map[Hex]int{start: 0}
		queue := []Hex{start}
		for len(queue) > 0 {
			h := queue[0]
			queue = queue[1:]
			if dist[h] == 6 {
				continue
			}
			for _, n := range h.Neighbours() {
				if _, ok := dist[n]; !ok {
					dist[n] = dist[h] + 1
					queue = append(queue, n)
				}
			}
		}
		for h, d := range dist {
			if Distance(start, h) != d {
				t.Fatalf("%s→%s: BFS %d, Distance %d", start, h, d, Distance(start, h))
			}
		}
		if len(dist) != 127 { // 1 + 3·6·7 hexes within 6
			t.Errorf("BFS reached %d hexes", len(dist))
		}
	}
}
