# The two commands: `make serve` and `make test`. Each installs what is missing first.
# See README.md; what installs on these machines is recorded in TOOLCHAIN notes below.
#
# - wasm-bindgen-cli must match the wasm-bindgen crate exactly: its version is read from Cargo.lock.
# - wasm-opt comes from the npm package binaryen (Debian's is too old: its output fails to load).
# - Browsers are Debian's chromium and chromium-driver; nothing downloads a browser at run time.

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

WASM_TARGET := wasm32-unknown-unknown
CRATE := agent_memory_widgets
WASM := target/$(WASM_TARGET)/release/$(CRATE).wasm
PKG := www/pkg
WASM_BINDGEN_VERSION := $(shell awk '/^name = "wasm-bindgen"$$/ { getline; gsub(/"/, "", $$3); print $$3 }' Cargo.lock)
CARGO_BIN := $(HOME)/.cargo/bin
export PATH := $(CARGO_BIN):$(CURDIR)/node_modules/.bin:$(PATH)
MDBOOK_VERSION := 0.4.52
# -O1 gives the smallest gzip here: -Oz is smaller raw but compresses worse (BENCHMARKS.md).
# wasm-bindgen has read the target_features section by then; browsers do not need it, nor the
# names (kept until drop-dead-shims has read them: for a names-kept build, -g in place of --strip-debug).
WASM_OPT := -O1 --strip-target-features --strip-debug
PORT ?= 8000

.PHONY: help serve test bench bench-sizes bench-real-size bench-memory fuzz mutants build dist examples tools tools-browser tools-mdbook test-native test-miri test-wasm test-size test-fuzz test-e2e clean

help:
	@echo "make serve   build www/ into site/ (minified) and serve it on http://127.0.0.1:$(PORT)"
	@echo "make test    native tests, wasm tests in headless Chromium, browser end-to-end tests"
	@echo "make dist    dist/agent-memory-widgets/, the light embed and npm package; the one-file bundle beside it"
	@echo "make bench   size, browser latency and memory, Lighthouse, native scaling: prints and writes BENCHMARKS.md"
	@echo "make bench-sizes   only BENCHMARKS.md's size tables"
	@echo "make bench-real-size   only BENCHMARKS.md's rows of a session at real size (import and replay, 1 to 21 MB)"
	@echo "make bench-memory   only BENCHMARKS.md's memory section (a long session; a live one with and without retention)"
	@echo "make fuzz    a long fuzz of the release package: FUZZ_ITER=100000 make fuzz (FUZZ_SEED to replay)"
	@echo "make mutants mutation testing of src/ (not the wasm boundary): prints the score (TESTING.md)"

## Installs ----------------------------------------------------------------------------------

tools:
	@rustup target list --installed | grep -qx $(WASM_TARGET) || rustup target add $(WASM_TARGET)
	@if [ "$$(wasm-bindgen --version 2>/dev/null | cut -d' ' -f2)" != "$(WASM_BINDGEN_VERSION)" ]; then \
	  echo "installing wasm-bindgen-cli $(WASM_BINDGEN_VERSION) (about 3 minutes)"; \
	  cargo install wasm-bindgen-cli --version $(WASM_BINDGEN_VERSION); \
	fi
	@[ -x node_modules/.bin/wasm-opt ] && [ -x node_modules/.bin/esbuild ] && [ -x node_modules/.bin/cem ] && [ -d node_modules/playwright-core ] || npm ci --no-audit --no-fund

tools-browser:
	@if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null; \
	  else \
	    echo "Chromium is missing. Install it once with:"; \
	    echo "  sudo apt-get install -y chromium chromium-driver"; \
	    exit 1; \
	  fi; \
	fi

tools-mdbook:
	@command -v mdbook >/dev/null || { echo "installing mdbook $(MDBOOK_VERSION) (about 4 minutes)"; cargo install mdbook --version $(MDBOOK_VERSION); }

## Build --------------------------------------------------------------------------------------

