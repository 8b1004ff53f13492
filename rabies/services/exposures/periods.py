"""The path's first step and its period: revaccination with observation or enclosure
(22(B), 22(C)(1)), the owner's consent or refusal (22(A), C48), the veterinarian's
determination and the disposition (22(C)(2)), and the period marked over by the sweep."""

from dataclasses import dataclass
from datetime import date, datetime

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from kernel.checks import refuse_if_before, refuse_if_future, refuse_unless_serves
from ordinance.calendar import due_date
from ordinance.models import Event
from ordinance.refusals import Refused, refusing
from rabies.models import (
    Exposure,
    ExposurePath,
)

from .paths import PATH_KEYS, VACCINATED, lock, require_path
from .release import set_earliest_release


def _start_period(exposure: Exposure, start: date, transition, *, actor, at, summary) -> None:
    """Count and store the path's period from ``start``, then apply ``transition`` (to the
    observation, the enclosure or the quarantine)."""
    end, rule = due_date(exposure.jurisdiction, PATH_KEYS[ExposurePath(exposure.path)][0], start)
    exposure.period_starts_on, exposure.period_ends_on = start, end
    exposure.period_citation = rule.citation
    exposure.period_basis = _("%(n)s from %(d)s") % {"n": rule.display(), "d": date_format(start)}
    exposure.earliest_release_on = end
    exposure.release_basis = _("the end of the period (%(d)s)") % {"d": date_format(end)}
    exposure.apply(
        transition,
        actor=actor,
        at=at,
        summary=summary % {"end": date_format(end), "c": rule.citation, "n": rule.display()},
        citation=rule.citation,
        fields=[
            "period_starts_on",
            "period_ends_on",
            "period_citation",
            "period_basis",
            "earliest_release_on",
            "release_basis",
            "revaccinated_on",
            "supervising_veterinarian",
            "location",
            "consent",
            "consent_on",
            "consent_by_name",
            "consent_file",
        ],
    )


@refusing()
@transaction.atomic
def exposure_revaccinate(
    *, exposure: Exposure, actor, revaccinated_on: date, location: str = "", now=None
) -> Exposure:
    """A vaccinated animal is revaccinated at once (22(B), 22(C)(1)); its observation or
    enclosure is counted from the exposure."""
    now = now or timezone.now()
    exposure = lock(exposure)
    refuse_unless_serves(actor, exposure.jurisdiction)
    require_path(exposure, VACCINATED, _("Revaccination"))
    transition = "observe" if exposure.path == ExposurePath.VACCINATED_DOG_CAT else "enclose"
    exposure.require(transition, _("revaccination"))
    refuse_if_future(
        revaccinated_on,
        _("Revaccinated on"),
        field="revaccinated_on",
        today=timezone.localdate(now),
    )
    refuse_if_before(
        revaccinated_on,
        exposure.exposed_on,
        _("Revaccinated on"),
        _("the exposure"),
        field="revaccinated_on",
    )
    exposure.revaccinated_on = revaccinated_on
    exposure.location = location.strip()
    if transition == "observe":
        summary = _("Revaccinated; under the owner's observation (%(n)s) until %(end)s (%(c)s)")
    else:
        summary = _("Revaccinated; in an animal-tight enclosure (%(n)s) until %(end)s (%(c)s)")
    _start_period(exposure, exposure.exposed_on, transition, actor=actor, at=now, summary=summary)
    return exposure


