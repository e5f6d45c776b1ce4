# Sourced by scripts/serve and scripts/test: makes .venv and installs the project into it.
# $1 is the pip extra to install ("" for the app alone, "test" for the test suite).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
extra="${1:-}"
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
# shellcheck disable=SC1091
. .venv/bin/activate
stamp=".venv/.installed-${extra:-app}"
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
    log=.venv/pip-install.log
    target="."; [ -n "$extra" ] && target=".[$extra]"
    echo "Installing the project into .venv (log: $log)..." >&2
    if ! python -m pip install --quiet -e "$target" >"$log" 2>&1; then
        cat "$log" >&2
        exit 1
    fi
    touch "$stamp"
fi
# Debian packages the project needs from the system, installed where apt-get may be used (as root).
can_apt() { command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; }
apt_install() {
    echo "Installing Debian packages: $*" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
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
