#!/bin/bash
# VDR on an adapter whose tuner is a SAT>IP server's: 37-vdr.sh with
# vtunerd's SAT>IP front and vtunerc --satip instead of vtp.
VDR_REMOTE=satip exec "$VT_ROOT/tests/vm/t/37-vdr.sh"
