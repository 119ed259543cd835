# The Cockpit page "mdboost": bundled with esbuild into build/cockpit/mdboost/
# from the npm packages pinned in cockpit-ui/package-lock.json.

COCKPIT_DIST    := $(BUILD)/cockpit/mdboost
COCKPIT_SRC     := $(wildcard cockpit-ui/src/* cockpit-ui/po/*.po) cockpit-ui/build.js cockpit-ui/po2js.js \
                   cockpit-ui/index.html cockpit-ui/manifest.json cockpit-ui/package-lock.json
COCKPIT_OUT     := $(COCKPIT_DIST)/index.html $(COCKPIT_DIST)/index.js \
                   $(COCKPIT_DIST)/index.css $(COCKPIT_DIST)/manifest.json
COCKPIT_DESTDIR := $(DESTDIR)$(PREFIX)/share/cockpit/mdboost

ALL_TARGETS     += $(COCKPIT_OUT)
INSTALL_TARGETS += install-cockpit
BUILD_DEB_PACKAGES += nodejs:node npm:npm
# gettext: xgettext, which ui-units uses to check the page's strings.
DEB_PACKAGES       += cockpit-ws cockpit-bridge cockpit-system chromium rrdtool curl gettext

# npm ci installs exactly what the lock file pins; it runs only when the
# stamp, written after a complete install, is missing or older than the lock
# file. npm ci empties node_modules first, so two builds running it at once
# would break each other's install: flock makes them take turns.
COCKPIT_NPM_STAMP := cockpit-ui/node_modules/.mdboost-installed
$(COCKPIT_NPM_STAMP): cockpit-ui/package-lock.json cockpit-ui/package.json | build-deps
	@mkdir -p $(BUILD)
	flock $(BUILD)/.cockpit-npm.lock sh -c 'cd cockpit-ui && npm ci --no-audit --no-fund'
	@touch $@

$(COCKPIT_OUT) &: $(COCKPIT_SRC) $(COCKPIT_NPM_STAMP) | build-deps
	node cockpit-ui/build.js $(COCKPIT_DIST)

.PHONY: install-cockpit cockpit-pot
install-cockpit: $(COCKPIT_OUT)
	install -d $(COCKPIT_DESTDIR)
	install -m 0644 $(COCKPIT_OUT) $(COCKPIT_DESTDIR)/
	for f in $(COCKPIT_DIST)/po.*.js; do [ ! -e "$$f" ] || install -m 0644 "$$f" $(COCKPIT_DESTDIR)/; done

# Translations: every string of the page goes through cockpit.gettext. xgettext
# reads JSX with its C parser, as Cockpit's own po/ rules do: the JavaScript
# parser loses strings inside JSX.
COCKPIT_POT := $(BUILD)/cockpit/mdboost.pot
cockpit-pot: ## Extract the page's strings into build/cockpit/mdboost.pot for translators
	@mkdir -p $(dir $(COCKPIT_POT))
	xgettext --language=C --from-code=UTF-8 --keyword=_ --keyword=gettext --keyword=ngettext:1,2 \
		--add-comments=Translators --package-name=mdboost --no-location --sort-output \
		-o $(COCKPIT_POT) $(sort $(wildcard cockpit-ui/src/*.js cockpit-ui/src/*.jsx)) 2>/dev/null

# The page in headless Chromium against cockpit-ws and the fake-kernel service.
INTEGRATION_TESTS += tests/integration/ui-browser

# The page's data logic under node, with the real find and rrdtool.
INTEGRATION_TESTS += tests/integration/ui-units
