package main

import (
	"fmt"
	"io"

	"github.com/boardsat/boardsat/answer"
)

// checkedWriter passes writes on to w and keeps the first error. run gives
// every command its stdout through one, so that output that could not be
// written (a full disk, /dev/full) fails the command the same way with
// every --format, even where printing code does not look at each write's
// error: status 2, as for every error writing a file, and one line on
// stderr (outputFailed). After the first error it writes nothing more.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	c.err = err
	return n, err
}

// outputFailed reports a failed write to stdout in one line on stderr and
// returns its exit status. It takes the place of whatever the command
// returned: the answer it printed, whatever it was, did not arrive.
func outputFailed(stderr io.Writer, name string, err error) int {
	fmt.Fprintf(stderr, "boardsat %s: cannot write the output to stdout: %s\n", name, oneLine(err.Error()))
	return answer.ExitBadInput
}
