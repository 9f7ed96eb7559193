# vtunerd, the server daemon: $(B)/server/vtunerd.
# Uses B, CC, CFLAGS, BASE_CFLAGS, VTP_LIB and VTC_LIB of the top Makefile
# and, when src/server/sim/sim.mk is present, SIM_LIB and SIM_LIBS.
VTD_SRCS := src/server/main.c src/server/server.c src/server/session.c src/server/conn_vtp.c src/server/share.c \
	    src/server/conn_rtsp.c src/server/satip.c src/server/channels.c \
	    src/server/backend.c src/server/backend_dvb.c src/server/pidfilter.c \
	    src/server/backend_sim.c src/server/announce.c src/server/auth.c \
	    src/server/ssdp.c
VTD_OBJS := $(patsubst src/server/%.c,$(B)/server/%.o,$(VTD_SRCS))
VTD_BIN  := $(B)/server/vtunerd

# The DNS-SD announcement through Avahi when its client library is
# installed (AVAHI_CFLAGS, AVAHI_LIBS: src/src.mk).

ifneq ($(SIM_LIB),)
VTD_SIM_CFLAGS := -DVTD_HAVE_SIM
endif

.PHONY: vtunerd
all: vtunerd
vtunerd: $(VTD_BIN)


$(B)/server/%.o: src/server/%.c
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(DEPFLAGS) $(CPPFLAGS) $(CFLAGS) $(VTD_SIM_CFLAGS) \
		$(AVAHI_CFLAGS) $(VTP_AUTH_CFLAGS) -c $< -o $@

# the version is debian/changelog's
$(B)/server/main.o: debian/changelog

$(VTD_BIN): $(VTD_OBJS) $(VTP_LIB) $(SATIP_LIB) $(VTC_LIB) $(SIM_LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) $(VTD_OBJS) $(SIM_LIB) $(VTP_LIB) \
		$(SATIP_LIB) $(VTC_LIB) $(SIM_LIBS) $(AVAHI_LIBS) $(VTP_AUTH_LIBS) -o $@

