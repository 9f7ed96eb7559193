# libFuzzer harness of the wire protocol decoder and frame reader.
#   make fuzz-proto [FUZZ_TIME=60]   bounded fuzzing run
#   make fuzz-corpus                 regenerate tests/fuzz/corpus/proto
# New inputs go to $(B)/fuzz/corpus-proto; the committed seeds are only read.
# Needs VTP_SRCS and VTP_HDRS from src/proto/proto.mk.
FUZZ_CC     ?= clang
FUZZ_TIME   ?= 60
FUZZ_CFLAGS := -g -O1 -fsanitize=fuzzer,address,undefined \
	       -fno-sanitize-recover=undefined
FUZZ_SEEDS  := tests/fuzz/corpus/proto
FUZZ_PROTO  := $(B)/fuzz/fuzz_proto

.PHONY: fuzz-proto fuzz-corpus

$(FUZZ_PROTO): tests/fuzz/fuzz_proto.c $(VTP_SRCS) $(VTP_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(BASE_CFLAGS) $(FUZZ_CFLAGS) tests/fuzz/fuzz_proto.c \
		$(VTP_SRCS) -o $@

fuzz-proto: $(FUZZ_PROTO)
	@mkdir -p $(B)/fuzz/corpus-proto $(B)/fuzz/artifacts/
	$(FUZZ_PROTO) -max_total_time=$(FUZZ_TIME) -max_len=300000 \
		-artifact_prefix=$(B)/fuzz/artifacts/ \
		$(B)/fuzz/corpus-proto $(FUZZ_SEEDS)

$(B)/fuzz/mkcorpus: tests/fuzz/mkcorpus.c tests/unit/vtp_samples.c \
		    tests/unit/vtp_samples.h $(VTP_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(CFLAGS) -Itests/unit tests/fuzz/mkcorpus.c \
		tests/unit/vtp_samples.c $(VTP_LIB) -o $@

fuzz-corpus: $(B)/fuzz/mkcorpus
	@mkdir -p $(FUZZ_SEEDS)
	$(B)/fuzz/mkcorpus $(FUZZ_SEEDS)

# make check-fuzz: a short run (CHECK_FUZZ_TIME s) for make check; the last
# line is "1 passed, 0 failed" when nothing crashed.
CHECK_FUZZ_TIME ?= 20
.PHONY: check-fuzz
check-fuzz: $(FUZZ_PROTO)
	@mkdir -p $(B)/fuzz/corpus-proto $(B)/fuzz/artifacts/
	@if $(FUZZ_PROTO) -max_total_time=$(CHECK_FUZZ_TIME) -max_len=300000 \
		-artifact_prefix=$(B)/fuzz/artifacts/ \
		$(B)/fuzz/corpus-proto $(FUZZ_SEEDS) \
		>$(B)/fuzz/check-fuzz.log 2>&1; then \
		tail -n 3 $(B)/fuzz/check-fuzz.log; \
		echo "check-fuzz: 1 passed, 0 failed"; \
	else \
		tail -n 40 $(B)/fuzz/check-fuzz.log; \
		echo "check-fuzz: crash input in $(B)/fuzz/artifacts/"; \
		echo "check-fuzz: 0 passed, 1 failed"; exit 1; \
	fi
