"""The package's layout (everything else is in pyproject.toml).

The repository keeps ``templates/`` and ``static/`` at the top level; the wheel carries them inside
the package, as ``scorer/templates`` and ``scorer/static``, so that an installed scorer (``pip install``
of the wheel, the container) renders its pages. ``create_app`` looks for them beside the package's
code first, then at the top of the repository (a clone, an editable install). Each of their folders
is listed as a package of data files, as setuptools wants every folder it installs to be. The
package's data files are all listed here: a ``[tool.setuptools.package-data]`` table in pyproject.toml
would replace this one."""

from pathlib import Path

from setuptools import find_namespace_packages, setup

DATA = {"scorer.templates": "templates", "scorer.static": "static"}


def data_packages() -> dict[str, list[str]]:
    """Every folder of templates/ and static/ as a package name, with all its files."""
    found: dict[str, list[str]] = {}
    for package, folder in DATA.items():
        for path in sorted(p for p in [Path(folder), *Path(folder).rglob("*")] if p.is_dir()):
            if "__pycache__" not in path.parts:
                found[".".join([package, *path.relative_to(folder).parts])] = ["*"]
    return found


setup(
    packages=[*find_namespace_packages(include=["scorer", "scorer.*"], exclude=["*.__pycache__"]), *data_packages()],
    package_dir=DATA,
    package_data={**data_packages(), "scorer.translations": ["*.pot", "*/LC_MESSAGES/*.po", "*/LC_MESSAGES/*.mo"]},
)
