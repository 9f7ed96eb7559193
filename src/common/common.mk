# Code shared by both daemons: $(B)/common/libvtcommon.a
VTC_SRCS := src/common/log.c src/common/config.c src/common/dvb.c \
	    src/common/text.c src/common/privs.c
VTC_HDRS := src/common/log.h src/common/config.h src/common/dvb.h \
	    src/common/clock.h src/common/text.h src/common/privs.h
VTC_OBJS := $(patsubst src/common/%.c,$(B)/common/%.o,$(VTC_SRCS))
VTC_LIB  := $(B)/common/libvtcommon.a

all: $(VTC_LIB)

$(B)/common/%.o: src/common/%.c
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(DEPFLAGS) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(VTC_LIB): $(VTC_OBJS)
	$(AR) rcs $@ $^
