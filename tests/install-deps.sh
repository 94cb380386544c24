#!/bin/sh
# install-deps.sh - install the Debian packages named as arguments when any is missing.
missing=""
for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "installing Debian packages:$missing"
SUDO=""
[ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get install -y $missing >/dev/null 2>&1 || {
    $SUDO apt-get update >/dev/null 2>&1
    $SUDO apt-get install -y $missing
}
