package render

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"math"
	"strconv"
)

// SVG renders the picture as an SVG document, from the same display list as
// PNG. Text names the Go fonts first; a viewer without them falls back to a
// common sans-serif, so text may be a little wider or narrower than in the
// PNG.
func (p *Picture) SVG() []byte {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="Go, 'Go Regular', 'DejaVu Sans', Arial, Helvetica, sans-serif">`+"\n",
		p.Width, p.Height, p.Width, p.Height)
	b.WriteString("<title>")
	xml.EscapeText(&b, []byte(p.Title))
	b.WriteString("</title>\n")
	for i := range p.ops {
		svgOp(&b, &p.ops[i])
	}
	b.WriteString("</svg>\n")
	return b.Bytes()
}

func svgOp(b *bytes.Buffer, o *op) {
	switch o.kind {
	case opFill:
		b.WriteString(`<path d="`)
		pathData(b, o.paths, true)
		b.WriteString(`"`)
		paint(b, "fill", o.fill)
		b.WriteString("/>\n")
	case opStroke:
		b.WriteString(`<path d="`)
		pathData(b, o.paths, o.closed)
		b.WriteString(`" fill="none"`)
		paint(b, "stroke", o.stroke)
		fmt.Fprintf(b, ` stroke-width="%s" stroke-linejoin="round"`, num(o.width))
		if o.round || o.closed && o.dash == nil {
			b.WriteString(` stroke-linecap="round"`)
		}
		if len(o.dash) > 0 {
			b.WriteString(` stroke-dasharray="`)
			for i, d := range o.dash {
				if i > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(num(d))
			}
			b.WriteString(`"`)
		}
		b.WriteString("/>\n")
	case opCircle:
		fmt.Fprintf(b, `<circle cx="%s" cy="%s" r="%s"`, num(o.c.X), num(o.c.Y), num(o.r))
		if o.fill.A > 0 {
			paint(b, "fill", o.fill)
		} else {
			b.WriteString(` fill="none"`)
		}
		if o.stroke.A > 0 && o.width > 0 {
			paint(b, "stroke", o.stroke)
			fmt.Fprintf(b, ` stroke-width="%s"`, num(o.width))
		}
		b.WriteString("/>\n")
	case opText:
		fmt.Fprintf(b, `<text x="%s" y="%s" font-size="%s"`, num(o.at.X), num(o.at.Y), num(o.size))
		if o.bold {
			b.WriteString(` font-weight="bold"`)
		}
		switch o.anc {
		case middle:
			b.WriteString(` text-anchor="middle"`)
		case end:
			b.WriteString(` text-anchor="end"`)
		}
		paint(b, "fill", o.fill)
		b.WriteString(">")
		xml.EscapeText(b, []byte(o.text))
		b.WriteString("</text>\n")
	}
}

func pathData(b *bytes.Buffer, paths [][]pt, closed bool) {
	for i, p := range paths {
		if i > 0 {
			b.WriteByte(' ')
		}
		for j, q := range p {
			if j == 0 {
				b.WriteByte('M')
			} else {
				b.WriteByte('L')
			}
			b.WriteString(num(q.X))
			b.WriteByte(' ')
			b.WriteString(num(q.Y))
		}
		if closed {
			b.WriteByte('Z')
		}
	}
}

func paint(b *bytes.Buffer, attr string, c Colour) {
	fmt.Fprintf(b, ` %s="#%02x%02x%02x"`, attr, c.R, c.G, c.B)
	if c.A < 255 {
		fmt.Fprintf(b, ` %s-opacity="%s"`, attr, num(float64(c.A)/255))
	}
}

// num writes a coordinate with at most two decimals.
func num(v float64) string {
	v = math.Round(v*100) / 100
	if v == 0 {
		return "0"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}
