# vtunerc, the client daemon: $(B)/client/vtunerc; make check-client runs
# the cmocka test of the TS continuity checker.
# Uses B, CC, CFLAGS, BASE_CFLAGS, VTP_LIB and VTC_LIB of the top Makefile.
VC_SRCS := src/client/main.c src/client/client.c src/client/ctrl.c \
	   src/client/net.c src/client/tscc.c src/client/props.c \
	   src/client/discover.c src/client/status.c
VC_HDRS := $(wildcard src/client/*.h) kernel/uapi/vtuner.h \
	   src/proto/vtp.h src/proto/vtp_io.h src/common/log.h
VC_OBJS := $(patsubst src/client/%.c,$(B)/client/%.o,$(VC_SRCS))
VTUNERC := $(B)/client/vtunerc

# Discovery through Avahi when its client library is installed.
VC_AVAHI := $(shell pkg-config --exists avahi-client 2>/dev/null && echo y)
ifeq ($(VC_AVAHI),y)
VC_CFLAGS := -DHAVE_AVAHI $(shell pkg-config --cflags avahi-client)
VC_LIBS := $(shell pkg-config --libs avahi-client)
endif

.PHONY: vtunerc check-client
all: vtunerc
vtunerc: $(VTUNERC)

$(B)/client/%.o: src/client/%.c $(VC_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(VC_CFLAGS) $(VTP_AUTH_CFLAGS) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(VTUNERC): $(VC_OBJS) $(VTP_LIB) $(VTC_LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(VC_OBJS) $(VTP_LIB) $(VTC_LIB) $(VC_LIBS) \
		$(VTP_AUTH_LIBS)

$(B)/client/test_tscc: src/client/test_tscc.c $(B)/client/tscc.o
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(CFLAGS) $(shell pkg-config --cflags cmocka) \
		-o $@ $^ $(shell pkg-config --libs cmocka)

check-client: $(B)/client/test_tscc
	$(B)/client/test_tscc
