#!/bin/sh
# Makes ROOT an older-glibc userland in which `cargo xtask wheels --check
# --old-glibc ROOT` installs and smoke-tests the manylinux2014 wheels:
# Debian 11 (bullseye, glibc 2.31, older than the 2.34 that a build linked
# against this machine's glibc would need) with CPython 3.11 built from
# source inside it. No Debian release with a glibc below 2.34 ships CPython
# 3.10 or later (bullseye has 3.9), and a CPython built here would need this
# machine's glibc, so the interpreter is compiled by the chroot's own gcc
# against its own glibc: Debian 12's python3.11 source package (the upstream
# 3.11.2 tarball, checked against Debian's sha256).
#
#     sh python/old_glibc_root.sh ROOT [MIRROR]
#
# MIRROR defaults to the first Debian mirror in this machine's apt sources.
# Needs root, debootstrap and curl; takes about 15 minutes on two cores.
set -eu

ROOT=${1:?usage: old_glibc_root.sh ROOT [MIRROR]}
MIRROR=${2:-$(sed -n 's/^URIs: *\([^ ]*\/debian\)$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1)}
if [ -z "$MIRROR" ]; then
    MIRROR=$(sed -n 's/^deb  *\(http[^ ]*\/debian\) .*/\1/p' /etc/apt/sources.list 2>/dev/null | head -n 1)
fi
[ -n "$MIRROR" ] || { echo "old_glibc_root.sh: no Debian mirror in the apt sources: pass one" >&2; exit 1; }

TARBALL=python3.11_3.11.2.orig.tar.gz
SHA256=2411c74bda5bbcfcddaf4531f66d1adc73f247f529aee981b029513aefdbf849

# build-essential: gcc and make for CPython; zlib1g-dev: pip reads wheels
# (zip) through zlib; libffi-dev: ctypes, which pip's glibc probe falls
# back to.
debootstrap --variant=minbase --include=build-essential,zlib1g-dev,libffi-dev \
    bullseye "$ROOT" "$MIRROR"

mkdir -p "$ROOT/usr/src/cpython"
curl -fsSL -o "$ROOT/usr/src/$TARBALL" "$MIRROR/pool/main/p/python3.11/$TARBALL"
echo "$SHA256  $ROOT/usr/src/$TARBALL" | sha256sum -c -
tar -xzf "$ROOT/usr/src/$TARBALL" -C "$ROOT/usr/src/cpython" --strip-components=1

# --without-ensurepip: the venvs get pip from ensurepip's bundled wheel.
chroot "$ROOT" /bin/sh -c 'cd /usr/src/cpython \
    && ./configure --prefix=/usr/local --without-ensurepip \
    && make -j"$(nproc)" \
    && make install'
chroot "$ROOT" /usr/local/bin/python3.11 -c 'import platform, sys; print(sys.version.split()[0], *platform.libc_ver())'
