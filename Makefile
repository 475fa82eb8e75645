# symwalk: the kernel's symlink walk, documented, traced and steppable in gdb.
# `make help` lists the targets.

SHELL := /bin/bash
.DEFAULT_GOAL := help

TARBALL   ?= /usr/src/linux-source-6.12.tar.xz
BUILD     := build
TREE      := $(BUILD)/linux
KBUILD    := $(BUILD)/kbuild
FRAGMENT  := config/symwalk.config
GUEST_BIN := $(BUILD)/guest
INITRAMFS := $(BUILD)/initramfs.cpio
GDB_PORT  ?= 1234
LAB       ?=
BATCH     ?=
# make lab TUI=1: gdb's TUI with the walk's window (lx-walk-tui)
TUI       ?=
# The guest's vCPUs for make run and make lab (make check picks its own)
SMP       ?= 1

# The guest tests: tests/guest/, and (below) the fuzzer and the race, which
# link the model and are built by model/Makefile from model/fuzz/.
GUEST_TESTS := $(patsubst tests/guest/%.c,$(GUEST_BIN)/tests/%,$(wildcard tests/guest/*.c))
# The kernel's own selftests, built from the patched tree: the series' own
# and openat2's.
SELFTESTS   := $(TREE)/tools/testing/selftests
KSELFTESTS  := $(addprefix $(GUEST_BIN)/tests/ksft-namei-,symlink_budget_test retry_budget_test) \
	       $(addprefix $(GUEST_BIN)/tests/ksft-openat2-,openat2_test resolve_test rename_attack_test)
GUEST_TOOLS := $(patsubst guest/tools/%.c,$(GUEST_BIN)/tools/%,$(wildcard guest/tools/*.c))
# What the initramfs packs of the labs (their narratives, gdb steps and
# expectations stay on the host: editing one repacks nothing).
LAB_FILES   := $(wildcard $(foreach d,labs tests/gdb bench,$(d)/*/setup.sh $(d)/*/trigger) \
		 guest/scenarios/*.sh exercises/*.sh exercises/*/grade.sh)
GUEST_CFLAGS := -static -O2 -Wall -Werror -I$(TREE)/tools/testing/selftests

GUEST := python3 scripts/guest.py --kbuild $(KBUILD) --initramfs $(INITRAMFS)

.PHONY: help deps tree refresh-patches kernel pristine-kernel initramfs run gdb lab labs grade labs-soak check coverage coverage-kernel bench series-check debug-kernel debug-check clean distclean

help:
	@echo "symwalk: the kernel's symlink walk, documented, traced and steppable in gdb"
	@echo
	@echo "  make lab [LAB=name] [BATCH=1] [TUI=1]  boot the guest paused, attach gdb, stop in the walk"
	@echo "                        (TUI=1: gdb shows the walk in a window, redrawn at every stop)"
	@echo "  make grade LAB=name [ANSWERS=file]  run the lab, grade your predictions (answers/name.txt)"
	@echo "  make exercise NAME=name  start an exercise (exercises/name/README.rst); make exercises lists them"
	@echo "  make grade EXERCISE=name  build your change to the walk, boot it, run the exercise's grader"
	@echo "  make exercises-check  every exercise's grader fails on its start and passes on its solution"
	@echo "  make exercises-soak [RUNS=20] [LOAD=2] [NAME=x]  each grader RUNS times on its solution, the host loaded"
	@echo "  make labs-soak [RUNS=20] [LOAD=2] [LAB=names]  every lab RUNS times in a row, the host loaded"
	@echo "  make labs                      list the labs"
	@echo "  make check                     build everything and run every test"
	@echo "  make coverage                  the guest parts of make check on a kernel with gcov on"
	@echo "                                 fs/namei.o: lines and branches of the walk, by part and lab"
	@echo "  make bench [FRESH=1] [RUNS=n]  what the series, its events and the environment cost,"
	@echo "                                 pristine vs patched in QEMU icount (a benchmark, not a test)"
	@echo "  make series-check              each patch: git am on pristine, kernel build, checkpatch,"
	@echo "                                 kernel-doc; results in build/series-check (the series pages)"
	@echo "  make debug-check               a LOCKDEP/PROVE_RCU/KASAN kernel, every namei event on:"
	@echo "                                 guest tests and labs, then no splat in any console"
	@echo
	@echo "  make deps             install the Debian packages symwalk uses (those missing)"
	@echo "  make tree             unpack $(TARBALL) into $(TREE) and apply patches/"
	@echo "  make refresh-patches  write $(TREE)'s commits back to patches/ (git format-patch)"
	@echo "  make kernel           build $(KBUILD)/vmlinux and bzImage (tinyconfig + $(FRAGMENT))"
	@echo "  make initramfs        pack busybox, the guest programs and the labs into $(INITRAMFS)"
	@echo "  make docs             the Sphinx site in $(BUILD)/docs/html (docs-screenshot: PNGs of it)"
	@echo "  make run [SMP=2]      boot the guest to a shell (SMP=2: two vCPUs); gdbstub on localhost:$(GDB_PORT)"
	@echo "  make gdb              attach gdb, with the kernel's lx-* and symwalk's helpers, to 'make run'"
	@echo "  make clean            remove the builds, keep $(TREE) (it may hold your commits)"
	@echo "  make distclean        remove all of $(BUILD)/, refusing if $(TREE) holds unexported work"

deps:
	@scripts/deps.sh

tree: deps
	@scripts/tree.sh $(TARBALL) $(TREE) patches

refresh-patches: deps
	@scripts/refresh-patches.sh $(TREE) patches

kernel: tree
	@scripts/kernel.sh $(TREE) $(KBUILD) $(FRAGMENT)

# Packed by the kernel's own gen_init_cpio; a make of its own, so that the
# wildcards below see the tree make tree just unpacked.
initramfs: kernel
	@$(MAKE) -s --no-print-directory $(INITRAMFS)

# Kbuild builds usr/gen_init_cpio with the kernel (CONFIG_BLK_DEV_INITRD).
$(KBUILD)/usr/gen_init_cpio:
	@test -x $@ || { echo "$@: the kernel's build did not make it (is CONFIG_BLK_DEV_INITRD set?)" >&2; exit 1; }

HARNESS := $(wildcard $(TREE)/tools/testing/selftests/kselftest*.h)

$(GUEST_BIN)/tests/%: tests/guest/%.c $(wildcard tests/guest/*.h) $(HARNESS)
	@mkdir -p $(@D)
	gcc $(GUEST_CFLAGS) -o $@ $<

# The differential fuzzer and the race link the userspace model of the walk
# and live with it, in model/fuzz/; they name the events' symbolic values
# as the tree's namei.h does (scripts/symwalk/events.py).
MODEL_FILES := $(wildcard model/*.[ch] model/fuzz/*.[ch]) model/Makefile \
	       scripts/symwalk/events.py $(TREE)/include/trace/events/namei.h
MODEL_GUEST_TESTS := $(addprefix $(GUEST_BIN)/tests/,fuzz_walk race_walk)
GUEST_TESTS += $(MODEL_GUEST_TESTS)
$(MODEL_GUEST_TESTS) &: $(MODEL_FILES) $(HARNESS)
	@$(MAKE) -s -C model guest OUT=$(abspath $(@D)) KSELFTEST=$(abspath $(SELFTESTS)) \
		TREE=$(abspath $(TREE)) GEN=$(abspath $(BUILD)/model)

$(GUEST_BIN)/tests/ksft-namei-%: $(SELFTESTS)/namei/%.c $(HARNESS)
	@mkdir -p $(@D)
	gcc $(GUEST_CFLAGS) -o $@ $<

# Static, so without the sanitizers openat2's own Makefile asks for.
$(GUEST_BIN)/tests/ksft-openat2-%: $(SELFTESTS)/openat2/%.c $(SELFTESTS)/openat2/helpers.c $(HARNESS)
	@mkdir -p $(@D)
	gcc $(GUEST_CFLAGS) -o $@ $(filter %.c,$^)

# The rename race's 2 x 400,000 rounds take 114 s of the guest's one TCG
# vCPU, more than the rest of make check together: a quarter of them, the
# race still run 200,000 times. Its source is the tree's, the count changed
# on the way to the compiler (and the build fails if upstream renames it).
RENAME_ATTACK_ROUNDS := 100000
$(GUEST_BIN)/tests/ksft-openat2-rename_attack_test: $(SELFTESTS)/openat2/rename_attack_test.c $(SELFTESTS)/openat2/helpers.c $(HARNESS) Makefile
	@mkdir -p $(@D)
	@grep -q '^#define ROUNDS [0-9]*$$' $< || \
		{ echo "$<: no '#define ROUNDS N' line to lower" >&2; exit 1; }
	sed 's/^#define ROUNDS [0-9]*$$/#define ROUNDS $(RENAME_ATTACK_ROUNDS)/' $< | \
		gcc $(GUEST_CFLAGS) -I$(SELFTESTS)/openat2 -o $@ -x c - -x none $(SELFTESTS)/openat2/helpers.c

$(GUEST_BIN)/tools/%: guest/tools/%.c
	@mkdir -p $(@D)
	gcc $(GUEST_CFLAGS) -o $@ $<

$(INITRAMFS): $(wildcard guest/initramfs/*) $(KBUILD)/usr/gen_init_cpio $(GUEST_TESTS) $(KSELFTESTS) $(GUEST_TOOLS) $(LAB_FILES)
	@guest/initramfs/mkinitramfs.sh $(KBUILD)/usr/gen_init_cpio $(GUEST_BIN) $@

run: kernel initramfs
	@$(GUEST) --cpus $(SMP) run --gdb-port $(GDB_PORT)

gdb: deps
	@$(GUEST) gdb --gdb-port $(GDB_PORT)

# EXERCISE=name: against the kernel of that exercise's worktree, as the
# student changed it (make exercise NAME=name starts it).
LAB_KBUILD = $(if $(EXERCISE),$(BUILD)/exercise/kbuild,$(KBUILD))

lab: kernel initramfs
	@$(if $(EXERCISE),python3 scripts/exercise.py build $(EXERCISE))
	@$(if $(BATCH),,python3 scripts/grade.py template $(or $(LAB),01))
	@python3 scripts/guest.py --kbuild $(LAB_KBUILD) --initramfs $(INITRAMFS) --cpus $(SMP) \
		lab --gdb-port $(GDB_PORT) $(if $(BATCH),--batch) $(if $(TUI),--tui) $(LAB)

labs:
	@$(GUEST) labs

# make grade LAB=x: the lab run in batch, the predictions in answers/x.txt
# (ANSWERS=file) graded against what it showed (with EXERCISE=y, on that
# exercise's kernel). make grade EXERCISE=x: the exercise's worktree built,
# booted and graded, then its predictions, answers/exercise-x.txt
# (mk/exercises.mk).
grade: kernel initramfs
	@$(if $(LAB)$(EXERCISE),,echo "make grade needs LAB=name or EXERCISE=name (make labs, make exercises)" >&2; exit 2)
	@$(if $(and $(LAB),$(EXERCISE)),python3 scripts/exercise.py build $(EXERCISE))
	@$(if $(LAB),python3 scripts/grade.py --kbuild $(LAB_KBUILD) --initramfs $(INITRAMFS) \
		lab $(LAB) $(if $(ANSWERS),--answers $(ANSWERS)), \
		python3 scripts/exercise.py grade $(EXERCISE) $(if $(ANSWERS),--answers $(ANSWERS)))

# Every lab RUNS times in a row beside LOAD CPU-bound processes (LAB=: some)
labs-soak: kernel initramfs
	@python3 scripts/labs_soak.py --runs $(or $(RUNS),20) --load $(or $(LOAD),2) $(LAB)

series-check: tree
	@scripts/deps.sh python3-ply	# checkpatch's SPDX check (spdxcheck.py)
	@scripts/series-check.sh $(TREE) patches $(FRAGMENT) $(BUILD)/series-check

KBUILD_DEBUG := $(BUILD)/kbuild-debug

debug-kernel: tree
	@scripts/kernel.sh $(TREE) $(KBUILD_DEBUG) $(FRAGMENT) config/debug.config

debug-check: debug-kernel initramfs
	@python3 scripts/check.py --debug --kbuild $(KBUILD_DEBUG) --initramfs $(INITRAMFS)

# The benchmark's baseline: Debian's source without the series, built with
# the patched kernel's own .config, in a folder of its own. Unpacked again
# only when the tarball changes; Kbuild rebuilds only what the .config
# changes.
PRISTINE_TREE   := $(BUILD)/pristine/linux
PRISTINE_KBUILD := $(BUILD)/pristine/kbuild

$(PRISTINE_TREE)/Makefile: $(TARBALL)
	@echo "pristine: unpacking $(TARBALL) into $(PRISTINE_TREE)"
	@rm -rf $(PRISTINE_TREE) && mkdir -p $(PRISTINE_TREE)
	@tar -xf $(TARBALL) -C $(PRISTINE_TREE) --strip-components=1
	@touch $@

pristine-kernel: kernel
	@$(MAKE) -s --no-print-directory $(PRISTINE_TREE)/Makefile
	@scripts/kernel.sh --config $(KBUILD)/.config $(PRISTINE_TREE) $(PRISTINE_KBUILD)

BENCH_FLAGS := $(if $(FRESH),--fresh) $(if $(RUNS),--runs $(RUNS)) \
	$(if $(ITERATIONS),--iterations $(ITERATIONS)) $(if $(ONLY),--only $(ONLY))

# Its results go to results/bench, kept in the repository (commit them): the
# site shows them, with the date and the commit they measured.
bench: kernel pristine-kernel initramfs
	@python3 scripts/bench.py --kbuild $(KBUILD) --pristine $(PRISTINE_KBUILD) \
		--initramfs $(INITRAMFS) --out results/bench $(BENCH_FLAGS)

check: kernel initramfs
	@python3 scripts/check.py --kbuild $(KBUILD) --initramfs $(INITRAMFS)

# The guest parts of make check again, on a kernel whose fs/namei.o counts
# the lines and branches it runs (gcov): which of the walk each part and
# each lab reaches, and that every line of it is reached or listed in
# tests/coverage/unreached with its reason. Its own build folder: the main
# kernel carries no counters.
KBUILD_COVERAGE := $(BUILD)/kbuild-coverage

coverage-kernel: tree
	@scripts/kernel.sh --make-var GCOV_PROFILE_namei.o=y $(TREE) $(KBUILD_COVERAGE) \
		$(FRAGMENT) config/coverage.config

coverage: coverage-kernel initramfs
	@scripts/deps.sh gcovr
	@python3 scripts/namei_coverage.py --kbuild $(KBUILD_COVERAGE) --initramfs $(INITRAMFS) \
		--tree $(TREE) --out $(BUILD)/coverage

# Fragments of other parts of symwalk (docs, model, ...) hook in here.
MK_FRAGMENTS := $(sort $(wildcard mk/*.mk))
ifneq ($(MK_FRAGMENTS),)
include $(MK_FRAGMENTS)
endif

clean:
	rm -rf $(KBUILD) $(BUILD)/kbuild-debug $(KBUILD_COVERAGE) $(BUILD)/coverage $(BUILD)/run-coverage $(BUILD)/series-check $(BUILD)/model $(BUILD)/docs $(GUEST_BIN) $(BUILD)/run $(BUILD)/run-debug $(BUILD)/gdb-index-cache $(INITRAMFS) $(INITRAMFS).list

distclean:
	@if [ -d $(TREE)/.git ]; then scripts/tree.sh --check-only $(TARBALL) $(TREE) patches; fi
	rm -rf $(BUILD)
