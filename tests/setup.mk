# Goals that change the system before the build: the top Makefile reads
# only this file when they are asked for alone, and they run make again
# once the system is ready, so that everything computed from the installed
# system (KVERS, DEMO_KVER, pkg-config and compiler probes) is computed
# after the installation, in the sub-make.
#   make demo          install what is missing (scripts/install-deps.sh,
#                      as root), then make demo-run (tests/tests.mk)
#   make check-fresh   make demo, make check-unit and the documented
#                      command sequences in pristine Debian 12 roots
#                      (tests/fresh/check-fresh.sh; root, slow)
.PHONY: demo check-fresh
demo:
	@scripts/install-deps.sh
	@$(MAKE) --no-print-directory B=$(B) demo-run

check-fresh:
	@B=$(B) tests/fresh/check-fresh.sh
