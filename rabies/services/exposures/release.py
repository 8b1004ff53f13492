"""Before release: the vaccination of an unvaccinated dog or cat (22(A)) and the
veterinarian's report (22(E), C45); then the release, when nothing stands in its way."""

from dataclasses import dataclass, fields
from datetime import date

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from kernel.checks import refuse_if_before, refuse_if_future, refuse_unless_serves
from ordinance.calendar import due_date
from ordinance.models import Event
from ordinance.refusals import Refused, refusing
from ordinance.rules import rule_citation, rule_in_force
from rabies.models import (
    Exposure,
    ExposurePath,
)

from .paths import PRERELEASE_MONTHS, lock, release_report_required, require_path


def set_earliest_release(exposure: Exposure) -> None:
    """RAB-26: the later of the quarantine's end and the months after the vaccination."""
    end = exposure.period_ends_on
    if exposure.prerelease_vaccinated_on is None:
        exposure.earliest_release_on = end
        exposure.release_basis = _(
            "the end of the quarantine (%(d)s), and a vaccination before release"
        ) % {"d": date_format(end)}
        return
    after, rule = due_date(
        exposure.jurisdiction, PRERELEASE_MONTHS, exposure.prerelease_vaccinated_on
    )
    exposure.earliest_release_on = max(end, after)
    exposure.release_basis = _(
        "the later of the quarantine's end (%(end)s) and %(n)s after the vaccination of "
        "%(v)s (%(after)s) (%(c)s)"
    ) % {
        "end": date_format(end),
        "n": rule.display(),
        "v": date_format(exposure.prerelease_vaccinated_on),
        "after": date_format(after),
        "c": rule.citation,
    }


@refusing()
@transaction.atomic
def exposure_prerelease_vaccination(
    *, exposure: Exposure, actor, vaccinated_on: date, now=None
) -> Exposure:
    """The quarantined, unvaccinated dog or cat is vaccinated before release (22(A)); the
    earliest release is counted again."""
    now = now or timezone.now()
    exposure = lock(exposure)
    refuse_unless_serves(actor, exposure.jurisdiction)
    require_path(
        exposure, (ExposurePath.UNVACCINATED_DOG_CAT,), _("The vaccination before release")
    )
    # On this path the release follows only the quarantine (or its end).
    exposure.require("release", _("the vaccination"))
    refuse_if_future(
        vaccinated_on, _("Vaccinated on"), field="vaccinated_on", today=timezone.localdate(now)
    )
    refuse_if_before(
        vaccinated_on,
        exposure.period_starts_on,
        _("Vaccinated on"),
        _("the quarantine began"),
        field="vaccinated_on",
    )
    exposure.prerelease_vaccinated_on = vaccinated_on
    set_earliest_release(exposure)
    exposure.save(
        update_fields=["prerelease_vaccinated_on", "earliest_release_on", "release_basis"]
    )
    Event.record(
        "rabies.exposure.prerelease_vaccinated",
        exposure,
        actor=actor,
        at=now,
        summary=_("Vaccinated before release on %(d)s; release no earlier than %(r)s")
        % {"d": date_format(vaccinated_on), "r": date_format(exposure.earliest_release_on)},
    )
    return exposure


@dataclass
class ReleaseReport:
    """The veterinarian's written report and the days it was received (the form's fields,
    named as the exposure's columns)."""

    report_veterinarian: str
    report_inspected_on: date
    report_no_signs: bool
    report_file: object = None
    report_received_by_officer_on: date | None = None
    report_received_by_board_on: date | None = None

    def received(self):
        """(date, label, field) of each receipt."""
        return (
            (
                self.report_received_by_officer_on,
                _("Received by the officer on"),
                "report_received_by_officer_on",
            ),
            (
                self.report_received_by_board_on,
                _("Received by the Board on"),
                "report_received_by_board_on",
            ),
        )


def _check_report(exposure: Exposure, report: ReleaseReport, citation: str, today: date) -> None:
    """Named, dated within the period and not ahead of today, received after the
    inspection, and its copy attached (once)."""
    if not report.report_veterinarian.strip():
        raise Refused.because(
            _("Veterinarian"),
            _("Name the veterinarian who wrote the report."),
            citation,
            field="report_veterinarian",
        )
    inspected = (report.report_inspected_on, _("Inspected on"), "report_inspected_on")
    for value, label, field in (inspected, *report.received()):
        refuse_if_future(value, label, field=field, today=today)
        refuse_if_before(
            value, exposure.period_starts_on, label, _("the period began"), field=field
        )
    for value, label, field in report.received():
        refuse_if_before(value, report.report_inspected_on, label, _("the inspection"), field=field)
    if not report.report_file and not exposure.report_file:
        raise Refused.because(
            _("The written report"),
            _("Attach the veterinarian's written report."),
            citation,
            field="report_file",
        )


