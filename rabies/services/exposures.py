"""Animals exposed to a rabid animal (Glencoe 701 Subd. 1(L), 22; rules.md RAB-25..30,
RAB-33, Appendix B5, C46-C48).

North Branch has no rule for an animal exposed to rabies (RAB-33: state law governs, Sec.
6-96): ``exposure_open`` refuses there, saying so. In Glencoe an exposure case is opened
for an animal bitten or exposed by a rabid animal: a species the ordinance deems rabid when
it bites a dog or cat (1(L), RAB-25), or one a veterinarian or a laboratory found rabid.
The path follows licensing's one answer to "was it vaccinated on the day"
(``vaccination_status``) and the species:

- a vaccinated dog or cat (22(B)): revaccinated at once, observed by the owner for
  ``exposure_vaccinated_dogcat_observation_days``; closed by the veterinarian's release
  report when ``gl_release_report_for_observation``, else by the officer at the end;
- an unvaccinated dog or cat (22(A)): euthanized with the owner's consent (C48), or
  quarantined under a veterinarian for ``exposure_unvaccinated_quarantine_months``,
  released no earlier than the later of that end and
  ``exposure_prerelease_vaccination_months`` after the vaccination before release;
- another animal, currently vaccinated (22(C)(1)): revaccinated, kept in an animal-tight
  enclosure for ``exposure_vaccinated_other_enclosure_days`` (days, not months);
- another animal, unvaccinated (22(C)(2)): a veterinarian's determination of the
  exposure first, then euthanasia or the months' quarantine.

The Board report (RAB-30, C46) is issued as a PDF when the case opens; its sending is
recorded later. An owner who does not comply with a quarantine (22(A), 22(C)(2)) is
given notice and a Hearing Examiner's hearing, or waives it (``rabies.services.hearings``).
Every date is counted by ``ordinance.calendar`` from the city's profile and stored with
its section and how it was found.
"""

from datetime import date, datetime

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from kernel.checks import refuse_if_before, refuse_if_future, refuse_unless_serves
from kernel.numbers import year_number
from licensing.models import Animal
from licensing.services.vaccination import vaccination_status
from notices.services import document_issue
from ordinance.calendar import add_months, due_date
from ordinance.models import Event
from ordinance.refusals import Refused, refusing
from ordinance.rules import Rule, get_rule, rule_citation
from rabies.models import (
    EXPOSURE_OPEN,
    Exposure,
    ExposurePath,
    ExposureStatus,
    HearingOutcome,
    RabidBasis,
)

from . import hearings
from .common import EXPOSURE_KEY, city_rule, has_exposure_rules, locked, refuse_unless_may

DOG_CAT = ("dog", "cat")
QUARANTINE_MONTHS = "exposure_unvaccinated_quarantine_months"
PRERELEASE_MONTHS = "exposure_prerelease_vaccination_months"
OBSERVATION_DAYS = "exposure_vaccinated_dogcat_observation_days"
ENCLOSURE_DAYS = "exposure_vaccinated_other_enclosure_days"
REPORT_FOR_OBSERVATION = "gl_release_report_for_observation"
BOARD_KEY = "exposure_board_report"

# Each path's period and the rule it stands on (rules.md RAB-26..29).
PATH_KEYS = {
    ExposurePath.UNVACCINATED_DOG_CAT: (QUARANTINE_MONTHS, "RAB-26"),
    ExposurePath.VACCINATED_DOG_CAT: (OBSERVATION_DAYS, "RAB-27"),
    ExposurePath.VACCINATED_OTHER: (ENCLOSURE_DAYS, "RAB-28"),
    ExposurePath.UNVACCINATED_OTHER: (QUARANTINE_MONTHS, "RAB-29"),
}
UNVACCINATED = (ExposurePath.UNVACCINATED_DOG_CAT, ExposurePath.UNVACCINATED_OTHER)
VACCINATED = (ExposurePath.VACCINATED_DOG_CAT, ExposurePath.VACCINATED_OTHER)
BOARD_KIND = "rabies_board_report"
CONSENT_KIND = "rabies_euthanasia_consent"

