package report

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image/png"
	"io"
	"math"

	"gonum.org/v1/plot/vg/vgimg"
)

// pngCanvas writes a PNG that records its resolution (a pHYs chunk, in
// dots per metre), which gonum's PNG writer leaves out: without it LaTeX
// and viewers take 72 or 96 dpi and print a 300 dpi figure three or four
// times its size.
type pngCanvas struct{ *vgimg.Canvas }

// WriteTo writes the image as PNG with its resolution.
func (c pngCanvas) WriteTo(w io.Writer) (int64, error) {
	var buf bytes.Buffer
	if err := png.Encode(&buf, c.Image()); err != nil {
		return 0, err
	}
	out, err := withDPI(buf.Bytes(), c.DPI())
	if err != nil {
		return 0, err
	}
	n, err := w.Write(out)
	return int64(n), err
}

// withDPI returns the PNG data with a pHYs chunk of dpi dots an inch after
// its header chunk (IHDR, always first: 8 bytes of signature, then the
// chunk's length, type, 13 bytes of data and CRC).
func withDPI(data []byte, dpi float64) ([]byte, error) {
	const ihdrEnd = 8 + 4 + 4 + 13 + 4
	if len(data) < ihdrEnd || string(data[12:16]) != "IHDR" {
		return nil, errors.New("PNG encoder wrote no header chunk first")
	}
	ppm := uint32(math.Round(dpi / 0.0254))
	chunk := make([]byte, 0, 21)
	chunk = binary.BigEndian.AppendUint32(chunk, 9)
	chunk = append(chunk, "pHYs"...)
	chunk = binary.BigEndian.AppendUint32(chunk, ppm)
	chunk = binary.BigEndian.AppendUint32(chunk, ppm)
	chunk = append(chunk, 1) // unit: the metre
	chunk = binary.BigEndian.AppendUint32(chunk, crc32.ChecksumIEEE(chunk[4:]))
	out := append([]byte{}, data[:ihdrEnd]...)
	out = append(out, chunk...)
	return append(out, data[ihdrEnd:]...), nil
}
