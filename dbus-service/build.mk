# mdboostd, the privileged D-Bus service (libdbus-1, json-c).
#
# SERVICE_OBJ is every object of the daemon including main.o, so a test build
# can link the same code with a fake kernel (tests/build.mk); SERVICE_LIBS are
# the libraries it needs. The unit tests link SERVICE_OBJ without main.o.

# Asked when a rule runs, not when make reads this file: on a new machine
# the headers arrive with build-deps, after make has read it.
SERVICE_CFLAGS = $(shell $(PKG_CONFIG) --cflags dbus-1 json-c)
SERVICE_LIBS   = $(shell $(PKG_CONFIG) --libs dbus-1 json-c)
SERVICE_CPPFLAGS = $(SERVICE_CFLAGS) -DMDBOOSTD_VERSION='"$(VERSION)"'

SERVICE_SRC  := $(wildcard dbus-service/*.c)
SERVICE_OBJ  := $(SERVICE_SRC:%.c=$(BUILD)/%.o)
SERVICE_CORE := $(filter-out $(BUILD)/dbus-service/main.o,$(SERVICE_OBJ))
SERVICE_BIN  := $(BUILD)/mdboostd

ALL_TARGETS += $(SERVICE_BIN)
BUILD_DEB_PACKAGES += libdbus-1-dev libjson-c-dev
DEB_PACKAGES       += dbus

$(SERVICE_OBJ): override CPPFLAGS += $(SERVICE_CPPFLAGS)

$(SERVICE_BIN): $(SERVICE_OBJ) $(MDMODEL_LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ $(SERVICE_LIBS)

# tests/unit/test-service-*.c: one cmocka binary each, linked with the service's objects.
SERVICE_TEST_SRC := $(wildcard tests/unit/test-service-*.c)
SERVICE_TESTS    := $(SERVICE_TEST_SRC:tests/unit/%.c=$(BUILD)/tests/%)
UNIT_TESTS += $(SERVICE_TESTS)

$(SERVICE_TEST_SRC:%.c=$(BUILD)/%.o): override CPPFLAGS += $(SERVICE_CPPFLAGS) -Idbus-service

$(SERVICE_TESTS): $(BUILD)/tests/%: $(BUILD)/tests/unit/%.o $(MD_FIXTURE_OBJ) $(SERVICE_CORE) $(MDMODEL_LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $(SERVICE_TEST_LDFLAGS) -o $@ $^ $(SERVICE_LIBS) -lcmocka

# test-service-core runs Boost and Restore on fixture trees through the fake kernel.
$(BUILD)/tests/test-service-core: $(FAKEKERNEL_OBJ)
$(BUILD)/tests/test-service-core: SERVICE_TEST_LDFLAGS := $(FAKEKERNEL_LDFLAGS)

.PHONY: install-mdboostd
INSTALL_TARGETS += install-mdboostd
install-mdboostd: $(SERVICE_BIN)
	install -D -m 0755 $(SERVICE_BIN) $(DESTDIR)$(PREFIX)/libexec/mdboostd
	install -d $(DESTDIR)$(PREFIX)/share/man/man8
	sed 's|@VERSION@|$(VERSION)|' docs/mdboostd.8 > $(DESTDIR)$(PREFIX)/share/man/man8/mdboostd.8
	chmod 0644 $(DESTDIR)$(PREFIX)/share/man/man8/mdboostd.8
	install -d $(DESTDIR)$(PREFIX)/share/man/man5
	sed 's|@VERSION@|$(VERSION)|' docs/mdboostd.conf.5 > $(DESTDIR)$(PREFIX)/share/man/man5/mdboostd.conf.5
	chmod 0644 $(DESTDIR)$(PREFIX)/share/man/man5/mdboostd.conf.5
