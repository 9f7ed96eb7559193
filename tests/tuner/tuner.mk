# tests/tuner: user-space test programs for vtunerc (see tests/tuner/README).
#   make tuner-tools   build vt-testtuner vt-classic [vt-classic32] vt-fuzz vt-tscheck
#                      vt-feabi [vt-feabi32] ...
#   make tuner-check   host self-tests (no module needed; part of check-unit)
# Included from the top Makefile; paths are relative to the top directory.

TUNER_DIR := tests/tuner
TUNER_B   := $(B)/tests/tuner
TUNER_CFLAGS = $(BASE_CFLAGS) $(CFLAGS) -pthread

TUNER_TOOLS := $(TUNER_B)/vt-testtuner $(TUNER_B)/vt-classic \
	       $(TUNER_B)/vt-fuzz $(TUNER_B)/vt-tscheck $(TUNER_B)/vt-fecall \
	       $(TUNER_B)/vt-watch $(TUNER_B)/vt-dmxfail $(TUNER_B)/vt-pidchurn \
	       $(TUNER_B)/vt-dmxguard $(TUNER_B)/vt-bigwrite $(TUNER_B)/vt-feabi \
	       $(TUNER_B)/vt-block

# 32-bit builds of vt-classic and vt-feabi: only when the compiler can
# build and link 32-bit programs (gcc-multilib, libc6-dev-i386); skipped
# otherwise.
TUNER_M32 := $(shell printf '\043include <linux/dvb/frontend.h>\nint main(void){return 0;}\n' | \
	$(CC) -m32 -x c - -o /dev/null >/dev/null 2>&1 && echo yes)
ifeq ($(TUNER_M32),yes)
TUNER_TOOLS += $(TUNER_B)/vt-classic32 $(TUNER_B)/vt-feabi32
endif

.PHONY: tuner-tools tuner-check
all: tuner-tools
tuner-tools: $(TUNER_TOOLS)
ifneq ($(TUNER_M32),yes)
	@echo "tests/tuner: $(CC) -m32 cannot link, vt-classic32 and vt-feabi32 skipped"
endif

TUNER_COMMON := $(TUNER_DIR)/vtcommon.c $(TUNER_DIR)/vtcommon.h kernel/uapi/vtuner.h \
		src/common/dvb.c src/common/dvb.h src/common/clock.h

$(TUNER_B)/vt-testtuner: $(TUNER_DIR)/vt-testtuner.c $(TUNER_COMMON)
	@mkdir -p $(@D)
	$(CC) $(TUNER_CFLAGS) -o $@ $(TUNER_DIR)/vt-testtuner.c $(TUNER_DIR)/vtcommon.c \
		src/common/dvb.c -lm

$(TUNER_B)/vt-fuzz: $(TUNER_DIR)/vt-fuzz.c $(TUNER_COMMON)
	@mkdir -p $(@D)
	$(CC) $(TUNER_CFLAGS) -o $@ $(TUNER_DIR)/vt-fuzz.c $(TUNER_DIR)/vtcommon.c \
		src/common/dvb.c

$(TUNER_B)/vt-dmxfail: $(TUNER_DIR)/vt-dmxfail.c
	@mkdir -p $(@D)
	$(CC) $(TUNER_CFLAGS) -o $@ $(TUNER_DIR)/vt-dmxfail.c

$(TUNER_B)/vt-dmxguard: $(TUNER_DIR)/vt-dmxguard.c kernel/uapi/vtuner.h
	@mkdir -p $(@D)
	$(CC) $(TUNER_CFLAGS) -o $@ $(TUNER_DIR)/vt-dmxguard.c

$(TUNER_B)/vt-bigwrite: $(TUNER_DIR)/vt-bigwrite.c kernel/uapi/vtuner.h
	@mkdir -p $(@D)
	$(CC) $(TUNER_CFLAGS) -o $@ $(TUNER_DIR)/vt-bigwrite.c

$(TUNER_B)/vt-pidchurn: $(TUNER_DIR)/vt-pidchurn.c
	@mkdir -p $(@D)
	$(CC) $(TUNER_CFLAGS) -o $@ $<

$(TUNER_B)/vt-fecall: $(TUNER_DIR)/vt-fecall.c
	@mkdir -p $(@D)
	$(CC) $(TUNER_CFLAGS) -o $@ $<

$(TUNER_B)/vt-block: $(TUNER_DIR)/vt-block.c
	@mkdir -p $(@D)
	$(CC) $(TUNER_CFLAGS) -o $@ $<

$(TUNER_B)/vt-watch: $(TUNER_DIR)/vt-watch.c
	@mkdir -p $(@D)
	$(CC) $(TUNER_CFLAGS) -o $@ $<

$(TUNER_B)/vt-tscheck: $(TUNER_DIR)/vt-tscheck.c
	@mkdir -p $(@D)
	$(CC) $(TUNER_CFLAGS) -o $@ $<

# the same program for 64-bit and 32-bit applications (the compat ioctls)
$(TUNER_B)/vt-feabi: $(TUNER_DIR)/vt-feabi.c
	@mkdir -p $(@D)
	$(CC) $(TUNER_CFLAGS) -o $@ $<

$(TUNER_B)/vt-feabi32: $(TUNER_DIR)/vt-feabi.c
	@mkdir -p $(@D)
	$(CC) -m32 $(TUNER_CFLAGS) -o $@ $<

# vt-classic is built against the classic part of vtuner.h only (everything
# before the extension ABI), which proves it needs nothing of the extension.
$(TUNER_B)/classic-include/vtuner.h: kernel/uapi/vtuner.h
	@mkdir -p $(@D)
	sed '/---- extension ABI/,$$d' $< > $@.tmp
	echo '#endif /* _UAPI_VTUNER_H_ (classic part only) */' >> $@.tmp
	mv $@.tmp $@

$(TUNER_B)/vt-classic: $(TUNER_DIR)/vt-classic.c $(TUNER_B)/classic-include/vtuner.h
	$(CC) -I$(TUNER_B)/classic-include $(TUNER_CFLAGS) -o $@ $<

$(TUNER_B)/vt-classic32: $(TUNER_DIR)/vt-classic.c $(TUNER_B)/classic-include/vtuner.h
	$(CC) -m32 -I$(TUNER_B)/classic-include $(TUNER_CFLAGS) -o $@ $<

# LD_PRELOAD stand-in for the control device, for the self-test only
$(TUNER_B)/mockdev.so: $(TUNER_DIR)/mockdev.c kernel/uapi/vtuner.h
	@mkdir -p $(@D)
	$(CC) $(TUNER_CFLAGS) -shared -fPIC -o $@ $< -ldl

# host checks of the tools run with the unit tests (make check-unit)
check-unit: tuner-check
tuner-check: tuner-tools $(TUNER_B)/mockdev.so
	TUNER_BIN=$(TUNER_B) sh $(TUNER_DIR)/selftest.sh
