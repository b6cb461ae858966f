# boardsat: one entry point for building, testing and benchmarking.
GO ?= go

.PHONY: build install test vet fmt-check bench run notebooks readme-examples paper-check

# The binary built; BIN=PATH builds it elsewhere.
BIN ?= boardsat

# -buildvcs=true stamps the git commit (and dirty flag) into the binary's
# build information, for boardsat version and the bench sidecar, even where
# GOFLAGS says -buildvcs=false. The go command finds no VCS in a git worktree
# (its .git is a file), so the commit is also stamped with -X from git itself
# (internal/buildinfo's stampCommit, read only when the build information
# has none). go run and go test stamp neither: such a binary records its
# commit as "unknown (built without VCS information)".
STAMP = $(shell git rev-parse HEAD 2>/dev/null)$(shell git status --porcelain --untracked-files=no 2>/dev/null | grep -q . && echo +dirty)
LDFLAGS = -X github.com/boardsat/boardsat/internal/buildinfo.stampCommit=$(STAMP)

build:
	$(GO) build -buildvcs=true -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/boardsat

# Install boardsat where go install puts binaries: $GOBIN if set, else
# $(go env GOPATH)/bin (usually ~/go/bin); put that directory on PATH.
install:
	$(GO) install -buildvcs=true -ldflags '$(LDFLAGS)' ./cmd/boardsat

# The test command of the README and of CI: formatting, vet, then every test;
# then the two measurement tests (a search's CPU time counts its worker, at
# least 0.8 x its wall x the core share a busy loop beside it gets; the
# first run of a bench gets the CPU share of the others) again, alone
# (BOARDSAT_ALONE=1), where they are always judged: beside the other
# packages' tests, whose load comes and goes, they are judged only on a
# machine loaded below its cores. The go test run
# goes through scripts/testsummary, which prints what plain go test prints
# (each package's ok or FAIL line, a failed test's output) and then every
# skipped test with its reason (a solver not installed); the status is go
# test's, or 1 when the summary saw a failure. -timeout is a guard against
# a hung test, not a speed target: the longest package takes about 4 min
# on an idle 2-core machine and 13 beside eight busy loops.
test: fmt-check vet
	@echo '$(GO) test -count=1 -timeout 30m -json ./... | $(GO) run ./scripts/testsummary'
	@st=$$(mktemp); \
	{ $(GO) test -count=1 -timeout 30m -json ./...; echo $$? > "$$st"; } | $(GO) run ./scripts/testsummary; \
	sum=$$?; code=$$(cat "$$st"); rm -f "$$st"; \
	[ "$$sum" -eq 0 ] && [ "$$code" -eq 0 ]
	BOARDSAT_ALONE=1 $(GO) test -count=1 -run '^(TestWorkerCPUMeasured|TestFirstRunMeasuredLikeTheOthers)$$' ./harness/bench

vet:
	$(GO) vet ./...

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change: $$out"; exit 1; fi

# The main job on its built-in default instance.
run:
	$(GO) run ./cmd/boardsat solve pieces:7x8:K3Q1B2R2N3

# Go benchmarks of every package (speed targets live here, not in tests).
bench:
	$(GO) test -run '^$$' -bench . -benchmem -count 5 ./...

# Benchmark the quick suite into out/quick.csv, and the domination and
# intervals suites cut short (one repetition, 1 s a run: each ladder stops at
# its first timeout) into out/dominate.csv and out/intervals.csv, and execute
# every notebook against them; a failing notebook fails the target. CI runs
# it after make test (make test does not depend on it).
notebooks: build
	mkdir -p out/notebooks
	./boardsat bench quick -o out/quick.csv --force
	./boardsat bench dominate -o out/dominate.csv --force --repeat 1 --timeout 1s
	./boardsat bench intervals -o out/intervals.csv --force --repeat 1 --timeout 1s
	set -e; for nb in notebooks/*.ipynb; do \
	  BOARDSAT_RESULTS=$(CURDIR)/out/quick.csv BOARDSAT_FIGDIR=$(CURDIR)/out/notebooks \
	  BOARDSAT_DOMINATE=$(CURDIR)/out/dominate.csv BOARDSAT_INTERVALS=$(CURDIR)/out/intervals.csv \
	    jupyter nbconvert --to notebook --execute --output-dir out/notebooks "$$nb"; \
	done

# Run every command of the sh blocks of README.md and of docs/**/*.md, in
# order, as written, in a fresh clone of the committed tree
# (scripts/readme-examples; make test and make notebooks are left to their
# own targets). Needs clasp and minisat+ for the export examples; takes a
# few minutes.
readme-examples:
	scripts/readme-examples

# Render every figure kind with pdftoppm and rsvg-convert and compile a
# pivot table and a figure with pdflatex (scripts/paper-check; make test
# runs it too, as TestPaperOutputs). CSV=FILE checks those results instead of
# the test fixture.
paper-check:
	scripts/paper-check $(CSV)
