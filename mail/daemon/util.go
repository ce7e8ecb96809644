package daemon

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"strings"

	"github.com/umpire-pbem/umpire/store"
)

func sameAddr(a, b string) bool { return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b)) }

func isDuplicate(err error) bool { return errors.Is(err, store.ErrDuplicate) }

func randomPassword() string {
	b := make([]byte, 18)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}
