# User-space programs and libraries; each part has its own fragment.

# Avahi's client library, when installed: DNS-SD announcement (vtunerd)
# and discovery (vtunerc).  Probed once.
ifeq ($(shell pkg-config --exists avahi-client 2>/dev/null && echo y),y)
AVAHI_CFLAGS := -DHAVE_AVAHI $(shell pkg-config --cflags avahi-client)
AVAHI_LIBS := $(shell pkg-config --libs avahi-client)
endif

# libfuse3, when installed: vtunerc --cuse (src/client/front_cuse.c,
# docs/cuse.md).  Probed once.
ifeq ($(shell pkg-config --exists fuse3 2>/dev/null && echo y),y)
FUSE_CFLAGS := -DHAVE_CUSE $(shell pkg-config --cflags fuse3)
FUSE_LIBS := $(shell pkg-config --libs fuse3)
endif

include src/common/common.mk
include src/proto/proto.mk
include src/satip/satip.mk
include src/dmx/dmx.mk
-include src/server/sim/sim.mk
-include src/server/server.mk
-include src/client/client.mk
-include src/san.mk
include src/ctl/ctl.mk
