# tests/server: vtunerd on the host, built with ASan + UBSan.
#   make check-server   tests/server/run.sh and handshake.sh, each ending
#                       with a line "N passed, N failed"
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

# handshake.sh: what a peer that has not completed the handshake can do
check-server: san vtunerd vtunerd-probe sim tuner-tools
	@r=0; tests/server/run.sh $(B) || r=1; \
		tests/server/handshake.sh $(B) || r=1; exit $$r
