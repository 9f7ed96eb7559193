# VM test suite: for every kernel in $(KVERS), boot it under QEMU and run
# tests/vm/t/*.sh, or only those matching VM_TESTS (glob names, with or
# without .sh), e.g.  make check-vm VM_TESTS='01-* 10-tune'
# The kernels run side by side, one QEMU each, at most VM_JOBS at a time
# (default: the number of cores), each to its own log, printed one after
# the other at the end (tests/vm/run-kernels.sh).  Every kernel is run
# even if one fails; the target fails at the end.
VM_TESTS ?=
VM_TEST_FILES = $(sort $(if $(strip $(VM_TESTS)),\
	$(wildcard $(addprefix tests/vm/t/,$(VM_TESTS)) \
		$(addsuffix .sh,$(addprefix tests/vm/t/,$(VM_TESTS)))),\
	$(wildcard tests/vm/t/*.sh)))

.PHONY: check-vm check-vm-deps vm-vidtv
# one build per kernel, side by side (each is mostly one xz stream and one
# compiler at a time); the output of each is printed when all are done
vm-vidtv:
	@mkdir -p $(B)/vidtv; pids=""; \
	for k in $(KVERS); do \
		tests/vm/build-vidtv.sh $$k $(B)/vidtv/$$k >$(B)/vidtv/build-$$k.log 2>&1 & \
		pids="$$pids $$!"; \
	done; \
	rc=0; for p in $$pids; do wait $$p || rc=1; done; \
	for k in $(KVERS); do cat $(B)/vidtv/build-$$k.log; done; \
	exit $$rc

# what the VM tests use (tests/check.sh builds it before the other stages
# start beside the VM suite)
check-vm-deps: all vm-vidtv san bench-tools

check-vm: check-vm-deps
	@[ -n "$(KVERS)" ] || { echo "check-vm: no kernels (KVERS is empty)" >&2; exit 1; }
	@[ -n "$(VM_TEST_FILES)" ] || { echo "check-vm: no test matches VM_TESTS='$(VM_TESTS)'" >&2; exit 1; }
	@tests/vm/run-kernels.sh $(B) $(KVERS) -- $(VM_TEST_FILES)
