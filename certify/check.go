package certify

import (
	"bufio"
	"context"
	"os"
	"strconv"
	"strings"

	"github.com/boardsat/boardsat/encode"
	"github.com/boardsat/boardsat/encode/cnf"
)

// INTERIM: until package proof lands, the check is the project's forward
// RUP check of encode (swapCheckRUP), deletions ignored.

const checkerName = "boardsat forward RUP (interim)"

type verdict struct {
	Verified                        bool
	Reason                          string
	Lemma, Lemmas, Deletions, Bytes int64
	Checker                         string
}

func check(ctx context.Context, f *cnf.Formula, proofPath string) verdict {
	fh, err := os.Open(proofPath)
	if err != nil {
		return verdict{Reason: err.Error()}
	}
	defer fh.Close()
	st, _ := fh.Stat()
	v := verdict{Bytes: st.Size(), Checker: checkerName}
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	var lemmas [][]int
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "d") {
			v.Deletions++
			continue
		}
		var l []int
		for _, t := range strings.Fields(line) {
			x, err := strconv.Atoi(t)
			if err != nil {
				v.Reason = "bad line " + line
				return v
			}
			if x != 0 {
				l = append(l, x)
			}
		}
		lemmas = append(lemmas, l)
	}
	v.Lemmas = int64(len(lemmas))
	if err := encode.CheckRUP(f, lemmas); err != nil {
		v.Reason = err.Error()
		return v
	}
	v.Verified = true
	return v
}
