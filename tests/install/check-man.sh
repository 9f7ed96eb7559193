#!/bin/sh
# check-man.sh - lint man pages: mandoc -T lint -W warning (or, without
# mandoc, groff -w all); one test per page, then "N passed, N failed".
passed=0
failed=0
for m in "$@"; do
	if command -v mandoc > /dev/null; then
		out=$(mandoc -T lint -W warning "$m" 2>&1)
	else
		out=$(groff -w all -man -z "$m" 2>&1)
	fi
	if [ $? -eq 0 ] && [ -z "$out" ]; then
		echo "ok - $m"
		passed=$((passed + 1))
	else
		printf '%s\n' "$out" | sed 's/^/# /'
		echo "not ok - $m"
		failed=$((failed + 1))
	fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
