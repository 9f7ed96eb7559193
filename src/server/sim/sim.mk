# Simulated tuner backend of vtunerd, its pure parts (see docs/sim.md):
#   $(B)/server/sim/libvtsim.a   world, frontend logic, TS generator
#   $(B)/server/sim/vts-gen      writes a transponder's TS, --list
#   make check-sim               unit tests, last line "N passed, N failed"
# Uses B, CC, CFLAGS, BASE_CFLAGS and VTC_LIB (src/common/dvb.c) of the
# top Makefile; needs libdvbpsi
# (libdvbpsi-dev) and, for the tests, cmocka and ffprobe.

SIM_SRCS := world.c frontend.c si.c es.c mux.c
SIM_HDRS := src/server/sim/vts.h src/server/sim/vts_int.h
SIM_OBJS := $(patsubst %.c,$(B)/server/sim/%.o,$(SIM_SRCS))
SIM_LIB  := $(B)/server/sim/libvtsim.a
SIM_GEN  := $(B)/server/sim/vts-gen
SIM_DVBPSI_CFLAGS := $(shell pkg-config --cflags libdvbpsi)
# what a program linking SIM_LIB needs after it
SIM_LIBS := $(shell pkg-config --libs libdvbpsi)

SIM_TDIR   := $(B)/tests/unit/sim
SIM_TNAMES := test_sim_world test_sim_fe test_sim_si test_sim_mux
SIM_TESTS  := $(addprefix $(SIM_TDIR)/,$(SIM_TNAMES))
SIM_TOBJS  := $(addsuffix .o,$(SIM_TESTS)) $(SIM_TDIR)/tscheck.o
SIM_TCFLAGS = $(BASE_CFLAGS) $(CFLAGS) $(shell pkg-config --cflags cmocka)
SIM_TLIBS  := $(shell pkg-config --libs cmocka) $(SIM_LIBS)

.PHONY: sim check-sim
.SECONDARY: $(SIM_TOBJS) $(B)/server/sim/vts-gen.o
all: sim
sim: $(SIM_LIB) $(SIM_GEN)

$(B)/server/sim/%.o: src/server/sim/%.c
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) $(DEPFLAGS) $(CPPFLAGS) $(CFLAGS) $(SIM_DVBPSI_CFLAGS) -c $< -o $@

$(SIM_LIB): $(SIM_OBJS)
	$(AR) rcs $@ $^

$(SIM_GEN): $(B)/server/sim/vts-gen.o $(SIM_LIB) $(VTC_LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) $^ $(SIM_LIBS) -o $@

$(SIM_TDIR)/%.o: tests/unit/sim/%.c
	@mkdir -p $(@D)
	$(CC) $(SIM_TCFLAGS) $(DEPFLAGS) -c $< -o $@

$(SIM_TDIR)/test_%: $(SIM_TDIR)/test_%.o $(SIM_TDIR)/tscheck.o $(SIM_LIB) $(VTC_LIB)
	$(CC) $(CFLAGS) $^ $(SIM_TLIBS) -o $@

check-sim: $(SIM_TESTS) $(SIM_GEN)
	@SIM_GEN=$(SIM_GEN) sh tests/unit/run-tests.sh $(SIM_TESTS)
