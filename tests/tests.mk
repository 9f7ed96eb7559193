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

# make demo: install what is missing, build, and run tests/vm/demo/demo.sh
# in a VM with the newest kernel; the summary is printed at the end.
DEMO_KVER ?= $(lastword $(sort $(KVERS)))
.PHONY: demo
demo:
	@scripts/install-deps.sh
	@$(MAKE) --no-print-directory all tuner-tools
	@tests/vm/run.sh --kernel $(DEMO_KVER) --build $(B) --dir tests/vm/demo demo
	@echo; cat $(B)/vm/$(DEMO_KVER)/results/demo/summary.txt
