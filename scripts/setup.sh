# Sourced by scripts/serve, scripts/serve-lan and scripts/test: makes .venv and installs the project into it.
# $1 is what the caller needs beyond the app ("" for the app alone, "test" for the test suite); it changes
# only which Debian packages are looked for. The Python side is one install for every command: the
# project with its test extra, editable, done again only when pyproject.toml or setup.py change (their
# content, kept in one stamp) or when a package they require is missing. So `scripts/serve` after
# `scripts/test`, or the reverse, installs nothing.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
extra="${1:-}"
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
# shellcheck disable=SC1091
. .venv/bin/activate
stamp=.venv/.installed
wanted="$(cat pyproject.toml setup.py | sha256sum | cut -d' ' -f1)"
# Every package the project requires (test extra included) is installed: else install again, whatever the stamp says.
requirements_met() {
    python - <<'EOF' 2>/dev/null
import importlib.metadata as md
import sys
from packaging.requirements import Requirement
try:
    wanted = md.requires("scorer") or []
    for line in wanted:
        req = Requirement(line)
        if req.marker is not None and not req.marker.evaluate({"extra": "test"}):
            continue
        if md.version(req.name) not in req.specifier:
            sys.exit(1)
except (md.PackageNotFoundError, ImportError):
    sys.exit(1)
EOF
}
if [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ] || ! requirements_met; then
    log=.venv/pip-install.log
    echo "Installing the project and its test tools into .venv (log: $log)..." >&2
    if ! python -m pip install --quiet -e ".[test]" >"$log" 2>&1; then
        cat "$log" >&2
        exit 1
    fi
    echo "$wanted" >"$stamp"
    rm -f .venv/.installed-app .venv/.installed-test  # the stamps of the two separate installs of before
fi
# Debian packages the project needs from the system, installed where apt-get may be used (as root). Another
# apt-get or unattended-upgrades holding the dpkg lock (a fresh machine's first minutes) is waited for.
can_apt() { command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; }
apt_install() {
    echo "Installing Debian packages: $*" >&2
    apt-get -o DPkg::Lock::Timeout=300 update -qq
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq "$@" >/dev/null
}
# WeasyPrint needs Pango and a font.
if ! python -c "import weasyprint" >/dev/null 2>&1; then
    if can_apt; then
        apt_install libpango-1.0-0 libpangoft2-1.0-0 fonts-dejavu-core
    else
        echo "WeasyPrint cannot load Pango: install libpango-1.0-0, libpangoft2-1.0-0 and fonts-dejavu-core" >&2
        exit 1
    fi
fi
# The browser tests drive Debian's Chromium through Playwright (Playwright's own browser
# download is not used).
if [ "$extra" = test ] && ! command -v chromium >/dev/null 2>&1; then
    if can_apt; then
        apt_install chromium fonts-dejavu-core
    else
        echo "The browser tests need Chromium: install Debian's chromium package (they are skipped without it, and fail under CI)" >&2
    fi
fi
