#!/bin/bash
# doc-blocks.sh - the command blocks of the documentation that make
# check-fresh runs, so that what it runs is what the documents say.
# A block is marked by a line
#     <!-- check-fresh: ROOT -->
# right before it (blank lines may come between): a fenced (```) or an
# indented (four spaces) code block.  ROOT names the pristine root it runs
# in (check-fresh.sh: "make", the build from source, or "deb", the Debian
# packages); a root's blocks run in the order of the files given, each in
# the source tree.
#   doc-blocks.sh --list FILE...      FILE:LINE ROOT, one line per block
#   doc-blocks.sh --block FILE LINE   the text of the block marked at LINE
# Exits 1 if a marker is not followed by a code block, or (--block) if
# there is no marked block at LINE.
set -euo pipefail

die() { echo "doc-blocks: $*" >&2; exit 1; }

# blocks FILE [LINE]: "FILE:LINE ROOT" per marker, or the text of the block
# whose marker is at LINE.
blocks() {
	awk -v file="$1" -v want="${2:-}" '
	function out(s) { if (want == "" || mline != want) return; print s }
	function start(kind) {
		state = kind
		if (want == "") print file ":" mline " " root
		else if (mline == want) found = 1
	}
	state == "fenced" {
		if ($0 ~ /^```/) { state = ""; next }
		out($0); next
	}
	state == "indented" {
		if ($0 ~ /^    /) {
			for (; blanks > 0; blanks--) out("")
			out(substr($0, 5)); next
		}
		if ($0 ~ /^[ \t]*$/) { blanks++; next }
		state = ""	# and read this line as any other
	}
	state == "marked" {
		if ($0 ~ /^[ \t]*$/) next
		if ($0 ~ /^```/) { start("fenced"); next }
		if ($0 ~ /^    /) { start("indented"); blanks = 0; out(substr($0, 5)); next }
		printf "doc-blocks: %s:%d: no code block after the marker\n", file, mline > "/dev/stderr"
		bad = 1; state = ""
	}
	/^<!-- check-fresh: [a-z0-9-]+ -->$/ {
		root = $3; mline = NR; state = "marked"; next
	}
	END {
		if (state == "marked") {
			printf "doc-blocks: %s:%d: no code block after the marker\n", file, mline > "/dev/stderr"
			bad = 1
		}
		if (want != "" && !found) {
			printf "doc-blocks: %s:%d: no marked block there\n", file, want > "/dev/stderr"
			bad = 1
		}
		exit bad
	}' "$1"
}

case ${1:-} in
--list)
	shift
	[ $# -gt 0 ] || die "--list needs files"
	for f in "$@"; do
		[ -r "$f" ] || die "cannot read $f"
		blocks "$f"
	done
	;;
--block)
	[ $# = 3 ] || die "usage: $0 --block FILE LINE"
	blocks "$2" "$3"
	;;
*) sed -n '2,15s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
esac
