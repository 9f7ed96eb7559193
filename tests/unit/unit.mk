# Unit tests of the wire protocol (cmocka).  `make check-unit` runs them
# and ends with a line "N passed, N failed".
# Needs VTP_LIB from src/proto/proto.mk.
UNIT_DIR    := $(B)/tests/unit
SATIP_UNIT_TESTS := $(UNIT_DIR)/test_satip_rtsp $(UNIT_DIR)/test_satip_query \
		    $(UNIT_DIR)/test_satip_report \
		    $(UNIT_DIR)/test_satip_desc $(UNIT_DIR)/test_satip_reply \
		    $(UNIT_DIR)/test_satip_rtprx $(UNIT_DIR)/test_satip_frontend \
		    $(UNIT_DIR)/test_satip_discover
UNIT_TESTS  := $(UNIT_DIR)/test_vtp $(UNIT_DIR)/test_vtp_io \
	       $(UNIT_DIR)/test_vtp_seal $(UNIT_DIR)/test_vtp_queue $(UNIT_DIR)/test_config \
	       $(UNIT_DIR)/test_pidfilter $(UNIT_DIR)/test_share $(SATIP_UNIT_TESTS) \
	       $(UNIT_DIR)/test_channels $(UNIT_DIR)/test_dmx
UNIT_OBJS   := $(addsuffix .o,$(UNIT_TESTS)) $(UNIT_DIR)/vtp_samples.o
UNIT_CFLAGS := $(BASE_CFLAGS) $(CFLAGS) $(shell pkg-config --cflags cmocka) \
	       $(VTP_AUTH_CFLAGS)
UNIT_LIBS   := $(shell pkg-config --libs cmocka) $(VTP_AUTH_LIBS)

.PHONY: check-unit unit-tests
.SECONDARY: $(UNIT_OBJS)
unit-tests: $(UNIT_TESTS)

check-unit: $(UNIT_TESTS)
	@tests/unit/run-tests.sh $(UNIT_TESTS)

$(UNIT_DIR)/%.o: tests/unit/%.c
	@mkdir -p $(dir $@)
	$(CC) $(UNIT_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(UNIT_DIR)/test_%: $(UNIT_DIR)/test_%.o $(UNIT_DIR)/vtp_samples.o $(VTP_LIB)
	$(CC) $(CFLAGS) $^ $(UNIT_LIBS) -o $@

# The config file parser of the daemons (src/common/config.c).
$(UNIT_DIR)/test_config: $(UNIT_DIR)/test_config.o $(VTC_LIB)
	$(CC) $(CFLAGS) $^ $(UNIT_LIBS) -o $@

# The PID filters of vtunerd's dvb backend (src/server/pidfilter.c).
$(UNIT_DIR)/test_pidfilter: $(UNIT_DIR)/test_pidfilter.o $(B)/server/pidfilter.o $(VTC_LIB)
	$(CC) $(CFLAGS) $^ $(UNIT_LIBS) -o $@

# The dvbv5 channel file of vtunerd --satip-channels (src/server/channels.c).
$(UNIT_DIR)/test_channels: $(UNIT_DIR)/test_channels.o $(B)/server/channels.o $(VTC_LIB)
	$(CC) $(CFLAGS) $^ $(UNIT_LIBS) -o $@

# A tuner shared by streams (src/server/share.c), on a mock backend.
$(UNIT_DIR)/test_share: $(UNIT_DIR)/test_share.o $(B)/server/share.o $(VTC_LIB)
	$(CC) $(CFLAGS) $^ $(UNIT_LIBS) -o $@

# The demux of a user-space adapter (src/dmx/), on TS made by the test
# and by the simulator's generator (src/server/sim/).
$(UNIT_DIR)/test_dmx: $(UNIT_DIR)/test_dmx.o $(VDMX_LIB) $(SIM_LIB) $(VTC_LIB)
	$(CC) $(CFLAGS) $^ $(UNIT_LIBS) $(SIM_LIBS) -o $@

# The SAT>IP protocol library (src/satip/).
$(SATIP_UNIT_TESTS): $(UNIT_DIR)/test_satip_%: $(UNIT_DIR)/test_satip_%.o \
		$(SATIP_LIB) $(VTC_LIB)
	$(CC) $(CFLAGS) $^ $(UNIT_LIBS) -o $@

# The TS continuity checker of vtunerc (src/client/tscc.c): make check-client.
$(UNIT_DIR)/test_tscc: $(UNIT_DIR)/test_tscc.o $(B)/client/tscc.o
	$(CC) $(CFLAGS) $^ $(UNIT_LIBS) -o $@

# The SEC commands vtunerc replays (src/client/sec.c): make check-client.
$(UNIT_DIR)/test_client_sec: $(UNIT_DIR)/test_client_sec.o $(B)/client/sec.o $(VTP_LIB)
	$(CC) $(CFLAGS) $^ $(UNIT_LIBS) -o $@

# The PID set vtunerc asks its remote for (src/client/pidset.c): make check-client.
$(UNIT_DIR)/test_pidset: $(UNIT_DIR)/test_pidset.o $(B)/client/pidset.o
	$(CC) $(CFLAGS) $^ $(UNIT_LIBS) -o $@

# What vtunerc writes of a server's strings (status.c, ctrl.c, log.c),
# the control device's ioctl() wrapped: make check-client.
$(UNIT_DIR)/test_peer_strings: $(UNIT_DIR)/test_peer_strings.o $(B)/client/status.o \
		$(B)/client/props.o $(B)/client/ctrl.o $(VTC_LIB)
	$(CC) $(CFLAGS) $^ $(UNIT_LIBS) -Wl,--wrap=ioctl -o $@

# tests/client/run.sh: vtunerc against servers that are not what they
# claim, on tests/tuner's mock control device.
.PHONY: check-client
check-client: $(UNIT_DIR)/test_tscc $(UNIT_DIR)/test_peer_strings \
		$(UNIT_DIR)/test_client_sec $(UNIT_DIR)/test_pidset vtunerc $(B)/tests/tuner/mockdev.so
	@r=0; $(UNIT_DIR)/test_tscc || r=1; \
		tests/unit/run-tests.sh $(UNIT_DIR)/test_client_sec || r=1; \
		tests/unit/run-tests.sh $(UNIT_DIR)/test_pidset || r=1; \
		tests/unit/run-tests.sh $(UNIT_DIR)/test_peer_strings || r=1; \
		tests/client/run.sh $(B) || r=1; exit $$r
