# libFuzzer harnesses: the wire protocol decoder and frame reader
# (fuzz_proto: clear and sealed streams, tests/fuzz/fuzz_seal.h), the
# simulated tuner's world file and the TS it generates (fuzz_simconf), the
# daemons' configuration files (fuzz_config), the SAT>IP protocol library:
# requests, queries, tunings and reports (fuzz_satip), and its client's
# side: replies, RTP, RTCP, SDP, reports, desc.xml, SSDP, the sequence
# tracker, a frontend's tuning and PID queries (fuzz_satip_client),
# vtunerd's dvbv5 channel file (fuzz_channels, --satip-channels), the
# user-space demux: filters, TS, reads, dvr0 (fuzz_dmx, src/dmx/).
#   make fuzz-proto [FUZZ_TIME=60]   bounded fuzzing run (also fuzz-simconf,
#                                    fuzz-config, fuzz-satip,
#                                    fuzz-satip-client, fuzz-channels,
#                                    fuzz-dmx)
#   make fuzz-corpus                 regenerate tests/fuzz/corpus/proto
# New inputs go to $(B)/fuzz/corpus-NAME; the committed seeds are only read.
# Needs VTP_SRCS and VTP_HDRS from src/proto/proto.mk, SIM_SRCS from
# src/server/sim/sim.mk, VTC_SRCS from src/common/common.mk, VDMX_SRCS
# and VDMX_HDRS from src/dmx/dmx.mk.
# SAT>IP's sources are named here: fuzz_satip needs out.c, rtsp.c, query.c,
# report.c and dvb.c, not the rest of $(SATIP_LIB); fuzz_satip_client those
# and the client's files, and desc.c (X_SATIPCAP's names) with libsodium.
FUZZ_CC     ?= clang
FUZZ_TIME   ?= 60
FUZZ_CFLAGS := -g -O1 -fsanitize=fuzzer,address,undefined \
	       -fno-sanitize-recover=undefined
FUZZ_SEEDS  := tests/fuzz/corpus/proto
FUZZ_PROTO  := $(B)/fuzz/fuzz_proto

.PHONY: fuzz-proto fuzz-corpus

