#!/bin/sh
# Writes to $1 the directory of a PostgreSQL server installation that the failover tests can use
# (initdb, pg_ctl, postgres, pg_basebackup). Looks in $BUILD_POSTGRES_BIN, then in Debian's
# /usr/lib/postgresql/<version>/bin (newest first). When none is there and the build runs as root
# on a machine with apt-get, installs Debian's postgresql package; otherwise fails with what to
# install. The tests never skip for want of a server.
set -eu
out="$1"

find_bin() {
    for dir in ${BUILD_POSTGRES_BIN:-} $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k5,5nr); do
        if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ] && [ -x "$dir/postgres" ] && [ -x "$dir/pg_basebackup" ]; then
            echo "$dir"
            return 0
        fi
    done
    return 1
}

bin=$(find_bin || true)
if [ -z "$bin" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "failover-it: no PostgreSQL server binaries found; installing Debian's postgresql package (apt-get)"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -q >/dev/null
        apt-get install -y -q --no-install-recommends postgresql >/dev/null
        bin=$(find_bin || true)
    fi
fi
if [ -z "$bin" ]; then
    echo "failover-it: the failover tests need PostgreSQL's server binaries (initdb, pg_ctl, postgres, pg_basebackup)" >&2
    echo "and none were found in /usr/lib/postgresql/*/bin or BUILD_POSTGRES_BIN." >&2
    echo "Install them (Debian/Ubuntu: sudo apt-get install postgresql; the build installs it by itself when run as" >&2
    echo "root), or set BUILD_POSTGRES_BIN to the bin directory of a PostgreSQL 12 or later installation." >&2
    exit 1
fi
if [ "$(id -u)" = 0 ] && ! id postgres >/dev/null 2>&1; then
    echo "failover-it: running as root, the tests start the servers as the OS user postgres (initdb refuses root)," >&2
    echo "and there is no such user. Create it (useradd --system postgres) or install Debian's postgresql package." >&2
    exit 1
fi
mkdir -p "$(dirname "$out")"
echo "$bin" > "$out"
echo "failover-it: PostgreSQL server binaries in $bin"
