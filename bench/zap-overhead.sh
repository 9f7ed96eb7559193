#!/bin/bash
# Zap overhead from the results.txt of boots of bench/vm/60-control.sh.
#   zap-overhead.sh RESULTS.txt...
# For each boot (file) and netem delay D: the p50 through vtuner
# ("vtuner-delayD" rows) minus D minus the p50 of vidtv direct (the mean
# of its "before" and "after" rows), for tune -> lock and tune -> first
# TS byte, in ms.  Issue 5's target is at most one round trip + 5 ms:
# each overhead <= 5.  A last line gives the median over the boots.
set -euo pipefail

[ $# -gt 0 ] || { sed -n '2,8s/^# \{0,1\}//p' "$0" >&2; exit 2; }
for f in "$@"; do
	[ -r "$f" ] || { echo "zap-overhead.sh: cannot read $f" >&2; exit 1; }
done

awk '
function p50(s,   n, kv, i) {
	n = split(s, kv, " ")
	for (i = 1; i <= n; i++)
		if (kv[i] ~ /^p50=/)
			return substr(kv[i], 5) + 0
	return -1
}
function isort(a, n,   i, j, t) {	# sorts a[1..n] in place
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
}
function median(a, n) {			# sorts a[1..n]
	isort(a, n)
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
FNR == 1 {
	boot++
	name[boot] = FILENAME
	sub(/\/(60-control\/)?results\.txt$/, "", name[boot])
}
$2 == "tune_to_lock" || $2 == "tune_to_first_ts" {
	m = $2 == "tune_to_lock" ? "lock" : "first"
	v = p50($0)
	if (v < 0)
		next
	if ($1 ~ /^vidtv-direct-(before|after)$/) {
		dsum[boot, m] += v; dn[boot, m]++
	} else if ($1 ~ /^vtuner-delay[0-9]+$/) {
		d = substr($1, 13) + 0
		if (!(d in seen)) { seen[d] = 1; delays[++nd] = d }
		vt[boot, d, m] = v
	}
}
END {
	if (!nd) {
		print "zap-overhead.sh: no vtuner-delayN rows" > "/dev/stderr"
		exit 1
	}
	isort(delays, nd)
	hdr = "| boot |"; sep = "| --- |"
	for (k = 1; k <= 2; k++)
		for (i = 1; i <= nd; i++) {
			hdr = hdr sprintf(" %s %d ms |", k == 1 ? "lock" : "first TS", delays[i])
			sep = sep " --- |"
		}
	print "# overhead = p50 through vtuner - netem delay - p50 of vidtv direct, ms"
	print hdr; print sep
	for (b = 1; b <= boot; b++) {
		row = "| " name[b] " |"
		for (k = 1; k <= 2; k++) {
			m = k == 1 ? "lock" : "first"
			for (i = 1; i <= nd; i++) {
				d = delays[i]
				if (!((b, d, m) in vt) || !dn[b, m]) {
					row = row " - |"
					continue
				}
				o = vt[b, d, m] - d - dsum[b, m] / dn[b, m]
				all[m, d, ++cnt[m, d]] = o
				row = row sprintf(" %.1f |", o)
			}
		}
		print row
	}
	row = "| median |"
	for (k = 1; k <= 2; k++) {
		m = k == 1 ? "lock" : "first"
		for (i = 1; i <= nd; i++) {
			d = delays[i]
			n = cnt[m, d]
			if (!n) { row = row " - |"; continue }
			delete a
			for (j = 1; j <= n; j++)
				a[j] = all[m, d, j]
			row = row sprintf(" %.1f |", median(a, n))
		}
	}
	print row
}' "$@"
