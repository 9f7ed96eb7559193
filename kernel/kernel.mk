# Out-of-tree module build, once per kernel in $(KVERS).  The sources are
# copied into build/kernel/<version>/ so that one tree builds for several
# kernels without their objects colliding.
KSRC := $(wildcard kernel/*.c kernel/*.h) kernel/Kbuild kernel/uapi/vtuner.h
KMODS := $(foreach k,$(KVERS),$(B)/kernel/$(k)/vtunerc.ko)

all: module
.PHONY: module
module: $(KMODS)

$(B)/kernel/%/vtunerc.ko: $(KSRC) debian/changelog
	@mkdir -p $(B)/kernel/$*/uapi
	cp kernel/*.c kernel/*.h kernel/Kbuild $(B)/kernel/$*/
	cp kernel/uapi/vtuner.h $(B)/kernel/$*/uapi/
	$(MAKE) -C /lib/modules/$*/build M=$(abspath $(B)/kernel/$*) W=1 \
		VTUNERC_VERSION=$(VT_VERSION) modules
