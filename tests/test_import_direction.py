"""Imports point one way, downward (architecture.md "Layout").

The contracts are import-linter's, in pyproject.toml ([tool.importlinter]): the layers
config > dangerous_dogs | rabies > impound > licensing > notices | accounts > ordinance >
base, and licensing.services.receipts importing nothing of kennels. This test runs
them and fails with import-linter's report, which names each offending import and line.
"""

import subprocess
import sys
import tomllib
from pathlib import Path

from django.conf import settings

ROOT = Path(__file__).resolve().parent.parent
LINT = (
    "import sys; from importlinter.cli import lint_imports; sys.exit(lint_imports(no_cache=True))"
)


def importlinter_config() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]


def test_the_import_contracts_are_kept():
    result = subprocess.run(
        [sys.executable, "-c", LINT], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    report = result.stdout[result.stdout.find("Contracts") :] + result.stderr
    assert result.returncode == 0, report


def test_every_app_of_ours_is_under_the_contracts():
    """A new app left out of root_packages would be invisible to the contracts."""
    ours = {app for app in settings.INSTALLED_APPS if (ROOT / app / "apps.py").exists()}
    assert ours <= set(importlinter_config()["root_packages"])


def test_ordinance_sits_just_above_base():
    layers = next(c["layers"] for c in importlinter_config()["contracts"] if c["type"] == "layers")
    assert layers[-2:] == ["ordinance", "base"]
