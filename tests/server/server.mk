# tests/server: vtunerd on the host, built with ASan + UBSan.
#   make check-server   tests/server/run.sh, handshake.sh and seal.sh (beside
#                       the others: it mostly waits), each ending with a
#                       line "N passed, N failed"
# Included from tests/tests.mk; paths are relative to the top directory.

# vtunerd-probe, a small vtp client for these tests, the benchmarks and
# debugging: $(B)/tests/server/vtunerd-probe.
VTD_PROBE := $(B)/tests/server/vtunerd-probe

.PHONY: check-server vtunerd-probe
all: vtunerd-probe
vtunerd-probe: $(VTD_PROBE)

$(VTD_PROBE): tests/server/vtunerd-probe.c $(VTP_LIB) $(VTC_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(DEPFLAGS) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) $< \
		$(VTP_LIB) $(VTC_LIB) $(VTP_AUTH_LIBS) -o $@

# ssdp-run: vtunerd's SSDP endpoint alone with a minimal desc.xml server,
# for ssdp.sh (its ASan + UBSan build, $(B)/san/tests/server/ssdp-run)
# and for trying SAT>IP clients' discovery.
SSDP_RUN := $(B)/tests/server/ssdp-run

.PHONY: ssdp-run ssdp-run-san
ssdp-run: $(SSDP_RUN)

$(SSDP_RUN): tests/server/ssdp-run.c $(B)/server/ssdp.o $(SATIP_LIB) $(VTC_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(DEPFLAGS) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) $< \
		$(B)/server/ssdp.o $(SATIP_LIB) $(VTC_LIB) $(VTP_AUTH_LIBS) -o $@

ifneq ($(SAN),1)
ssdp-run-san:
	@$(MAKE) --no-print-directory B=$(B)/san SAN=1 ssdp-run
endif

# ssdp.sh: SAT>IP discovery (SSDP, desc.xml) in network namespaces
check-server: ssdp-run-san

# handshake.sh: what a peer that has not completed the handshake can do;
# seal.sh: what an attacker on the path can do to a session with a key
# tests/satip/clients.sh: SAT>IP clients (ffmpeg, VLC, curl) and hostile
# peers against vtunerd --satip (about 70 s: a session's 60 s timeout);
# tests/satip/channels.sh: --satip-channels, a dvbv5 channel file listed
# tests/satip/vdr.sh: VDR's satip plugin discovers, streams (streamdev)
# and records; tests/satip/wscan.sh: w_scan_cpp -t scans (45 s each,
# skipped without them); tests/satip/remote.sh: vtunerc --satip against
# vtunerd and tests/satip/quirky.py (about 50 s); quirky-selftest.sh:
# quirky.py's quirks are real (about 70 s, beside the others)
check-server: san vtunerd vtunerd-probe sim tuner-tools
	@r=0; mkdir -p $(B)/tests/server; \
		tests/server/seal.sh $(B) >$(B)/tests/server/seal.out 2>&1 & \
		sp=$$!; \
		tests/satip/quirky-selftest.sh $(B) \
			>$(B)/tests/server/quirky.out 2>&1 & \
		qp=$$!; \
		tests/server/run.sh $(B) || r=1; \
		tests/server/handshake.sh $(B) || r=1; \
		tests/server/ssdp.sh $(B) || r=1; \
		tests/satip/clients.sh $(B) || r=1; \
		tests/satip/channels.sh $(B) || r=1; \
		tests/satip/vdr.sh $(B) || r=1; \
		tests/satip/wscan.sh $(B) || r=1; \
		tests/satip/remote.sh $(B) || r=1; \
		wait $$sp || r=1; cat $(B)/tests/server/seal.out; \
		wait $$qp || r=1; cat $(B)/tests/server/quirky.out; exit $$r
