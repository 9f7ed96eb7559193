# SAT>IP protocol library of vtunerd: $(B)/satip/libsatip.a
# Pure parsing and formatting (RTSP/HTTP requests, the query, the DVB
# properties of a tuning, reports, RTP/RTCP headers) and, for clients,
# replies, RTP reception, a frontend's tuning as a query, SSDP and
# desc.xml: no I/O.
# Uses B, CC, CFLAGS and BASE_CFLAGS of the top Makefile; query.c uses
# src/common/dvb.c: programs that link $(SATIP_LIB) link $(VTC_LIB) too.
SATIP_SRCS := src/satip/out.c src/satip/rtsp.c src/satip/query.c src/satip/report.c src/satip/desc.c \
	      src/satip/reply.c src/satip/rtprx.c src/satip/frontend.c src/satip/discover.c
SATIP_HDRS := src/satip/out.h src/satip/rtsp.h src/satip/query.h src/satip/report.h src/satip/desc.h \
	      src/satip/span.h src/satip/reply.h src/satip/rtprx.h
SATIP_OBJS := $(patsubst src/satip/%.c,$(B)/satip/%.o,$(SATIP_SRCS))
SATIP_LIB  := $(B)/satip/libsatip.a

all: $(SATIP_LIB)

$(B)/satip/%.o: src/satip/%.c
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(DEPFLAGS) $(CPPFLAGS) $(CFLAGS) $(VTP_AUTH_CFLAGS) -c $< -o $@

$(SATIP_LIB): $(SATIP_OBJS)
	$(AR) rcs $@ $^
