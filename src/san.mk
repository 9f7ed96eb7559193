# Sanitizer build of the daemons.
#   make san                 vtunerd and vtunerc with ASan + UBSan (gcc) in
#                            $(B)/san/server/vtunerd, $(B)/san/client/vtunerc
#   make B=DIR SAN=1 TARGET  any target of the tree built that way into DIR
#   make tsan                vtunerd with ThreadSanitizer (its TS threads) in
#                            $(B)/tsan/server/vtunerd (SAN=thread)
# tests/vm/t/42-sanitizers.sh runs them end to end (check-vm builds them),
# tests/server/run.sh (make check-server) the TSan vtunerd on the host.
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer \
	     -fno-sanitize-recover=undefined
TSAN_FLAGS := -fsanitize=thread -fno-omit-frame-pointer

ifeq ($(SAN),1)
override CFLAGS += $(SAN_FLAGS)
override LDFLAGS += $(SAN_FLAGS)
endif
ifeq ($(SAN),thread)
override CFLAGS += $(TSAN_FLAGS)
override LDFLAGS += $(TSAN_FLAGS)
endif

.PHONY: san tsan
ifeq ($(SAN),)
san:
	@$(MAKE) --no-print-directory B=$(B)/san SAN=1 vtunerd vtunerc
tsan:
	@$(MAKE) --no-print-directory B=$(B)/tsan SAN=thread vtunerd
endif
