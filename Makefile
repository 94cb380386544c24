# Makefile - build ptxdbg, its tests, benchmarks and examples (see README.md).
BUILD    ?= build
CC       ?= cc
OPT      ?= -O2
CFLAGS   ?= $(OPT) -g
# Include folders per layer: each layer sees the headers of the layers below it, and a front end
# (commands/, dap/, runtime/) only the engine's public folder, debugger/include/, so the compiler
# refuses a front end's call into core/ or dwarf/ (tests/check-layers.sh checks the sources too).
# The core's folders: ptx/ (the PTX front end), exec/ (the execution engine), isa/ (the
# instruction families), mem/ (state spaces); it takes the shared vocabulary (types, stops,
# exceptions: debugger/include/ptxdbg_types.h) from the public folder and nothing else there.
API_INC   = -Idebugger/include
CORE_INC  = -Icore/ptx -Icore/exec -Icore/isa -Icore/mem $(API_INC)
DWARF_INC = $(CORE_INC) -Idwarf
# The checkers observe the core and read DWARF; the engine drives them.
CHK_INC   = $(DWARF_INC) -Icheckers
ENGINE_INC = $(CHK_INC) -Idebugger
# Front ends also see the checkers' public header (checkers/chk.h: registry, findings and their
# formatting, over the shared vocabulary only; chk_int.h stays the checkers' own).
FE_INC    = $(API_INC) -Icheckers
CLI_INC   = $(FE_INC) -Icommands
DAP_INC   = $(FE_INC) -Idap -Icommands
# The runtime library is a front end like the others: it runs kernels (module load, memory
# mapping, launches) through the engine's execution API, debugger/include/dbg_target.h
# (docs/ARCHITECTURE.md "Layers"), and sees nothing of the core, DWARF or the engine's internals.
# The in-process front ends (commands/cmd_inproc.c, dap/dap_inproc.c) register their hooks with
# the engine (debugger/include/dbg_frontend.h); the runtime calls them through that table only.
RT_INC    = $(FE_INC) -Iruntime
# Tests may reach inside every layer.
TEST_INC  = $(ENGINE_INC) -Icommands -Idap -Itests
# Flags the code needs whatever CFLAGS says (CFLAGS may be given on the command line).
XCFLAGS   = -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -fno-strict-aliasing $(LAYER_INC)
DEPFLAGS  = -MMD -MP

# libdwarf: Debian 12 ships headers in /usr/include/libdwarf and no .pc file.
DWARF_CFLAGS ?= $(shell pkg-config --cflags libdwarf 2>/dev/null || echo -I/usr/include/libdwarf)
DWARF_LIBS   ?= $(shell pkg-config --libs libdwarf 2>/dev/null || echo -ldwarf)
CHECK_CFLAGS ?= $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS   ?= $(shell pkg-config --libs check 2>/dev/null || echo -lcheck -lsubunit -lrt -lpthread)
LIBS      = $(DWARF_LIBS) -lzstd -lm -lpthread -ldl

# Debian packages the build and the tests need (installed by `make deps`).
DEB_PKGS = gcc make pkg-config libdwarf-dev check libreadline-dev zlib1g-dev tmux libzstd-dev

