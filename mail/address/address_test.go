package address

import (
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	for _, s := range []string{"a@b", "alice@example.org", "Alice@Example.ORG", "élise@exemple.fr", "red+umpire@mail.example.org", "a@[192.0.2.1]"} {
		if err := Check(s); err != nil {
			t.Errorf("Check(%q): %v", s, err)
		}
	}
	for s, why := range map[string]string{
		"":                                  "it is empty",
		"x":                                 "write it as name@domain",
		"@example.org":                      "write it as name@domain",
		"a@":                                "write it as name@domain",
		"a b@x":                             "write it as name@domain",
		"a@b, c@d":                          "it holds 2 addresses; give one",
		"a@b,c@d":                           "it holds 2 addresses; give one",
		"a,b@x":                             "a comma does not belong",
		`"Bob" <bob@x>`:                     `give the bare address, "bob@x", without a display name`,
		"Bob <bob@x>":                       `give the bare address, "bob@x"`,
		"<bob@x>":                           `give the bare address, "bob@x"`,
		"bob@x (Bob)":                       `give the bare address, "bob@x"`,
		`"a,b"@x`:                           "give the bare address",
		"a@b\r\nBcc: victim@x":              "control character",
		"a@b\n":                             "control character",
		"a@b\x00":                           "control character",
		" a@b":                              "spaces around it",
		strings.Repeat("a", 250) + "@b.org": "longer than 254",
	} {
		err := Check(s)
		if err == nil || !strings.Contains(err.Error(), why) || !strings.Contains(err.Error(), "is not one mail address: ") {
			t.Errorf("Check(%q) = %v, want an error saying %q", s, err, why)
		}
	}
}

func FuzzCheck(f *testing.F) {
	for _, s := range []string{"a@b", `"Bob" <bob@x>`, "a@b, c@d", "a@b\r\nX: y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if Check(s) != nil {
			return
		}
		// What passes is safe in a header: one line, one address, no
		// brackets or list separators outside the domain literal.
		if strings.ContainsAny(s, "\r\n,<>\"") || strings.Count(s, "@") != 1 || strings.TrimSpace(s) != s {
			t.Errorf("Check accepted %q", s)
		}
	})
}