def _quarantine(exposure, *, starts_on, veterinarian, location, today, actor, now) -> None:
    refuse_if_future(starts_on, _("Quarantine began on"), field="starts_on", today=today)
    refuse_if_before(
        starts_on,
        exposure.exposed_on,
        _("Quarantine began on"),
        _("the exposure"),
        field="starts_on",
    )
    if not veterinarian.strip():
        raise Refused.because(
            _("Supervising veterinarian"),
            _("Name the veterinarian who supervises the quarantine."),
            exposure.path_citation,
            field="supervising_veterinarian",
        )
    if not location.strip():
        raise Refused.because(
            _("Where it is kept"),
            _("Say where the animal-tight enclosure is."),
            exposure.path_citation,
            field="location",
        )
    exposure.supervising_veterinarian, exposure.location = veterinarian.strip(), location.strip()
    _start_period(
        exposure,
        starts_on,
        "quarantine",
        actor=actor,
        at=now,
        summary=_("Quarantined under veterinary supervision (%(n)s) until %(end)s (%(c)s)"),
    )
    if exposure.path == ExposurePath.UNVACCINATED_DOG_CAT:
        set_earliest_release(exposure)
        exposure.save(update_fields=["earliest_release_on", "release_basis"])


def record_euthanasia(exposure, *, euthanized_on, today, actor, now, summary) -> None:
    refuse_if_future(euthanized_on, _("Euthanized on"), field="euthanized_on", today=today)
    refuse_if_before(
        euthanized_on,
        exposure.exposed_on,
        _("Euthanized on"),
        _("the exposure"),
        field="euthanized_on",
    )
    exposure.euthanized_on = euthanized_on
    exposure.closed_on = euthanized_on
    exposure.closing_note = str(summary)[:300]
    exposure.apply(
        "euthanize",
        actor=actor,
        at=now,
        summary=summary,
        citation=exposure.path_citation,
        fields=[
            "euthanized_on",
            "closed_on",
            "closing_note",
            "consent",
            "consent_on",
            "consent_by_name",
            "consent_file",
        ],
    )


@dataclass(frozen=True)
class Disposition:
    """What follows a decision on an unvaccinated animal: the day of the euthanasia, or
    the quarantine's first day, its veterinarian and its place (the form's fields)."""

    euthanized_on: date | None = None
    starts_on: date | None = None
    supervising_veterinarian: str = ""
    location: str = ""


def _carry_out(exposure, euthanized: bool, d: Disposition, *, summary, actor, now) -> None:
    """Euthanasia (``summary`` its record) or the months' quarantine under a veterinarian."""
    today = timezone.localdate(now)
    if euthanized:
        if d.euthanized_on is None:
            raise Refused.because(
                _("Euthanized on"),
                _("Give the date of the euthanasia."),
                exposure.path_citation,
                field="euthanized_on",
            )
        record_euthanasia(
            exposure,
            euthanized_on=d.euthanized_on,
            today=today,
            actor=actor,
            now=now,
            summary=summary,
        )
        return
    if d.starts_on is None:
        raise Refused.because(
            _("Quarantine began on"),
            _("Give the day the quarantine began."),
            exposure.path_citation,
            field="starts_on",
        )
    _quarantine(
        exposure,
        starts_on=d.starts_on,
        veterinarian=d.supervising_veterinarian,
        location=d.location,
        today=today,
        actor=actor,
        now=now,
    )


@refusing()
@transaction.atomic
def exposure_consent(
    *,
    exposure: Exposure,
    actor,
    consent: bool,
    consent_on: date,
    consent_by_name: str,
    consent_file=None,
    now=None,
    **disposition,
) -> Exposure:
    """The owner of an unvaccinated dog or cat consents to euthanasia or refuses (22(A),
    C48): consent → euthanized; refusal → quarantine under a veterinarian
    (``disposition``: the fields of ``Disposition``)."""
    now = now or timezone.now()
    disposition = Disposition(**disposition)
    exposure = lock(exposure)
    refuse_unless_serves(actor, exposure.jurisdiction)
    require_path(exposure, (ExposurePath.UNVACCINATED_DOG_CAT,), _("The owner's consent"))
    # The answer leads to euthanasia or the quarantine, which follow only the report.
    exposure.require("quarantine", _("the owner's answer"))
    refuse_if_future(consent_on, _("Dated"), field="consent_on", today=timezone.localdate(now))
    refuse_if_before(
        consent_on, exposure.exposed_on, _("Dated"), _("the exposure"), field="consent_on"
    )
    if not consent_by_name.strip():
        raise Refused.because(
            _("Signed by"), _("Name the owner who signed."), field="consent_by_name"
        )
    if not consent_file:
        raise Refused.because(
            _("Signed form"),
            _("Attach the owner's signed consent or refusal."),
            exposure.path_citation,
            field="consent_file",
        )
    exposure.consent, exposure.consent_on = consent, consent_on
    exposure.consent_by_name, exposure.consent_file = consent_by_name.strip(), consent_file
    summary = _("Humanely euthanized with the owner's consent (%(c)s)")
    _carry_out(
        exposure,
        consent,
        disposition,
        summary=summary % {"c": exposure.path_citation},
        actor=actor,
        now=now,
    )
    return exposure