# The wasm cores, from www/cores.js (the one table of them): each is the crate built with some of
# its exports. All share one target dir, so each dependency compiles once; each core's wasm is
# kept in target/cores/, and rebuilt only when the crate's sources or the table change.
CORE_TABLE := $(shell node tools/cores.mjs | tr ' ' ':')
CORES := $(foreach core,$(CORE_TABLE),$(firstword $(subst :, ,$(core))))
$(if $(CORES),,$(error node tools/cores.mjs printed no cores: is Node installed, and does www/cores.js load?))
features_of = $(word 2,$(subst :, ,$(filter $(1):%,$(CORE_TABLE)))),wasm-runtime
CRATE_SOURCES := Cargo.toml Cargo.lock $(shell find src -name '*.rs') www/cores.js
CORE_WASMS := $(CORES:%=target/cores/%.wasm)
CORE_GLUE := $(CORES:%=$(PKG)/%.js)

# Glue and optimised wasm for core $(1) in $(PKG): the glue checks for a freed object before it
# enters wasm, wasm-bindgen's dead closure shims leave the function table
# (tools/drop-dead-shims.mjs, which finds them by the names wasm-opt then strips), and both use
# short import names (tools/minify-names.mjs). Each tool checks the wasm-bindgen version it was
# written for and fails on a glue it does not know.
define bindgen
	wasm-bindgen --target web --remove-producers-section --out-dir $(PKG) --out-name $(1) target/cores/$(1).wasm
	node tools/guard-glue.mjs $(PKG)/$(1).js
	node tools/drop-dead-shims.mjs $(PKG)/$(1)_bg.wasm
	wasm-opt $(WASM_OPT) $(PKG)/$(1)_bg.wasm -o $(PKG)/$(1)_bg.wasm
	node tools/minify-names.mjs $(PKG)/$(1)
endef

target/cores/%.wasm: $(CRATE_SOURCES)
	cargo rustc --release --target $(WASM_TARGET) --lib --crate-type cdylib --no-default-features --features $(call features_of,$*)
	mkdir -p target/cores
	cp $(WASM) $@

$(PKG)/%.js: target/cores/%.wasm tools/guard-glue.mjs tools/drop-dead-shims.mjs tools/minify-names.mjs tools/glue-version.mjs
	$(call bindgen,$*)

# What <memory-compaction> paints before its core is in, from the compaction core.
www/opening.js: $(PKG)/compaction.js tools/opening.mjs
	node tools/opening.mjs

# One core at a time: they share target/. Each core's wasm is kept, not an intermediate file.
.NOTPARALLEL:
.SECONDARY: $(CORE_WASMS)

build: tools $(CORE_GLUE) www/opening.js
	node tools/build-site.mjs

# dist/agent-memory-widgets/: the light embed, which is also the npm package (tools/package.mjs);
# dist/agent-memory-widgets.js, the one-file bundle, and a page that opens from disk (tools/bundle.mjs).
dist: build
	node tools/package.mjs
	node tools/bundle.mjs

# The docs examples: the mdBook one embeds the light embed, copied whole into its src/; each
# host in NPM_HOSTS (examples/<host>/) installs the package as a user would, from the tarball of
# `make dist`. A host's own packages install once from its lock file into its node_modules/
# (gitignored, kept between runs), and again only when the lock file changes; then each builds
# (VitePress renders its pages on the server, importing the package in Node).
NPM_HOSTS := vite vitepress astro docusaurus
PACKED := target/pack

