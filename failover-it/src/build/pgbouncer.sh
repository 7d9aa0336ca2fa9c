#!/bin/sh
# Writes to $1 the path of a PgBouncer executable for the pooler tests. Looks in $BUILD_PGBOUNCER,
# then on the PATH and in /usr/sbin. When none is there and the build runs as root on a machine
# with apt-get, installs Debian's pgbouncer package; otherwise fails with what to install. The
# tests never skip for want of a pooler.
set -eu
out="$1"

find_pgbouncer() {
    for candidate in ${BUILD_PGBOUNCER:-} $(command -v pgbouncer 2>/dev/null || true) /usr/sbin/pgbouncer; do
        if [ -x "$candidate" ]; then
            echo "$candidate"
            return 0
        fi
    done
    return 1
}

bin=$(find_pgbouncer || true)
if [ -z "$bin" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "failover-it: no PgBouncer found; installing Debian's pgbouncer package (apt-get)"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -q >/dev/null
        apt-get install -y -q --no-install-recommends pgbouncer >/dev/null
        bin=$(find_pgbouncer || true)
    fi
fi
if [ -z "$bin" ]; then
    echo "failover-it: the pooler tests need PgBouncer, and none was found on the PATH, in /usr/sbin or in" >&2
    echo "BUILD_PGBOUNCER. Install it (Debian/Ubuntu: sudo apt-get install pgbouncer; the build installs it by" >&2
    echo "itself when run as root), or set BUILD_PGBOUNCER to its executable." >&2
    exit 1
fi
mkdir -p "$(dirname "$out")"
echo "$bin" > "$out"
echo "failover-it: PgBouncer at $bin ($("$bin" --version 2>/dev/null | head -1))"
