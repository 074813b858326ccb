# SPDX-License-Identifier: GPL-2.0
# The undertaker suite: git undertaker, git vampyr, git backport.
#
#   make                 build the three commands into $(O)/bin
#   make test            build and run the test suite (prove, TAP)
#   make test SANITIZE=1 the same under -fsanitize=address,undefined
#   make test SANITIZE=thread  the same under -fsanitize=thread
#   make install prefix=DIR   executables into DIR/bin, man pages into DIR/share/man
#   make deps            install the Debian packages the build and the tests need
#   make doc             the man pages (asciidoctor)
#   make fuzz [FUZZ_SECONDS=N]  each libFuzzer target of fuzz/ for N seconds (clang)

prefix ?= /usr/local
bindir ?= $(prefix)/bin
libexecdir ?= $(prefix)/libexec
mandir ?= $(prefix)/share/man
man1dir = $(mandir)/man1

CC ?= cc
PKG_CONFIG ?= pkg-config
PROVE ?= prove
PROVE_OPTS ?= -j2

ifeq ($(SANITIZE),1)
O ?= build-sanitize
SAN_FLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
OPT ?= -O1
else ifeq ($(SANITIZE),thread)
# The threads of the census, the range workers and git backport: data races.
O ?= build-tsan
SAN_FLAGS = -fsanitize=thread
OPT ?= -O2
else ifeq ($(SANITIZE),fuzz)
# libFuzzer targets (make fuzz): the library instrumented for coverage.
O ?= build-fuzz
SAN_FLAGS = -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined -DUT_LIBFUZZER
OPT ?= -O1
else
O ?= build
SAN_FLAGS =
OPT ?= -O2
endif

VERSION := $(shell cat VERSION 2>/dev/null)$(shell git rev-parse --short HEAD 2>/dev/null | sed 's/^/-g/')

PKGS = libgit2 libpcre2-8
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null)

WARNINGS = -Wall -Wextra -Werror -Wno-unused-parameter -Wshadow=local -Wno-missing-field-initializers
ifeq ($(findstring clang,$(shell $(CC) --version 2>/dev/null)),clang)
WARNINGS := $(filter-out -Wshadow=local,$(WARNINGS)) -Wshadow
endif
ALL_CFLAGS = -std=gnu11 $(OPT) -g $(WARNINGS) $(SAN_FLAGS) -pthread -Icommon $(PKG_CFLAGS) $(CFLAGS)
ALL_LDFLAGS = $(SAN_FLAGS) -pthread $(LDFLAGS)
# The SAT solver, CaDiCaL, is C++: its one wrapper (common/sat-cadical.cc) is
# compiled by the C++ compiler of $(CC)'s family, and the C++ library linked.
# clang's C driver links no C++ runtime of UBSan: its two C++-only checks are off there.
UT_CXX := $(if $(findstring clang,$(CC)),clang++,g++)
CXX_SAN := $(if $(findstring clang,$(CC)),-fno-sanitize=vptr -fno-sanitize=function)
ALL_CXXFLAGS = -std=c++11 $(OPT) -g -Wall -Wextra -Werror $(SAN_FLAGS) $(CXX_SAN) -pthread -Icommon $(CXXFLAGS)
LIBS = $(PKG_LIBS) -lcadical -lstdc++ -lm

