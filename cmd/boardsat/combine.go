package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/big"
	"slices"
	"sort"
	"strings"

	"github.com/boardsat/boardsat/answer"
	"github.com/boardsat/boardsat/internal/inputfile"
	"github.com/boardsat/boardsat/puzzle"
)

func init() {
	commands["combine"] = command{"add the partial counts of solve --shard answers into one count", runCombine}
	helps["combine"] = help{
		usage: []string{"combine [--format text|json] SHARD.json..."},
		about: `Adds the partial counts of the JSON answers of "boardsat solve SPEC --shard K/N"
(one per shard, all N of one instance, strategy and partition) into one count.`,
		examples: []string{
			"combine shard-1.json shard-2.json shard-3.json",
			"combine --format json run/shard-*.json",
		},
	}
}

// combined is the answer combine prints: one count made of N shards.
type combined struct {
	shardCount
	Status       string   `json:"status"`
	Count        *big.Int `json:"count"`
	Shards       int      `json:"shards"`
	Subproblems  int      `json:"subproblems"`
	Seconds      float64  `json:"seconds"`
	ShardSeconds []string `json:"shard_seconds"`
	// Certified is set when the shards are certified (solve --certify
	// --cubes): true when every shard is; Certificate sums their proofs.
	Certified   *bool               `json:"certified,omitempty"`
	Certificate *answer.Certificate `json:"certificate,omitempty"`
}

func runCombine(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("combine", flag.ContinueOnError)
	format := fs.String("format", "text", "output: text or json")
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if *format != "text" && *format != "json" {
		return badInputf("unknown format %q: want text or json", *format)
	}
	if len(files) == 0 {
		return badInputf("want the shard answers (JSON of solve --shard K/N), like boardsat combine run/shard-*.json")
	}
	c, err := combineFiles(files)
	if err != nil {
		return badInput(err)
	}
	if *format == "json" {
		return json.NewEncoder(stdout).Encode(c)
	}
	printCombined(stdout, c)
	return nil
}

// printCombined prints a combined answer as text, like solve.
func printCombined(w io.Writer, c combined) {
	row := func(k string, v any) { fmt.Fprintf(w, "%-14s %v\n", k+":", v) }
	row("instance", c.Instance)
	row("backend", c.Backend)
	for _, kv := range [][2]string{{"heuristic", c.Heuristic}, {"encoding", c.Encoding}, {"solver", c.Solver}} {
		if kv[1] != "" {
			row(kv[0], kv[1])
		}
	}
	row("task", c.Task)
	row("status", c.Status)
	row("count", c.Count)
	row("shards", fmt.Sprintf("%d (%d subproblems, %s)", c.Shards, c.Subproblems, c.Partition))
	row("seconds", fmt.Sprintf("%.6f (sum over shards: %s)", c.Seconds, strings.Join(c.ShardSeconds, " ")))
	if c.Certified != nil {
		printCertificate(w, *c.Certified, *c.Certificate)
	}
}

// combineCertified adds one shard's certificate to the sum so far: the
// whole is certified when every shard is; the cubes' cover, which every
// shard proves, is counted once.
func combineCertified(ok *bool, sum *answer.Certificate, shardOK bool, c *answer.Certificate) (*bool, *answer.Certificate) {
	all := shardOK && c != nil && (ok == nil || *ok)
	if c == nil {
		return &all, sum
	}
	if sum == nil {
		s := *c
		s.Claims = append([]string{}, c.Claims...)
		s.Failed = append([]string(nil), c.Failed...)
		return &all, &s
	}
	for _, cl := range c.Claims {
		if slices.Contains(sum.Claims, cl) {
			continue // the cover, proved by every shard
		}
		sum.Claims = append(sum.Claims, cl)
		sum.Refutations++
	}
	sum.Failed = append(sum.Failed, c.Failed...)
	sum.Refutations += len(c.Failed)
	sum.Lemmas += c.Lemmas
	sum.Bytes += c.Bytes
	sum.CheckSeconds += c.CheckSeconds
	sum.CheckCPUSeconds += c.CheckCPUSeconds
	for _, a := range c.Arguments {
		if !slices.Contains(sum.Arguments, a) {
			sum.Arguments = append(sum.Arguments, a)
		}
	}
	return &all, sum
}

// combineFiles reads the shard answers in files and combines them.
func combineFiles(files []string) (combined, error) {
	var shards []shardAnswer
	for _, name := range files {
		s, err := readShard(name)
		if err != nil {
			return combined{}, err
		}
		shards = append(shards, s)
	}
	return combineShards(files, shards)
}

// maxShardBytes bounds a shard answer file (one JSON object of a few KiB).
const maxShardBytes int64 = 64 << 20

