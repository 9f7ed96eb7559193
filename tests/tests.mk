# The test suite.  `make check` runs every stage through tests/check.sh,
# which prints one "N passed, N failed" line per stage and the total last.
-include tests/unit/unit.mk
-include tests/tuner/tuner.mk
-include tests/fuzz/fuzz.mk
-include tests/vm/vm.mk

.PHONY: check-lint
check-lint:
	@tests/lint.sh $(B) $(KVERS)

CHECK_STAGES ?= check-unit check-sim check-client check-lint check-vm

check:
	@B=$(B) MAKE="$(MAKE)" tests/check.sh $(CHECK_STAGES)