$(FUZZ_PROTO): tests/fuzz/fuzz_proto.c tests/fuzz/fuzz_seal.h $(VTP_SRCS) \
		$(VTP_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(BASE_CFLAGS) $(FUZZ_CFLAGS) $(VTP_AUTH_CFLAGS) \
		tests/fuzz/fuzz_proto.c $(VTP_SRCS) $(VTP_AUTH_LIBS) -o $@

FUZZ_SIMCONF := $(B)/fuzz/fuzz_simconf
FUZZ_CONFIG  := $(B)/fuzz/fuzz_config
FUZZ_SIM_SRCS := $(addprefix src/server/sim/,$(SIM_SRCS)) tests/unit/sim/tscheck.c \
		 src/common/dvb.c

$(FUZZ_SIMCONF): tests/fuzz/fuzz_simconf.c $(FUZZ_SIM_SRCS) $(SIM_HDRS) \
		 tests/unit/sim/tscheck.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(BASE_CFLAGS) $(FUZZ_CFLAGS) $(SIM_DVBPSI_CFLAGS) \
		-Itests/unit/sim tests/fuzz/fuzz_simconf.c $(FUZZ_SIM_SRCS) \
		$(SIM_LIBS) -o $@

$(FUZZ_CONFIG): tests/fuzz/fuzz_config.c $(VTC_SRCS) $(VTC_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(BASE_CFLAGS) $(FUZZ_CFLAGS) tests/fuzz/fuzz_config.c \
		$(VTC_SRCS) -o $@

FUZZ_SATIP := $(B)/fuzz/fuzz_satip
FUZZ_SATIP_SRCS := src/satip/out.c src/satip/rtsp.c src/satip/query.c src/satip/report.c \
		   src/common/dvb.c

$(FUZZ_SATIP): tests/fuzz/fuzz_satip.c $(FUZZ_SATIP_SRCS) $(SATIP_HDRS) \
		src/common/dvb.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(BASE_CFLAGS) $(FUZZ_CFLAGS) tests/fuzz/fuzz_satip.c \
		$(FUZZ_SATIP_SRCS) -o $@

FUZZ_SATIP_CLIENT := $(B)/fuzz/fuzz_satip_client
FUZZ_SATIP_CLIENT_SRCS := $(FUZZ_SATIP_SRCS) src/satip/reply.c src/satip/rtprx.c \
			  src/satip/frontend.c src/satip/discover.c src/satip/desc.c

$(FUZZ_SATIP_CLIENT): tests/fuzz/fuzz_satip_client.c $(FUZZ_SATIP_CLIENT_SRCS) \
		$(SATIP_HDRS) src/common/dvb.h src/common/text.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(BASE_CFLAGS) $(FUZZ_CFLAGS) $(VTP_AUTH_CFLAGS) \
		tests/fuzz/fuzz_satip_client.c $(FUZZ_SATIP_CLIENT_SRCS) \
		$(VTP_AUTH_LIBS) -o $@

FUZZ_CHANNELS := $(B)/fuzz/fuzz_channels

$(FUZZ_CHANNELS): tests/fuzz/fuzz_channels.c src/server/channels.c \
		src/server/channels.h src/server/backend.h $(VTC_SRCS) $(VTC_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(BASE_CFLAGS) $(FUZZ_CFLAGS) tests/fuzz/fuzz_channels.c \
		src/server/channels.c $(VTC_SRCS) -o $@

FUZZ_DMX := $(B)/fuzz/fuzz_dmx

$(FUZZ_DMX): tests/fuzz/fuzz_dmx.c $(VDMX_SRCS) $(VDMX_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(BASE_CFLAGS) $(FUZZ_CFLAGS) tests/fuzz/fuzz_dmx.c \
		$(VDMX_SRCS) -o $@

.PHONY: fuzz-simconf fuzz-config fuzz-satip fuzz-satip-client fuzz-channels \
	fuzz-dmx
fuzz-simconf: $(FUZZ_SIMCONF)
	@mkdir -p $(B)/fuzz/corpus-simconf $(B)/fuzz/artifacts/
	$(FUZZ_SIMCONF) -max_total_time=$(FUZZ_TIME) -max_len=65536 \
		-dict=tests/fuzz/simconf.dict \
		-artifact_prefix=$(B)/fuzz/artifacts/simconf- \
		$(B)/fuzz/corpus-simconf tests/fuzz/corpus/simconf

fuzz-config: $(FUZZ_CONFIG)
	@mkdir -p $(B)/fuzz/corpus-config $(B)/fuzz/artifacts/
	$(FUZZ_CONFIG) -max_total_time=$(FUZZ_TIME) -max_len=65536 \
		-artifact_prefix=$(B)/fuzz/artifacts/config- \
		$(B)/fuzz/corpus-config tests/fuzz/corpus/config

fuzz-satip: $(FUZZ_SATIP)
	@mkdir -p $(B)/fuzz/corpus-satip $(B)/fuzz/artifacts/
	$(FUZZ_SATIP) -max_total_time=$(FUZZ_TIME) -max_len=32768 \
		-dict=tests/fuzz/satip.dict \
		-artifact_prefix=$(B)/fuzz/artifacts/satip- \
		$(B)/fuzz/corpus-satip tests/fuzz/corpus/satip

fuzz-satip-client: $(FUZZ_SATIP_CLIENT)
	@mkdir -p $(B)/fuzz/corpus-satip_client $(B)/fuzz/artifacts/
	$(FUZZ_SATIP_CLIENT) -max_total_time=$(FUZZ_TIME) -max_len=70000 \
		-dict=tests/fuzz/satip_client.dict \
		-artifact_prefix=$(B)/fuzz/artifacts/satip_client- \
		$(B)/fuzz/corpus-satip_client tests/fuzz/corpus/satip_client

fuzz-channels: $(FUZZ_CHANNELS)
	@mkdir -p $(B)/fuzz/corpus-channels $(B)/fuzz/artifacts/
	$(FUZZ_CHANNELS) -max_total_time=$(FUZZ_TIME) -max_len=65536 \
		-artifact_prefix=$(B)/fuzz/artifacts/channels- \
		-dict=tests/fuzz/channels.dict \
		$(B)/fuzz/corpus-channels tests/fuzz/corpus/channels

fuzz-dmx: $(FUZZ_DMX)
	@mkdir -p $(B)/fuzz/corpus-dmx $(B)/fuzz/artifacts/
	$(FUZZ_DMX) -max_total_time=$(FUZZ_TIME) -max_len=16384 \
		-artifact_prefix=$(B)/fuzz/artifacts/dmx- \
		$(B)/fuzz/corpus-dmx tests/fuzz/corpus/dmx

fuzz-proto: $(FUZZ_PROTO)
	@mkdir -p $(B)/fuzz/corpus-proto $(B)/fuzz/artifacts/
	$(FUZZ_PROTO) -max_total_time=$(FUZZ_TIME) -max_len=300000 \
		-artifact_prefix=$(B)/fuzz/artifacts/ \
		$(B)/fuzz/corpus-proto $(FUZZ_SEEDS)

$(B)/fuzz/mkcorpus: tests/fuzz/mkcorpus.c tests/fuzz/fuzz_seal.h \
		    tests/unit/vtp_samples.c tests/unit/vtp_samples.h $(VTP_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(CFLAGS) -Itests/unit tests/fuzz/mkcorpus.c \
		tests/unit/vtp_samples.c $(VTP_LIB) $(VTP_AUTH_LIBS) -o $@

fuzz-corpus: $(B)/fuzz/mkcorpus
	@mkdir -p $(FUZZ_SEEDS)
	$(B)/fuzz/mkcorpus $(FUZZ_SEEDS)

# make check-fuzz: a short run of each harness for make check (proto
# CHECK_FUZZ_TIME s, beside the others, one after the other,
# CHECK_FUZZ_TIME2 s each: one core each); the last line is
# "N passed, N failed", a harness passing when nothing crashed.
CHECK_FUZZ_TIME ?= 20
CHECK_FUZZ_TIME2 ?= 10
.PHONY: check-fuzz
check-fuzz: $(FUZZ_PROTO) $(FUZZ_SIMCONF) $(FUZZ_CONFIG) $(FUZZ_SATIP) \
		$(FUZZ_SATIP_CLIENT) $(FUZZ_CHANNELS) $(FUZZ_DMX)
	@mkdir -p $(B)/fuzz/artifacts/
	@run() { \
		name=$$1; log=$(B)/fuzz/check-$$1.log; \
		mkdir -p $(B)/fuzz/corpus-$$1; \
		$(B)/fuzz/fuzz_$$1 -max_total_time=$$2 -max_len=$$3 $$5 \
			-artifact_prefix=$(B)/fuzz/artifacts/$$1- \
			$(B)/fuzz/corpus-$$1 $$4 >$$log 2>&1; \
		echo $$? > $(B)/fuzz/check-$$1.rc; \
	}; \
	rm -f $(B)/fuzz/check-*.rc; \
	run proto $(CHECK_FUZZ_TIME) 300000 $(FUZZ_SEEDS) & \
	{ run simconf $(CHECK_FUZZ_TIME2) 65536 tests/fuzz/corpus/simconf -dict=tests/fuzz/simconf.dict; \
	  run config $(CHECK_FUZZ_TIME2) 65536 tests/fuzz/corpus/config; \
	  run satip $(CHECK_FUZZ_TIME2) 32768 tests/fuzz/corpus/satip -dict=tests/fuzz/satip.dict; \
	  run satip_client $(CHECK_FUZZ_TIME2) 70000 tests/fuzz/corpus/satip_client -dict=tests/fuzz/satip_client.dict; \
	  run channels $(CHECK_FUZZ_TIME2) 65536 tests/fuzz/corpus/channels -dict=tests/fuzz/channels.dict; \
	  run dmx $(CHECK_FUZZ_TIME2) 16384 tests/fuzz/corpus/dmx; }; \
	wait; \
	pass=0; fail=0; \
	for name in proto simconf config satip satip_client channels dmx; do \
		log=$(B)/fuzz/check-$$name.log; \
		if [ "$$(cat $(B)/fuzz/check-$$name.rc 2>/dev/null)" = 0 ]; then \
			echo "ok - fuzz_$$name: $$(grep '^Done' $$log)"; \
			pass=$$((pass + 1)); \
		else \
			tail -n 40 $$log; \
			echo "not ok - fuzz_$$name: crash input in $(B)/fuzz/artifacts/"; \
			fail=$$((fail + 1)); \
		fi; \
	done; \
	echo "check-fuzz: $$pass passed, $$fail failed"; \
	[ $$fail = 0 ]
