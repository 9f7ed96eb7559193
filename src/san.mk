# Sanitizer build of the daemons.
#   make san                 vtunerd and vtunerc with ASan + UBSan (gcc) in
#                            $(B)/san/server/vtunerd, $(B)/san/client/vtunerc
#   make B=DIR SAN=1 TARGET  any target of the tree built that way into DIR
# tests/vm/t/42-sanitizers.sh runs them end to end (check-vm builds them).
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer \
	     -fno-sanitize-recover=undefined

ifeq ($(SAN),1)
override CFLAGS += $(SAN_FLAGS)
override LDFLAGS += $(SAN_FLAGS)
endif

.PHONY: san
ifneq ($(SAN),1)
san:
	@$(MAKE) --no-print-directory B=$(B)/san SAN=1 vtunerd vtunerc
endif
