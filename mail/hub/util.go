package hub

import (
	"cmp"
	"net/mail"
	"slices"
	"time"
)

func sortedKeys[K cmp.Ordered, V any](m map[K]V) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func parseDate(s string) (time.Time, error) { return mail.ParseDate(s) }
