# User-space programs and libraries; each part has its own fragment.
include src/common/common.mk
include src/proto/proto.mk
-include src/server/sim/sim.mk
-include src/server/server.mk
-include src/client/client.mk
-include src/san.mk
