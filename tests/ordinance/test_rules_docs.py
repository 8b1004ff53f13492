"""docs/ holds what ``manage.py rules_docs`` writes from the data files, every rule ID the
repository cites is in the catalogue (ordinance/catalogue.toml), and every link of its
Markdown files leads to a file that exists. No database: these read files only."""

import os
import re
from pathlib import Path

from ordinance.management.commands.rules_docs import anchor, load_catalogue, stale_files
from ordinance.profiles import available_profiles

ROOT = Path(__file__).resolve().parents[2]
FAMILIES = ("LIC", "KEN", "RES", "IMP", "DD", "RAB", "WLD", "HOR", "FEE", "REC", "DEF", "MN")
CITED = re.compile(r"\b(?:" + "|".join(FAMILIES) + r")-[0-9]+\b")
# A rule ID is a family and two digits. The same letters with other numbers are not rule
# IDs: case numbers (DD-2026-0001, IMP-3), veterinarians' license numbers (MN-4411).
RULE_SHAPE = re.compile(r"^[A-Z]+-[0-9]{2}$")
# Two-digit look-alikes that are not rules: a made-up ID a test stores on a rule value
# to see it kept (tests/ordinance/test_mutants.py).
NOT_RULES = {"FEE-99"}
SKIPPED_DIRS = {
    ".git",
    ".venv",
    "node_modules",
    "var",
    "static",  # vendored CSS and JavaScript
    "docs",  # written from the catalogue itself
    "mutants",
    "__pycache__",
    ".ruff_cache",
    ".pytest_cache",
}
SCANNED = {".py", ".toml", ".html", ".txt", ".md", ".sh", ".cfg", ".ini", ".yml", ".yaml"}
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*$", re.MULTILINE)


def _files(suffixes, skip=SKIPPED_DIRS):
    for folder, dirs, names in os.walk(ROOT):
        dirs[:] = sorted(d for d in dirs if d not in skip)
        for name in sorted(names):
            if Path(name).suffix in suffixes:
                yield Path(folder) / name


def cited_rule_ids() -> dict[str, str]:
    """Each rule ID cited in the repository -> the first file that cites it."""
    found: dict[str, str] = {}
    for path in _files(SCANNED):
        text = path.read_text(encoding="utf-8", errors="replace")
        for rule_id in CITED.findall(text):
            if RULE_SHAPE.match(rule_id) and rule_id not in NOT_RULES:
                found.setdefault(rule_id, path.relative_to(ROOT).as_posix())
    return found


def test_the_generated_docs_are_current():
    stale = stale_files()
    assert not stale, f"not current: {stale}; run `python manage.py rules_docs`"


def test_every_rule_id_cited_in_the_code_is_in_the_catalogue():
    catalogued = load_catalogue().ids()
    cited = cited_rule_ids()
    missing = {rule_id: where for rule_id, where in cited.items() if rule_id not in catalogued}
    assert not missing, f"cited but not in ordinance/catalogue.toml: {missing}"
    assert len(cited) > 150  # the scan found the code at all


def test_the_catalogue_has_a_column_for_every_shipped_profile():
    assert set(available_profiles()) <= set(load_catalogue().cities)


def test_every_family_of_the_catalogue_is_one_the_scan_looks_for():
    assert {family.prefix for family in load_catalogue().families} <= set(FAMILIES)


def _anchors(path: Path) -> set[str]:
    return {anchor(h) for h in HEADING.findall(path.read_text(encoding="utf-8"))}


def test_every_link_of_the_markdown_files_resolves():
    broken = []
    for path in _files({".md"}, skip=SKIPPED_DIRS - {"docs"}):
        for target in LINK.findall(path.read_text(encoding="utf-8")):
            if re.match(r"^[a-z]+:", target):  # https:, mailto:
                continue
            file_part, _, fragment = target.partition("#")
            linked = (path.parent / file_part).resolve() if file_part else path
            where = f"{path.relative_to(ROOT)} -> {target}"
            if not linked.exists():
                broken.append(where)
            elif fragment and linked.suffix == ".md" and fragment not in _anchors(linked):
                broken.append(where)
    assert not broken, broken
