#!/bin/bash
# Tally the results.txt of several boots of bench/vm/50-datapath.sh.
#   tally.sh [-c ADAPTERS] [-j PATH=AS]... RESULTS.txt...
# For each path (local, net, net-b, relay...) at ADAPTERS adapters
# (default 16): the runs, how many were lossless ("ok": no continuity
# error, no dvr overflow, every reader >= 90 % of its rate), the worst
# reader and the total Mbit/s over all boots, and, in each boot that ran
# both, the path's total / the local writer's.  Then Fisher's exact test
# (two-sided) of each path's lossless runs against the local writer's:
# the chance of a split at least as uneven if both lost equally often.
# -j net-b=net counts the runs of net-b as runs of net (both paths ran
# one build: BENCH_VTUNERD_B set to the vtunerd under test).
set -euo pipefail

usage() { sed -n '2,12s/^# \{0,1\}//p' "$0" >&2; exit 2; }

count=16
join=""
while [ $# -gt 0 ]; do
	case $1 in
	-c) count=${2:?}; shift 2 ;;
	-j) [[ ${2:-} =~ ^[a-z-]+=[a-z-]+$ ]] ||
		{ echo "tally.sh: -j wants PATH=AS, e.g. net-b=net" >&2; exit 2; }
		join="$join $2"; shift 2 ;;
	-h | --help) usage ;;
	--) shift; break ;;
	-*) echo "tally.sh: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || usage
for f in "$@"; do
	[ -r "$f" ] || { echo "tally.sh: cannot read $f" >&2; exit 1; }
done

awk -v count="$count" -v join="$join" '
function lf(n,   i, s) {		# log(n!)
	if (n in LF)
		return LF[n]
	s = 0
	for (i = 2; i <= n; i++)
		s += log(i)
	return LF[n] = s
}
function hyper(a, b, c, d) {		# P(table) with its margins fixed
	return exp(lf(a + b) + lf(c + d) + lf(a + c) + lf(b + d) - \
		   lf(a + b + c + d) - lf(a) - lf(b) - lf(c) - lf(d))
}
function fisher(a, b, c, d,   r1, c1, n, p0, p, q, x, lo, hi) {
	r1 = a + b; c1 = a + c; n = a + b + c + d
	p0 = hyper(a, b, c, d)
	lo = c1 - (n - r1); if (lo < 0) lo = 0
	hi = r1 < c1 ? r1 : c1
	p = 0
	for (x = lo; x <= hi; x++) {
		q = hyper(x, r1 - x, c1 - x, n - r1 - c1 + x)
		if (q <= p0 * (1 + 1e-7))
			p += q
	}
	return p > 1 ? 1 : p
}
BEGIN {
	n = split(join, j, " ")
	for (i = 1; i <= n; i++) {
		split(j[i], pa, "=")
		as[pa[1]] = pa[2]
	}
}
FNR == 1 { boot++ }
/^\| [a-z-]+ \| [0-9]+ \| [0-9]+ \| / {
	split($0, f, " *\\| *")
	label = (f[2] in as) ? as[f[2]] : f[2]
	if (f[3] != count || f[5] !~ /readers=/)
		next
	min = sum = ""
	n = split(f[5], kv, " ")
	for (i = 1; i <= n; i++) {
		if (kv[i] ~ /^min_mbps=/) min = substr(kv[i], 10) + 0
		if (kv[i] ~ /^sum_mbps=/) sum = substr(kv[i], 10) + 0
	}
	ok = kv[n] == "ok"
	if (!(label in runs)) {
		order[++nlabels] = label
		wmin[label] = min; smin[label] = sum; smax[label] = sum
	}
	runs[label]++
	good[label] += ok
	if (min < wmin[label]) wmin[label] = min
	if (sum < smin[label]) smin[label] = sum
	if (sum > smax[label]) smax[label] = sum
	if (label == "local")
		local[boot] = sum
	else {
		pend[++npend] = label; pboot[npend] = boot; psum[npend] = sum
	}
}
END {
	for (i = 1; i <= npend; i++) {
		l = pend[i]
		if (!(pboot[i] in local) || local[pboot[i]] <= 0)
			continue
		r = psum[i] / local[pboot[i]]
		if (!(l in rmin) || r < rmin[l]) rmin[l] = r
		if (!(l in rmax) || r > rmax[l]) rmax[l] = r
	}
	if (!nlabels) {
		print "tally.sh: no result rows for " count " adapters" > "/dev/stderr"
		exit 1
	}
	printf "# %d boots, %d adapters\n", boot, count
	print "| path | lossless runs | worst reader, Mbit/s | total Mbit/s | total / local, same boot | Fisher p vs local |"
	print "| --- | --- | --- | --- | --- | --- |"
	for (i = 1; i <= nlabels; i++) {
		l = order[i]
		ratio = (l in rmin) ? sprintf("%.2f-%.2f", rmin[l], rmax[l]) : "-"
		p = "-"
		if (l != "local" && ("local" in runs))
			p = sprintf("%.2f", fisher(good[l], runs[l] - good[l],
				good["local"], runs["local"] - good["local"]))
		printf "| %s | %d of %d | %.1f | %.1f-%.1f | %s | %s |\n", l,
		       good[l], runs[l], wmin[l], smin[l], smax[l], ratio, p
	}
}' "$@"
