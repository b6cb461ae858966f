// Package doccheck keeps the Markdown documentation true to the tree it
// ships with. Its tests walk every *.md file of the repository and fail on
// a relative link whose target (file or heading) does not exist or lies
// outside the repository; they compare the lists of puzzles, tasks and
// built-in suites in README.md and docs/ with the registries the code
// fills, and the contract's tables (JSON keys, exit statuses, CSV columns,
// sidecar keys) with packages answer and results, so that what is added in
// code cannot go undocumented.
// Its tests also hold the module to its import rules (layers_test.go) and
// docs/architecture.md's package table to go list (architecture_test.go).
// It has no code of its own: the tests are the package.
package doccheck
