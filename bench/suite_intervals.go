package bench

import _ "embed"

// intervalsSuite is the built-in suite "intervals": the weighted-intervals
// DP, the seed's search and the two SAT models (issue 20).
//
//go:embed suites/intervals.suite
var intervalsSuite string

func init() { Builtin.Add("intervals", intervalsSuite) }
