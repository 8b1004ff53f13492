"""An owner who does not comply with the quarantine: notice and a Hearing Examiner's
hearing, or the owner's waiver, then the Examiner's decision (22(A), 22(C)(2), C47)."""

from datetime import date, datetime

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from kernel.checks import refuse_if_before, refuse_if_future, refuse_unless_serves
from ordinance.refusals import Refused, refusing
from rabies.models import (
    Exposure,
    ExposureStatus,
    HearingOutcome,
)

from .. import hearings
from .paths import UNVACCINATED, lock, require_path
from .periods import record_euthanasia


def open_hearing(exposure: Exposure):
    """The proceeding not yet decided, if any."""
    return exposure.hearings.filter(outcome="").order_by("-pk").first()


@refusing()
@transaction.atomic
def exposure_noncompliance(
    *,
    exposure: Exposure,
    actor,
    noted_on: date,
    details: str,
    owner_known: bool = True,
    scheduled_for: datetime | None = None,
    place: str = "",
    now=None,
):
    """The owner does not comply with the quarantine: notice and a Hearing Examiner's
    hearing (or the owner's waiver) before any euthanasia."""
    now = now or timezone.now()
    exposure = lock(exposure)
    refuse_unless_serves(actor, exposure.jurisdiction)
    require_path(exposure, UNVACCINATED, _("Non-compliance"))
    exposure.require("noncompliance", _("non-compliance"))
    refuse_if_future(noted_on, _("Noted on"), field="noted_on", today=timezone.localdate(now))
    refuse_if_before(
        noted_on,
        exposure.period_starts_on,
        _("Noted on"),
        _("the quarantine began"),
        field="noted_on",
    )
    if not details.strip():
        raise Refused.because(
            _("What was not complied with"),
            _("Say what the owner did not comply with."),
            exposure.path_citation,
            field="details",
        )
    exposure.apply(
        "noncompliance",
        actor=actor,
        at=now,
        summary=_("The owner did not comply with the quarantine (%(d)s): %(what)s")
        % {"d": date_format(noted_on), "what": details.strip()},
        citation=exposure.path_citation,
    )
    return hearings.hearing_open(
        actor=actor,
        citation=exposure.path_citation,
        grounds=_("The owner did not comply with the quarantine: %(what)s")
        % {"what": details.strip()},
        subject=exposure,
        notice=hearings.Notice(owner_known, scheduled_for, place),
        now=now,
    )


def _hearing_or_refuse(exposure: Exposure):
    hearing = open_hearing(exposure)
    if hearing is None or not exposure.may("continue"):
        raise Refused.because(
            _("Hearing"),
            _("No Hearing Examiner proceeding is open for this case."),
            exposure.path_citation,
        )
    return hearing


@refusing()
@transaction.atomic
def exposure_hearing_waived(
    *, exposure: Exposure, actor, waived_on: date, waiver_file=None, now=None
):
    exposure = lock(exposure)
    refuse_unless_serves(actor, exposure.jurisdiction)
    return hearings.hearing_waived(
        hearing=_hearing_or_refuse(exposure),
        actor=actor,
        waived_on=waived_on,
        waiver_file=waiver_file,
        now=now,
    )


@refusing()
@transaction.atomic
def exposure_hearing_decide(
    *,
    exposure: Exposure,
    actor,
    outcome: str,
    euthanized_on: date | None = None,
    now=None,
    **decision,
):
    """The Hearing Examiner's decision: euthanize, or continue the quarantine."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    exposure = lock(exposure)
    refuse_unless_serves(actor, exposure.jurisdiction)
    hearing = _hearing_or_refuse(exposure)
    if outcome == HearingOutcome.EUTHANIZE and euthanized_on is None:
        raise Refused.because(
            _("Euthanized on"),
            _("Give the date of the euthanasia."),
            exposure.path_citation,
            field="euthanized_on",
        )
    hearing = hearings.hearing_decide(
        hearing=hearing,
        actor=actor,
        outcome=outcome,
        allowed=(HearingOutcome.EUTHANIZE, HearingOutcome.CONTINUE),
        now=now,
        **decision,
    )
    if outcome == HearingOutcome.EUTHANIZE:
        record_euthanasia(
            exposure,
            euthanized_on=euthanized_on,
            today=today,
            actor=actor,
            now=now,
            summary=_("Humanely euthanized on the Hearing Examiner's decision (%(c)s)")
            % {"c": exposure.path_citation},
        )
    else:
        back = (
            ExposureStatus.ENDED
            if exposure.period_ends_on and exposure.period_ends_on < today
            else ExposureStatus.QUARANTINE
        )
        exposure.apply(
            "continue",
            to=back,
            actor=actor,
            at=now,
            summary=_("The Hearing Examiner continued the quarantine (%(c)s)")
            % {"c": exposure.path_citation},
            citation=exposure.path_citation,
        )
    return hearing
