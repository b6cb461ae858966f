package bench

import (
	"context"
	"strings"

	"github.com/boardsat/boardsat/harness/compare"
	"github.com/boardsat/boardsat/harness/results"
	"github.com/boardsat/boardsat/puzzle"
)

// judgeQueue applies compare's judging policy (compare/judge.go) to bench
// rows. Where a reference is published or the brute-force backend answers,
// a row is judged as soon as its run ends. Otherwise the reference is the
// majority of the instance's reliable answers, so its rows wait until every
// planned run of the instance and task has ended (or the bench stops), and
// are then judged together with the rows already in the file: no answer
// becomes the reference by running first.
type judgeQueue struct {
	ctx       context.Context
	refs      map[string]reference
	pending   map[string][]results.Row
	remaining map[string]int
	prior     map[string][]compare.Vote
	order     []string
}

// reference is the published or brute-force reference of one instance and
// task, once computed; ok false when there is none (majority then).
type reference struct {
	value, source, theorem string
	ok                     bool
}

func judgeKey(instance, task string) string { return instance + "\x00" + task }

// newJudgeQueue starts a queue with the rows already in the file.
func newJudgeQueue(ctx context.Context, existing []results.Row) *judgeQueue {
	q := &judgeQueue{ctx: ctx, refs: map[string]reference{}, pending: map[string][]results.Row{},
		remaining: map[string]int{}, prior: map[string][]compare.Vote{}}
	for _, r := range existing {
		k := judgeKey(r.Instance, r.Task)
		q.prior[k] = append(q.prior[k], rowVote(r))
	}
	return q
}

// expect notes a planned run still to come.
func (q *judgeQueue) expect(r Run) { q.remaining[judgeKey(r.Spec.String(), string(r.Task))]++ }

// reference returns the reference for a run's instance and task.
func (q *judgeQueue) reference(r Run) reference {
	k := judgeKey(r.Spec.String(), string(r.Task))
	ref, seen := q.refs[k]
	if !seen {
		ref.value, ref.source, ref.theorem, ref.ok = compare.Reference(q.ctx, r.Spec, r.Task)
		q.refs[k] = ref
	}
	return ref
}

// add takes a finished row and returns the rows ready to be written,
// judged.
func (q *judgeQueue) add(row results.Row, r Run) []results.Row {
	k := judgeKey(row.Instance, row.Task)
	q.remaining[k]--
	if ref := q.reference(r); ref.ok {
		rows := []results.Row{row}
		judgeRows(rows, nil, ref)
		return rows
	}
	if _, ok := q.pending[k]; !ok {
		q.order = append(q.order, k)
	}
	q.pending[k] = append(q.pending[k], row)
	if q.remaining[k] > 0 {
		return nil
	}
	return q.release(k)
}

// release judges and returns the rows waiting on key k.
func (q *judgeQueue) release(k string) []results.Row {
	rows := q.pending[k]
	delete(q.pending, k)
	judgeRows(rows, q.prior[k], reference{})
	return rows
}

// flush releases every waiting row, in the order their instances came.
func (q *judgeQueue) flush() []results.Row {
	var out []results.Row
	for _, k := range q.order {
		if _, ok := q.pending[k]; ok {
			out = append(out, q.release(k)...)
		}
	}
	return out
}

// judgeRows judges rows in place against ref (or the majority of the rows
// and prior votes when ref is not ok): a wrong verdict turns a row's status
// into wrong, with the judge's reason before its message.
func judgeRows(rows []results.Row, prior []compare.Vote, ref reference) {
	votes := append([]compare.Vote(nil), prior...)
	for _, r := range rows {
		votes = append(votes, rowVote(r))
	}
	j := compare.Judge(votes, ref.value, ref.source, ref.theorem)
	for i := range rows {
		vd := j.Verdicts[len(prior)+i]
		if !vd.Wrong || rows[i].Status == results.StatusWrong {
			continue
		}
		msg := vd.Reason
		if rows[i].Message != "" && !strings.Contains(msg, rows[i].Message) {
			msg += "; " + rows[i].Message
		}
		rows[i].Status, rows[i].Message = results.StatusWrong, msg
	}
}

// Rejudge judges rows read together (the CSVs of one suite's shards, or of
// several sessions) as one run would have judged them, in place. A shard
// judges an instance that has no published or brute-force reference by the
// majority of the answers it ran itself, so two shards could each call a
// different answer ok; here the majority is taken over every row of the
// instance and task. A row a shard called wrong only for differing from its
// own majority is judged again on its answer; every other wrong row (an
// answer other than a published or brute-force reference, an invalid
// solution, an error) stays wrong. It returns how many rows turned wrong
// and how many turned back; rows judged in one run change neither way.
func Rejudge(rows []results.Row) (nowWrong, nowRight int) {
	groups := map[string][]int{}
	for i, r := range rows {
		k := judgeKey(r.Instance, r.Task)
		groups[k] = append(groups[k], i)
	}
	for _, idx := range groups {
		g := make([]results.Row, len(idx))
		for j, i := range idx {
			g[j] = unjudgeMajority(rows[i])
		}
		judgeRows(g, nil, reference{})
		for j, i := range idx {
			was, is := rows[i].Status == results.StatusWrong, g[j].Status == results.StatusWrong
			switch {
			case is && !was:
				nowWrong++
			case was && !is:
				nowRight++
			}
			rows[i] = g[j]
		}
	}
	return nowWrong, nowRight
}

// unjudgeMajority returns r as it was before a majority called it wrong:
// its status back to ok or unsat (whichever gives the value the judge
// quoted) and the judge's reason taken off its message. Any other row is
// returned as it is.
func unjudgeMajority(r results.Row) results.Row {
	if r.Status != results.StatusWrong {
		return r
	}
	value, source, rest, ok := compare.ParseMismatch(r.Message)
	if !ok || source != "majority" {
		return r
	}
	for _, st := range []string{results.StatusOK, results.StatusUnsat} {
		c := r
		c.Status, c.Message = st, rest
		if rowValue(c) == value {
			return c
		}
	}
	return r
}

// rowVote is a row as the judge sees it.
func rowVote(r results.Row) compare.Vote {
	v := compare.Vote{Name: r.Variant, Backend: r.Backend, Message: r.Message, Theorem: r.Theorem, Known: compare.UnreliableReason(r.Backend)}
	switch r.Status {
	case results.StatusOK, results.StatusUnsat:
		v.Status = puzzle.Status(r.Status)
		v.Value = rowValue(r)
	case results.StatusWrong:
		v.Invalid = r.Message
	case results.StatusError:
		if !r.Refused() {
			v.Status = puzzle.Error
		}
	default:
		v.Status = puzzle.Timeout
	}
	return v
}
