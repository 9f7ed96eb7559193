# vtuner top-level Makefile.
#   make            build the module (for every kernel found) and the programs
#   make check      unit tests on the host, then the VM suite on every kernel
#   make demo       the whole system end to end in a VM
# Each part of the tree adds its rules through a fragment included below.

B       ?= build
CC      ?= gcc
CFLAGS  ?= -O2 -g
WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
# The version of the module, both daemons, vtunerctl and the packages:
# set only in debian/changelog (its first entry, upstream part).
vt_lp := (
vt_rp := )
VT_VERSION ?= $(shell sed -n '1s/^[^$(vt_lp)]*.\([^$(vt_rp)-]*\).*/\1/p' debian/changelog)
BASE_CFLAGS := -std=gnu11 $(WARN) -D_GNU_SOURCE -Ikernel/uapi -Isrc \
	       -DVT_VERSION='"$(VT_VERSION)"'
# Header dependencies come from the compiler: every rule that compiles
# one source adds DEPFLAGS, and the .d files it writes are read below.
DEPFLAGS := -MMD -MP

# Kernels to build and test against: every /lib/modules/*/build present,
# or KVERS="6.1.0-57-amd64 ..." on the command line.
KVERS   ?= $(notdir $(patsubst %/build,%,$(wildcard /lib/modules/*/build)))

.PHONY: all check check-unit check-vm demo clean
all:

# Goals that install packages or build a machine first and run make again
# for the rest (tests/setup.mk).  Asked for alone, they read nothing else:
# KVERS, the pkg-config and compiler probes of the fragments are computed
# when make reads them, and before the installation they would be empty
# (and make's cache of /lib/modules stale).
VT_SETUP_GOALS := demo check-fresh
ifeq ($(filter-out $(VT_SETUP_GOALS),$(or $(MAKECMDGOALS),all)),)
include tests/setup.mk
else
include kernel/kernel.mk
-include src/src.mk
-include tests/tests.mk
-include install.mk
-include bench/bench.mk
-include tests/setup.mk
# (not those of the kernel builds, of the tree copy check-deb builds in,
# or of the Debian roots of check-fresh)
-include $(shell find $(B) \( -path $(B)/deb -o -path $(B)/kernel -o \
	-path $(B)/vidtv -o -path $(B)/vm -o -path $(B)/fresh \) -prune -o -type f -name '*.d' -print 2>/dev/null)
endif

clean:
	rm -rf $(B)
