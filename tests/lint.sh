#!/bin/bash
# Static checks, one test case each:
#   the kernel module: W=1 build without warnings and sparse (C=2) clean,
#   for every kernel; checkpatch.pl --no-tree clean (taken from
#   linux-source-6.12, since the headers packages do not ship it);
#   user space (daemons, tools, tests, benchmarks): cppcheck clean;
#   the shell scripts (tests, VM harness, benchmarks, CI): shellcheck
#   clean at severity warning.
# Usage: lint.sh BUILD_DIR KVER...      Ends with "N passed, N failed".
set -uo pipefail
build=$1
shift
passed=0
failed=0
result() {
	if [ "$1" = 0 ]; then
		echo "ok - $2"
		passed=$((passed + 1))
	else
		echo "not ok - $2"
		failed=$((failed + 1))
	fi
}

# the kernels' builds side by side, their results in order
pids=()
for k in "$@"; do
	dir=$build/lint/$k
	rm -rf "$dir" && mkdir -p "$dir/uapi"
	cp kernel/*.c kernel/*.h kernel/Kbuild "$dir/" && cp kernel/uapi/vtuner.h "$dir/uapi/"
	make -C "/lib/modules/$k/build" M="$(cd "$dir" && pwd)" W=1 C=2 \
		VTUNERC_VERSION=lint modules >"$dir/build.log" 2>&1 &
	pids+=($!)
done
i=0
for k in "$@"; do
	log=$build/lint/$k/build.log
	wait "${pids[i]}"
	rc=$?
	i=$((i + 1))
	if [ $rc = 0 ] && grep -E "warning:|error:|sparse:" "$log"; then
		rc=1
	fi
	[ $rc = 0 ] || tail -20 "$log"
	result $rc "$k: W=1 build and sparse clean"
done

cp_dir=$build/checkpatch
if [ ! -x "$cp_dir/scripts/checkpatch.pl" ]; then
	src=$(ls /usr/src/linux-source-*.tar.xz 2>/dev/null | sort -V | tail -n 1)
	if [ -n "$src" ]; then
		top=$(basename "$src" .tar.xz)
		mkdir -p "$cp_dir"
		tar -xJf "$src" -C "$cp_dir" --strip-components=1 \
			"$top/scripts/checkpatch.pl" "$top/scripts/spelling.txt" \
			"$top/scripts/const_structs.checkpatch" 2>/dev/null
	fi
fi
if [ -x "$cp_dir/scripts/checkpatch.pl" ]; then
	"$cp_dir/scripts/checkpatch.pl" --no-tree --terse --show-types -f \
		kernel/*.c kernel/*.h kernel/uapi/vtuner.h
	result $? "checkpatch.pl --no-tree"
else
	echo "no linux-source-*.tar.xz to take checkpatch.pl from"
	result 1 "checkpatch.pl --no-tree"
fi

# warning, performance, portability: what finds bugs; style is the
# compiler's and the reviewer's business.
if command -v cppcheck >/dev/null; then
	cppcheck -q --error-exitcode=1 --enable=warning,performance,portability \
		--std=c11 -D_GNU_SOURCE -Ikernel/uapi -Isrc --inline-suppr \
		-j2 src bench tests
	result $? "cppcheck: user space clean"
else
	echo "cppcheck not installed"
	result 1 "cppcheck: user space clean"
fi

# Run from the top of the tree (make check-lint): the source= directives
# of the scripts that source tests/tap.sh are relative to it.
if command -v shellcheck >/dev/null; then
	if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		mapfile -t scripts < <(git ls-files '*.sh' .ci/run)
	else
		mapfile -t scripts < <(find bench scripts tests .ci -type f \
			\( -name '*.sh' -o -path .ci/run \) | sort)
	fi
	shellcheck -x -S warning -f gcc "${scripts[@]}"
	result $? "shellcheck: ${#scripts[@]} scripts clean"
else
	echo "shellcheck not installed"
	result 1 "shellcheck: scripts clean"
fi

echo "$passed passed, $failed failed"
[ $failed = 0 ]
