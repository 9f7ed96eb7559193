# Out-of-tree module build, once per kernel in $(KVERS).  The sources are
# copied into build/kernel/<version>/ so that one tree builds for several
# kernels without their objects colliding.  make KDIR=<kernel tree>
# KVERS=<its version> builds against a tree that /lib/modules/<version>/build
# does not point to (the KASAN kernel of docs/testing-kasan.md); only from
# the command line, so that a KDIR in the environment changes nothing.
VT_KDIR_OF = $(if $(filter command line,$(origin KDIR)),$(KDIR),/lib/modules/$*/build)
KSRC := $(wildcard kernel/*.c kernel/*.h) kernel/Kbuild kernel/uapi/vtuner.h
KMODS := $(foreach k,$(KVERS),$(B)/kernel/$(k)/vtunerc.ko)

all: module
.PHONY: module
module: $(KMODS)

$(B)/kernel/%/vtunerc.ko: $(KSRC) debian/changelog
	@mkdir -p $(B)/kernel/$*/uapi
	cp kernel/*.c kernel/*.h kernel/Kbuild $(B)/kernel/$*/
	cp kernel/uapi/vtuner.h $(B)/kernel/$*/uapi/
	$(MAKE) -C $(VT_KDIR_OF) M=$(abspath $(B)/kernel/$*) W=1 \
		VTUNERC_VERSION=$(VT_VERSION) modules
