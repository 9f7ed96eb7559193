# tests/server: vtunerd on the host, built with ASan + UBSan.
#   make check-server   tests/server/run.sh, last line "N passed, N failed"
# Included from tests/tests.mk; paths are relative to the top directory.

.PHONY: check-server
check-server: san vtunerd sim tuner-tools
	@tests/server/run.sh $(B)
