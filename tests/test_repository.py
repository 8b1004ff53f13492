"""The repository explains itself and keeps one shape: no issue numbers in the code, the
templates or the docs (the history is in git), and no status assigned outside the case
kernel (every status moves through a transition a model declares)."""

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def tracked(*patterns: str) -> list[Path]:
    out = subprocess.run(
        ["git", "ls-files", "--", *patterns], cwd=ROOT, capture_output=True, text=True
    ).stdout
    return [ROOT / line for line in out.splitlines() if line]


def test_no_issue_numbers_outside_git_history():
    pattern = re.compile(r"issues? [0-9]+", re.IGNORECASE)
    found = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in tracked("*.py", "*.html", "*.md")
        if path.exists()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert not found, "issue numbers belong in commits: " + ", ".join(found[:20])


def test_a_status_changes_only_through_the_kernel():
    assigned = re.compile(r"\.status(, [\w.]+)* = ")
    found = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in tracked("*.py")
        if path.exists()
        and path.relative_to(ROOT).parts[0] not in ("tests", "kernel", "scripts")
        and "migrations" not in path.parts
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if assigned.search(line)
    ]
    assert not found, "a status moves by a declared transition (kernel.models): " + ", ".join(found)
