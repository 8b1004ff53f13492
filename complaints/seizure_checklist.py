"""The seven conditions of the barking-dog seizure (Glencoe 701 Subd. 5; rules.md RES-07):
what the officer answers (``SeizureConditions``) and every condition not met, each next
to its field with its section (``checklist_refusals``). ``complaints.seizure`` refuses a
seizure until the list is empty."""

from dataclasses import dataclass
from datetime import date

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from ordinance.refusals import Check

from .seizure_models import EntryMeans


@dataclass(frozen=True)
class SeizureConditions:
    """The officer's answers on the checklist (conditions 1, 2 and 4 to 7; condition 3
    is read from the complaint history)."""

    complainant_contemporaneous: bool = False
    barking_meets_criteria: bool = False
    contact_failed: bool = False
    no_forced_entry: bool = False
    entry_means: str = ""
    passkey_from: str = ""
    no_less_intrusive: bool = False
    less_intrusive: str = ""
    notice_place: str = ""


@dataclass(frozen=True)
class SeizureFacts:
    """What the checklist is checked against: the complaint, the city's rule, the
    earlier complaints found, the contact attempts logged and the day of the seizure."""

    complaint: object
    rule: object
    prior: list
    attempts: list
    today: date

    def cond(self, n: int) -> str:
        return _("%(section)s, cond. %(n)s") % {"section": self.rule.citation, "n": n}


def _missing(label, message, citation, field) -> Check:
    return Check(str(label), "fail", str(message), citation, field)


def checklist_refusals(facts: SeizureFacts, answers: SeizureConditions) -> list[Check]:
    """Every condition not recorded, each next to its field with its section."""
    return [
        *_complainant(facts, answers),
        *_belief(facts, answers),
        *_history(facts),
        *_attempts(facts, answers),
        *_entry(facts, answers),
        *_less_intrusive(facts, answers),
        *_notice(facts, answers),
    ]


def _complainant(facts, answers) -> list[Check]:
    """1. An identified complainant other than an officer, complaining now."""
    complaint, field = facts.complaint, "complainant_contemporaneous"
    received_on = timezone.localdate(complaint.received_at)
    if complaint.anonymous or not complaint.complainant_name.strip():
        message = _(
            "The complainant is not identified: an anonymous complaint cannot support a seizure."
        )
    elif received_on != facts.today:
        message = _(
            "This complaint was received on %(date)s: a seizure needs a complaint made now. "
            "Take the new complaint first."
        ) % {"date": date_format(received_on)}
    elif not answers.complainant_contemporaneous:
        message = _(
            "Confirm that the identified complainant, not an officer, is complaining of the "
            "barking now."
        )
    else:
        return []
    return [_missing(_("Condition 1"), message, facts.cond(1), field)]


def _belief(facts, answers) -> list[Check]:
    """2. The officer's belief."""
    if answers.barking_meets_criteria:
        return []
    message = _("Record that you reasonably believe the barking meets the Subd. 5 criteria.")
    return [_missing(_("Condition 2"), message, facts.cond(2), "barking_meets_criteria")]


def _history(facts) -> list[Check]:
    """3. From the complaint history, never typed."""
    if len(facts.prior) >= facts.rule.prior_min:
        return []
    message = _(
        "The complaint history shows no earlier barking complaint at this address on a prior date."
    )
    return [_missing(_("Condition 3"), message, facts.rule.prior_citation, "")]


def _attempts(facts, answers) -> list[Check]:
    """4. Attempts logged, none of them reaching an owner who acts, and the officer's
    word that they failed."""
    if not facts.attempts:
        message = _("Log the attempts to reach the dog's owner or the property owner first.")
    elif not all(a.failed_or_ignored for a in facts.attempts):
        message = _(
            "An attempt reached an owner who is stopping the barking: the attempts did not fail."
        )
    elif not answers.contact_failed:
        message = _("Confirm that the reasonable attempts logged have failed or been ignored.")
    else:
        return []
    return [_missing(_("Condition 4"), message, facts.cond(4), "contact_failed")]


def _entry(facts, answers) -> list[Check]:
    """5. No forced entry (a passkey from a key-holder is not forced entry)."""
    missing = []
    if not answers.no_forced_entry:
        message = _(
            "Confirm that the seizure will not involve forced entry into a private residence."
        )
        missing.append(_missing(_("Condition 5"), message, facts.cond(5), "no_forced_entry"))
    if answers.entry_means not in EntryMeans.values:
        message = _("Choose how the dog will be reached.")
        missing.append(_missing(_("Condition 5"), message, facts.cond(5), "entry_means"))
    elif answers.entry_means == EntryMeans.PASSKEY and not answers.passkey_from.strip():
        message = _("Name the person authorized to hold the key who gave the passkey.")
        missing.append(_missing(_("Condition 5"), message, facts.cond(5), "passkey_from"))
    return missing


def _less_intrusive(facts, answers) -> list[Check]:
    """6. No less intrusive means, and what was tried or considered."""
    missing = []
    if not answers.no_less_intrusive:
        message = _("Confirm that no less intrusive means of stopping the barking is available.")
        missing.append(_missing(_("Condition 6"), message, facts.cond(6), "no_less_intrusive"))
    if not answers.less_intrusive.strip():
        message = _("Say what less intrusive means were tried or considered.")
        missing.append(_missing(_("Condition 6"), message, facts.cond(6), "less_intrusive"))
    return missing


def _notice(facts, answers) -> list[Check]:
    """7. The written notice left in a conspicuous place."""
    if answers.notice_place.strip():
        return []
    message = _("Say the conspicuous place where the written notice of seizure will be left.")
    return [_missing(_("Condition 7"), message, facts.rule.notice_citation, "notice_place")]
