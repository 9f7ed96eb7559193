# vtunerctl, the adapter status tool: $(B)/ctl/vtunerctl.
# Included from src/src.mk.
VTCTL := $(B)/ctl/vtunerctl

.PHONY: vtunerctl
all: vtunerctl
vtunerctl: $(VTCTL)

$(VTCTL): src/ctl/vtunerctl.c debian/changelog $(VTC_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(DEPFLAGS) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) $< \
		$(VTC_LIB) -o $@
