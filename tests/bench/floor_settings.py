"""The app's settings with the floor pages added (tests/bench/floor.py): bench-web only."""

from pathlib import Path

from config.settings import *  # noqa: F403
from config.settings import TEMPLATES

ROOT_URLCONF = "tests.bench.floor"
TEMPLATES[0]["DIRS"] = [*TEMPLATES[0]["DIRS"], Path(__file__).resolve().parent / "templates"]
