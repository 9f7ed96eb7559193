# The demux of a user-space adapter (CUSE): $(B)/dmx/libvdmx.a
# What dvb-core's dmxdev.c and dvb_demux.c do behind demux0 and dvr0,
# reimplemented: section and PES filters, their buffers and reads, dvr0,
# the PID set to ask the remote for (docs/cuse.md).  Pure: no I/O.
# Uses B, CC, CFLAGS and BASE_CFLAGS of the top Makefile.
VDMX_SRCS := src/dmx/vdmx.c src/dmx/ts.c
VDMX_HDRS := src/dmx/vdmx.h src/dmx/vdmx_int.h
VDMX_OBJS := $(patsubst src/dmx/%.c,$(B)/dmx/%.o,$(VDMX_SRCS))
VDMX_LIB  := $(B)/dmx/libvdmx.a

all: $(VDMX_LIB)

$(B)/dmx/%.o: src/dmx/%.c
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(DEPFLAGS) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(VDMX_LIB): $(VDMX_OBJS)
	$(AR) rcs $@ $^
