package results

import (
	"github.com/boardsat/boardsat/answer"
	"github.com/boardsat/boardsat/puzzle"
)

// StatusMapping is one line of StatusTable: how a status travels from a
// backend's answer (puzzle.Answer, in process) through the JSON answer of
// solve (answer.Answer, which answer.New makes from the first) to a bench
// row (which bench's runner makes from the second).
type StatusMapping struct {
	// Puzzle is the backend's status; "" for a status no backend returns
	// (the command line or the harness sets it).
	Puzzle puzzle.Status
	// Answer is the JSON answer's status (answer.New keeps the backend's
	// as it is); "" for a row status no answer has (judging sets it).
	Answer answer.Status
	// Row is the results row's status, and Limit the row's limit column
	// for it ("" for none).
	Row, Limit string
	// Note says what the line means, as docs/contract.md's table does.
	Note string
}

// StatusTable is the one table of the three status vocabularies: a line
// per answer status, then the row statuses no answer has. To add a status
// to a vocabulary, add it to that vocabulary's list (puzzle.Statuses,
// answer.Statuses, Statuses) and give it a line here and in contract.md's
// table: TestStatusTableCoversEveryStatus fails until every status of the
// three lists has a line.
var StatusTable = []StatusMapping{
	{puzzle.OK, answer.OK, StatusOK, "", "answered; judging may make the row wrong"},
	{puzzle.Unsat, answer.Unsat, StatusUnsat, "", "proven to have no solution; judging may make the row wrong"},
	{puzzle.Timeout, answer.Timeout, StatusTimeout, LimitWall, "the time limit passed first"},
	{puzzle.Memout, answer.Memout, StatusMemout, LimitMem, "the memory limit or budget was reached"},
	{puzzle.Error, answer.Error, StatusError, "", "the backend failed"},
	{"", answer.Refused, StatusError, "", "the request was not taken (bad input for that backend): the row's message starts `refused:`"},
	{"", answer.Interrupted, StatusError, "", "solve stopped by a signal; bench drops an interrupted run's row"},
	{"", answer.Wrong, StatusWrong, "", "answered, but the answer contradicts boardsat's table of published values (solve checks it)"},
	{"", "", StatusWrong, "", "answered, but judging rejects the answer"},
	{"", "", StatusSkipped, "", "not run: a ladder stopped at an earlier instance (the reason in message)"},
}

// RowStatus returns the line of StatusTable for an answer's status; a
// status the table does not know is an error row.
func RowStatus(s answer.Status) StatusMapping {
	for _, m := range StatusTable {
		if m.Answer == s && s != "" {
			return m
		}
	}
	return StatusMapping{Answer: s, Row: StatusError, Note: "unknown status"}
}
