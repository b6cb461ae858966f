# boardsat: one entry point for building, testing and benchmarking.
GO ?= go

.PHONY: build test vet fmt-check bench run

build:
	$(GO) build -o boardsat ./cmd/boardsat

# The test command of the README and of CI: formatting, vet, then every test.
test: fmt-check vet
	$(GO) test -count=1 -timeout 15m ./...

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
