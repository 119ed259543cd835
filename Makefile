# mdboost: the map. Each component's rules live beside it in build.mk;
# this file holds the flags, the targets a user runs, and the test runner.
#
#   make            build everything into build/
#   make check      run every test and print a summary
#   make help       list the targets

# The version is written once, in debian/changelog's first line.
VERSION     := $(shell sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' debian/changelog)
PREFIX      ?= /usr
DESTDIR     ?=
BUILD       ?= build
CC          ?= cc
PKG_CONFIG  ?= pkg-config

CFLAGS      ?= -O2 -g
WARNFLAGS   := -Wall -Wextra -Werror
SANFLAGS    ?=
override CFLAGS += $(WARNFLAGS) -std=gnu11 -fPIC $(SANFLAGS)
override CPPFLAGS += -D_GNU_SOURCE -Imdmodel
override LDFLAGS += $(SANFLAGS)

# Debian packages, each build.mk adding its own: BUILD_DEB_PACKAGES are what
# `make` needs to build (it installs them first when one is missing);
# DEB_PACKAGES are everything `make check`, `make bench` and `make demo` need.
BUILD_DEB_PACKAGES := build-essential pkg-config
DEB_PACKAGES       := libcmocka-dev valgrind shellcheck clang-format groff-base

# Everything `make check` runs. build.mk files append (BENCH_TARGETS: phony
# rules that `make bench` runs):
#   UNIT_TESTS         cmocka binaries, also built with ASan/UBSan and run under valgrind
#   INTEGRATION_TESTS  scripts run from the top folder against real daemons; exit 77 means skipped
#   VM_TESTS           the same, each booting Debian's kernel in a VM (tests/vm)
#   TOOL_TARGETS       what the tests and the benchmarks use beside the
#                      programs (the modelled disk); never built by `make` alone
UNIT_TESTS        :=
INTEGRATION_TESTS :=
VM_TESTS          :=
ALL_TARGETS       :=
TOOL_TARGETS      :=
BENCH_TARGETS     :=
INSTALL_TARGETS   :=

.PHONY: all tools lint check check-unit check-integration check-vm asan-unit-tests unit-tests unit-check deb install deps build-deps help clean bench demo
.DEFAULT_GOAL := all

include mdmodel/build.mk
-include diskmodel/build.mk
-include collectd-plugin/build.mk
-include dbus-service/build.mk
-include policy/build.mk
-include cockpit-ui/build.mk
-include tests/build.mk
-include tests/fuzz/build.mk
-include tests/vm/build.mk
-include demo/build.mk

all: $(ALL_TARGETS) ## Build everything into build/

tools: $(TOOL_TARGETS) ## Build the tests' tools: the modelled hard disk's nbdkit plugin

unit-tests: $(UNIT_TESTS) ## Build the cmocka unit tests

unit-check: $(UNIT_TESTS) ## Run the unit tests once, without sanitizers or valgrind (the package build runs this)
	@tests/run-suite --unit $(UNIT_TESTS)

# Sanitizer and valgrind passes run the same unit tests from a second build tree.
ASAN_BUILD := $(BUILD)/asan
ASAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

asan-unit-tests: unit-tests
	@$(MAKE) --no-print-directory BUILD=$(ASAN_BUILD) SANFLAGS="$(ASAN_FLAGS)" CFLAGS="-O1 -g" unit-tests

# The tiers. TESTS='service-* ui-*' runs only the tests whose names match
# (SKIP_TESTS leaves some out): tests/run-suite. `check` runs them all.
RUN_SUITE := TESTS='$(TESTS)' SKIP_TESTS='$(SKIP_TESTS)' tests/run-suite
# The integration tests run side by side (INTEGRATION_JOBS); the longest
# start first, so that none of them is left running alone at the end.
SLOW_INTEGRATION_TESTS = $(filter %/service-governor %/demo-boost %/hdd-model %/ui-browser %/service-fit-floor \
                                  %/service-auth-flood %/service-policy %/service-events %/service-reports \
                                  %/service-event-command,$(INTEGRATION_TESTS))
INTEGRATION_ORDER = $(SLOW_INTEGRATION_TESTS) $(filter-out $(SLOW_INTEGRATION_TESTS),$(INTEGRATION_TESTS))
UNIT_SUITE = --lint tests/lint --unit $(UNIT_TESTS) --asan $(patsubst $(BUILD)/%,$(ASAN_BUILD)/%,$(UNIT_TESTS)) --valgrind $(UNIT_TESTS)

check: deps-if-missing all tools asan-unit-tests ## Run every test: lint, unit (plain, ASan+UBSan, valgrind), real daemons, browser, real kernel in a VM on the oldest and newest kernel (TESTS=, SKIP_TESTS= patterns, VM_KERNELS=)
	@$(RUN_SUITE) $(UNIT_SUITE) --integration $(INTEGRATION_ORDER) $(VM_SUITE)

check-unit: deps-if-missing asan-unit-tests ## Run lint and the unit tests: plain, ASan+UBSan, valgrind (about a minute)
	@$(RUN_SUITE) $(UNIT_SUITE)

lint: ## shellcheck every shell script, clang-format every C file, and look for include cycles
	@tests/install-deps --if-missing shellcheck clang-format groff-base
	@tests/lint

check-integration: deps-if-missing all tools ## Run the tests against real daemons on this machine: D-Bus, polkit, collectd, browser
	@$(RUN_SUITE) --integration $(INTEGRATION_ORDER)

check-vm: deps-if-missing all tools ## Run the real-kernel tests, each in a VM, on the oldest and newest kernel (VM_KERNELS=)
	@$(RUN_SUITE) $(VM_SUITE)

install: $(INSTALL_TARGETS) ## Install every file where Debian 12 expects it (honours DESTDIR, PREFIX)

deps: ## Install the Debian packages that building and testing need (idempotent)
	@tests/install-deps $(BUILD_DEB_PACKAGES) $(DEB_PACKAGES)

# Called by check, bench and demo: installs only when a package is missing.
deps-if-missing:
	@tests/install-deps --if-missing $(BUILD_DEB_PACKAGES) $(DEB_PACKAGES)

# Every compile and the page's npm install wait for this (order-only), so a
# plain `make` on a new machine installs its compiler and headers first.
build-deps:
	@tests/install-deps --if-missing $(BUILD_DEB_PACKAGES)

help: ## List the targets
	@grep -hE '^[a-z][a-zA-Z_-]*:.*## ' $(MAKEFILE_LIST) | \
		sed -E 's/^([^:]*):.*## (.*)/\1\t\2/' | sort -u | \
		awk -F'\t' '{ printf "  %-18s %s\n", $$1, $$2 }'

bench: deps-if-missing all tools $(BENCH_TARGETS) ## Run the benchmarks (CPU cost, rebuild speed); never part of check

# make deb: the binary packages, built by dpkg-buildpackage from a copy of
# the tree's files (tracked and new, as they are now) in build/deb/, so the
# checkout's build/ and node_modules/ stay out of it; then lintian.
DEB_DIR          := $(BUILD)/deb
DEB_SRC          := $(DEB_DIR)/mdboost-$(VERSION)
DEB_TOOL_PACKAGES := dpkg-dev debhelper lintian git

deb: ## Build the Debian packages into build/deb/ and check them with lintian
	@tests/install-deps --if-missing $(DEB_TOOL_PACKAGES) $(BUILD_DEB_PACKAGES) libcmocka-dev
	rm -rf $(DEB_DIR)
	mkdir -p $(DEB_SRC)
	git ls-files -z --cached --others --exclude-standard | \
		tar --null -T - --no-recursion -cf - | tar -C $(DEB_SRC) -xf -
	cd $(DEB_SRC) && dpkg-buildpackage --build=binary --no-sign
	lintian --fail-on error,warning --display-level '>=warning' $(DEB_DIR)/mdboost_$(VERSION)_*.changes
	@ls $(DEB_DIR)/*.deb

clean: ## Remove build/
	rm -rf $(BUILD)

# Header dependencies, generated by the compiler. No rule makes a .d file:
# without this one, make would try to remake an old one through the pattern
# rules (replay-%.o would build "replay-config.d" from replay.c). The package
# build and the VM's kernel cache (thousands of module files, slow to walk
# over the VM's 9p share) hold none.
%.d: ;
-include $(shell find $(BUILD) \( -path $(BUILD)/deb -o -path $(BUILD)/vm -o -path $(BUILD)/bench \) -prune -o -type f -name '*.d' -print 2>/dev/null)
