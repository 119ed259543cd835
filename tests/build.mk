# Test-only builds and the packages the D-Bus integration tests need.
#
# build/tests/mdboostd-fakekernel is the service linked with the fake kernel
# (tests/fakekernel): writes into a fixture root behave like the 6.1 kernel's
# md attributes (mode suffixes, EINVAL, EBUSY, injected failures), so the
# integration tests can run the service on a copy of a fixture.

# dbus-daemon, dbus-monitor: the private bus; polkitd: authorisation;
# systemd: busctl (Debian 12 ships it in no smaller package; installing it
# does not need systemd as PID 1); util-linux: setpriv, unshare; passwd:
# useradd/groupadd for the test users; jq: busctl's JSON replies;
# libxml2-utils: xmllint for the policy files.
DEB_PACKAGES += dbus-daemon dbus-bin polkitd systemd util-linux passwd jq libxml2-utils

ifneq ($(SERVICE_OBJ),)
ifneq ($(FAKEKERNEL_OBJ),)
SERVICE_FAKEKERNEL := $(BUILD)/tests/mdboostd-fakekernel
ALL_TARGETS += $(SERVICE_FAKEKERNEL)

$(SERVICE_FAKEKERNEL): $(SERVICE_OBJ) $(FAKEKERNEL_OBJ) $(MDMODEL_LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $(FAKEKERNEL_LDFLAGS) -o $@ $^ $(SERVICE_LIBS)
endif

# Bus clients busctl cannot be: a polkit that never answers, a flood of calls.
MDB_BUS := $(BUILD)/tests/mdb-bus
ALL_TARGETS += $(MDB_BUS)
$(BUILD)/tests/integration/mdb-bus.o: override CPPFLAGS += $(SERVICE_CPPFLAGS)
$(MDB_BUS): $(BUILD)/tests/integration/mdb-bus.o
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ $(SERVICE_LIBS)
endif

# D-Bus integration tests: every tests/integration/service-* script
# (service-lib.sh is their harness, service-env runs any command inside it;
# service-install needs no fake kernel).
SERVICE_INTEGRATION_TESTS := $(filter-out %.sh %.c tests/integration/service-env tests/integration/service-install, \
                                          $(sort $(wildcard tests/integration/service-*)))
INTEGRATION_TESTS += tests/integration/service-install
ifneq ($(SERVICE_FAKEKERNEL),)
INTEGRATION_TESTS += $(SERVICE_INTEGRATION_TESTS)
endif