// readShard reads one shard answer: a file holding one JSON object of
// solve --shard.
func readShard(name string) (shardAnswer, error) {
	var s shardAnswer
	f, err := inputfile.OpenMax(name, maxShardBytes) // a FIFO would hang
	if err != nil {
		return s, err
	}
	defer f.Close()
	dec := json.NewDecoder(f)
	if err := dec.Decode(&s); err != nil || !strings.HasPrefix(s.Format, "boardsat-shard-") {
		return s, fmt.Errorf("%s is not a shard answer (the JSON of boardsat solve --shard K/N)", name)
	}
	if s.Format != shardFormat {
		return s, fmt.Errorf("%s is a shard answer of format %s, without the checksum of %s that this boardsat reads: run that shard again", name, s.Format, shardFormat)
	}
	var extra json.RawMessage
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return s, fmt.Errorf("%s holds more than one shard answer", name)
	}
	if s.Checksum != s.sum() {
		return s, fmt.Errorf("%s does not match its checksum (edited or damaged since solve wrote it): run that shard again", name)
	}
	return s, nil
}

// combineShards checks that the shards are all the shards of one count,
// each once and finished, and adds their partial counts.
func combineShards(files []string, shards []shardAnswer) (combined, error) {
	first := shards[0]
	n := 0
	byK := map[int]string{}
	for i, s := range shards {
		sh, err := puzzle.ParseShard(s.Shard)
		if err != nil {
			return combined{}, fmt.Errorf("%s: %v", files[i], err)
		}
		if i == 0 {
			n = sh.N
		}
		if diff := shardMismatch(first, s, n, sh.N); diff != "" {
			return combined{}, fmt.Errorf("%s and %s are not shards of one count: %s", files[0], files[i], diff)
		}
		if prev, ok := byK[sh.K]; ok {
			return combined{}, fmt.Errorf("shard %s given twice: %s and %s", s.Shard, prev, files[i])
		}
		byK[sh.K] = files[i]
		if s.Status != "ok" || s.Count == nil {
			return combined{}, fmt.Errorf("%s: shard %s did not finish (status %s%s)", files[i], s.Shard, s.Status, prefixed(": ", s.Message))
		}
	}
	var missing []string
	for k := 1; k <= n; k++ {
		if _, ok := byK[k]; !ok {
			missing = append(missing, fmt.Sprintf("%d/%d", k, n))
		}
	}
	if len(missing) > 0 {
		return combined{}, fmt.Errorf("missing shard %s of %s (%d of %d given)", strings.Join(missing, ", "), first.Instance, len(byK), n)
	}
	sort.Slice(shards, func(i, j int) bool {
		a, _ := puzzle.ParseShard(shards[i].Shard)
		b, _ := puzzle.ParseShard(shards[j].Shard)
		return a.K < b.K
	})
	c := combined{shardCount: first.shardCount, Status: "ok", Count: new(big.Int), Shards: n, Subproblems: first.Subproblems}
	for i, s := range shards {
		c.Count.Add(c.Count, s.Count)
		c.Seconds += s.Seconds
		c.ShardSeconds = append(c.ShardSeconds, fmt.Sprintf("%.3f", s.Seconds))
		if (s.Certified != nil) != (first.Certified != nil) {
			return combined{}, fmt.Errorf("%s and %s are not shards of one count: one is certified, the other not", files[0], files[i])
		}
		if s.Certified != nil {
			c.Certified, c.Certificate = combineCertified(c.Certified, c.Certificate, *s.Certified, s.Certificate)
		}
	}
	return c, nil
}

// shardMismatch names the first field in which shard b differs from shard
// a of the same count, or returns "".
func shardMismatch(a, b shardAnswer, na, nb int) string {
	for _, f := range [][3]string{
		{"instance", a.Instance, b.Instance}, {"task", a.Task, b.Task}, {"backend", a.Backend, b.Backend},
		{"strategy", a.Strategy, b.Strategy}, {"encoding", a.Encoding, b.Encoding}, {"solver", a.Solver, b.Solver},
		{"partition", a.Partition, b.Partition}, {"version", a.Version, b.Version},
		{"shards", fmt.Sprint(na), fmt.Sprint(nb)}, {"subproblems", fmt.Sprint(a.Subproblems), fmt.Sprint(b.Subproblems)},
	} {
		if f[1] != f[2] {
			return fmt.Sprintf("%s %s vs %s", f[0], f[1], f[2])
		}
	}
	return ""
}

// prefixed returns p+s, or "" when s is empty.
func prefixed(p, s string) string {
	if s == "" {
		return ""
	}
	return p + s
}
