package hub

import (
	"net/mail"
	"time"
)

func parseDate(s string) (time.Time, error) { return mail.ParseDate(s) }
