"""No app outside ``ordinance/`` writes an ordinance number of days, months or dollars.

architecture.md "Rules as data": such values come from the profile (``ordinance.rules``)
or the fee schedule (``ordinance.fees``). Zero and one cent are allowed for rounding.
"""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SKIP_DIRS = {
    "ordinance",
    "tests",
    "migrations",
    ".venv",
    "venv",
    "node_modules",
    "var",
    "static",
    ".git",
}
FORBIDDEN = [
    re.compile(r"timedelta\(\s*days\s*=\s*\d"),
    re.compile(r"timedelta\(\s*weeks\s*=\s*\d"),
    re.compile(r"relativedelta\(\s*months\s*=\s*\d"),
    re.compile(r"""Decimal\(\s*["']\d"""),
]
ALLOWED_DECIMALS = re.compile(r"""Decimal\(\s*["'](0|0\.00|0\.01)["']\s*\)""")


def python_files():
    for path in ROOT.rglob("*.py"):
        parts = set(path.relative_to(ROOT).parts[:-1])
        if not parts & SKIP_DIRS:
            yield path


def offences(text: str) -> list[str]:
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        cleaned = ALLOWED_DECIMALS.sub("", line)
        if any(p.search(cleaned) for p in FORBIDDEN):
            found.append(f"{number}: {line.strip()}")
    return found


def test_no_ordinance_number_is_written_outside_the_rulebook():
    bad = {}
    for path in python_files():
        hits = offences(path.read_text(encoding="utf-8"))
        if hits:
            bad[str(path.relative_to(ROOT))] = hits
    assert not bad, f"read these from ordinance.rules / ordinance.fees instead: {bad}"


def test_the_check_catches_each_literal_and_allows_rounding():
    assert offences("hold = timedelta(days=5)")
    assert offences("x = timedelta(weeks = 2)")
    assert offences("d + relativedelta(months=24)")
    assert offences('fee = Decimal("3.00")')
    assert offences("fee = Decimal('15')")
    assert not offences('q = amount.quantize(Decimal("0.01")) + Decimal("0.00") + Decimal("0")')
    assert not offences("timedelta(days=rule.value)")
    assert not offences("relativedelta(months=n)")
