package scripttest

import (
	"regexp"
	"strings"
)

// DocBlock is one fenced yaml block of a document (an orders doc whose
// examples a test parses).
type DocBlock struct {
	Line   int    // of its first line in the document
	Marker string // its first line, a comment, without the "#": what the block is; "" when unmarked
	Src    string
}

var fenceRe = regexp.MustCompile("(?ms)^```yaml\n(.*?)^```")

// YAMLBlocks returns the fenced yaml blocks of doc. A block whose first
// line is a comment beginning with one of prefixes ("# orders:", or "#"
// for any comment) has it as its Marker.
func YAMLBlocks(doc string, prefixes ...string) []DocBlock {
	var out []DocBlock
	for _, m := range fenceRe.FindAllStringSubmatchIndex(doc, -1) {
		src := doc[m[2]:m[3]]
		first, _, _ := strings.Cut(src, "\n")
		b := DocBlock{Line: strings.Count(doc[:m[2]], "\n") + 1, Src: src}
		for _, p := range prefixes {
			if strings.HasPrefix(first, p) {
				b.Marker = strings.TrimSpace(strings.TrimPrefix(first, "#"))
				break
			}
		}
		out = append(out, b)
	}
	return out
}