COMMON_SRC := $(sort $(wildcard common/*.c common/*.cc))
COMMON_OBJ := $(patsubst %.cc,$(O)/%.o,$(COMMON_SRC:%.c=$(O)/%.o))
LIB := $(O)/libundertaker.a

COMMANDS = git-undertaker git-vampyr git-backport
CMD_BIN := $(COMMANDS:%=$(O)/bin/%)
HELPER_SRC := $(sort $(wildcard t/helper/*.c))
HELPER_BIN := $(HELPER_SRC:t/helper/%.c=$(O)/t/helper/%)

MAN_SRC := $(sort $(wildcard Documentation/git-*.adoc))
MAN_PAGES := $(MAN_SRC:Documentation/%.adoc=$(O)/man/%.1)
# Shared sections (options, revisions) that the pages include.
MAN_INCLUDES := $(filter-out $(MAN_SRC),$(wildcard Documentation/*.adoc))

# git vampyr's keeper of compiler probe answers (git-vampyr/probes.c finds it
# beside its own executable, in ../libexec/undertaker/): libc only, so that
# each of the ~60 probes of a kconfig run starts in a millisecond or two.
VAMPYR_CC := $(O)/libexec/undertaker/vampyr-cc

all: $(CMD_BIN) $(HELPER_BIN) $(VAMPYR_CC)

$(O)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(O)/%.o: %.cc
	@mkdir -p $(dir $@)
	$(UT_CXX) $(ALL_CXXFLAGS) -MMD -MP -c -o $@ $<

# The version is compiled into one object only, rebuilt when it changes.
$(O)/version.c: FORCE
	@mkdir -p $(O)
	@printf 'const char suite_version[] = "%s";\n' '$(VERSION)' > $@.tmp
	@cmp -s $@.tmp $@ 2>/dev/null && rm -f $@.tmp || mv $@.tmp $@
$(O)/version.o: $(O)/version.c
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(LIB): $(COMMON_OBJ) $(O)/version.o
	@rm -f $@
	$(AR) rcs $@ $^

define command_rule
$(1)_SRC := $$(sort $$(wildcard $(1)/*.c))
$(1)_OBJ := $$($(1)_SRC:%.c=$(O)/%.o)
$(O)/bin/$(1): $$($(1)_OBJ) $(LIB)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(ALL_LDFLAGS) -o $$@ $$($(1)_OBJ) $(LIB) $$(LIBS)
endef
$(foreach c,$(COMMANDS),$(eval $(call command_rule,$(c))))

# util's strbuf, write_all and find_program only: libgit2 and the rest stay out.
$(VAMPYR_CC): $(O)/git-vampyr/cc/vampyr-cc.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) -o $@ $< $(LIB)

$(O)/t/helper/%: $(O)/t/helper/%.o $(LIB)
	$(CC) $(ALL_LDFLAGS) -o $@ $(filter %.o,$^) $(LIB) $(LIBS)
# The note format of git undertaker, tested through its own header.
$(O)/t/helper/test-unote: $(O)/git-undertaker/unote.o $(O)/git-undertaker/defect.o

# Fuzzing: each target of fuzz/ runs FUZZ_SECONDS from its seed corpus in the
# tree (fuzz/corpus/<target>/, left untouched: new inputs go to $(O)/fuzz-work/).
# A crash, a timeout (FUZZ_TIMEOUT s for one input) or more than FUZZ_RSS_MB
# stops that target, leaves the input in $(O)/fuzz-artifacts/ and fails
# make; each log ends with libFuzzer's "Done N runs in S second(s)".
FUZZ_SECONDS ?= 60
# One input may take this long (wall clock). An input that drives the Kbuild
# or Kconfig expansion to its cap (16 MiB) takes about 2 s of CPU under ASan;
# 20 s fired only on a machine loaded six times over its cores.
FUZZ_TIMEOUT ?= 60
FUZZ_RSS_MB ?= 2048
FUZZ_TARGETS := $(patsubst fuzz/fuzz-%.c,%,$(sort $(wildcard fuzz/fuzz-*.c)))
FUZZ_BIN := $(FUZZ_TARGETS:%=$(O)/fuzz/fuzz-%)

$(O)/fuzz/fuzz-%: $(O)/fuzz/fuzz-%.o $(LIB)
	$(CC) $(ALL_LDFLAGS) -fsanitize=fuzzer -o $@ $< $(LIB) $(LIBS)

# The same entry points without libFuzzer, built as everything else is:
# t0030 replays every input kept in fuzz/corpus/ (seeds and the crashes found).
REPLAY_BIN := $(FUZZ_TARGETS:%=$(O)/fuzz/replay-%)
$(O)/fuzz/replay-%: $(O)/fuzz/fuzz-%.o $(O)/fuzz/replay.o $(LIB)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LIBS)
ifneq ($(SANITIZE),fuzz)
all: $(REPLAY_BIN)
endif

ifeq ($(SANITIZE),fuzz)
fuzz: $(FUZZ_BIN)
	@mkdir -p $(O)/fuzz-artifacts
	@set -e; for t in $(FUZZ_TARGETS); do \
		mkdir -p $(O)/fuzz-work/$$t; \
		echo "fuzz-$$t: $(FUZZ_SECONDS) s, log in $(O)/fuzz-$$t.log"; \
		if ! $(O)/fuzz/fuzz-$$t -max_total_time=$(FUZZ_SECONDS) -timeout=$(FUZZ_TIMEOUT) \
			-rss_limit_mb=$(FUZZ_RSS_MB) -close_fd_mask=3 -print_final_stats=1 \
			-artifact_prefix=$(O)/fuzz-artifacts/$$t- \
			$(O)/fuzz-work/$$t fuzz/corpus/$$t >$(O)/fuzz-$$t.log 2>&1; then \
			tail -n 40 $(O)/fuzz-$$t.log; echo "fuzz-$$t FAILED"; exit 1; \
		fi; \
		grep -E '^Done [0-9]+ runs' $(O)/fuzz-$$t.log | sed "s/^/fuzz-$$t: /"; \
	done
else
fuzz:
	+$(MAKE) SANITIZE=fuzz CC=clang fuzz
endif

doc: $(MAN_PAGES)
$(O)/man/%.1: Documentation/%.adoc $(MAN_INCLUDES)
	@mkdir -p $(dir $@)
	asciidoctor -b manpage -a mansource="undertaker suite" -a manversion='$(VERSION)' -o $@ $<

test: all kconfig test-lint
	cd t && UT_BUILD_DIR='$(abspath $(O))' $(PROVE) $(PROVE_OPTS) $(T:%=./%) $(if $(T),,./t[0-9]*.sh)

# Each test script has a number of its own: two t/tNNNN-*.sh of one number
# are refused before anything runs (git's t/Makefile lints the same).
test-lint:
	@dups=$$(cd t && ls t[0-9]*.sh | sed 's/-.*//' | sort | uniq -d); \
	for n in $$dups; do echo "error: t/$$n is the number of more than one script:" $$(cd t && ls $$n-*.sh) >&2; done; \
	test -z "$$dups"

install: all doc
	install -d '$(DESTDIR)$(bindir)' '$(DESTDIR)$(man1dir)'
	install -m 755 $(CMD_BIN) '$(DESTDIR)$(bindir)'
	install -d '$(DESTDIR)$(libexecdir)/undertaker'
	install -m 755 $(VAMPYR_CC) '$(DESTDIR)$(libexecdir)/undertaker'
	$(if $(MAN_PAGES),install -m 644 $(MAN_PAGES) '$(DESTDIR)$(man1dir)')

# Build: libgit2, pcre2, CaDiCaL. Tests: sharness, prove (perl), unifdef, the
# kernel's kconfig (built from linux-source by the tests' own setup), spatch,
# and picosat, a solver of its own as the oracle of the DIMACS exports.
DEB_BUILD = build-essential pkg-config libgit2-dev libpcre2-dev libcadical-dev clang libclang-rt-14-dev asciidoctor
DEB_TEST = git sharness perl unifdef flex bison kconfig-frontends coccinelle man-db python3 python3-jsonschema bc xz-utils picosat \
	linux-source-6.1
# bench/vampyr-history.sh builds U-Boot for other architectures too, and its sandbox.
DEB_BENCH = gcc-aarch64-linux-gnu gcc-arm-linux-gnueabihf gcc-riscv64-linux-gnu gcc-m68k-linux-gnu \
	gcc-powerpc-linux-gnu gcc-mips-linux-gnu gcc-sh4-linux-gnu gcc-arc-linux-gnu \
	swig python3-dev python3-setuptools libgnutls28-dev uuid-dev libssl-dev
deps:
	@if [ "$$(id -u)" != 0 ]; then \
		echo "make deps installs Debian packages with apt-get and needs root:"; \
		echo "  build: $(DEB_BUILD)"; \
		echo "  tests: $(DEB_TEST)"; \
		echo "  bench: $(DEB_BENCH)"; \
		echo "Run it as root (sudo make deps), or install those packages yourself."; \
		exit 1; \
	fi
	DEBIAN_FRONTEND=noninteractive apt-get update -q
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $(DEB_BUILD) $(DEB_TEST) $(DEB_BENCH)

# The kernel's own kconfig front end, "conf", as the tests' oracle (prereq KCONF):
# only scripts/kconfig/ (and scripts/include/, which newer kernels need) is taken
# from Debian's linux-source tarball. Its Makefile needs the whole kbuild, so the
# lexer and parser are generated the way kbuild does and the sources compiled
# directly. The member pattern matches the files of both directories (and of
# nothing else in scripts/), so that tar does not fail on a kernel that has no
# scripts/include/ (6.1) yet still takes it where there is one (6.12).
LINUX_SOURCE ?= /usr/src/linux-source-6.1.tar.xz
HOSTCC ?= gcc
FLEX ?= flex
BISON ?= bison
KCONFIG_OBJS = conf confdata expr lexer.lex menu parser.tab preprocess symbol util
KCONFIG_SRCDIR = $(O)/kconfig/src/scripts/kconfig

ifneq ($(wildcard $(LINUX_SOURCE)),)
kconfig: $(O)/kconfig/conf
else
kconfig:
	@echo "note: $(LINUX_SOURCE) not found (Debian package linux-source-6.1, see 'make deps'):"
	@echo "note: the kernel's kconfig is not built; tests that need it (prereq KCONF) are skipped."
endif

$(O)/kconfig/conf: $(LINUX_SOURCE)
	@rm -rf $(O)/kconfig && mkdir -p $(O)/kconfig/src
	tar -xJf '$(LINUX_SOURCE)' -C $(O)/kconfig/src --strip-components=1 \
		--wildcards --no-wildcards-match-slash '*/scripts/[ik][cn][co]*/*'
	cd $(KCONFIG_SRCDIR) && $(FLEX) -olexer.lex.c -L lexer.l && \
		$(BISON) -o parser.tab.c --defines=parser.tab.h -t -l parser.y
	cd $(KCONFIG_SRCDIR) && $(HOSTCC) -std=gnu11 -O2 -I. -I../include \
		-o ../../../conf.tmp $(KCONFIG_OBJS:%=%.c)
	mv $(O)/kconfig/conf.tmp $@

clean:
	rm -rf build build-sanitize build-tsan build-fuzz t/trash\ directory.* t/test-results

.PHONY: all test test-lint install deps doc clean kconfig fuzz FORCE
-include $(COMMON_OBJ:.o=.d) $(foreach c,$(COMMANDS),$($(c)_OBJ:.o=.d)) $(O)/git-vampyr/cc/vampyr-cc.d $(HELPER_BIN:=.d)