@refusing()
@transaction.atomic
def exposure_release_report(*, exposure: Exposure, actor, now=None, **report) -> Exposure:
    """The veterinarian's written report that the animal was inspected and showed no signs
    of rabies, and the days the officer and the Board received it (22(E), C45;
    ``report``: the fields of ``ReleaseReport``). Recorded again to add the Board's date;
    the file is kept if none is attached."""
    now = now or timezone.now()
    report = ReleaseReport(**report)
    exposure = lock(exposure)
    refuse_unless_serves(actor, exposure.jurisdiction)
    exposure.require("release", _("the release report"))
    citation = rule_citation(exposure.jurisdiction, "RAB-24")
    _check_report(exposure, report, citation, timezone.localdate(now))
    report.report_veterinarian = report.report_veterinarian.strip()
    report.report_file = report.report_file or exposure.report_file
    values = {f.name: getattr(report, f.name) for f in fields(report)}  # the file as is
    for name, value in values.items():
        setattr(exposure, name, value)
    exposure.save(update_fields=list(values))
    Event.record(
        "rabies.exposure.release_report",
        exposure,
        actor=actor,
        at=now,
        summary=_("Release report of %(vet)s, inspected %(d)s, recorded (%(c)s)")
        % {
            "vet": exposure.report_veterinarian,
            "d": date_format(report.report_inspected_on),
            "c": citation,
        },
        data={
            "no_signs": report.report_no_signs,
            "officer": str(report.report_received_by_officer_on or ""),
            "board": str(report.report_received_by_board_on or ""),
        },
    )
    return exposure


def release_blockers(exposure: Exposure, *, on: date) -> list[tuple[str, str, str]]:
    """What still stands in the way of releasing (or closing) the case on ``on``:
    (field, message, section) each; empty when release is allowed."""
    blockers = []
    if not exposure.may("release"):
        return [
            (
                "",
                _("The animal is not under observation, in an enclosure or in quarantine."),
                exposure.path_citation,
            )
        ]
    if exposure.path == ExposurePath.UNVACCINATED_DOG_CAT and not exposure.prerelease_vaccinated_on:
        rule = rule_in_force(exposure.jurisdiction, PRERELEASE_MONTHS, on=exposure.period_starts_on)
        blockers.append(
            (
                "",
                _("The animal must be vaccinated %(n)s before release; no vaccination is recorded.")
                % {"n": rule.display()},
                rule.citation,
            )
        )
    if exposure.earliest_release_on and on < exposure.earliest_release_on:
        blockers.append(
            (
                "released_on",
                _("Not before %(d)s: %(basis)s.")
                % {"d": date_format(exposure.earliest_release_on), "basis": exposure.release_basis},
                exposure.period_citation,
            )
        )
    needed, citation = release_report_required(exposure, on=on)
    if needed and not exposure.release_report_complete:
        missing = []
        if not exposure.report_no_signs:
            missing.append(_("the veterinarian's report that no signs of rabies were observed"))
        if not exposure.report_received_by_officer_on:
            missing.append(_("the day the officer received it"))
        if not exposure.report_received_by_board_on:
            missing.append(_("the day the Board received it"))
        blockers.append(
            (
                "",
                _("Not recorded: %(what)s.") % {"what": "; ".join(str(m) for m in missing)},
                citation,
            )
        )
    return blockers


@refusing()
@transaction.atomic
def exposure_release(*, exposure: Exposure, actor, released_on: date, now=None) -> Exposure:
    """Release the animal (or close the observation) when every condition is met."""
    now = now or timezone.now()
    exposure = lock(exposure)
    refuse_unless_serves(actor, exposure.jurisdiction)
    refuse_if_future(
        released_on, _("Released on"), field="released_on", today=timezone.localdate(now)
    )
    blockers = release_blockers(exposure, on=released_on)
    if blockers:
        raise Refused(
            [
                Refused.because(_("Release"), message, citation, field=field).checks[0]
                for field, message, citation in blockers
            ]
        )
    exposure.released_on = exposure.closed_on = released_on
    if exposure.path == ExposurePath.VACCINATED_DOG_CAT:
        note = _("Observation over, no signs of rabies: closed (%(c)s)")
    else:
        note = _("Released (%(c)s)")
    exposure.closing_note = note % {"c": exposure.path_citation}
    exposure.apply(
        "release",
        actor=actor,
        at=now,
        summary=exposure.closing_note,
        citation=exposure.path_citation,
        fields=["released_on", "closed_on", "closing_note"],
    )
    return exposure
