# vtunerc, the client daemon: $(B)/client/vtunerc.
# Uses B, CC, CFLAGS, BASE_CFLAGS, VTP_LIB and VTC_LIB of the top Makefile.
VC_SRCS := src/client/main.c src/client/client.c src/client/front_ctrl.c \
	   src/client/front_sink.c src/client/front_cuse.c \
	   src/client/remote_vtp.c \
	   src/client/remote_satip.c src/client/sec.c src/client/monitor.c \
	   src/client/ctrl.c src/client/net.c src/client/tscc.c \
	   src/client/props.c src/client/pidset.c src/client/discover.c \
	   src/client/discover_satip.c src/client/status.c
VC_OBJS := $(patsubst src/client/%.c,$(B)/client/%.o,$(VC_SRCS))
VTUNERC := $(B)/client/vtunerc

# Discovery through Avahi when its client library is installed
# (AVAHI_CFLAGS, AVAHI_LIBS: src/src.mk); --cuse when libfuse3 is
# (FUSE_CFLAGS, FUSE_LIBS), with the demux of src/dmx.

.PHONY: vtunerc
all: vtunerc
vtunerc: $(VTUNERC)

$(B)/client/%.o: src/client/%.c
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(DEPFLAGS) $(AVAHI_CFLAGS) $(FUSE_CFLAGS) $(VTP_AUTH_CFLAGS) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

# the version is debian/changelog's
$(B)/client/main.o: debian/changelog

$(VTUNERC): $(VC_OBJS) $(SATIP_LIB) $(VDMX_LIB) $(VTP_LIB) $(VTC_LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(VC_OBJS) $(SATIP_LIB) $(VDMX_LIB) $(VTP_LIB) $(VTC_LIB) $(AVAHI_LIBS) \
		$(FUSE_LIBS) $(VTP_AUTH_LIBS)

