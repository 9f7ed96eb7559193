# User-space programs and libraries; each part has its own fragment.

# Avahi's client library, when installed: DNS-SD announcement (vtunerd)
# and discovery (vtunerc).  Probed once.
ifeq ($(shell pkg-config --exists avahi-client 2>/dev/null && echo y),y)
AVAHI_CFLAGS := -DHAVE_AVAHI $(shell pkg-config --cflags avahi-client)
AVAHI_LIBS := $(shell pkg-config --libs avahi-client)
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
