# tests/server: vtunerd on the host, its TS threads under ThreadSanitizer.
#   make check-server   tests/server/run.sh, last line "N passed, N failed"
# Included from tests/tests.mk; paths are relative to the top directory.

.PHONY: check-server
check-server: tsan vtunerd tuner-tools
	@tests/server/run.sh $(B)
