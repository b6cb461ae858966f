package report

import "strings"

// The room a LaTeX table has in a two-column paper, in points. A standard
// two-column article's (a 229.5 pt column, a 469 pt text width, 550 pt of
// text height) is less than IEEE's and ACM's (252 and 505 pt wide), so a
// table that fits the article fits those.
const (
	ColumnWidthPt = 229
	TextWidthPt   = 469
	TextHeightPt  = 550
)

// tableRows is the most body rows a LaTeX table float holds: 30 lines of
// \small type (11 pt a line), with room left for a rotated header, the
// caption and the footnote under the text height.
const tableRows = 30

// smallTextPt estimates the width of s in \small (9 pt) Computer Modern,
// bold included (bold digits are the widest, 5.2 pt), a little over the
// true width so that an estimate that fits does fit.
func smallTextPt(s string) float64 {
	w := 0.0
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			w += 5.2
		case r == 'm' || r == 'w' || r == 'M' || r == 'W':
			w += 8
		case r >= 'A' && r <= 'Z':
			w += 7.2
		case r >= 'a' && r <= 'z':
			w += 5
		case r == ' ':
			w += 3.2
		default:
			w += 4
		}
	}
	return w
}

// tabularPt is the width of a tabular with @{} at both ends and a column
// separation of sepPt on either side of a column, its columns colsPt wide.
func tabularPt(colsPt []float64, sepPt float64) float64 {
	w := 0.0
	for i, c := range colsPt {
		w += c
		if i > 0 {
			w += 2 * sepPt
		}
	}
	return w
}

// floatEnv picks the float a table widthPt wide goes in: table when it
// fits a column, table* when it fits the text width, "" when it fits
// neither (the caller splits it).
func floatEnv(widthPt float64) string {
	switch {
	case widthPt <= ColumnWidthPt:
		return "table"
	case widthPt <= TextWidthPt:
		return "table*"
	}
	return ""
}

// floatFlush is the LaTeX a file of many floats puts after every
// floatsQueued of them: LaTeX holds 18 floats waiting for a page at most,
// and a file of table floats alone gives it no text to break pages at.
const (
	floatsQueued = 12
	floatFlush   = "\\clearpage\n"
)

// latexLabelOf is the label tab:boardsat-PARTS..., each part kept to the
// letters and digits (latexLabel), joined by "-".
func latexLabelOf(parts ...string) string {
	out := make([]string, len(parts))
	for i, p := range parts {
		out[i] = latexLabel(p)
	}
	return "tab:boardsat-" + strings.Join(out, "-")
}
