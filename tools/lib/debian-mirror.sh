# shellcheck shell=bash
# The Debian mirrors this machine already uses for bookworm (deb822 URIs: or
# one-line deb form): the project names no mirror host of its own.  Sourced
# by tools/setup-deps and tools/build-root.

# debian_mirror SUITE: the URI of the source that carries SUITE (default bookworm)
debian_mirror() {
	local s=${1:-bookworm}
	{
		awk -v s="$s" '/^URIs:/ { u = $2 }
			/^Suites:/ && u { for (i = 2; i <= NF; i++) if ($i == s) { print u; exit } }' \
			/etc/apt/sources.list.d/*.sources 2>/dev/null
		awk -v s="$s" '$1 == "deb" && $3 == s { print $2; exit }' \
			/etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null
		true	# a missing sources.list is not an error (pipefail)
	} | head -1
}

# security_mirror: the bookworm-security source's URI (for bullseye-security)
security_mirror() { debian_mirror bookworm-security; }
