"""scorer installed from its wheel, as a club's server or the container installs it: no clone, no ``-e``.

The test builds the wheel from a copy of the project's files, installs it into a new virtual
environment (its dependencies from the package index pip is set up to use here; when none can be
reached, the project's own environment lends them through a .pth file, but scorer itself always
comes from the wheel), starts ``scorer serve`` on loopback from a folder outside the repository and
plays through the pages: home, a new table (with the form's CSRF token), the table's page and its
tally PDF. It takes about half a minute.

The nightly backup lines (section Backups: the README's for the wheel, docs/HOSTING.md's for a clone) are
run as cron runs them (``sh``, from the home folder, a short PATH), as written there with only their folders
moved to temporary ones: the wheel's against ``scorer serve`` of the new environment with a table in it, the
clone's against a copy of the project installed editable in its own ``.venv`` (as ``scripts/setup.sh``
installs it), with a table in the clone's ``instance/``.

The Containerfile is built too where a container engine (podman or docker) answers; elsewhere that
test is skipped.
"""

from __future__ import annotations

import gettext
import html
import http.cookiejar
import os
import re
import shutil
import socket
import subprocess
import sys
import sysconfig
import time
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.docs import read, section

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ["scorer", "templates", "static", "pyproject.toml", "setup.py", "README.md"]
"""What building the wheel reads (a copy of them is built, so that no build/ or stale file of the
work tree can slip into the wheel)."""


def _run(args: list[str], cwd: Path | None = None, env: dict[str, str] | None = None,
         timeout: float | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, capture_output=True, text=True, cwd=cwd, env=env, timeout=timeout)