EXPOSURE = _("Exposure case")


def _d(value: date) -> str:
    return date_format(value)


def no_rule_sentence(jurisdiction) -> tuple[str, str]:
    """What North Branch staff read instead of the form (RAB-33), and its section."""
    return (
        _("%(city)s's ordinance has no rule for animals exposed to rabies: state law governs.")
        % {"city": jurisdiction},
        rule_citation(jurisdiction, "RAB-33"),
    )


def path_for(species: str, vaccinated: bool) -> str:
    if species in DOG_CAT:
        return ExposurePath.VACCINATED_DOG_CAT if vaccinated else ExposurePath.UNVACCINATED_DOG_CAT
    return ExposurePath.VACCINATED_OTHER if vaccinated else ExposurePath.UNVACCINATED_OTHER


def path_rule(jurisdiction, path: str, *, on: date) -> Rule:
    """The rule that sets the path's period (its citation is the path's section)."""
    return get_rule(jurisdiction, PATH_KEYS[ExposurePath(path)][0], on=on)


def deemed_species(jurisdiction, *, on: date) -> Rule | None:
    return city_rule(jurisdiction, EXPOSURE_KEY, on=on)


def release_report_required(exposure: Exposure, *, on: date) -> tuple[bool, str]:
    """Whether the veterinarian's release report (22(E)) closes this case, and why."""
    if exposure.path == ExposurePath.VACCINATED_DOG_CAT:
        rule = city_rule(exposure.jurisdiction, REPORT_FOR_OBSERVATION, on=on)
        return bool(rule and rule.value), rule.citation if rule else ""
    return True, rule_citation(exposure.jurisdiction, "RAB-24")


def vaccinate_by(exposure: Exposure) -> date | None:
    """The prompt of RAB-26: vaccinate by the period's end less the pre-release months."""
    if exposure.path != ExposurePath.UNVACCINATED_DOG_CAT or not exposure.period_ends_on:
        return None
    rule = get_rule(exposure.jurisdiction, PRERELEASE_MONTHS, on=exposure.period_starts_on)
    return add_months(exposure.period_ends_on, -rule.value)


def _lock(exposure: Exposure) -> Exposure:
    record = locked(Exposure, exposure.pk)
    return record


def _require_path(exposure: Exposure, paths, what) -> None:
    if exposure.path not in paths:
        raise Refused.because(
            EXPOSURE,
            _("%(what)s is not a step of this path (%(path)s).")
            % {"what": what, "path": exposure.get_path_display().lower()},
            exposure.path_citation,
        )


def _animal_snapshot(animal: Animal) -> dict:
    owner = animal.owner
    return {
        "name": animal.name,
        "species": animal.get_species_display(),
        "breed": animal.breed,
        "color": animal.color,
        "owner": {"name": owner.name, "address": owner.address},
    }


# --- Opening a case and the Board report (RAB-25, RAB-30, C46) ---------------------------


