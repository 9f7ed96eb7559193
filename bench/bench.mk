# Benchmarks (not part of make check: no timed assertions anywhere).
# Include from the top Makefile:   -include bench/bench.mk
#   make bench        host benchmarks: data path vs. a raw TCP relay
#                     (throughput, CPU s/GB, callgrind instructions/GB),
#                     16 clients on one vtunerd; results in $(B)/bench/
#   make bench-vm     the VM benchmarks of bench/vm/ (TCG, slow; booted
#                     with run.sh --bench: no slub_debug)
# Uses B, CC, CFLAGS, BASE_CFLAGS and the vtunerd/vtunerc targets.
BENCH_TOOLS := $(B)/bench/relay $(B)/bench/fe-latency $(B)/bench/dvr-reader \
               $(B)/bench/rtp-raw $(B)/bench/rtp-sink
# the newest 6.12 kernel installed (6.12.118+deb12-amd64 in BENCHMARKS.md)
BENCH_KVER  ?= $(lastword $(sort $(filter 6.12.%,$(KVERS))))

.PHONY: bench bench-tools bench-vm
bench-tools: $(BENCH_TOOLS)

$(B)/bench/%: bench/%.c
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(CFLAGS) -o $@ $< -lm

bench: bench-tools vtunerd vtunerd-probe vtunerc sim
	B=$(B) bench/host.sh

bench-vm: bench-tools vtunerd vtunerd-probe vtunerc sim module tuner-tools vm-vidtv
	VT_TEST_TIMEOUT=2400 tests/vm/run.sh --kernel $(BENCH_KVER) --build $(B) \
		--bench --timeout 5000 --dir bench/vm
