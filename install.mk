# make install: the programs, man pages, udev rule, modprobe.d and
# modules-load.d examples, systemd units, config examples in /etc/vtuner/
# and the module source for DKMS in /usr/src/vtuner-VERSION/.
#   make install [PREFIX=/usr/local] [DESTDIR=...]
#   make check-install   install into $(B)/install-root and check it
#   make check-man       lint the man pages
#   make check-deb       build the Debian packages (debian/) from a copy
#                        of the tree in $(B)/deb, check them, run lintian
# Files under /etc are installed only when absent (local changes survive).

PREFIX         ?= /usr/local
SBINDIR        ?= $(PREFIX)/sbin
MANDIR         ?= $(PREFIX)/share/man
DOCDIR         ?= $(PREFIX)/share/doc/vtuner
SYSCONFDIR     ?= /etc
UDEVRULESDIR   ?= $(SYSCONFDIR)/udev/rules.d
MODPROBEDIR    ?= $(SYSCONFDIR)/modprobe.d
MODULESLOADDIR ?= $(SYSCONFDIR)/modules-load.d
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
DKMSSRCDIR     ?= /usr/src/vtuner-$(VT_VERSION)
INSTALL        ?= install

VT_MANS := $(wildcard man/*.[0-9])
# /usr/local/sbin in the units and config comments becomes $(SBINDIR)
VT_SUBST := sed -e 's|/usr/local/sbin|$(SBINDIR)|g' \
		-e 's|/etc/vtuner|$(SYSCONFDIR)/vtuner|g'
VT_DKMS_SRC := $(wildcard kernel/*.c kernel/*.h) kernel/Kbuild

.PHONY: install uninstall check-install check-man check-deb
install: $(VTD_BIN) $(VTUNERC) $(VTCTL)
	$(INSTALL) -d $(DESTDIR)$(SBINDIR)
	$(INSTALL) -m 0755 $(VTD_BIN) $(VTUNERC) $(VTCTL) $(DESTDIR)$(SBINDIR)/
	@set -e; for m in $(VT_MANS); do \
		s=$${m##*.}; \
		echo "$(INSTALL) -m 0644 $$m $(DESTDIR)$(MANDIR)/man$$s/"; \
		$(INSTALL) -d $(DESTDIR)$(MANDIR)/man$$s; \
		$(INSTALL) -m 0644 $$m $(DESTDIR)$(MANDIR)/man$$s/; \
	done
	$(INSTALL) -d $(DESTDIR)$(UDEVRULESDIR) $(DESTDIR)$(SYSTEMDUNITDIR)
	$(INSTALL) -m 0644 packaging/udev/60-vtuner.rules $(DESTDIR)$(UDEVRULESDIR)/
	@set -e; for u in vtunerd.service vtunerc@.service; do \
		echo "install packaging/systemd/$$u $(DESTDIR)$(SYSTEMDUNITDIR)/"; \
		$(VT_SUBST) packaging/systemd/$$u > $(DESTDIR)$(SYSTEMDUNITDIR)/$$u; \
		chmod 0644 $(DESTDIR)$(SYSTEMDUNITDIR)/$$u; \
	done
	@set -e; \
	put() { \
		if [ -e "$$2" ]; then echo "keeping $$2"; \
		else echo "install $$1 $$2"; $(INSTALL) -d "$${2%/*}"; \
			$(VT_SUBST) "$$1" > "$$2"; chmod 0644 "$$2"; fi; \
	}; \
	put packaging/modprobe.d/vtunerc.conf $(DESTDIR)$(MODPROBEDIR)/vtunerc.conf; \
	put packaging/modules-load.d/vtunerc.conf $(DESTDIR)$(MODULESLOADDIR)/vtunerc.conf; \
	put packaging/config/vtunerd.conf $(DESTDIR)$(SYSCONFDIR)/vtuner/vtunerd.conf; \
	put packaging/config/vtunerc.conf $(DESTDIR)$(SYSCONFDIR)/vtuner/vtunerc.conf
	$(INSTALL) -d $(DESTDIR)$(DOCDIR)/examples
	$(INSTALL) -m 0644 packaging/config/vtunerd.conf packaging/config/vtunerc.conf \
		$(DESTDIR)$(DOCDIR)/examples/
	$(INSTALL) -d $(DESTDIR)$(DKMSSRCDIR)/uapi
	$(INSTALL) -m 0644 $(VT_DKMS_SRC) $(DESTDIR)$(DKMSSRCDIR)/
	$(INSTALL) -m 0644 kernel/uapi/vtuner.h $(DESTDIR)$(DKMSSRCDIR)/uapi/
	sed 's/#MODULE_VERSION#/$(VT_VERSION)/' packaging/dkms/dkms.conf \
		> $(DESTDIR)$(DKMSSRCDIR)/dkms.conf
	@echo "installed; as root: dkms install vtuner/$(VT_VERSION)," \
	      "udevadm control --reload, systemctl daemon-reload" \
	      "(docs/install.md)"

# Removes what install put there, except the files under /etc.
uninstall:
	rm -f $(addprefix $(DESTDIR)$(SBINDIR)/,vtunerd vtunerc vtunerctl)
	@for m in $(VT_MANS); do s=$${m##*.}; \
		rm -f $(DESTDIR)$(MANDIR)/man$$s/$${m##*/}; done
	rm -f $(DESTDIR)$(UDEVRULESDIR)/60-vtuner.rules
	rm -f $(DESTDIR)$(SYSTEMDUNITDIR)/vtunerd.service \
	      $(DESTDIR)$(SYSTEMDUNITDIR)/vtunerc@.service
	rm -rf $(DESTDIR)$(DOCDIR) $(DESTDIR)$(DKMSSRCDIR)

check-install: $(VTD_BIN) $(VTUNERC) $(VTCTL)
	@B=$(B) MAKE="$(MAKE)" KVERS="$(KVERS)" VT_VERSION=$(VT_VERSION) \
		tests/install/check-install.sh

check-man:
	@tests/install/check-man.sh $(VT_MANS)

check-deb:
	@B=$(B) tests/install/check-deb.sh
