# Policy files: polkit actions, system bus policy, D-Bus activation, systemd units.
#
# The activation file and the unit name the service binary, installed as
# $(LIBEXECDIR)/mdboostd. They are generated from *.in at install time, so
# the PREFIX (or LIBEXECDIR) given to `make install` is the one they name.
#
# dbus-daemon and polkitd read only /usr/share and /etc: with a PREFIX other
# than /usr the files land where the system bus and polkit do not look.

LIBEXECDIR        ?= $(PREFIX)/libexec
DBUS_SYSTEM_DIR   ?= $(PREFIX)/share/dbus-1/system.d
DBUS_SERVICES_DIR ?= $(PREFIX)/share/dbus-1/system-services
POLKIT_ACTION_DIR ?= $(PREFIX)/share/polkit-1/actions
# Debian 12's systemd.pc says /lib/systemd/system (the same folder as
# /usr/lib/systemd/system on its merged /usr); without pkg-config, use the latter.
SYSTEMD_UNIT_DIR  ?= $(or $(shell $(PKG_CONFIG) --variable=systemdsystemunitdir systemd 2>/dev/null),/usr/lib/systemd/system)

INSTALL_TARGETS += install-policy
DEB_PACKAGES    += pkg-config

POLICY_SUBST = sed -e 's|@libexecdir@|$(LIBEXECDIR)|g'

.PHONY: install-policy
install-policy:
	install -D -m 0644 policy/org.mdboost.MdBoost1.conf $(DESTDIR)$(DBUS_SYSTEM_DIR)/org.mdboost.MdBoost1.conf
	install -D -m 0644 policy/org.mdboost.MdBoost1.policy $(DESTDIR)$(POLKIT_ACTION_DIR)/org.mdboost.MdBoost1.policy
	install -d $(DESTDIR)$(DBUS_SERVICES_DIR) $(DESTDIR)$(SYSTEMD_UNIT_DIR)
	$(POLICY_SUBST) policy/org.mdboost.MdBoost1.service.in > $(DESTDIR)$(DBUS_SERVICES_DIR)/org.mdboost.MdBoost1.service
	$(POLICY_SUBST) policy/mdboostd.service.in > $(DESTDIR)$(SYSTEMD_UNIT_DIR)/mdboostd.service
	install -m 0644 policy/mdboostd-boot.service $(DESTDIR)$(SYSTEMD_UNIT_DIR)/mdboostd-boot.service
	chmod 0644 $(DESTDIR)$(DBUS_SERVICES_DIR)/org.mdboost.MdBoost1.service $(DESTDIR)$(SYSTEMD_UNIT_DIR)/mdboostd.service
