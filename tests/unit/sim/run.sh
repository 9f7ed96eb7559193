#!/bin/sh
# run.sh - run the vts cmocka test binaries with TAP output and end with
# one line "N passed, N failed" over all test cases.  A binary that exits
# non-zero without reporting a failing case (a crash, an abort before the
# first case) counts as one failed case.
passed=0
failed=0
for bin in "$@"; do
	out=$(CMOCKA_MESSAGE_OUTPUT=TAP "$bin" 2>&1)
	rc=$?
	printf '# %s\n%s\n' "$bin" "$out"
	p=$(printf '%s\n' "$out" | grep -c '^ok ')
	f=$(printf '%s\n' "$out" | grep -c '^not ok ')
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "not ok - $bin exited with status $rc"
		f=1
	fi
	passed=$((passed + p))
	failed=$((failed + f))
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
