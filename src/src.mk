# User-space programs and libraries; each part has its own fragment.
include src/proto/proto.mk
-include src/server/sim/sim.mk
