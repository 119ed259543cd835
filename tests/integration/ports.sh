# shellcheck shell=bash
# Sourced by the integration tests that start servers on loopback.

# free_port [tcp|udp]: prints a port on 127.0.0.1 that nothing listens on
# (tcp: nothing answers a connect; udp: ss lists no socket bound to it).
free_port() {
	local proto=${1:-tcp} port
	for port in $(shuf -i 20000-60000 -n 20); do
		case "$proto" in
		tcp) (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && continue ;;
		udp) [ -z "$(ss -Hlnu "sport = :$port" 2>/dev/null)" ] || continue ;;
		esac
		echo "$port"
		return 0
	done
	return 1
}