examples: dist tools-mdbook
	rm -rf examples/mdbook/src/agent-memory-widgets
	cp -r dist/agent-memory-widgets examples/mdbook/src/
	mdbook build examples/mdbook
	rm -rf $(PACKED) && mkdir -p $(PACKED)
	npm pack --silent ./dist/agent-memory-widgets --pack-destination $(PACKED) >/dev/null
	@for host in $(NPM_HOSTS); do \
	  dir=examples/$$host; \
	  if [ ! $$dir/node_modules/.package-lock.json -nt $$dir/package-lock.json ]; then \
	    echo "installing $$dir's packages from its lock file"; \
	    (cd $$dir && npm ci --no-audit --no-fund --loglevel=error); \
	  fi; \
	  echo "installing the package into $$dir"; \
	  (cd $$dir && npm install --no-save --no-audit --no-fund --loglevel=error ../../$(PACKED)/agent-memory-widgets-*.tgz); \
	  echo "building $$dir"; \
	  (cd $$dir && ASTRO_TELEMETRY_DISABLED=1 npm run --silent build >/dev/null); \
	done
	@# MkDocs Material, from PyPI into examples/mkdocs/.venv (kept; again when requirements.txt
	@# changes), with the light embed copied into its docs/.
	@if [ ! examples/mkdocs/.venv/.installed -nt examples/mkdocs/requirements.txt ]; then \
	  python3 -c "import ensurepip" 2>/dev/null || { [ "$$(id -u)" = 0 ] && apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null; } \
	    || { echo "MkDocs needs Python's venv: sudo apt-get install -y python3-venv"; exit 1; }; \
	  echo "installing MkDocs Material into examples/mkdocs/.venv"; \
	  rm -rf examples/mkdocs/.venv && python3 -m venv examples/mkdocs/.venv; \
	  examples/mkdocs/.venv/bin/pip install -q --disable-pip-version-check -r examples/mkdocs/requirements.txt; \
	  touch examples/mkdocs/.venv/.installed; \
	fi
	rm -rf examples/mkdocs/docs/agent-memory-widgets
	cp -r dist/agent-memory-widgets examples/mkdocs/docs/
	NO_MKDOCS_2_WARNING=1 examples/mkdocs/.venv/bin/mkdocs build -q -f examples/mkdocs/mkdocs.yml

serve: build
	@echo "Serving site/ (www/ minified) on http://127.0.0.1:$(PORT)/ (Ctrl-C to stop)"
	python3 -m http.server $(PORT) --bind 127.0.0.1 --directory site

## Tests --------------------------------------------------------------------------------------

test: tools tools-browser tools-mdbook
	$(MAKE) --no-print-directory test-native test-miri test-wasm test-size test-fuzz test-e2e

# The native suite with the default features and without any: a feature adds code, never changes
# an answer, so the same tests pass in both (only what `deserialize` adds needs it: loading, in
# tests/persistence.rs and the README's and `SavedStore`'s doctests). The other features gate the wasm boundary alone, which test-wasm lints per core.
# Clippy as a contributor's editor runs it: the size rules in clippy.toml are allowed by
# Cargo.toml's [lints] for native code and tests, and denied per core by test-wasm.

test-native:
	node tools/circles.mjs src www
	node --test tests/architecture.test.mjs
	cargo fmt --check
	cargo test
	cargo test --no-default-features
	cargo run --quiet --example agent_loop
	cargo run --quiet --example async_push
	cargo clippy --all-targets -- -D warnings
	cargo clippy --all-targets --no-default-features -- -D warnings
	RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --quiet

# The wasm allocator's unsafe code (src/allocator.rs) under Miri, which stops at undefined
# behaviour: its unit tests only (the whole suite would take far longer there). Miri needs
# nightly: installed here, with Miri, if missing (about a minute); the first run also builds
# Miri's standard library (about a minute more).
MIRI_TOOLCHAIN := nightly-2026-10-30

test-miri:
	@[ "$$(rustup component list --toolchain $(MIRI_TOOLCHAIN) --installed 2>/dev/null | grep -cE '^(miri|rust-src)')" = 2 ] || rustup toolchain install $(MIRI_TOOLCHAIN) --profile minimal --component miri,rust-src
	cargo +$(MIRI_TOOLCHAIN) miri test --lib allocator::

# Every core's build is linted with the size rules (clippy.toml) and the panicking paths as
# errors, so that breaking a rule fails with its reason, not only a size budget.
WASM_CLIPPY := -D warnings -D clippy::disallowed_macros -D clippy::disallowed_methods -D clippy::indexing_slicing -D clippy::unwrap_used -D clippy::expect_used -D clippy::panic
define lint-core
	cargo clippy --quiet --target $(WASM_TARGET) --no-default-features --features $(call features_of,$(1)) --lib -- $(WASM_CLIPPY)

endef

# The wasm tests' own crates (wasm-bindgen-test, serde-wasm-bindgen) bring std, so they run the
# default features, without `wasm-runtime`; the cores built with it are what the fuzz and the
# browser tests run.
test-wasm:
	$(foreach c,$(CORES),$(call lint-core,$(c)))
	cargo clippy --target $(WASM_TARGET) --lib --test wasm -- -D warnings
	WASM_BINDGEN_USE_BROWSER=1 cargo test --target $(WASM_TARGET) --test wasm

