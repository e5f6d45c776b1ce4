"""``scorer backup``, ``restore`` and ``verify`` use the database the app uses, found by the same function
(scorer/web/instance.py): ``--instance``, else ``SCORER_INSTANCE_PATH``, else the install's default instance
folder, and ``DATABASE`` in the folder's config.py; ``--db`` names a file outright. Each says which file it
used, and where it looked when there is none. Their counts are in the singular for one."""

from __future__ import annotations

import gettext
import os
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from flask import Flask
from helpers.web import SOLO, record, start_table

from scorer import create_app
from scorer.cli import main
from scorer.core.i18n import translating
from scorer.store import Checked
from scorer.web.instance import FoundBy, app_database, instance_folder

ROOT = Path(__file__).resolve().parent.parent
CATALOGUE = ROOT / "scorer" / "translations"


def cli(*args: str, env: dict[str, str | None] | None = None, given: str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), env={"SCORER_INSTANCE_PATH": None, **(env or {})}, input=given)


def one_table_instance(folder: Path) -> str:
    """An instance folder whose database holds one table of one deal (its log: one line); the database's path."""
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(folder), "SECRET_KEY": "t"})
    client = app.test_client()
    assert record(client, start_table(client), "solo", 1, SOLO).status_code == 302
    return str(app.config["DATABASE"])


# (what chooses, --instance, SCORER_INSTANCE_PATH, DATABASE in config.py) -> the database, relative to tmp_path
CASES = [
    ("SCORER_INSTANCE_PATH", None, "env", None, "env/scorer.sqlite", FoundBy.ENVIRONMENT),
    ("--instance", "given", None, None, "given/scorer.sqlite", FoundBy.GIVEN),
    ("--instance over SCORER_INSTANCE_PATH", "given", "env", None, "given/scorer.sqlite", FoundBy.GIVEN),
    ("a relative SCORER_INSTANCE_PATH", None, "./env", None, "env/scorer.sqlite", FoundBy.ENVIRONMENT),
    ("DATABASE in config.py", None, "env", "elsewhere/club.sqlite", "elsewhere/club.sqlite", FoundBy.ENVIRONMENT),
]


