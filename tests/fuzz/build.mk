# Fuzzing (tests/fuzz/): libFuzzer harnesses for the parsers that read what
# others write: /proc/mdstat, the sysfs values, the journal, the reports, the
# configuration file and the D-Bus options.
#
# Every harness is also linked with replay.c into a unit test that runs its
# seed corpus (tests/fuzz/corpus/NAME) once: make check replays them plain,
# under ASan and UBSan, and under valgrind. `make fuzz` builds the harnesses
# with clang's libFuzzer and runs each for FUZZ_SECONDS (60) on a copy of its
# corpus in build/fuzz-corpus/NAME; what it finds there, minimised, can join
# the seed corpus.

FUZZ_NAMES    := mdstat sysfs journal config options reports
FUZZ_SECONDS  ?= 60
FUZZ_REPLAYS  := $(FUZZ_NAMES:%=$(BUILD)/tests/fuzz-replay-%)
UNIT_TESTS    += $(FUZZ_REPLAYS)

FUZZ_MODEL_ONLY := mdstat sysfs
$(BUILD)/tests/fuzz/%.o: override CPPFLAGS += $(SERVICE_CPPFLAGS) -Idbus-service -Itests/fuzz
$(BUILD)/tests/fuzz/replay-%.o: tests/fuzz/replay.c | build-deps
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -Itests/fuzz -DFUZZ_CORPUS='"$(CURDIR)/tests/fuzz/corpus/$*"' -MMD -MP -c -o $@ $<

$(FUZZ_MODEL_ONLY:%=$(BUILD)/tests/fuzz-replay-%): $(BUILD)/tests/fuzz-replay-%: \
		$(BUILD)/tests/fuzz/fuzz-%.o $(BUILD)/tests/fuzz/replay-%.o $(MDMODEL_LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^

$(filter-out $(FUZZ_MODEL_ONLY:%=$(BUILD)/tests/fuzz-replay-%),$(FUZZ_REPLAYS)): $(BUILD)/tests/fuzz-replay-%: \
		$(BUILD)/tests/fuzz/fuzz-%.o $(BUILD)/tests/fuzz/replay-%.o $(SERVICE_CORE) $(MDMODEL_LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ $(SERVICE_LIBS)

# libFuzzer: everything built again by clang in build/fuzz, the library and
# the service with coverage instrumentation, each harness with libFuzzer's main.
FUZZ_BUILD := $(BUILD)/fuzz
FUZZ_SAN   := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

.PHONY: fuzz fuzz-targets
fuzz: ## Fuzz each parser for FUZZ_SECONDS (60) with clang's libFuzzer (FUZZ=name picks one)
	@tests/install-deps --if-missing clang
	@$(MAKE) --no-print-directory BUILD=$(FUZZ_BUILD) CC=clang CFLAGS="-O1 -g" \
		SANFLAGS="-fsanitize=fuzzer-no-link $(FUZZ_SAN)" fuzz-targets
	@set -e; for n in $(or $(FUZZ),$(FUZZ_NAMES)); do \
		mkdir -p $(BUILD)/fuzz-corpus/$$n; \
		cp -n tests/fuzz/corpus/$$n/* $(BUILD)/fuzz-corpus/$$n/; \
		echo "fuzzing $$n for $(FUZZ_SECONDS) s"; \
		$(FUZZ_BUILD)/tests/fuzz-$$n -max_total_time=$(FUZZ_SECONDS) -max_len=65536 \
			-artifact_prefix=$(BUILD)/fuzz-crash-$$n- $(BUILD)/fuzz-corpus/$$n; \
	done

fuzz-targets: $(FUZZ_NAMES:%=$(BUILD)/tests/fuzz-%)

$(FUZZ_MODEL_ONLY:%=$(BUILD)/tests/fuzz-%): $(BUILD)/tests/fuzz-%: $(BUILD)/tests/fuzz/fuzz-%.o $(MDMODEL_LIB)
	$(CC) $(LDFLAGS) -fsanitize=fuzzer $(FUZZ_SAN) -o $@ $^

$(filter-out $(FUZZ_MODEL_ONLY:%=$(BUILD)/tests/fuzz-%),$(FUZZ_NAMES:%=$(BUILD)/tests/fuzz-%)): $(BUILD)/tests/fuzz-%: \
		$(BUILD)/tests/fuzz/fuzz-%.o $(SERVICE_CORE) $(MDMODEL_LIB)
	$(CC) $(LDFLAGS) -fsanitize=fuzzer $(FUZZ_SAN) -o $@ $^ $(SERVICE_LIBS)