def _clean_env() -> dict[str, str]:
    """This environment without anything that would put the repository or its .venv on the path."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCORER_") and k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PYTHONNOUSERSITE"] = "1"
    return env


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("wheel")
    source = work / "source"
    source.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=ignore)
        else:
            shutil.copy2(ROOT / name, source / name)
    dist = work / "dist"
    built = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(dist), str(source)], cwd=work)
    if built.returncode != 0:  # no index to fetch setuptools for an isolated build: build with this environment's
        built = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-w", str(dist),
                      str(source)], cwd=work)
    assert built.returncode == 0, built.stdout + built.stderr
    (found,) = dist.glob("scorer-*.whl")
    return found


def test_the_wheel_carries_the_code_templates_static_files_and_translations(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    wanted = {f"scorer/{p.relative_to(ROOT / 'scorer').as_posix()}" for p in (ROOT / "scorer").rglob("*.py")
              if "__pycache__" not in p.parts}
    for folder in ("templates", "static"):
        wanted |= {f"scorer/{folder}/{p.relative_to(ROOT / folder).as_posix()}" for p in (ROOT / folder).rglob("*")
                   if p.is_file()}
    translations = ROOT / "scorer" / "translations"
    wanted |= {f"scorer/translations/{p.relative_to(translations).as_posix()}"
               for pattern in ("*/LC_MESSAGES/*.mo", "*/LC_MESSAGES/*.po") for p in translations.glob(pattern)}
    missing = sorted(wanted - names)
    assert not missing, f"the wheel lacks {missing} (a new package or data file: see setup.py and pyproject.toml)"
    assert "scorer/templates/base.html" in names and "scorer/static/style.css" in names
    assert not any(name.startswith(("templates/", "static/", "tests/")) for name in names)


@pytest.fixture(scope="module")
def venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new virtual environment (no system site-packages) with the wheel installed in it, not editable."""
    home = tmp_path_factory.mktemp("venv") / "venv"
    made = _run([sys.executable, "-m", "venv", str(home)], env=_clean_env())
    assert made.returncode == 0, made.stderr
    python = home / "bin" / "python"
    installed = _run([str(python), "-m", "pip", "install", str(wheel)], env=_clean_env(), cwd=home)
    if installed.returncode != 0:
        # No index reachable for the dependencies: install the wheel alone and lend it this environment's
        # dependencies through a .pth file (its scorer, an editable install, is not seen: a .pth file in a
        # directory named by another .pth file is never run).
        installed = _run([str(python), "-m", "pip", "install", "--no-deps", str(wheel)], env=_clean_env(), cwd=home)
        assert installed.returncode == 0, installed.stdout + installed.stderr
        site = _run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip()
        Path(site, "lent-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return home


def test_scorer_is_imported_from_the_new_environment(venv: Path, tmp_path: Path) -> None:
    where = _run([str(venv / "bin" / "python"), "-c",
                  f"import scorer; app = scorer.create_app({{'INSTANCE_PATH': {str(tmp_path / 'inst')!r}, 'SECRET_KEY': 'x'}}); "
                  "print(scorer.__file__); print(app.template_folder); print(app.static_folder)"],
                 env=_clean_env(), cwd=tmp_path)
    assert where.returncode == 0, where.stderr
    module, templates, static = where.stdout.split()
    package = Path(module).resolve().parent
    assert package.is_relative_to(venv.resolve()), f"scorer came from {module}, not from the new environment"
    assert not package.is_relative_to(ROOT)
    assert Path(templates) == package / "templates" and Path(static) == package / "static"


def test_the_installed_scorer_finds_the_database_where_the_app_keeps_it(venv: Path, tmp_path: Path) -> None:
    """Without --instance or SCORER_INSTANCE_PATH, the installed default: <venv>/var/scorer-instance, from any folder."""
    default = venv / "var" / "scorer-instance" / "scorer.sqlite"
    found = _run([str(venv / "bin" / "python"), "-c", "from scorer.web.instance import app_database; "
                  "print(app_database().path)"], env=_clean_env(), cwd=tmp_path)
    assert found.returncode == 0 and found.stdout.strip() == str(default), found.stderr
    if not default.exists():
        missing = _run([str(venv / "bin" / "scorer"), "verify"], env=_clean_env(), cwd=tmp_path)
        assert missing.returncode == 2
        assert missing.stderr.startswith(f"scorer: no database at {default} (in this install's default instance folder"), \
            missing.stderr


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture
def served(venv: Path, tmp_path: Path) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """``scorer serve`` of the new environment on loopback, a temporary instance folder, run from outside the
    repository; yields its address and its process."""
    port = _free_port()
    log = (tmp_path / "serve.log").open("w")
    server = subprocess.Popen([str(venv / "bin" / "scorer"), "serve", "--host", "127.0.0.1", "--port", str(port),
                               "--instance", str(tmp_path / "instance")],
                              cwd=tmp_path, env=_clean_env(), stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{url}/healthz", timeout=2) as answer:
                    assert answer.read() == b"ok\n"
                break
            except (OSError, urllib.error.URLError):
                if server.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError("scorer serve did not answer:\n" + (tmp_path / "serve.log").read_text())
                time.sleep(0.2)
        yield url, server
    finally:
        if server.poll() is None:
            server.terminate()
        server.wait(timeout=10)
        log.close()


def new_table(browser: urllib.request.OpenerDirector, url: str) -> str:
    """Start a table through the new-table form (its CSRF token read from the page); its link's token."""
    with browser.open(url + "/new", timeout=60) as answer:
        form = answer.read()
    token = re.search(rb'name="csrf_token" type="hidden" value="([^"]+)"', form)
    assert token, form.decode()
    fields = {"player_1": "Ann", "player_2": "Bea", "player_3": "Cat", "player_4": "Dan", "first_dealer": "1",
              "profile": "quadrille", "deals_agreed": "8", "csrf_token": token.group(1).decode()}
    with browser.open(url + "/new", data=urllib.parse.urlencode(fields).encode(), timeout=60) as answer:
        assert answer.status == 200
        landed = answer.geturl()  # the table's join page, after the redirect
    table = re.search(r"/t/([A-Za-z0-9_-]+)", landed)
    assert table, landed
    return str(table.group(1))


def test_scorer_serve_from_the_wheel_serves_a_table_and_its_tally_pdf(
        served: tuple[str, subprocess.Popen[bytes]], tmp_path: Path) -> None:
    url, server = served
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def get(path: str) -> tuple[bytes, str, str]:
        with browser.open(url + path, timeout=60) as answer:
            return answer.read(), answer.headers.get_content_type(), answer.geturl()

    home, kind, _ = get("/")
    assert kind == "text/html" and b"/new" in home
    assert get("/static/style.css")[1] == "text/css"
    # The French catalogue came in the wheel: the home page in French says what the catalogue says.
    english = "Start a table"
    with (ROOT / "scorer" / "translations" / "fr" / "LC_MESSAGES" / "messages.mo").open("rb") as catalogue:
        french = gettext.GNUTranslations(catalogue)
    if french.gettext(english) != english:
        request = urllib.request.Request(url + "/", headers={"Accept-Language": "fr"})
        with browser.open(request, timeout=60) as answer:
            assert french.gettext(english) in html.unescape(answer.read().decode())
    table = new_table(browser, url)
    page, kind, _ = get(f"/t/{table}")
    assert kind == "text/html" and b"Ann" in page and b"Dan" in page
    pdf, kind, _ = get(f"/t/{table}/tally.pdf")
    assert kind == "application/pdf" and pdf.startswith(b"%PDF")
    assert (tmp_path / "instance" / "scorer.sqlite").exists()
    # SIGTERM (podman stop, systemd) stops it cleanly: status 0, every connection closed, so the last one
    # folded the WAL into the database and removed it (scorer restore refuses a database with a -wal left).
    server.terminate()
    assert server.wait(timeout=15) == 0
    assert not (tmp_path / "instance" / "scorer.sqlite-wal").exists()


CRON = re.compile(r"^15 3 \* \* \* (.+)$", re.M)
"""A nightly line of a crontab: the schedule's five fields, then the command."""


def cron_command(document: str, scorer: str, moved: dict[str, Path]) -> str:
    """The command of the cron line of ``document``'s section *Backups* whose scorer is ``scorer``, its folders
    moved: each of ``moved`` must be in it."""
    lines: list[str] = [c for c in CRON.findall(section(read(document), "## Backups")) if c.startswith(scorer + " ")]
    (command,) = lines
    for written, instead in moved.items():
        assert written in command, f"{document}'s cron line no longer names {written}: {command}"
        command = command.replace(written, str(instead))
    return command


def run_as_cron(command: str, home: Path) -> subprocess.CompletedProcess[str]:
    """``command`` as cron runs a crontab's line: ``sh -c``, from the user's home folder, cron's short PATH
    and nothing else of this environment."""
    env = {"HOME": str(home), "LOGNAME": "club", "SHELL": "/bin/sh", "PATH": "/usr/bin:/bin"}
    return _run(["/bin/sh", "-c", command], cwd=home, env=env, timeout=300)


def assert_backed_up(backups: Path, database: Path, how: str) -> None:
    """One backup in ``backups``, of ``database``, which holds one table; the log says so."""
    (written,) = sorted(backups.glob("scorer-*.sqlite"))
    log = (backups / "backup.log").read_text()
    assert log.splitlines() == [f"scorer: the database {database} ({how})", f"{written}: 1 table, 0 circles, verified"], log


def test_the_readmes_cron_line_backs_up_the_wheel_install(
        served: tuple[str, subprocess.Popen[bytes]], venv: Path, tmp_path: Path) -> None:
    url, _ = served  # scorer serve --instance tmp_path/instance, as the README's wheel install is served
    new_table(urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())), url)
    home, backups = tmp_path / "home", tmp_path / "backups"
    home.mkdir()
    backups.mkdir()  # made once before the first night, as the README says
    command = cron_command("README.md", "/srv/scorer/venv/bin/scorer", {
        "/srv/scorer/venv": venv, "/srv/scorer/instance": tmp_path / "instance", "/var/backups/scorer": backups})
    ran = run_as_cron(command, home)  # while the app serves, as every night
    assert ran.returncode == 0, ran.stdout + ran.stderr + (backups / "backup.log").read_text()
    assert_backed_up(backups, tmp_path / "instance" / "scorer.sqlite", "in the instance folder --instance gives")


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the project with its own .venv, where it is installed editable as scripts/setup.sh installs it
    (its dependencies lent by this environment through a .pth file: what is tested is where scorer finds its
    instance folder, not how pip finds the dependencies, which the wheel's environment tests)."""
    work = tmp_path_factory.mktemp("clone") / "scorer"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, work / name, ignore=ignore)
        else:
            shutil.copy2(ROOT / name, work / name)
    made = _run([sys.executable, "-m", "venv", str(work / ".venv")], env=_clean_env())
    assert made.returncode == 0, made.stderr
    pip = [str(work / ".venv" / "bin" / "python"), "-m", "pip", "install", "--no-deps", "-e", str(work)]
    installed = _run([*pip, "--no-build-isolation"], env=_clean_env(), cwd=work)  # the venv's own setuptools
    if installed.returncode != 0:  # a venv without setuptools: an isolated build fetches it
        installed = _run(pip, env=_clean_env(), cwd=work)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    site = _run([str(work / ".venv" / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"])
    Path(site.stdout.strip(), "lent-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return work


ONE_TABLE = """
from scorer import create_app
app = create_app({"WTF_CSRF_ENABLED": False, "RATELIMIT_ENABLED": False})  # the instance folder: the default one
answer = app.test_client().post("/new", data={"player_1": "Ann", "player_2": "Bea", "player_3": "Cat",
    "player_4": "Dan", "first_dealer": "1", "profile": "quadrille", "deals_agreed": "8"})
assert answer.status_code == 302, answer.status_code
print(app.config["DATABASE"])
"""


def test_the_hosting_document_s_cron_line_backs_up_a_clone(clone: Path, tmp_path: Path) -> None:
    made = _run([str(clone / ".venv" / "bin" / "python"), "-c", ONE_TABLE], cwd=tmp_path, env=_clean_env())
    assert made.returncode == 0, made.stdout + made.stderr
    database = clone / "instance" / "scorer.sqlite"
    assert made.stdout.strip() == str(database)  # the clone's instance/, from another folder, as scripts/serve's
    home, backups = tmp_path / "home", tmp_path / "backups"
    home.mkdir()
    backups.mkdir()
    command = cron_command("docs/HOSTING.md", "/home/club/scorer/.venv/bin/scorer",
                           {"/home/club/scorer": clone, "/var/backups/scorer": backups})
    ran = run_as_cron(command, home)
    assert ran.returncode == 0, ran.stdout + ran.stderr + (backups / "backup.log").read_text()
    assert_backed_up(backups, database, "in this install's default instance folder: neither --instance nor "
                                        "SCORER_INSTANCE_PATH is given")


def _engine() -> str | None:
    """A container engine that answers here (podman, else docker), or None."""
    for name in ("podman", "docker"):
        path = shutil.which(name)
        if path is None:
            continue
        try:
            if subprocess.run([path, "info"], capture_output=True, timeout=30).returncode == 0:
                return path
        except (OSError, subprocess.TimeoutExpired):
            continue
    return None


def test_the_containerfile_builds_where_a_container_engine_answers() -> None:
    containerfile = (ROOT / "Containerfile").read_text()
    for needed in ("libpango-1.0-0", "libpangoft2-1.0-0", "fonts-dejavu-core", "USER ", "VOLUME", "HEALTHCHECK",
                   "/healthz", "SCORER_INSTANCE_PATH", 'CMD ["scorer", "serve", "--host", "0.0.0.0", "--port", "8000"]'):
        assert needed in containerfile, needed
    engine = _engine()
    if engine is None:
        pytest.skip("no container engine answers here (podman or docker): the Containerfile is not built")
    tag = f"scorer-test:{os.getpid()}"
    built = _run([engine, "build", "-f", "Containerfile", "-t", tag, "."], cwd=ROOT, timeout=1800)
    assert built.returncode == 0, built.stdout[-4000:] + built.stderr[-4000:]
    try:
        ran = _run([engine, "run", "--rm", "--entrypoint", "scorer", tag, "rules"], timeout=120)
        assert ran.returncode == 0, ran.stderr
    finally:
        _run([engine, "rmi", "-f", tag], timeout=120)


def test_serve_after_test_installs_nothing_again() -> None:
    """The two README commands share one install: once scripts/test has set .venv up, scripts/serve's setup
    (and scripts/serve-lan's) installs nothing. Skipped where .venv was not set up by scripts/setup.sh as
    the project stands now (pytest run by hand after pyproject.toml changed)."""
    setup = (ROOT / "scripts" / "setup.sh").read_text()
    assert setup.count("apt-get -o DPkg::Lock::Timeout=") == 2  # update and install wait for the dpkg lock
    stamp = ROOT / ".venv" / ".installed"
    wanted = _run(["bash", "-c", "cat pyproject.toml setup.py | sha256sum | cut -d' ' -f1"], cwd=ROOT).stdout.strip()
    if not stamp.exists() or stamp.read_text().strip() != wanted:
        pytest.skip(".venv was not set up by scripts/setup.sh for this pyproject.toml")
    again = _run(["bash", "-c", '. scripts/setup.sh ""'], cwd=ROOT, env=_clean_env(), timeout=300)
    assert again.returncode == 0, again.stderr
    assert "Installing" not in again.stderr + again.stdout
