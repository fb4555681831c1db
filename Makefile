# COALDA: `make demo` and `make test` set up everything they need.
VENV    := .venv
BIN     := $(VENV)/bin
BUILD   := build
PLUGIN  := $(BUILD)/libCoalda.so
GEN     := $(shell command -v ninja >/dev/null 2>&1 && echo "-G Ninja")
# the plugin is built by LLVM 19's own clang, twice as fast as g++ 12 here
# (26 s against 48 s from scratch on two cores); both emit the same IR
# (make compilers-agree)
CXX_PLUGIN ?= clang++-19
# a clean build compiles the plugin's files eight to a unit: 36 s against 46
# s on two cores (2026-12-04, docs/test-speed.md); UNITY=OFF compiles them
# one by one (an edit then rebuilds one file, not its unit's eight)
UNITY ?= ON

.PHONY: setup build lit pytest test demo fuzz memcheck compilers-agree clean

setup:
	@scripts/setup.sh

$(BUILD)/CMakeCache.txt:
	cmake -S pass -B $(BUILD) $(GEN) -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=$(CXX_PLUGIN) \
	  -DCMAKE_UNITY_BUILD=$(UNITY) -DCMAKE_UNITY_BUILD_BATCH_SIZE=8 >/dev/null

build: setup $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD)

lit: build
	COALDA_CUDA_PATH="$$($(BIN)/python -c 'from coalda.driver.toolchain import cuda_path; print(cuda_path())')" \
	  $(BIN)/lit -sv $(BUILD)/test

# the emulator-heavy tests run on every core (pytest-xdist): 4.7 to 6.5
# minutes on two cores from a clean clone, `make test` 5.9 to 7.8, as the
# machine's speed swings (2026-12-04; docs/test-speed.md)
pytest: build
	$(BIN)/pytest -q -n auto --dist loadgroup

test: setup build lit pytest

demo: setup build
	$(BIN)/coalda optimize testcases/rgb.cu

# the differential fuzzers at campaign size (about 30 minutes on two
# cores): copies, element stagings, chunk windows, transposes, arrays in turn,
# records refilled per iteration, store windows, one-copy kernels' grid variants,
# transposes' tile variants
fuzz: build
	COALDA_FUZZ_EXAMPLES=5000 $(BIN)/pytest -q tests/test_fuzz.py
	COALDA_STAGE_FUZZ=1600 $(BIN)/pytest -q -n auto tests/test_staging.py -k random_staging
	COALDA_WINDOW_FUZZ=400 $(BIN)/pytest -q -n auto tests/test_window_fuzz.py -k random_window
	COALDA_TRANSPOSE_FUZZ=480 $(BIN)/pytest -q -n auto tests/test_transpose.py -k "random_transposes and not catch"
	COALDA_TURN_FUZZ=480 $(BIN)/pytest -q -n auto tests/test_turn_fuzz.py
	COALDA_RECORD_FUZZ=600 $(BIN)/pytest -q -n auto tests/test_record_fuzz.py
	COALDA_STORE_WINDOW_FUZZ=600 $(BIN)/pytest -q -n auto tests/test_store_window_fuzz.py
	COALDA_FLAT_FUZZ=400 $(BIN)/pytest -q -n auto tests/test_flat_variant_fuzz.py
	COALDA_TILE_FUZZ=160 $(BIN)/pytest -q -n auto tests/test_tile_variant_fuzz.py

# the adversarial corpora's bytes at -O0 too, under the whole matrix, as at
# -O3 (make test compares -O3's bytes and pins -O0's decisions, for CI time:
# docs/test-speed.md): about 4 minutes on two cores
.PHONY: test-o0
test-o0: build
	COALDA_ADVERSARIAL_O0=full $(BIN)/pytest -q -n auto --dist loadgroup tests/test_adversarial*.py tests/test_transpose.py \
	  tests/test_grid_variants.py tests/test_flat_variants.py tests/test_tile_variants.py tests/test_staging.py \
	  tests/test_staging_partial.py

# the pass under valgrind on every lit input (tests/test_pass_memory.py runs
# a chosen few in `make test`), all in one coalda-opt-many process, which
# pays valgrind's start once: about 10 s (one opt-19 an input took about 6
# minutes on 2 cores). On a failure, each input that valgrind or the tool
# had something to say about: its begin line, the reports, its end line
# (valgrind-errors=N counts the errors valgrind did not print again)
memcheck: build
	@valgrind --error-exitcode=9 -q $(BUILD)/coalda-opt-many -load-pass-plugin=$(PLUGIN) -passes=coalda \
	  pass/test/*/*.ll 2>$(BUILD)/memcheck.log >/dev/null || \
	  { awk '/^coalda-opt-many: begin /{b=$$0; next} /^coalda-opt-many: end .* ok( valgrind-errors=0)?$$/{b=""; next} \
	    {if (b != "") print b; b=""; print}' $(BUILD)/memcheck.log; \
	    echo "memcheck: failed (every input's output: $(BUILD)/memcheck.log)"; exit 1; }
	@echo "memcheck: $$(ls pass/test/*/*.ll | wc -l) lit inputs, no valgrind error"

# the plugin built by g++ and by clang++-19 emits the same IR (about 3 minutes)
compilers-agree: setup
	scripts/compilers_agree.sh

clean:
	rm -rf $(BUILD) coalda-out

# the program corpus (corpus/README.md): build every recipe's program with and
# without COALDA into build/corpus and pack build/corpus.tar.gz for the GPU
# machine (run there: tar xzf build/corpus.tar.gz -C /tmp && python3
# scripts/corpus_gpu.py /tmp/corpus --repeat 3 --out corpus-run.json); then
# turn the runs' JSON into docs/programs.md and docs/programs/results.json:
#   make corpus-report RUNS="time.json sanitize.json" [GPU="NVIDIA H100"]
.PHONY: corpus-build corpus-report
RUNS ?= $(wildcard build/corpus-runs/*.json)
corpus-build: build
	$(BIN)/python scripts/corpus.py build $(if $(ONLY),--only $(ONLY))

corpus-report:
	$(BIN)/python scripts/corpus.py report $(RUNS) $(if $(GPU),--gpu "$(GPU)")

# the whole corpus census (no GPU): coalda analyze over every corpus program,
# checked against the pinned rewrite set (docs/programs/census.json); after a
# reviewed change of what the pass rewrites: make census-update
.PHONY: census census-update
census: build
	$(BIN)/python scripts/corpus_census.py --check docs/programs/census.json

census-update: build
	$(BIN)/python scripts/corpus_census.py --update

# where -O0 and -O3 decide differently on the corpus (no GPU, about a minute):
# against docs/programs/opt-levels.json; opt-levels-update rewrites it
.PHONY: opt-levels opt-levels-update
opt-levels: build
	$(BIN)/python scripts/opt_levels.py --check docs/programs/opt-levels.json

opt-levels-update: build
	$(BIN)/python scripts/opt_levels.py --update

# corpus programs built by their own Makefiles with CC=coalda-cc (six; make
# test builds one, softmax)
.PHONY: corpus-makefiles
corpus-makefiles: build
	COALDA_CORPUS_MAKE=all $(BIN)/pytest -q tests/test_corpus_makefiles.py
