# md model library: linked by the collectd plugin and the D-Bus service.

MDMODEL_SRC := $(wildcard mdmodel/*.c)
MDMODEL_OBJ := $(MDMODEL_SRC:%.c=$(BUILD)/%.o)
MDMODEL_LIB := $(BUILD)/libmdmodel.a

ALL_TARGETS += $(MDMODEL_LIB)

$(BUILD)/%.o: %.c | build-deps
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

$(MDMODEL_LIB): $(MDMODEL_OBJ)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

# Fixture trees for unit tests (tests/unit/md-fixture.h); any unit test may
# link $(MD_FIXTURE_OBJ). It finds tests/fixtures/ through MD_SRCDIR.
MD_FIXTURE_OBJ := $(BUILD)/tests/unit/md-fixture.o
$(MD_FIXTURE_OBJ): override CPPFLAGS += -DMD_SRCDIR='"$(CURDIR)"'

# The fake kernel (tests/fakekernel): link $(FAKEKERNEL_OBJ) with
# $(FAKEKERNEL_LDFLAGS) and every md_root_write behaves like Linux 6.1's md.
FAKEKERNEL_OBJ     := $(BUILD)/tests/fakekernel/fakekernel.o
FAKEKERNEL_LDFLAGS := -Wl,--wrap=md_root_write

# tests/unit/test-md-*.c: one cmocka binary each, linked with the library.
MDMODEL_TEST_SRC := $(wildcard tests/unit/test-md-*.c)
MDMODEL_TESTS    := $(MDMODEL_TEST_SRC:tests/unit/%.c=$(BUILD)/tests/%)
UNIT_TESTS += $(MDMODEL_TESTS)

MDMODEL_PLAIN_TESTS := $(filter-out $(BUILD)/tests/test-md-fakekernel,$(MDMODEL_TESTS))

# test-md-tunables wraps the writer itself to play a kernel that clamps values.
$(BUILD)/tests/test-md-tunables: MDMODEL_TEST_LDFLAGS := -Wl,--wrap=md_root_write

$(MDMODEL_PLAIN_TESTS): $(BUILD)/tests/%: $(BUILD)/tests/unit/%.o $(MD_FIXTURE_OBJ) $(MDMODEL_LIB)
	$(CC) $(LDFLAGS) $(MDMODEL_TEST_LDFLAGS) -o $@ $^ -lcmocka

$(BUILD)/tests/test-md-fakekernel: $(BUILD)/tests/unit/test-md-fakekernel.o $(MD_FIXTURE_OBJ) \
		$(FAKEKERNEL_OBJ) $(MDMODEL_LIB)
	$(CC) $(LDFLAGS) $(FAKEKERNEL_LDFLAGS) -o $@ $^ -lcmocka
