# md model library: linked by the collectd plugin and the D-Bus service.

MDMODEL_SRC := $(wildcard mdmodel/*.c)
MDMODEL_OBJ := $(MDMODEL_SRC:%.c=$(BUILD)/%.o)
MDMODEL_LIB := $(BUILD)/libmdmodel.a

ALL_TARGETS += $(MDMODEL_LIB)

$(BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

$(MDMODEL_LIB): $(MDMODEL_OBJ)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

# tests/unit/test-md-*.c: one cmocka binary each, linked with the library.
MDMODEL_TEST_SRC := $(wildcard tests/unit/test-md-*.c)
MDMODEL_TESTS    := $(MDMODEL_TEST_SRC:tests/unit/%.c=$(BUILD)/tests/%)
UNIT_TESTS += $(MDMODEL_TESTS)

$(MDMODEL_TESTS): $(BUILD)/tests/%: $(BUILD)/tests/unit/%.o $(MDMODEL_LIB)
	$(CC) $(LDFLAGS) -o $@ $^ -lcmocka
