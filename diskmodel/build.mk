# The modelled hard disk (hdd-model.h): a pure model, tested as a unit, and
# the nbdkit plugin that serves the VM tier's disks through it
# (tests/vm/run-in-vm --disk-model hdd). A tool of the tests and the
# benchmarks: the plugin is built by check and bench, never by `make` alone
# or the Debian package, which ship nothing of it.
HDD_MODEL_OBJ := $(BUILD)/diskmodel/hdd-model.o
HDD_PLUGIN    := $(BUILD)/diskmodel/nbdkit-mdboost-hdd-plugin.so
HDD_RATE      := $(BUILD)/diskmodel/hdd-random-rate

TOOL_TARGETS += $(HDD_PLUGIN) $(HDD_RATE)
DEB_PACKAGES += nbdkit nbdkit-plugin-dev

# nbdkit-plugin.h, on `make tools` alone too.
$(BUILD)/diskmodel/nbdkit-hdd.o: | hdd-plugin-deps
.PHONY: hdd-plugin-deps
hdd-plugin-deps:
	@tests/install-deps --if-missing nbdkit-plugin-dev

$(HDD_PLUGIN): $(BUILD)/diskmodel/nbdkit-hdd.o $(HDD_MODEL_OBJ)
	$(CC) $(LDFLAGS) -shared -o $@ $^ -lm

# What the model alone gives random reads at a depth, for suite-hdd.sh.
$(HDD_RATE): $(BUILD)/diskmodel/hdd-random-rate.o $(HDD_MODEL_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ -lm

$(BUILD)/tests/unit/test-hdd-model.o: override CPPFLAGS += -Idiskmodel
$(BUILD)/tests/test-hdd-model: $(BUILD)/tests/unit/test-hdd-model.o $(HDD_MODEL_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ -lcmocka -lm
UNIT_TESTS += $(BUILD)/tests/test-hdd-model

# fio in a VM finds the disk the model describes (tests/vm/suite-hdd.sh).
INTEGRATION_TESTS += tests/integration/hdd-model
