"""The package's layout (everything else is in pyproject.toml).

The repository keeps ``templates/`` and ``static/`` at the top level; the wheel carries them inside
the package, as ``scorer/templates`` and ``scorer/static``, so that an installed scorer (``pip install``
of the wheel, the container) renders its pages. ``create_app`` looks for them beside the package's
code first, then at the top of the repository (an editable install, a clone)."""

from setuptools import find_namespace_packages, setup

setup(
    packages=[*find_namespace_packages(include=["scorer", "scorer.*"], exclude=["*.__pycache__"]),
              "scorer.templates", "scorer.static"],
    package_dir={"scorer.templates": "templates", "scorer.static": "static"},
)
