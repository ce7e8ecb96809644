package extract

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/quotedprintable"
	"path"
	"strings"

	"github.com/emersion/go-message/textproto"
)

const (
	maxDepth = 16  // nested multiparts
	maxParts = 256 // parts in the whole mail
)

// textPart is a decoded leaf that may hold orders.
type textPart struct {
	name    string // attachment file name; "" for the body
	data    []byte // after transfer decoding, before charset conversion
	charset string // lower-cased charset parameter; "" when not declared
	flowed  bool   // format=flowed
	delsp   bool   // delsp=yes
}

// walker collects the candidates for orders while walking the MIME tree.
type walker struct {
	lim       Limits
	parts     int
	body      *textPart   // first inline text/plain part with content
	yaml      []*textPart // .yaml/.yml attachments
	yamlNames []string
	html      bool // saw a text/html part with content
	notes     []string
}

func (w *walker) walk(h textproto.Header, body io.Reader, depth int) error {
	w.parts++
	if w.parts > maxParts {
		return errMalformed(fmt.Sprintf("it has more than %d MIME parts", maxParts), nil)
	}
	if depth > maxDepth {
		return errMalformed("its MIME parts are nested too deeply", nil)
	}

	mediaType, params := contentType(h)
	if strings.HasPrefix(mediaType, "multipart/") {
		return w.walkMultipart(params["boundary"], body, depth)
	}

	disp, dparams, _ := mime.ParseMediaType(h.Get("Content-Disposition"))
	name := dparams["filename"]
	if name == "" {
		name = params["name"]
	}
	name = baseName(decodeWords(name))
	isYAML := isYAMLName(name)
	name = safe(name) // from here on, the name is for messages

	if isYAML {
		data, err := w.decode(h, body, "the attachment "+name)
		if err != nil {
			return err
		}
		p := &textPart{name: name, data: data}
		if strings.HasPrefix(mediaType, "text/") {
			p.charset = strings.ToLower(strings.TrimSpace(params["charset"]))
		}
		w.yaml = append(w.yaml, p)
		w.yamlNames = append(w.yamlNames, name)
		return nil
	}

	switch {
	case disp == "attachment":
		if name == "" {
			name = mediaType
		}
		w.notes = append(w.notes, fmt.Sprintf("ignored the attachment %s (only a .yaml or .yml attachment is read)", name))
	case mediaType == "text/plain":
		if w.body != nil {
			return nil // a later text part, e.g. a footer after an attachment
		}
		data, err := w.decode(h, body, "the text of your mail")
		if err != nil {
			return err
		}
		if len(bytes.TrimSpace(data)) == 0 {
			return nil
		}
		w.body = &textPart{
			data:    data,
			charset: strings.ToLower(strings.TrimSpace(params["charset"])),
			flowed:  strings.EqualFold(params["format"], "flowed"),
			delsp:   strings.EqualFold(params["delsp"], "yes"),
		}
	case mediaType == "text/html":
		// Enough to tell an empty part from one with content.
		head, _ := io.ReadAll(io.LimitReader(body, 4096))
		if len(bytes.TrimSpace(head)) > 0 {
			w.html = true
		}
	}
	// Anything else (images, message/rfc822, calendars, ...) is not orders.
	return nil
}

func (w *walker) walkMultipart(boundary string, body io.Reader, depth int) error {
	if boundary == "" {
		return errMalformed("a multipart section has no boundary", nil)
	}
	// Parts are streamed: a part nobody reads (a picture, say) is skipped by
	// NextPart without being copied.
	mr := textproto.NewMultipartReader(body, boundary)
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return errMalformed("a multipart section is damaged or cut short", err)
		}
		if err := w.walk(p.Header, p, depth+1); err != nil {
			return err
		}
	}
}

// contentType returns the media type (lower case) and parameters, applying
// RFC 2045's default of text/plain when the field is absent or unreadable.
func contentType(h textproto.Header) (string, map[string]string) {
	v := h.Get("Content-Type")
	if strings.TrimSpace(v) == "" {
		return "text/plain", map[string]string{}
	}
	t, params, err := mime.ParseMediaType(v)
	if t == "" || (err != nil && !errors.Is(err, mime.ErrInvalidMediaParameter)) {
		return "text/plain", map[string]string{}
	}
	if params == nil {
		params = map[string]string{}
	}
	return t, params
}

// baseName drops a path some clients put in a file name.
func baseName(name string) string {
	name = strings.TrimSpace(name)
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	return name
}

func isYAMLName(name string) bool {
	ext := strings.ToLower(path.Ext(name))
	return ext == ".yaml" || ext == ".yml"
}

// decode undoes the Content-Transfer-Encoding, refusing more than
// lim.MaxBytes of decoded data.
func (w *walker) decode(h textproto.Header, body io.Reader, what string) ([]byte, error) {
	max := w.lim.MaxBytes
	cte := strings.ToLower(strings.TrimSpace(h.Get("Content-Transfer-Encoding")))
	var r io.Reader
	switch cte {
	case "", "7bit", "8bit", "binary":
		r = body
	case "quoted-printable":
		r = quotedprintable.NewReader(body)
	case "base64":
		// Line breaks, spaces and padding are dropped so that sloppy
		// encoders (missing or extra padding) still decode.
		r = base64.NewDecoder(base64.RawStdEncoding, &dropReader{r: body, drop: "\r\n\t =", buf: make([]byte, 4096)})
	default:
		return nil, errMalformed(fmt.Sprintf("%s uses the unknown transfer encoding %q", what, safe(cte)), nil)
	}
	data, err := io.ReadAll(io.LimitReader(r, max+1))
	if int64(len(data)) > max {
		return nil, errTooLarge(upper(what), max)
	}
	if err != nil {
		if r == body {
			return nil, errMalformed("a multipart section is damaged or cut short", err)
		}
		return nil, errMalformed(fmt.Sprintf("%s is damaged (bad %s, or cut short)", what, cte), err)
	}
	return data, nil
}

// dropReader reads r without the bytes in drop.
type dropReader struct {
	r    io.Reader
	drop string
	buf  []byte
}

func (d *dropReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	for {
		n, err := d.r.Read(d.buf[:min(len(p), len(d.buf))])
		k := 0
		for _, c := range d.buf[:n] {
			if strings.IndexByte(d.drop, c) < 0 {
				p[k] = c
				k++
			}
		}
		if k > 0 || err != nil {
			return k, err
		}
	}
}

func upper(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
