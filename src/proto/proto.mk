# Wire protocol library shared by vtunerd and vtunerc: $(B)/proto/libvtp.a
# Uses B, CC, CFLAGS and BASE_CFLAGS of the top Makefile.
VTP_SRCS := src/proto/vtp.c src/proto/vtp_io.c
VTP_HDRS := src/proto/vtp.h src/proto/vtp_io.h
VTP_OBJS := $(patsubst src/proto/%.c,$(B)/proto/%.o,$(VTP_SRCS))
VTP_LIB  := $(B)/proto/libvtp.a

all: $(VTP_LIB)

$(B)/proto/%.o: src/proto/%.c $(VTP_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(CFLAGS) -c $< -o $@

$(VTP_LIB): $(VTP_OBJS)
	$(AR) rcs $@ $^
