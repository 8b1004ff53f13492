"""The one way a service says no: ``Refused``, carrying the checks that failed.

Every licensing service (and any app above ``ordinance``) refuses with ``Refused``; views
catch it and nothing else, and show each check next to its field (or at the top) with
its section. A check is the line the clerk reads: what was checked, what is wrong, and
the section of the ordinance that says so (architecture.md "Rules as data": "the
software refuses to use it until the city fills it in, and says which section is blank").

The rule layer keeps its own exceptions (``RuleNotSet``, ``RuleNotInOrdinance``,
``FeeNotSet``, all ``RuleUnavailable``); a service turns them into ``Refused`` at its
boundary with ``@refusing()`` (a decorator or a ``with`` block):

    @refusing()
    def license_transfer(*, license, ...):
        fee = fee_amount(...)   # a blank fee: Refused("... (NB Sec. 6-62)")
"""

from contextlib import ContextDecorator
from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from .calendar import DateOutOfRange
from .rules import RuleUnavailable

ORDINANCE = _("Ordinance")  # the label of a check that a rule itself fails


@dataclass
class Check:
    """One line of a checklist: what was checked, the result, and the section.

    ``status`` is "ok", "fail" or "info"; only "fail" blocks. ``field`` names the form
    field the check belongs next to, when there is one.
    """

    label: str
    status: str
    message: str
    citation: str = ""
    field: str = ""

    def __str__(self):
        if not self.citation or self.citation in self.message:
            return str(self.message)
        return f"{self.message} ({self.citation})"

    @property
    def section(self) -> str:
        return self.citation

    @property
    def blocks(self) -> bool:
        return self.status == "fail"


class Refused(Exception):
    """The service will not do this; ``checks`` say why, each with its section."""

    def __init__(self, checks):
        self.checks = [c for c in checks]
        super().__init__(" ".join(str(c) for c in self.checks))

    @classmethod
    def because(cls, label, message, section: str = "", *, field: str = "") -> "Refused":
        """A refusal with one reason: ``raise Refused.because(_("Tag"), msg, cite)``."""
        return cls([Check(str(label), "fail", str(message), section, field)])

    @classmethod
    def from_rule(cls, exc: RuleUnavailable, label=ORDINANCE) -> "Refused":
        """A rule the software cannot apply (blank, not adopted, no fee in force)."""
        return cls.because(label, str(exc), exc.citation or "")

    @property
    def reasons(self) -> list[Check]:
        return self.checks

    @property
    def sections(self) -> list[str]:
        return [c.citation for c in self.checks if c.citation]

    @property
    def messages(self) -> list[str]:
        return [str(c) for c in self.checks]


class refusing(ContextDecorator):  # noqa: N801  (used like a function: @refusing())
    """Turn the rule layer's ``RuleUnavailable`` into ``Refused`` at a service boundary,
    and the calendar's ``DateOutOfRange`` (a deadline past 9999-12-31) too.

    ``label`` is the check's label (default "Ordinance"); the section is the rule's.
    """

    def __init__(self, label=ORDINANCE):
        self.label = label

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc is not None and isinstance(exc, RuleUnavailable):
            raise Refused.from_rule(exc, self.label) from exc
        if isinstance(exc, DateOutOfRange):
            raise Refused.because(self.label, str(exc)) from exc
        return False
