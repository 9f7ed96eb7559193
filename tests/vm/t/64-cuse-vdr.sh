#!/bin/bash
# VDR on a CUSE adapter (vtunerc --cuse, no module) of a remote simulated
# tuner: 37-vdr.sh's DVB-T and DVB-S2 channels streamed by streamdev, VDR
# driving the LNB itself, with the same checks.
# vm-cost: 35 32%
VDR_FRONT=cuse exec "$VT_ROOT/tests/vm/t/37-vdr.sh"
