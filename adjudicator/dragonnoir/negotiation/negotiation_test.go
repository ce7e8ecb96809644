package negotiation

import "testing"

func TestResolve(t *testing.T) {
	cases := []struct {
		m          Marker
		infl, othA bool
		want       Outcome
	}{
		{Alliance, false, false, JoinsDrawer},
		{Alliance, false, true, JoinsDrawer},
		{AllianceNeutral, true, false, JoinsDrawer},
		{AllianceNeutral, false, false, StaysNeutral},
		{AllianceNeutral, true, true, StaysNeutral}, // AMB-87
		{Neutral, true, false, StaysNeutral},
		{EnemyNeutral, true, false, StaysNeutral},
		{EnemyNeutral, false, false, JoinsOther},
		{Enemy, true, false, JoinsOther},
	}
	for _, c := range cases {
		if got := Resolve(c.m, c.infl, c.othA); got != c.want {
			t.Errorf("Resolve(%s, %v, %v) = %s, want %s", c.m, c.infl, c.othA, got, c.want)
		}
	}
}

func TestCombine(t *testing.T) {
	cases := []struct {
		a, b   Marker
		ia, ib bool
		want   Side
	}{
		{Alliance, Alliance, false, false, None},        // different sides
		{Alliance, Neutral, false, false, A},            // a side and Neutral
		{Alliance, AllianceNeutral, false, true, A},     // AMB-87: B's influence overridden
		{Enemy, Neutral, false, false, B},               // A's Enemy: joins B
		{Enemy, Alliance, false, false, B},              // both name B
		{Neutral, EnemyNeutral, false, true, None},      // both Neutral
		{AllianceNeutral, EnemyNeutral, true, false, A}, // both name A
	}
	for _, c := range cases {
		if got := Combine(c.a, c.b, c.ia, c.ib); got != c.want {
			t.Errorf("Combine(%s, %s, %v, %v) = %d, want %d", c.a, c.b, c.ia, c.ib, got, c.want)
		}
	}
}

func TestAfterFlight(t *testing.T) {
	// AMB-58: B fled; A's Alliance/Neutre with influence is Alliance (B's Alliance discarded).
	if got := AfterFlight(AllianceNeutral, Alliance, true, false, false, true); got != A {
		t.Errorf("B fled: %d, want A", got)
	}
	if got := AfterFlight(Enemy, Alliance, false, false, true, false); got != B {
		t.Errorf("A fled: %d, want B", got)
	}
	if got := AfterFlight(Alliance, Alliance, false, false, true, true); got != None {
		t.Errorf("both fled: %d, want None", got)
	}
}

func TestPool(t *testing.T) {
	p := NewPool(map[Marker]int{Alliance: 2, Neutral: 1, Enemy: 2})
	if p.Len() != 5 {
		t.Fatalf("len %d", p.Len())
	}
	m, err := p.Draw(3)
	if err != nil || m != Neutral || p.Len() != 4 {
		t.Fatalf("draw 3: %s %v %d", m, err, p.Len())
	}
	if m, _ := p.Draw(3); m != Enemy {
		t.Errorf("no replacement: %s", m)
	}
	if _, err := p.Draw(4); err == nil {
		t.Error("draw beyond the cup accepted")
	}
	q := NewPool(map[Marker]int{Alliance: 2, Neutral: 1}).Without(Alliance, Neutral)
	if q.Len() != 1 || q.Left[0] != Alliance {
		t.Errorf("without: %v", q.Left)
	}
}