CORE_SRC  = $(wildcard core/*/*.c)
DWARF_SRC = $(wildcard dwarf/*.c)
CHK_SRC   = $(wildcard checkers/*.c)
DBG_SRC   = $(wildcard debugger/*.c)
CMD_SRC   = $(filter-out commands/main.c,$(wildcard commands/*.c))
# The Debug Adapter Protocol front end (ptxdbg --dap; also inside the runtime library).
DAP_SRC   = $(wildcard dap/*.c)
LIB_SRC   = $(CORE_SRC) $(DWARF_SRC) $(CHK_SRC) $(DBG_SRC) $(CMD_SRC) $(DAP_SRC)
LIB_OBJ   = $(LIB_SRC:%.c=$(BUILD)/%.o)
LIB       = $(BUILD)/libptxdbg.a

TEST_SRC  = $(wildcard tests/test_*.c)
TEST_BIN  = $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)

.PHONY: all deps test unit e2e run bench clean sanitize tsan valgrind fuzz fuzz-long conformance runtime
all: deps-quiet ptxdbg runtime

# Install missing Debian packages (we are root on CI and fresh machines).
deps:
	@sh tests/install-deps.sh $(DEB_PKGS)
deps-quiet:
	@sh tests/install-deps.sh $(DEB_PKGS)

ptxdbg: $(BUILD)/commands/main.o $(LIB)
	$(CC) $(CFLAGS) $(XCFLAGS) -o $@ $^ $(LIBS)

$(LIB): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/dwarf/%.o: dwarf/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(XCFLAGS) $(DWARF_CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(XCFLAGS) $(FILE_CFLAGS) $(DEPFLAGS) -c -o $@ $<

# Per-file flags. The execution core (exec_float.c, exec_half.c, exec_cvt.c, exec_video.c,
# exec_mma.c and every other file doing float arithmetic) must never let the compiler fuse
# a*b+c into an fma, results being bit-exact PTX semantics: -std=c11 already turns contraction
# off (GNU modes default to -ffp-contract=fast); -ffp-contract=off states it whatever CFLAGS says.
$(BUILD)/core/%.o: FILE_CFLAGS += -ffp-contract=off

$(BUILD)/tests/%: tests/%.c $(LIB) $(wildcard tests/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(XCFLAGS) $(CHECK_CFLAGS) -Itests -o $@ $< $(LIB) $(CHECK_LIBS) $(LIBS)

# ---- the CUDA runtime: build/lib/libcudart.so.13 and libcuda.so.1 (docs/ARCHITECTURE.md) ----
# Position-independent objects of every layer but commands/main.c, plus runtime/*.c, plus stubs
# generated for the exported functions runtime/*.c does not define (runtime/gen-stubs.sh). Only
# the names in runtime/exports/*.txt are exported: the CUDA runtime ones with the symbol
# version libcudart.so.13 that nvcc-built programs import, the driver API ones beside them
# (libcuda.so.1 is a thin library that loads libcudart.so.13, so both share one state).
PIC       = $(BUILD)/pic
RT_SRC    = $(wildcard runtime/*.c)
RT_OBJ    = $(RT_SRC:%.c=$(PIC)/%.o)
PIC_OBJ   = $(LIB_SRC:%.c=$(PIC)/%.o)
RT_LIBS   = $(DWARF_LIBS) -lzstd -lm -lpthread -ldl
CUDART    = $(BUILD)/lib/libcudart.so.13
CUDADRV   = $(BUILD)/lib/libcuda.so.1
RT_EXPORTS = runtime/exports/cudart.txt runtime/exports/cuda.txt

runtime: $(CUDART) $(CUDADRV)

$(PIC)/dwarf/%.o: dwarf/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(XCFLAGS) -fPIC $(DWARF_CFLAGS) $(DEPFLAGS) -c -o $@ $<

# The driver API files (runtime/cu_*.c) call the runtime API functions of runtime/rt_*.c through
# prototypes generated from their definitions (runtime/gen-rtapi.sh).
RT_GEN    = $(BUILD)/gen/cu_rtapi.h
RT_RTSRC  = $(filter runtime/rt_%.c,$(RT_SRC))
$(RT_GEN): runtime/gen-rtapi.sh $(RT_RTSRC)
	@mkdir -p $(dir $@)
	sh runtime/gen-rtapi.sh $@ $(RT_RTSRC)

$(PIC)/runtime/%.o: runtime/%.c | $(RT_GEN)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(XCFLAGS) -fPIC -Iruntime -I$(BUILD)/gen $(DEPFLAGS) -c -o $@ $<

$(BUILD)/runtime/%.o: runtime/%.c | $(RT_GEN)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(XCFLAGS) -Iruntime -I$(BUILD)/gen $(DEPFLAGS) -c -o $@ $<

$(PIC)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(XCFLAGS) -fPIC $(FILE_CFLAGS) $(DEPFLAGS) -c -o $@ $<
$(PIC)/core/%.o: FILE_CFLAGS += -ffp-contract=off

# Which include folders each layer's objects get (LAYER_INC, in XCFLAGS).
$(BUILD)/core/%.o $(PIC)/core/%.o: LAYER_INC = $(CORE_INC)
$(BUILD)/dwarf/%.o $(PIC)/dwarf/%.o: LAYER_INC = $(DWARF_INC)
$(BUILD)/checkers/%.o $(PIC)/checkers/%.o: LAYER_INC = $(CHK_INC)
$(BUILD)/debugger/%.o $(PIC)/debugger/%.o: LAYER_INC = $(ENGINE_INC)
$(BUILD)/commands/%.o $(PIC)/commands/%.o: LAYER_INC = $(CLI_INC)
# main.c starts either front end: the CLI or the DAP server (dap.h)
$(BUILD)/commands/main.o: LAYER_INC = $(CLI_INC) -Idap
$(BUILD)/dap/%.o $(PIC)/dap/%.o: LAYER_INC = $(DAP_INC)
$(BUILD)/runtime/%.o $(PIC)/runtime/%.o $(PIC)/rt_stubs.o $(CUDADRV): LAYER_INC = $(RT_INC)
$(BUILD)/tests/%: LAYER_INC = $(TEST_INC)

$(PIC)/rt_stubs.c: runtime/gen-stubs.sh $(RT_EXPORTS) $(RT_OBJ)
	@mkdir -p $(PIC)
	sh runtime/gen-stubs.sh $(PIC) $(RT_OBJ)
$(PIC)/libcudart.map: $(PIC)/rt_stubs.c

$(PIC)/rt_stubs.o: $(PIC)/rt_stubs.c
	$(CC) $(CFLAGS) $(XCFLAGS) -fPIC -Iruntime -c -o $@ $<

$(CUDART): $(RT_OBJ) $(PIC)/rt_stubs.o $(PIC_OBJ) $(PIC)/libcudart.map
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -shared -o $@ -Wl,-soname,libcudart.so.13 -Wl,-z,defs \
	    -Wl,-Bsymbolic -Wl,--version-script=$(PIC)/libcudart.map \
	    $(RT_OBJ) $(PIC)/rt_stubs.o $(PIC_OBJ) $(RT_LIBS)
	ln -sf libcudart.so.13 $(BUILD)/lib/libcudart.so

$(CUDADRV): runtime/drv/libcuda.c $(CUDART)
	$(CC) $(CFLAGS) $(XCFLAGS) $(LDFLAGS) -fPIC -shared -o $@ -Wl,-soname,libcuda.so.1 \
	    runtime/drv/libcuda.c -Wl,--no-as-needed $(CUDART) -Wl,-rpath,'$$ORIGIN'
	ln -sf libcuda.so.1 $(BUILD)/lib/libcuda.so

# The runtime's Check suites link the runtime's objects (not position-independent) statically.
RT_TOBJ = $(RT_SRC:%.c=$(BUILD)/%.o)
RT_TESTS = $(BUILD)/tests/test_runtime $(BUILD)/tests/test_rtapi $(BUILD)/tests/test_cudrv \
           $(BUILD)/tests/test_rtasync
$(RT_TESTS): $(BUILD)/tests/%: tests/%.c $(RT_TOBJ) $(LIB) $(wildcard tests/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(XCFLAGS) $(CHECK_CFLAGS) -Itests -Iruntime -o $@ $< $(RT_TOBJ) $(LIB) \
	    $(CHECK_LIBS) $(LIBS) -lzstd

# Every Check suite, then the end-to-end batch tests.
test: deps-quiet ptxdbg runtime $(TEST_BIN)
	@command -v node >/dev/null && command -v npm >/dev/null || sh tests/install-deps.sh nodejs npm
	@sh tests/run-tests.sh $(BUILD) $(TEST_BIN)

unit: $(TEST_BIN)
	@for t in $(TEST_BIN); do $$t || exit 1; done

e2e: ptxdbg
	@sh tests/e2e.sh ./ptxdbg

run: deps-quiet ptxdbg
	./ptxdbg examples/saxpy.ptx

bench: deps-quiet ptxdbg
	@sh tests/bench.sh

# The whole suite built with AddressSanitizer and UndefinedBehaviorSanitizer.
SAN_FLAGS = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
# CUDA programs (tests/cuda.sh) run on the regular runtime library, which build-san/lib names:
# an instrumented libcudart.so.13 would need libasan preloaded into every program.
sanitize: deps-quiet runtime
	$(MAKE) BUILD=build-san CFLAGS="$(SAN_FLAGS)" LDFLAGS="$(SAN_FLAGS)" build-san/ptxdbg-bin \
	    $(TEST_SRC:tests/%.c=build-san/tests/%)
	cp build-san/ptxdbg-bin build-san/ptxdbg
	ln -sfn ../$(BUILD)/lib build-san/lib
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	    PTXDBG=build-san/ptxdbg sh tests/run-tests.sh build-san $(TEST_SRC:tests/%.c=build-san/tests/%)

# The suites of the parallel paths (worker threads, inter-CTA runs, the runtime's stream
# workers and running kernels) under ThreadSanitizer: every access workers make to shared state
# must be free of C data races. CK_FORK=no runs the checks in the suite's process, where TSan
# reports (exit code 66) end the run. tests/tsan.supp names the races a test makes on purpose.
TSAN_FLAGS = -O1 -g -fsanitize=thread -fno-omit-frame-pointer
TSAN_TESTS = test_threads test_intercta test_checkers test_rtasync
tsan: deps-quiet
	$(MAKE) BUILD=build-tsan CFLAGS="$(TSAN_FLAGS)" LDFLAGS="$(TSAN_FLAGS)" \
	    $(TSAN_TESTS:%=build-tsan/tests/%)
	@for t in $(TSAN_TESTS); do \
	    CK_FORK=no TSAN_OPTIONS="halt_on_error=1 exitcode=66 suppressions=tests/tsan.supp" \
	        build-tsan/tests/$$t || exit 1; \
	done

$(BUILD)/ptxdbg-bin: $(BUILD)/commands/main.o $(LIB)
	$(CC) $(CFLAGS) $(XCFLAGS) -o $@ $^ $(LIBS)

# The whole suite under valgrind memcheck (no fork so leaks are seen per test binary).
valgrind: deps-quiet ptxdbg $(TEST_BIN)
	@command -v valgrind >/dev/null || sh tests/install-deps.sh valgrind
	CK_FORK=no VALGRIND="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite" \
	    sh tests/run-tests.sh $(BUILD) $(TEST_BIN)

# Every fuzz harness for FUZZ_SECONDS each (libFuzzer via clang; tests/fuzz.sh prints a table
# of executions, exec/s and crashes). fuzz-long: each harness to FUZZ_RUNS executions.
FUZZ_SECONDS ?= 60
FUZZ_RUNS ?= 1000000
fuzz: deps-quiet
	sh tests/fuzz.sh $(FUZZ_SECONDS)
fuzz-long: deps-quiet
	FUZZ_RUNS=$(FUZZ_RUNS) sh tests/fuzz.sh 0

clean:
	rm -rf $(BUILD) build-* ptxdbg

-include $(LIB_OBJ:.o=.d) $(BUILD)/commands/main.d $(PIC_OBJ:.o=.d) $(RT_OBJ:.o=.d) \
    $(RT_TOBJ:.o=.d)

# docs/CONFORMANCE.md: status and tests of every opcode of core/ptx/ptx_ops.def.
conformance:
	@sh tests/conformance.sh docs/CONFORMANCE.md
