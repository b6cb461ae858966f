package bench

import _ "embed"

// intervalsSuite is the built-in suite "intervals": the weighted-intervals
// DP, the seed's search and the two SAT models.
//
//go:embed suites/intervals.suite
var intervalsSuite string

// dominateSuite is the built-in suite "dominate": queen domination, the
// optimum with its proof and the count of minimum sets, native strategies
// beside the SAT models.
//
//go:embed suites/dominate.suite
var dominateSuite string

// paradigmsSuite is the built-in suite "paradigms": every family on
// native, SAT (gophersat and CaDiCaL), CP (Gecode) and MIP (CBC, GLPK).
//
//go:embed suites/paradigms.suite
var paradigmsSuite string

// frontierSuite is the built-in suite "frontier": queen domination n =
// 12..16 and independent domination n = 12..18 on the native
// branch-and-bound, the optimum, count and unique count.
//
//go:embed suites/frontier.suite
var frontierSuite string

// certifySuite is the built-in suite "certify": certified answers of
// queen domination (optimum and count), each beside its uncertified run.
//
//go:embed suites/certify.suite
var certifySuite string

// methodsSuite is the built-in suite "methods": queen domination n =
// 4..16 by method (native, SAT on gophersat and CaDiCaL, CP Gecode, MIP
// CBC), the optimum and the count under CPU-time limits, for the table of
// docs/measurements/dominate-frontier.md.
//
//go:embed suites/methods.suite
var methodsSuite string

func init() {
	Builtin.Add("intervals", intervalsSuite)
	Builtin.Add("dominate", dominateSuite)
	Builtin.Add("paradigms", paradigmsSuite)
	Builtin.Add("frontier", frontierSuite)
	Builtin.Add("certify", certifySuite)
	Builtin.Add("methods", methodsSuite)
}