@pytest.mark.parametrize(("given", "env", "configured", "expected", "found_by"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_the_command_line_finds_the_database_the_app_serves(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, given: str | None, env: str | None, configured: str | None,
        expected: str, found_by: FoundBy) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SCORER_INSTANCE_PATH", raising=False)
    if env:
        monkeypatch.setenv("SCORER_INSTANCE_PATH", env)
    if configured:
        folder = Path(given or env or "")
        folder.mkdir()
        (folder / "config.py").write_text(f"DATABASE = {str(tmp_path / configured)!r}\n")
    (tmp_path / expected).parent.mkdir(exist_ok=True)
    found = app_database(given)
    assert found.path == str(tmp_path / expected)
    assert found.instance.found_by is found_by and found.configured == bool(configured)
    # the app, served as `scorer serve --instance` serves it (which sets SCORER_INSTANCE_PATH), uses that file
    if given:
        monkeypatch.setenv("SCORER_INSTANCE_PATH", os.path.abspath(given))
    assert create_app().config["DATABASE"] == found.path


def test_without_either_the_instance_folder_is_flasks_default_for_the_package(monkeypatch: pytest.MonkeyPatch,
                                                                              tmp_path: Path) -> None:
    monkeypatch.delenv("SCORER_INSTANCE_PATH", raising=False)
    monkeypatch.chdir(tmp_path)  # never the current directory's instance/
    found = instance_folder()
    assert found.found_by is FoundBy.DEFAULT
    assert found.folder == Flask("scorer").auto_find_instance_path() == str(ROOT / "instance")  # a clone's instance/
    assert app_database().path == str(ROOT / "instance" / "scorer.sqlite")


def test_backup_and_verify_use_the_instance_folder_and_say_which_file(tmp_path: Path) -> None:
    database = one_table_instance(tmp_path / "club")
    other = one_table_instance(tmp_path / "other")
    for args, env, how in [
        ((), {"SCORER_INSTANCE_PATH": str(tmp_path / "club")}, "in the instance folder SCORER_INSTANCE_PATH gives"),
        (("--instance", str(tmp_path / "club")), {"SCORER_INSTANCE_PATH": str(tmp_path / "other")},
         "in the instance folder --instance gives"),
        (("--db", database), {"SCORER_INSTANCE_PATH": str(tmp_path / "other")}, "given by --db"),
    ]:
        done = cli("backup", str(tmp_path / "backups"), *args, env=env)
        assert done.exit_code == 0, done.output
        assert done.stderr == f"scorer: the database {database} ({how})\n"
        written, held = done.stdout.splitlines()[0].split(": ")
        assert held == "1 table, 0 circles, verified" and Path(written).parent == tmp_path / "backups"
        checked = cli("verify", *args, env=env)
        assert checked.exit_code == 0 and checked.stderr == done.stderr
        assert checked.stdout.endswith("(Ann, Bea, Cat, Dan): 1 line, intact\n")
    assert other != database


@pytest.mark.parametrize(("command", "status"), [("verify", 2), ("backup", 1)])
def test_no_database_says_where_it_looked_and_how_to_point_at_it(tmp_path: Path, command: str, status: int) -> None:
    args = [str(tmp_path / "backups")] if command == "backup" else []
    missing = cli(command, *args, env={"SCORER_INSTANCE_PATH": str(tmp_path / "nothing")})
    assert missing.exit_code == status
    assert missing.stderr.startswith(f"scorer: no database at {tmp_path / 'nothing' / 'scorer.sqlite'} "
                                     "(in the instance folder SCORER_INSTANCE_PATH gives). ")
    assert "--instance FOLDER" in missing.stderr and "--db FILE" in missing.stderr and missing.stdout == ""
    assert not (tmp_path / "backups").exists()


def test_restore_into_the_instance_folder_asks_then_puts_the_backup_there(tmp_path: Path) -> None:
    one_table_instance(tmp_path / "club")
    backup = cli("backup", str(tmp_path / "backups"), "--instance", str(tmp_path / "club")).stdout.split(":")[0]
    fresh = tmp_path / "fresh"
    declined = cli("restore", backup, "--instance", str(fresh), given="n\n")
    assert declined.exit_code == 1
    assert f"{backup}: 1 table, 0 circles, verified." in declined.stdout
    assert f"There is no database at {fresh / 'scorer.sqlite'} yet: put it there?" in declined.stdout
    assert not (fresh / "scorer.sqlite").exists()
    done = cli("restore", backup, "--instance", str(fresh), "--yes")
    assert done.exit_code == 0, done.output
    assert done.stderr == f"scorer: the database {fresh / 'scorer.sqlite'} (in the instance folder --instance gives)\n"
    assert done.stdout.endswith(f"restored {backup} to {fresh / 'scorer.sqlite'}\n")
    assert cli("verify", "--instance", str(fresh)).stdout.endswith("1 line, intact\n")


def french() -> gettext.GNUTranslations:
    return gettext.translation("messages", localedir=str(CATALOGUE), languages=["fr"])


@pytest.mark.parametrize(("tables", "circles", "english", "in_french"), [
    (1, 0, "1 table, 0 circles", "1 table, 0 cercle"),
    (0, 1, "0 tables, 1 circle", "0 table, 1 cercle"),
    (12, 2, "12 tables, 2 circles", "12 tables, 2 cercles"),
])
def test_what_a_backup_holds_is_counted_in_each_language(tables: int, circles: int, english: str, in_french: str) -> None:
    checked = Checked(tables, circles)
    assert checked.holds == english
    catalogue = french()
    with translating(catalogue.gettext, catalogue.ngettext):
        assert checked.holds == in_french
