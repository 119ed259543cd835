# The Cockpit page "mdboost": bundled with esbuild into build/cockpit/mdboost/
# from the npm packages pinned in cockpit-ui/package-lock.json.

COCKPIT_DIST    := $(BUILD)/cockpit/mdboost
COCKPIT_SRC     := $(wildcard cockpit-ui/src/*) cockpit-ui/build.js cockpit-ui/index.html \
                   cockpit-ui/manifest.json cockpit-ui/package-lock.json
COCKPIT_OUT     := $(COCKPIT_DIST)/index.html $(COCKPIT_DIST)/index.js \
                   $(COCKPIT_DIST)/index.css $(COCKPIT_DIST)/manifest.json
COCKPIT_DESTDIR := $(DESTDIR)$(PREFIX)/share/cockpit/mdboost

ALL_TARGETS     += $(COCKPIT_OUT)
INSTALL_TARGETS += install-cockpit
DEB_PACKAGES    += nodejs:node npm:npm cockpit-ws cockpit-bridge cockpit-system chromium rrdtool curl

# npm ci installs exactly what the lock file pins; it runs only when
# node_modules is missing or older than the lock file.
cockpit-ui/node_modules/.package-lock.json: cockpit-ui/package-lock.json cockpit-ui/package.json
	cd cockpit-ui && npm ci --no-audit --no-fund
	@touch $@

$(COCKPIT_OUT) &: $(COCKPIT_SRC) cockpit-ui/node_modules/.package-lock.json
	node cockpit-ui/build.js $(COCKPIT_DIST)

.PHONY: install-cockpit
install-cockpit: $(COCKPIT_OUT)
	install -d $(COCKPIT_DESTDIR)
	install -m 0644 $(COCKPIT_OUT) $(COCKPIT_DESTDIR)/

# The page in headless Chromium against cockpit-ws and the fake-kernel service.
INTEGRATION_TESTS += tests/integration/ui-browser

# The page's data logic under node, with the real find and rrdtool.
INTEGRATION_TESTS += tests/integration/ui-units