@refusing()
@transaction.atomic
def exposure_open(
    *,
    animal: Animal,
    actor,
    exposed_on: date,
    how_exposed: str,
    rabid_species: str,
    rabid_basis: str,
    rabid_basis_detail: str = "",
    bite_report=None,
    now: datetime | None = None,
) -> Exposure:
    """Open the case of ``animal`` exposed by a rabid animal on ``exposed_on``; the path
    follows from its vaccination on that day and its species; the Board report is issued."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    jurisdiction = animal.jurisdiction
    refuse_unless_serves(actor, jurisdiction)
    if not has_exposure_rules(jurisdiction, on=today):
        message, citation = no_rule_sentence(jurisdiction)
        raise Refused.because(EXPOSURE, message, citation)
    if bite_report is not None and bite_report.jurisdiction_id != jurisdiction.pk:
        raise Refused.because(_("Bite report"), _("The bite report is another city's."))
    refuse_if_future(exposed_on, _("Date of the exposure"), field="exposed_on", today=today)
    if not how_exposed.strip():
        raise Refused.because(
            _("How exposed"), _("Say how the animal was exposed."), field="how_exposed"
        )
    rabid_species = rabid_species.strip().lower()
    if not rabid_species:
        raise Refused.because(
            _("Rabid animal"), _("Name the rabid animal's species."), field="rabid_species"
        )
    deemed = deemed_species(jurisdiction, on=exposed_on)
    if rabid_basis == RabidBasis.DEEMED:
        if rabid_species not in deemed.value:
            raise Refused.because(
                _("Rabid because"),
                _("Only these species are deemed rabid: %(list)s.")
                % {"list": ", ".join(deemed.value)},
                deemed.citation,
                field="rabid_basis",
            )
        if animal.species not in DOG_CAT:
            raise Refused.because(
                _("Rabid because"),
                _(
                    "A species is deemed rabid only when it bites a dog or cat; for another "
                    "animal a veterinarian or a laboratory must find the biting animal rabid."
                ),
                deemed.citation,
                field="rabid_basis",
            )
    elif rabid_basis in (RabidBasis.VETERINARIAN, RabidBasis.LABORATORY):
        if not rabid_basis_detail.strip():
            raise Refused.because(
                _("Details"),
                _("Name the veterinarian or the laboratory and what was found."),
                deemed.citation,
                field="rabid_basis_detail",
            )
    else:
        raise Refused.because(_("Rabid because"), _("Choose a basis."), field="rabid_basis")

    status = vaccination_status(animal, on=exposed_on)
    path = path_for(animal.species, status.is_vaccinated)
    rule = path_rule(jurisdiction, path, on=exposed_on)
    exposure = Exposure.objects.create(
        jurisdiction=jurisdiction,
        number=year_number(jurisdiction, "rabies-EX", exposed_on.year, "EX"),
        status=ExposureStatus.REPORTED,
        status_changed_at=now,
        animal=animal,
        bite_report=bite_report,
        exposed_on=exposed_on,
        how_exposed=how_exposed.strip(),
        rabid_species=rabid_species,
        rabid_basis=rabid_basis,
        rabid_basis_detail=rabid_basis_detail.strip(),
        rabid_citation=deemed.citation,
        vaccinated=status.is_vaccinated,
        path=path,
        path_citation=rule.citation,
        officer=actor,
    )
    Event.record(
        "rabies.exposure.opened",
        exposure,
        actor=actor,
        at=now,
        summary=_("Exposure case opened: %(path)s (%(c)s); vaccination: %(v)s")
        % {"path": exposure.get_path_display(), "c": rule.citation, "v": status.label},
        data={"path": path, "vaccination": status.state, "basis": rabid_basis},
    )
    exposure.board_report = _board_report(exposure, actor=actor, now=now, vaccination=status)
    exposure.save(update_fields=["board_report"])
    return exposure


def _board_report(exposure: Exposure, *, actor, now, vaccination):
    jurisdiction = exposure.jurisdiction
    board = get_rule(jurisdiction, BOARD_KEY, on=timezone.localdate(now))
    return document_issue(
        kind=BOARD_KIND,
        template="rabies/board_report.html",
        context={
            "number": exposure.number,
            "board": board.value,
            "board_citation": board.citation,
            "animal": _animal_snapshot(exposure.animal),
            "vaccination": str(vaccination),
            "exposed_on": exposure.exposed_on,
            "how_exposed": exposure.how_exposed,
            "rabid_species": exposure.rabid_species,
            "rabid_basis": exposure.get_rabid_basis_display(),
            "rabid_basis_detail": exposure.rabid_basis_detail,
            "rabid_citation": exposure.rabid_citation,
            "path": exposure.get_path_display(),
            "path_citation": exposure.path_citation,
            "issued_on": timezone.localdate(now),
        },
        jurisdiction=jurisdiction,
        actor=actor,
        title=str(_("Report to the %(board)s") % {"board": board.value}),
        number=exposure.number,
        subject=exposure,
        now=now,
    )


@refusing()
@transaction.atomic
def board_report_sent(
    *, exposure: Exposure, actor, sent_on: date, sent_how: str, now: datetime | None = None
) -> Exposure:
    """Record that the Board report was sent (RAB-30): on which day and how."""
    now = now or timezone.now()
    exposure = _lock(exposure)
    refuse_unless_serves(actor, exposure.jurisdiction)
    citation = rule_citation(exposure.jurisdiction, "RAB-30")
    if exposure.board_report_sent_on:
        raise Refused.because(
            _("Board report"),
            _("Its sending is already recorded (%(d)s).")
            % {"d": _d(exposure.board_report_sent_on)},
            citation,
        )
    refuse_if_future(sent_on, _("Sent on"), field="sent_on", today=timezone.localdate(now))
    refuse_if_before(sent_on, exposure.exposed_on, _("Sent on"), _("the exposure"), field="sent_on")
    if not sent_how.strip():
        raise Refused.because(
            _("Sent how"), _("Say how it was sent (e-mail, fax, mail)."), field="sent_how"
        )
    exposure.board_report_sent_on, exposure.board_report_sent_how = sent_on, sent_how.strip()
    exposure.save(update_fields=["board_report_sent_on", "board_report_sent_how"])
    Event.record(
        "rabies.exposure.board_sent",
        exposure,
        actor=actor,
        at=now,
        summary=_("Report sent to the Board on %(d)s (%(how)s)")
        % {"d": _d(sent_on), "how": exposure.board_report_sent_how},
        data={"citation": citation},
    )
    return exposure


# --- The periods ------------------------------------------------------------------------


def _start_period(exposure: Exposure, start: date, transition, *, actor, at, summary) -> None:
    """Count and store the path's period from ``start``, then apply ``transition`` (to the
    observation, the enclosure or the quarantine)."""
    end, rule = due_date(exposure.jurisdiction, PATH_KEYS[ExposurePath(exposure.path)][0], start)
    exposure.period_starts_on, exposure.period_ends_on = start, end
    exposure.period_citation = rule.citation
    exposure.period_basis = _("%(n)s from %(d)s") % {"n": rule.display(), "d": _d(start)}
    exposure.earliest_release_on = end
    exposure.release_basis = _("the end of the period (%(d)s)") % {"d": _d(end)}
    exposure.apply(
        transition,
        actor=actor,
        at=at,
        summary=summary % {"end": _d(end), "c": rule.citation, "n": rule.display()},
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
    exposure = _lock(exposure)
    refuse_unless_serves(actor, exposure.jurisdiction)
    _require_path(exposure, VACCINATED, _("Revaccination"))
    transition = "observe" if exposure.path == ExposurePath.VACCINATED_DOG_CAT else "enclose"
    refuse_unless_may(exposure, transition, _("revaccination"))
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
        _set_earliest_release(exposure)
        exposure.save(update_fields=["earliest_release_on", "release_basis"])


def _euthanize(exposure, *, euthanized_on, today, actor, now, summary) -> None:
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
    euthanized_on: date | None = None,
    starts_on: date | None = None,
    supervising_veterinarian: str = "",
    location: str = "",
    now=None,
) -> Exposure:
    """The owner of an unvaccinated dog or cat consents to euthanasia or refuses (22(A),
    C48): consent → euthanized; refusal → quarantine under a veterinarian."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    exposure = _lock(exposure)
    refuse_unless_serves(actor, exposure.jurisdiction)
    _require_path(exposure, (ExposurePath.UNVACCINATED_DOG_CAT,), _("The owner's consent"))
    # The answer leads to euthanasia or the quarantine, which follow only the report.
    refuse_unless_may(exposure, "quarantine", _("the owner's answer"))
    refuse_if_future(consent_on, _("Dated"), field="consent_on", today=today)
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
    if consent:
        if euthanized_on is None:
            raise Refused.because(
                _("Euthanized on"),
                _("Give the date of the euthanasia."),
                exposure.path_citation,
                field="euthanized_on",
            )
        _euthanize(
            exposure,
            euthanized_on=euthanized_on,
            today=today,
            actor=actor,
            now=now,
            summary=_("Humanely euthanized with the owner's consent (%(c)s)")
            % {"c": exposure.path_citation},
        )
    else:
        if starts_on is None:
            raise Refused.because(
                _("Quarantine began on"),
                _("Give the day the quarantine began."),
                exposure.path_citation,
                field="starts_on",
            )
        _quarantine(
            exposure,
            starts_on=starts_on,
            veterinarian=supervising_veterinarian,
            location=location,
            today=today,
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
    exposure = _lock(exposure)
    refuse_unless_serves(actor, exposure.jurisdiction)
    _require_path(exposure, (ExposurePath.UNVACCINATED_OTHER,), _("The determination"))
    refuse_unless_may(exposure, "quarantine", _("the determination"))
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
        % {"vet": exposure.determined_by, "d": _d(determined_on), "c": exposure.path_citation},
    )
    return exposure


