"""Where the app keeps its instance folder and its database: one answer for the app factory and for the
command line (``scorer backup``, ``restore``, ``verify``), so that both always use the same file.

The instance folder is, first of all, the one given (``scorer serve --instance``, a test's
``INSTANCE_PATH``), else the environment's ``SCORER_INSTANCE_PATH``, else Flask's default for the
package: ``instance/`` beside the ``scorer`` package when it is not installed (a clone, an editable
install such as ``scripts/setup.sh`` makes: the clone's ``instance/``), ``<prefix>/var/scorer-instance``
when it is (a wheel installed in a virtual environment: ``<venv>/var/scorer-instance``). It never depends
on the current directory. The database is ``scorer.sqlite`` in it, unless the folder's ``config.py``
sets ``DATABASE``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from enum import Enum

from flask import Config, Flask

PACKAGE = "scorer"
"""The app's import name: Flask names its default instance folder after it."""
DATABASE_FILE = "scorer.sqlite"
CONFIG_FILE = "config.py"
ENVIRONMENT = "SCORER_INSTANCE_PATH"


class FoundBy(Enum):
    """What chose the instance folder."""
    GIVEN = "given"
    ENVIRONMENT = "environment"
    DEFAULT = "default"


@dataclass(frozen=True)
class Instance:
    folder: str
    """The instance folder, an absolute path."""
    found_by: FoundBy


def instance_folder(given: str | None = None) -> Instance:
    """The instance folder the app uses: ``given``, else ``SCORER_INSTANCE_PATH``, else the package's
    default, as Flask finds it (``Flask.auto_find_instance_path``)."""
    if given:
        return Instance(os.path.abspath(given), FoundBy.GIVEN)
    if os.environ.get(ENVIRONMENT):
        return Instance(os.path.abspath(os.environ[ENVIRONMENT]), FoundBy.ENVIRONMENT)
    return Instance(os.path.abspath(Flask(PACKAGE).instance_path), FoundBy.DEFAULT)  # Flask's own default, found by it


def load_instance_config(config: Config, folder: str, read_file: bool = True) -> None:
    """What the instance folder gives the app's settings: ``DATABASE``, ``scorer.sqlite`` in it, then its
    ``config.py`` if there is one (and ``read_file``), which may set anything, ``DATABASE`` too."""
    config["DATABASE"] = os.path.join(folder, DATABASE_FILE)
    if read_file:
        config.from_pyfile(os.path.join(folder, CONFIG_FILE), silent=True)


@dataclass(frozen=True)
class AppDatabase:
    """The database the app serves, and how it was found."""
    path: str
    instance: Instance
    configured: bool
    """Whether the instance folder's config.py names it (``DATABASE``)."""


def app_database(given: str | None = None) -> AppDatabase:
    """The database the app uses with the instance folder ``given`` (or the one it finds without): what
    ``create_app`` sets as ``DATABASE``, found the same way, without making the app or any file."""
    instance = instance_folder(given)
    config = Config(instance.folder)
    load_instance_config(config, instance.folder)
    path = str(config["DATABASE"])
    return AppDatabase(path, instance, path != os.path.join(instance.folder, DATABASE_FILE))
