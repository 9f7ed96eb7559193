#!/bin/bash
# Install the Debian packages the build, the tests and the demo need.
# Needs root; does nothing (but say so) when everything is installed.
set -euo pipefail

PKGS=(
	make gcc gcc-multilib libc6-dev-i386 clang libclang-rt-14-dev sparse cppcheck shellcheck bc
	flex bison libelf-dev kmod cpio xz-utils busybox-static qemu-system-x86
	linux-image-amd64 linux-headers-amd64
	linux-image-6.12-amd64 linux-headers-6.12-amd64
	linux-source-6.1 linux-source-6.12
	dvb-tools dvb-apps w-scan dvblast mumudvb vdr vdr-plugin-streamdev-server ffmpeg iproute2
	vdr-plugin-satip w-scan-cpp
	vlc-bin vlc-plugin-base curl libcmocka-dev pkg-config
	libdvbpsi-dev libavahi-client-dev libsodium-dev libgcrypt20-dev libfuse3-dev avahi-daemon avahi-utils
	mandoc dkms systemd dbus debhelper dh-dkms lintian
)

missing=()
for p in "${PKGS[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing+=("$p")
done
if [ ${#missing[@]} = 0 ]; then
	echo "install-deps: all ${#PKGS[@]} packages installed"
	exit 0
fi
if [ "$(id -u)" != 0 ]; then
	echo "install-deps: missing packages (run as root to install): ${missing[*]}" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends "${missing[@]}"
