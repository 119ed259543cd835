# collectd read plugin "mdraid": build/mdraid.so, its unit tests and its
# integration test against the real collectd daemon, and its benchmark.

MDRAID_SO        := $(BUILD)/mdraid.so
MDRAID_OBJ       := $(BUILD)/collectd-plugin/mdraid.o
# Debian's collectd-dev headers include "liboconfig/oconfig.h" relative to
# /usr/include/collectd, and read the daemon's config.h only with HAVE_CONFIG_H.
MDRAID_CPPFLAGS  := -DHAVE_CONFIG_H -I/usr/include/collectd
COLLECTD_PLUGINDIR ?= $(PREFIX)/lib/collectd
MDRAID_DOCDIR    := $(PREFIX)/share/doc/mdboost/examples
# The Prometheus alert rules and their tests, where a prometheus.yml can name them.
MDRAID_RULESDIR  := $(PREFIX)/share/collectd-mdraid

ALL_TARGETS  += $(MDRAID_SO)
BUILD_DEB_PACKAGES += collectd-dev
DEB_PACKAGES       += collectd-core util-linux procps
# write_prometheus's libraries and the network plugin's libgcrypt
# (collectd-core only suggests them; the t64 rename came with Debian 13), and
# the tests' HTTP client, JSON reader and socket lister. Prometheus itself is fetched, not installed:
# tests/integration/prometheus-tools.
DEB_PACKAGES       += libprotobuf-c1 libgcrypt20 curl jq iproute2 \
	$(if $(filter bookworm,$(shell . /etc/os-release 2>/dev/null && echo "$$VERSION_CODENAME")),libmicrohttpd12,libmicrohttpd12t64)

$(MDRAID_OBJ) $(BUILD)/tests/unit/collectd-mock.o $(BUILD)/tests/unit/test-plugin-mdraid.o \
$(BUILD)/tests/bench/plugin-bench.o: override CPPFLAGS += $(MDRAID_CPPFLAGS)

# The library is linked in statically; --exclude-libs keeps its symbols out of
# the plugin's dynamic table so they never clash with another plugin's.
$(MDRAID_SO): $(MDRAID_OBJ) $(MDMODEL_LIB)
	$(CC) $(LDFLAGS) -shared -Wl,--exclude-libs,ALL -o $@ $^

# Unit tests: the plugin object linked against a mock of the daemon's plugin API.
MDRAID_TESTS := $(BUILD)/tests/test-plugin-mdraid
UNIT_TESTS   += $(MDRAID_TESTS)

$(MDRAID_TESTS): $(BUILD)/tests/%: $(BUILD)/tests/unit/%.o $(BUILD)/tests/unit/collectd-mock.o \
		$(MD_FIXTURE_OBJ) $(MDRAID_OBJ) $(MDMODEL_LIB)
	$(CC) $(LDFLAGS) -o $@ $^ -lcmocka

# Integration: the real collectd daemon, unprivileged, writing CSV; two of
# them, a NAS sending to a collector (network plugin); Prometheus scraping
# write_prometheus with the shipped rules; the rules' own unit tests; the
# rrdtool graph command of docs/metrics.md on collectd-shaped RRD files.
INTEGRATION_TESTS += tests/integration/plugin-collectd.sh tests/integration/collectd-network \
	tests/integration/prometheus-scrape tests/integration/prometheus-rules tests/integration/rrdtool-graph

# Benchmark: the read callback over trees of 1, 16 and 64 arrays (make bench).
MDRAID_BENCH  := $(BUILD)/tests/plugin-bench
BENCH_TARGETS += bench-plugin

$(MDRAID_BENCH): $(BUILD)/tests/bench/plugin-bench.o $(BUILD)/tests/unit/collectd-mock.o \
		$(MDRAID_OBJ) $(MDMODEL_LIB)
	$(CC) $(LDFLAGS) -Wl,--wrap=md_read_arrays_of -Wl,--wrap=md_read_globals \
		-Wl,--wrap=md_read_mdstat -o $@ $^

bench-plugin: $(MDRAID_BENCH) ## The mdraid plugin's CPU per array per read, 1, 16 and 64 arrays, and its memory over 10,000 reads
	tests/bench/plugin-bench.sh $(MDRAID_BENCH)

.PHONY: install-plugin bench-plugin
INSTALL_TARGETS += install-plugin
install-plugin: $(MDRAID_SO)
	install -d $(DESTDIR)$(COLLECTD_PLUGINDIR) $(DESTDIR)$(MDRAID_DOCDIR)
	install -m 0644 $(MDRAID_SO) $(DESTDIR)$(COLLECTD_PLUGINDIR)/mdraid.so
	install -m 0644 collectd-plugin/mdraid.conf $(DESTDIR)$(MDRAID_DOCDIR)/mdraid.conf
	install -d $(DESTDIR)$(MDRAID_RULESDIR)
	install -m 0644 collectd-plugin/mdraid-alerts.yml collectd-plugin/mdraid-alerts.test.yml $(DESTDIR)$(MDRAID_RULESDIR)/
