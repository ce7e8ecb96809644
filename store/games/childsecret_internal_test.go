package games

import (
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// secretsDiffer names the first difference between the sealed parts a
// series sent and those its child read, without their values.
func TestSecretsDiffer(t *testing.T) {
	a := adjudicator.ChildSecret{Child: "b1", Side: "hider", Name: "treasure", Value: "H"}
	b := a
	b.Value = "C"
	c := a
	c.Name = "depth"
	for _, tc := range []struct {
		sent, got []adjudicator.ChildSecret
		want      string
	}{
		{[]adjudicator.ChildSecret{a}, []adjudicator.ChildSecret{a}, ""},
		{nil, nil, ""},
		{[]adjudicator.ChildSecret{a}, nil, "the series sealed 1, the game read 0"},
		{[]adjudicator.ChildSecret{a}, []adjudicator.ChildSecret{b}, "part 1 (treasure for hider) does not say the same in both"},
		{[]adjudicator.ChildSecret{a}, []adjudicator.ChildSecret{c}, "part 1 is treasure for hider in the series, depth for hider in the game"},
	} {
		got := secretsDiffer(tc.sent, tc.got)
		if got != tc.want {
			t.Errorf("secretsDiffer(%v, %v) = %q, want %q", tc.sent, tc.got, got, tc.want)
		}
		if strings.Contains(got, "\"H\"") || strings.Contains(got, " C ") {
			t.Errorf("%q tells a value", got)
		}
	}
}
