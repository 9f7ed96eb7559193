# Wire protocol library shared by vtunerd and vtunerc: $(B)/proto/libvtp.a
# Uses B, CC, CFLAGS and BASE_CFLAGS of the top Makefile.
# vtp_auth.c (pre-shared key authentication, session keys) and
# vtp_seal.c (sealed frames, which the frame reader opens) need libsodium,
# and vtp_seal.c libgcrypt for AES-256-OCB:
# every program that links the library links $(VTP_AUTH_LIBS) as well.
VTP_SRCS := src/proto/vtp.c src/proto/vtp_io.c src/proto/vtp_queue.c \
	    src/proto/vtp_seal.c
VTP_HDRS := src/proto/vtp.h src/proto/vtp_io.h src/proto/vtp_queue.h \
	    src/proto/vtp_auth.h \
	    src/proto/vtp_seal.h
VTP_OBJS := $(patsubst src/proto/%.c,$(B)/proto/%.o,$(VTP_SRCS)) \
	    $(B)/proto/vtp_auth.o
VTP_LIB  := $(B)/proto/libvtp.a
VTP_AUTH_CFLAGS := $(shell pkg-config --cflags libsodium libgcrypt)
VTP_AUTH_LIBS := $(shell pkg-config --libs libsodium libgcrypt)

all: $(VTP_LIB)

$(B)/proto/%.o: src/proto/%.c
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(DEPFLAGS) $(CPPFLAGS) $(CFLAGS) $(VTP_AUTH_CFLAGS) -c $< -o $@

$(VTP_LIB): $(VTP_OBJS)
	$(AR) rcs $@ $^