test-size: dist
	node --test tests/size.test.mjs tests/tools.test.mjs tests/manifest.test.mjs tests/crate.test.mjs tests/server.test.mjs tests/rules.test.mjs tests/located.test.mjs tests/www-lint.test.mjs

# A few thousand random sequences against the release package, with a fixed seed so that CI is
# reproducible; `make fuzz` runs many more, from a new seed each time (FUZZ_SEED to replay one).
test-fuzz: build
	FUZZ_SEED=$${FUZZ_SEED:-1} node --test tests/fuzz.test.mjs

fuzz: build
	FUZZ_ITER=$${FUZZ_ITER:-100000} node --test tests/fuzz.test.mjs

test-e2e: dist examples
	node --test --test-concurrency=1 tests/e2e/

## Benchmarks ---------------------------------------------------------------------------------

bench: tools tools-browser dist
	mkdir -p target/bench
	cargo bench --bench scaling -- --noplot
	cargo bench --bench replay
	cargo bench --bench memory > target/bench/memory.json
	node benches/browser.mjs > target/bench/browser.json
	node benches/first-meter.mjs > target/bench/first-meter.json
	node benches/import.mjs > target/bench/import.json
	node benches/lighthouse.mjs
	node benches/report.mjs

# Only the size tables of BENCHMARKS.md, measured now (a full `make bench` takes long).
bench-sizes: dist
	node benches/report.mjs --sizes

# Only BENCHMARKS.md's rows of a session at real size (1, 7 and 21 MB): import and replay in Node
# and, picked in the import panel, in Chromium; measured now.
bench-real-size: tools tools-browser dist
	mkdir -p target/bench
	node benches/import.mjs > target/bench/import.json
	node benches/large.mjs > target/bench/large.json
	node benches/report.mjs --real-size

# Only the memory section of BENCHMARKS.md, measured now: a long session's heap, and a live
# session's with and without a retention over 100,000 pushes.
bench-memory:
	mkdir -p target/bench
	cargo bench --bench memory > target/bench/memory.json
	node benches/report.mjs --memory

## Mutation testing ---------------------------------------------------------------------------

# Plants small bugs in src/ (all but the wasm boundary, src/wasm/; settings in
# .cargo/mutants.toml) and checks that a test fails for each, then prints the score. Hours for a
# full run (TESTING.md), so not part of `make test`. One job by default (MUTANTS_JOBS=2 on an
# idle machine); MUTANTS_ARGS narrows a run,
# for example MUTANTS_ARGS="--file src/forgetting/store.rs", "--iterate" or "--in-diff my.diff".
# The version is pinned: the exclusions in .cargo/mutants.toml match its names for mutants.
MUTANTS_JOBS ?= 1
MUTANTS_ARGS ?=
CARGO_MUTANTS_VERSION := 27.1.0

mutants:
	@# The exclusions in .cargo/mutants.toml match this version's mutant names: install it unless it is the one on PATH.
	@[ "$$(cargo mutants --version 2>/dev/null | cut -d' ' -f2)" = "$(CARGO_MUTANTS_VERSION)" ] || { echo "installing cargo-mutants $(CARGO_MUTANTS_VERSION) (about 3 minutes)"; cargo install cargo-mutants --locked --version $(CARGO_MUTANTS_VERSION); }
	@# Exit 2 (mutants missed) and 3 (timeouts) still have a score to print; anything else stops here.
	cargo mutants --jobs $(MUTANTS_JOBS) $(MUTANTS_ARGS) || { rc=$$?; [ $$rc = 2 ] || [ $$rc = 3 ]; }
	node tools/mutants-score.mjs mutants.out

clean:
	cargo clean
	rm -rf $(PKG) dist mutants.out mutants.out.old target/screenshots examples/mdbook/book examples/mdbook/src/agent-memory-widgets examples/*/dist examples/mkdocs/site examples/mkdocs/docs/agent-memory-widgets examples/docusaurus/build