@refusing()
@transaction.atomic
def exposure_determine(
    *, exposure: Exposure, actor, determined_by: str, determined_on: date, now=None
) -> Exposure:
    """A veterinarian determined that the unvaccinated animal was exposed (22(C)(2))."""
    now = now or timezone.now()
    exposure = lock(exposure)
    refuse_unless_serves(actor, exposure.jurisdiction)
    require_path(exposure, (ExposurePath.UNVACCINATED_OTHER,), _("The determination"))
    exposure.require("quarantine", _("the determination"))
    if exposure.determined_on:
        raise Refused.because(
            _("Determination"),
            _("The determination is already recorded."),
            exposure.path_citation,
        )
    refuse_if_future(
        determined_on, _("Determined on"), field="determined_on", today=timezone.localdate(now)
    )
    refuse_if_before(
        determined_on,
        exposure.exposed_on,
        _("Determined on"),
        _("the exposure"),
        field="determined_on",
    )
    if not determined_by.strip():
        raise Refused.because(
            _("Veterinarian"),
            _("Name the veterinarian."),
            exposure.path_citation,
            field="determined_by",
        )
    exposure.determined_by, exposure.determined_on = determined_by.strip(), determined_on
    exposure.save(update_fields=["determined_by", "determined_on"])
    Event.record(
        "rabies.exposure.determined",
        exposure,
        actor=actor,
        at=now,
        summary=_("Dr. %(vet)s determined the animal was exposed, %(d)s (%(c)s)")
        % {
            "vet": exposure.determined_by,
            "d": date_format(determined_on),
            "c": exposure.path_citation,
        },
    )
    return exposure


@refusing()
@transaction.atomic
def exposure_dispose(
    *, exposure: Exposure, actor, euthanize: bool, now=None, **disposition
) -> Exposure:
    """Another unvaccinated animal, after the veterinarian's determination (22(C)(2)):
    humanely euthanized, or quarantined under a veterinarian (``disposition``: the fields
    of ``Disposition``)."""
    now = now or timezone.now()
    disposition = Disposition(**disposition)
    exposure = lock(exposure)
    refuse_unless_serves(actor, exposure.jurisdiction)
    require_path(exposure, (ExposurePath.UNVACCINATED_OTHER,), _("The disposition"))
    exposure.require("quarantine", _("the disposition"))
    if not exposure.determined_on:
        raise Refused.because(
            _("Determination"),
            _("First record the veterinarian's determination that the animal was exposed."),
            exposure.path_citation,
        )
    _carry_out(
        exposure,
        euthanize,
        disposition,
        summary=_("Humanely euthanized (%(c)s)") % {"c": exposure.path_citation},
        actor=actor,
        now=now,
    )
    return exposure


def mark_ended(exposure: Exposure, *, on: date, at: datetime) -> None:
    """The observation, enclosure or quarantine ran out: release due (the sweep, once)."""
    exposure.ended_marked_on = on
    exposure.apply(
        "end",
        at=at,
        summary=_("Period over on %(d)s: release due (%(c)s)")
        % {"d": date_format(exposure.period_ends_on), "c": exposure.period_citation},
        citation=exposure.period_citation,
        fields=["ended_marked_on"],
    )
