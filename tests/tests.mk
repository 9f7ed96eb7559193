# The test suite.  `make check` runs every stage through tests/check.sh,
# which prints one "N passed, N failed" line per stage and the total last.
-include tests/unit/unit.mk
-include tests/tuner/tuner.mk
-include tests/fuzz/fuzz.mk
-include tests/server/server.mk
-include tests/vm/vm.mk

.PHONY: check-lint
check-lint:
	@tests/lint.sh $(B) $(KVERS)

CHECK_STAGES ?= check-unit check-sim check-client check-server check-fuzz check-lint check-man check-install check-deb check-vm

check:
	@B=$(B) MAKE="$(MAKE)" tests/check.sh $(CHECK_STAGES)

# make demo-run: build, and run tests/vm/demo/demo.sh in a VM with the
# newest kernel; the summary is printed at the end.  make demo
# (tests/setup.mk) installs what is missing first.
DEMO_KVER ?= $(lastword $(sort $(KVERS)))
.PHONY: demo-run
demo-run: all tuner-tools
	@[ -n "$(DEMO_KVER)" ] || { echo "demo: no kernel (KVERS is empty)" >&2; exit 1; }
	@tests/vm/run.sh --kernel $(DEMO_KVER) --build $(B) --dir tests/vm/demo demo
	@echo; cat $(B)/vm/$(DEMO_KVER)/results/demo/summary.txt