@refusing()
@transaction.atomic
def exposure_dispose(
    *,
    exposure: Exposure,
    actor,
    euthanize: bool,
    euthanized_on: date | None = None,
    starts_on: date | None = None,
    supervising_veterinarian: str = "",
    location: str = "",
    now=None,
) -> Exposure:
    """Another unvaccinated animal, after the veterinarian's determination (22(C)(2)):
    humanely euthanized, or quarantined under a veterinarian."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    exposure = _lock(exposure)
    refuse_unless_serves(actor, exposure.jurisdiction)
    _require_path(exposure, (ExposurePath.UNVACCINATED_OTHER,), _("The disposition"))
    refuse_unless_may(exposure, "quarantine", _("the disposition"))
    if not exposure.determined_on:
        raise Refused.because(
            _("Determination"),
            _("First record the veterinarian's determination that the animal was exposed."),
            exposure.path_citation,
        )
    if euthanize:
        if euthanized_on is None:
            raise Refused.because(
                _("Euthanized on"),
                _("Give the date of the euthanasia."),
                exposure.path_citation,
                field="euthanized_on",
            )
        _euthanize(
            exposure,
            euthanized_on=euthanized_on,
            today=today,
            actor=actor,
            now=now,
            summary=_("Humanely euthanized (%(c)s)") % {"c": exposure.path_citation},
        )
    else:
        if starts_on is None:
            raise Refused.because(
                _("Quarantine began on"),
                _("Give the day the quarantine began."),
                exposure.path_citation,
                field="starts_on",
            )
        _quarantine(
            exposure,
            starts_on=starts_on,
            veterinarian=supervising_veterinarian,
            location=location,
            today=today,
            actor=actor,
            now=now,
        )
    return exposure


# --- Before release: the vaccination (22(A)) and the veterinarian's report (22(E)) -------


def _set_earliest_release(exposure: Exposure) -> None:
    """RAB-26: the later of the quarantine's end and the months after the vaccination."""
    end = exposure.period_ends_on
    if exposure.prerelease_vaccinated_on is None:
        exposure.earliest_release_on = end
        exposure.release_basis = _(
            "the end of the quarantine (%(d)s), and a vaccination before release"
        ) % {"d": _d(end)}
        return
    after, rule = due_date(
        exposure.jurisdiction, PRERELEASE_MONTHS, exposure.prerelease_vaccinated_on
    )
    exposure.earliest_release_on = max(end, after)
    exposure.release_basis = _(
        "the later of the quarantine's end (%(end)s) and %(n)s after the vaccination of "
        "%(v)s (%(after)s) (%(c)s)"
    ) % {
        "end": _d(end),
        "n": rule.display(),
        "v": _d(exposure.prerelease_vaccinated_on),
        "after": _d(after),
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
    exposure = _lock(exposure)
    refuse_unless_serves(actor, exposure.jurisdiction)
    _require_path(
        exposure, (ExposurePath.UNVACCINATED_DOG_CAT,), _("The vaccination before release")
    )
    # On this path the release follows only the quarantine (or its end).
    refuse_unless_may(exposure, "release", _("the vaccination"))
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
    _set_earliest_release(exposure)
    exposure.save(
        update_fields=["prerelease_vaccinated_on", "earliest_release_on", "release_basis"]
    )
    Event.record(
        "rabies.exposure.prerelease_vaccinated",
        exposure,
        actor=actor,
        at=now,
        summary=_("Vaccinated before release on %(d)s; release no earlier than %(r)s")
        % {"d": _d(vaccinated_on), "r": _d(exposure.earliest_release_on)},
    )
    return exposure


@refusing()
@transaction.atomic
def exposure_release_report(
    *,
    exposure: Exposure,
    actor,
    report_veterinarian: str,
    report_inspected_on: date,
    report_no_signs: bool,
    report_file=None,
    report_received_by_officer_on: date | None = None,
    report_received_by_board_on: date | None = None,
    now=None,
) -> Exposure:
    """The veterinarian's written report that the animal was inspected and showed no signs
    of rabies, and the days the officer and the Board received it (22(E), C45). Recorded
    again to add the Board's date; the file is kept if none is attached."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    exposure = _lock(exposure)
    refuse_unless_serves(actor, exposure.jurisdiction)
    refuse_unless_may(exposure, "release", _("the release report"))
    citation = rule_citation(exposure.jurisdiction, "RAB-24")
    if not report_veterinarian.strip():
        raise Refused.because(
            _("Veterinarian"),
            _("Name the veterinarian who wrote the report."),
            citation,
            field="report_veterinarian",
        )
    for value, label, field in (
        (report_inspected_on, _("Inspected on"), "report_inspected_on"),
        (
            report_received_by_officer_on,
            _("Received by the officer on"),
            "report_received_by_officer_on",
        ),
        (report_received_by_board_on, _("Received by the Board on"), "report_received_by_board_on"),
    ):
        refuse_if_future(value, label, field=field, today=today)
        refuse_if_before(
            value, exposure.period_starts_on, label, _("the period began"), field=field
        )
    for value, label, field in (
        (
            report_received_by_officer_on,
            _("Received by the officer on"),
            "report_received_by_officer_on",
        ),
        (report_received_by_board_on, _("Received by the Board on"), "report_received_by_board_on"),
    ):
        refuse_if_before(value, report_inspected_on, label, _("the inspection"), field=field)
    if not report_file and not exposure.report_file:
        raise Refused.because(
            _("The written report"),
            _("Attach the veterinarian's written report."),
            citation,
            field="report_file",
        )
    exposure.report_veterinarian = report_veterinarian.strip()
    exposure.report_inspected_on = report_inspected_on
    exposure.report_no_signs = report_no_signs
    if report_file:
        exposure.report_file = report_file
    exposure.report_received_by_officer_on = report_received_by_officer_on
    exposure.report_received_by_board_on = report_received_by_board_on
    exposure.save(
        update_fields=[
            "report_veterinarian",
            "report_inspected_on",
            "report_no_signs",
            "report_file",
            "report_received_by_officer_on",
            "report_received_by_board_on",
        ]
    )
    Event.record(
        "rabies.exposure.release_report",
        exposure,
        actor=actor,
        at=now,
        summary=_("Release report of %(vet)s, inspected %(d)s, recorded (%(c)s)")
        % {"vet": exposure.report_veterinarian, "d": _d(report_inspected_on), "c": citation},
        data={
            "no_signs": report_no_signs,
            "officer": str(report_received_by_officer_on or ""),
            "board": str(report_received_by_board_on or ""),
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
        rule = get_rule(exposure.jurisdiction, PRERELEASE_MONTHS, on=exposure.period_starts_on)
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
                % {"d": _d(exposure.earliest_release_on), "basis": exposure.release_basis},
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
    exposure = _lock(exposure)
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


# --- The period over (the sweep) --------------------------------------------------------


def mark_ended(exposure: Exposure, *, on: date, at: datetime) -> None:
    """The observation, enclosure or quarantine ran out: release due (the sweep, once)."""
    exposure.ended_marked_on = on
    exposure.apply(
        "end",
        at=at,
        summary=_("Period over on %(d)s: release due (%(c)s)")
        % {"d": _d(exposure.period_ends_on), "c": exposure.period_citation},
        citation=exposure.period_citation,
        fields=["ended_marked_on"],
    )


# --- Non-compliance and the Hearing Examiner (22(A), 22(C)(2), C47) ---------------------


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
    exposure = _lock(exposure)
    refuse_unless_serves(actor, exposure.jurisdiction)
    _require_path(exposure, UNVACCINATED, _("Non-compliance"))
    refuse_unless_may(exposure, "noncompliance", _("non-compliance"))
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
        % {"d": _d(noted_on), "what": details.strip()},
        citation=exposure.path_citation,
    )
    return hearings.hearing_open(
        actor=actor,
        citation=exposure.path_citation,
        grounds=_("The owner did not comply with the quarantine: %(what)s")
        % {"what": details.strip()},
        exposure=exposure,
        owner_known=owner_known,
        scheduled_for=scheduled_for,
        place=place,
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
    exposure = _lock(exposure)
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
    exposure = _lock(exposure)
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
        _euthanize(
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


# --- The consent form (C48) -------------------------------------------------------------


@refusing()
@transaction.atomic
def consent_form_issue(*, exposure: Exposure, actor, now=None):
    """The form the owner signs to consent to or refuse euthanasia (22(A), C48)."""
    now = now or timezone.now()
    refuse_unless_serves(actor, exposure.jurisdiction)
    _require_path(exposure, (ExposurePath.UNVACCINATED_DOG_CAT,), _("The consent form"))
    refuse_unless_may(exposure, "quarantine", _("the consent form"))
    months = get_rule(exposure.jurisdiction, QUARANTINE_MONTHS, on=exposure.exposed_on)
    prerelease = get_rule(exposure.jurisdiction, PRERELEASE_MONTHS, on=exposure.exposed_on)
    return document_issue(
        kind=CONSENT_KIND,
        template="rabies/euthanasia_consent.html",
        context={
            "number": exposure.number,
            "animal": _animal_snapshot(exposure.animal),
            "exposed_on": exposure.exposed_on,
            "rabid_species": exposure.rabid_species,
            "months": months.display(),
            "prerelease": prerelease.display(),
            "section": exposure.path_citation,
            "issued_on": timezone.localdate(now),
        },
        jurisdiction=exposure.jurisdiction,
        actor=actor,
        title=str(_("Consent to or refusal of euthanasia")),
        number=exposure.number,
        subject=exposure,
        now=now,
    )


__all__ = [
    "EXPOSURE_OPEN",
    "board_report_sent",
    "consent_form_issue",
    "exposure_consent",
    "exposure_determine",
    "exposure_dispose",
    "exposure_hearing_decide",
    "exposure_hearing_waived",
    "exposure_noncompliance",
    "exposure_open",
    "exposure_prerelease_vaccination",
    "exposure_release",
    "exposure_release_report",
    "exposure_revaccinate",
    "mark_ended",
    "release_blockers",
]
