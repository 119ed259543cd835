# Policy files: polkit actions, system bus policy, D-Bus activation, systemd unit.
#
# The activation file and the unit name the service binary, which is installed
# as $(LIBEXECDIR)/mdboostd; they are generated from *.in so PREFIX is honoured.

LIBEXECDIR        ?= $(PREFIX)/libexec
DBUS_SYSTEM_DIR   ?= $(PREFIX)/share/dbus-1/system.d
DBUS_SERVICES_DIR ?= $(PREFIX)/share/dbus-1/system-services
POLKIT_ACTION_DIR ?= $(PREFIX)/share/polkit-1/actions
# Debian 12's systemd.pc says /lib/systemd/system (the same folder as
# /usr/lib/systemd/system on its merged /usr); without pkg-config, use the latter.
SYSTEMD_UNIT_DIR  ?= $(or $(shell $(PKG_CONFIG) --variable=systemdsystemunitdir systemd 2>/dev/null),/usr/lib/systemd/system)

POLICY_STATIC    := policy/org.mdboost.MdBoost1.policy policy/org.mdboost.MdBoost1.conf
POLICY_GENERATED := $(BUILD)/policy/org.mdboost.MdBoost1.service $(BUILD)/policy/mdboostd.service

ALL_TARGETS     += $(POLICY_GENERATED)
INSTALL_TARGETS += install-policy
DEB_PACKAGES    += pkg-config

$(BUILD)/policy/%: policy/%.in
	@mkdir -p $(@D)
	sed -e 's|@libexecdir@|$(LIBEXECDIR)|g' $< > $@.tmp
	mv $@.tmp $@

.PHONY: install-policy
install-policy: $(POLICY_GENERATED)
	install -D -m 0644 policy/org.mdboost.MdBoost1.conf $(DESTDIR)$(DBUS_SYSTEM_DIR)/org.mdboost.MdBoost1.conf
	install -D -m 0644 policy/org.mdboost.MdBoost1.policy $(DESTDIR)$(POLKIT_ACTION_DIR)/org.mdboost.MdBoost1.policy
	install -D -m 0644 $(BUILD)/policy/org.mdboost.MdBoost1.service $(DESTDIR)$(DBUS_SERVICES_DIR)/org.mdboost.MdBoost1.service
	install -D -m 0644 $(BUILD)/policy/mdboostd.service $(DESTDIR)$(SYSTEMD_UNIT_DIR)/mdboostd.service
