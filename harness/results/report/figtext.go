package report

import (
	"fmt"

	"golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
	pfont "gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
)

// outlineText is a canvas that draws text as the font's glyph outlines
// (filled paths) instead of text in a font: every string when all is set
// (SVG, which then renders the same without the reader's fonts), else only
// strings with a character beyond ASCII, such as "≤" or "×" (see isASCII);
// the others stay text in the PDF's embedded font. A character the font has no glyph
// for is recorded in err: SaveFigure refuses to write the figure.
type outlineText struct {
	vg.CanvasWriterTo
	all bool
	err error
}

// FillString draws s at the baseline point pt, as outlines or as text.
func (c *outlineText) FillString(f pfont.Face, pt vg.Point, s string) {
	if err := checkGlyphs(f, s); err != nil && c.err == nil {
		c.err = err
	}
	if !c.all && isASCII(s) {
		c.CanvasWriterTo.FillString(f, pt, s)
		return
	}
	if f.Font.Size == 0 {
		return
	}
	var buf sfnt.Buffer
	ppem := fixed.Int26_6(f.Face.UnitsPerEm())
	scale := float64(f.Font.Size.Points()) / float64(ppem)
	x := 0
	var prev sfnt.GlyphIndex
	for i, r := range s {
		idx, err := f.Face.GlyphIndex(&buf, r)
		if err != nil {
			continue
		}
		if i > 0 {
			if k, err := f.Face.Kern(&buf, prev, idx, ppem, font.HintingNone); err == nil {
				x += int(k)
			}
		}
		segs, err := f.Face.LoadGlyph(&buf, idx, ppem, nil)
		if err == nil && len(segs) > 0 {
			var p vg.Path
			at := func(q fixed.Point26_6) vg.Point {
				// sfnt's y grows downwards, vg's upwards.
				return vg.Point{X: pt.X + vg.Length(float64(x+int(q.X))*scale), Y: pt.Y - vg.Length(float64(q.Y)*scale)}
			}
			for _, sg := range segs {
				switch sg.Op {
				case sfnt.SegmentOpMoveTo:
					if len(p) > 0 {
						p.Close()
					}
					p.Move(at(sg.Args[0]))
				case sfnt.SegmentOpLineTo:
					p.Line(at(sg.Args[0]))
				case sfnt.SegmentOpQuadTo:
					p.QuadTo(at(sg.Args[0]), at(sg.Args[1]))
				case sfnt.SegmentOpCubeTo:
					p.CubeTo(at(sg.Args[0]), at(sg.Args[1]), at(sg.Args[2]))
				}
			}
			p.Close()
			c.Fill(p)
		}
		adv, err := f.Face.GlyphAdvance(&buf, idx, ppem, font.HintingNone)
		if err == nil {
			x += int(adv)
		}
		prev = idx
	}
}

// checkGlyphs reports the first character of s the font has no glyph for.
func checkGlyphs(f pfont.Face, s string) error {
	var buf sfnt.Buffer
	for _, r := range s {
		idx, err := f.Face.GlyphIndex(&buf, r)
		if err != nil || (idx == 0 && r != 0) {
			return fmt.Errorf("the font %s has no glyph for %q (U+%04X) in %q", f.Name(), r, r, s)
		}
	}
	return nil
}

// isASCII reports whether every character of s is ASCII. gonum's PDF
// canvas declares its embedded fonts WinAnsi-encoded but writes strings as
// UTF-8 bytes, so only ASCII text comes out as written.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
