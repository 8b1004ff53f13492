"""Opening an exposure case, the Board report (RAB-25, RAB-30, C46) and the owner's
consent form (C48)."""

from dataclasses import asdict, dataclass
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
from ordinance.models import Event
from ordinance.refusals import Refused, refusing
from ordinance.rules import rule_citation, rule_in_force
from rabies.models import (
    Exposure,
    ExposurePath,
    ExposureStatus,
    RabidBasis,
)

from ..common import has_exposure_rules
from .paths import (
    BOARD_KEY,
    BOARD_KIND,
    CONSENT_KIND,
    DOG_CAT,
    EXPOSURE,
    PRERELEASE_MONTHS,
    QUARANTINE_MONTHS,
    animal_snapshot,
    deemed_species,
    lock,
    no_rule_sentence,
    path_for,
    path_rule,
    require_path,
)


@dataclass
class ExposureFacts:
    """How the animal was exposed and why the biting animal is rabid: the form's fields."""

    exposed_on: date
    how_exposed: str
    rabid_species: str
    rabid_basis: str
    rabid_basis_detail: str = ""

    def __post_init__(self):
        self.how_exposed = self.how_exposed.strip()
        self.rabid_species = self.rabid_species.strip().lower()
        self.rabid_basis_detail = self.rabid_basis_detail.strip()


def _check_facts(facts: ExposureFacts, animal: Animal, today: date) -> None:
    refuse_if_future(facts.exposed_on, _("Date of the exposure"), field="exposed_on", today=today)
    if not facts.how_exposed:
        raise Refused.because(
            _("How exposed"), _("Say how the animal was exposed."), field="how_exposed"
        )
    if not facts.rabid_species:
        raise Refused.because(
            _("Rabid animal"), _("Name the rabid animal's species."), field="rabid_species"
        )
    _check_rabid_basis(facts, animal)


def _check_rabid_basis(facts: ExposureFacts, animal: Animal) -> None:
    """Deemed rabid (a listed species biting a dog or cat, 1(L)), or found rabid by a
    veterinarian or a laboratory (DEF-08, RAB-25)."""
    deemed = deemed_species(animal.jurisdiction, on=facts.exposed_on)
    if facts.rabid_basis == RabidBasis.DEEMED:
        if facts.rabid_species not in deemed.value:
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
    elif facts.rabid_basis in (RabidBasis.VETERINARIAN, RabidBasis.LABORATORY):
        if not facts.rabid_basis_detail:
            raise Refused.because(
                _("Details"),
                _("Name the veterinarian or the laboratory and what was found."),
                deemed.citation,
                field="rabid_basis_detail",
            )
    else:
        raise Refused.because(_("Rabid because"), _("Choose a basis."), field="rabid_basis")


@refusing()
@transaction.atomic
def exposure_open(
    *, animal: Animal, actor, bite_report=None, now: datetime | None = None, **facts
) -> Exposure:
    """Open the case of ``animal`` exposed by a rabid animal (``facts``: the fields of
    ``ExposureFacts``); the path follows from its vaccination on the day of the exposure
    and its species; the Board report is issued."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    jurisdiction = animal.jurisdiction
    refuse_unless_serves(actor, jurisdiction)
    facts = ExposureFacts(**facts)
    if not has_exposure_rules(jurisdiction, on=today):
        message, citation = no_rule_sentence(jurisdiction)
        raise Refused.because(EXPOSURE, message, citation)
    if bite_report is not None and bite_report.jurisdiction_id != jurisdiction.pk:
        raise Refused.because(_("Bite report"), _("The bite report is another city's."))
    _check_facts(facts, animal, today)
    status = vaccination_status(animal, on=facts.exposed_on)
    path = path_for(animal.species, status.is_vaccinated)
    rule = path_rule(jurisdiction, path, on=facts.exposed_on)
    exposure = Exposure.objects.create(
        jurisdiction=jurisdiction,
        number=year_number(jurisdiction, "rabies-EX", facts.exposed_on.year, "EX"),
        status=ExposureStatus.REPORTED,
        status_changed_at=now,
        animal=animal,
        bite_report=bite_report,
        rabid_citation=deemed_species(jurisdiction, on=facts.exposed_on).citation,
        vaccinated=status.is_vaccinated,
        path=path,
        path_citation=rule.citation,
        officer=actor,
        **asdict(facts),
    )
    Event.record(
        "rabies.exposure.opened",
        exposure,
        actor=actor,
        at=now,
        summary=_("Exposure case opened: %(path)s (%(c)s); vaccination: %(v)s")
        % {"path": exposure.get_path_display(), "c": rule.citation, "v": status.label},
        data={"path": path, "vaccination": status.state, "basis": facts.rabid_basis},
    )
    exposure.board_report = _board_report(exposure, actor=actor, now=now, vaccination=status)
    exposure.save(update_fields=["board_report"])
    return exposure


def _board_report(exposure: Exposure, *, actor, now, vaccination):
    jurisdiction = exposure.jurisdiction
    board = rule_in_force(jurisdiction, BOARD_KEY, on=timezone.localdate(now))
    return document_issue(
        kind=BOARD_KIND,
        template="rabies/board_report.html",
        context={
            "number": exposure.number,
            "board": board.value,
            "board_citation": board.citation,
            "animal": animal_snapshot(exposure.animal),
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
    exposure = lock(exposure)
    refuse_unless_serves(actor, exposure.jurisdiction)
    citation = rule_citation(exposure.jurisdiction, "RAB-30")
    if exposure.board_report_sent_on:
        raise Refused.because(
            _("Board report"),
            _("Its sending is already recorded (%(d)s).")
            % {"d": date_format(exposure.board_report_sent_on)},
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
        % {"d": date_format(sent_on), "how": exposure.board_report_sent_how},
        data={"citation": citation},
    )
    return exposure


def _consent_form_context(exposure: Exposure, now: datetime) -> dict:
    months = rule_in_force(exposure.jurisdiction, QUARANTINE_MONTHS, on=exposure.exposed_on)
    prerelease = rule_in_force(exposure.jurisdiction, PRERELEASE_MONTHS, on=exposure.exposed_on)
    return {
        "number": exposure.number,
        "animal": animal_snapshot(exposure.animal),
        "exposed_on": exposure.exposed_on,
        "rabid_species": exposure.rabid_species,
        "months": months.display(),
        "prerelease": prerelease.display(),
        "section": exposure.path_citation,
        "issued_on": timezone.localdate(now),
    }


@refusing()
@transaction.atomic
def consent_form_issue(*, exposure: Exposure, actor, now=None):
    """The form the owner signs to consent to or refuse euthanasia (22(A), C48)."""
    now = now or timezone.now()
    refuse_unless_serves(actor, exposure.jurisdiction)
    require_path(exposure, (ExposurePath.UNVACCINATED_DOG_CAT,), _("The consent form"))
    exposure.require("quarantine", _("the consent form"))
    return document_issue(
        kind=CONSENT_KIND,
        template="rabies/euthanasia_consent.html",
        context=_consent_form_context(exposure, now),
        jurisdiction=exposure.jurisdiction,
        actor=actor,
        title=str(_("Consent to or refusal of euthanasia")),
        number=exposure.number,
        subject=exposure,
        now=now,
    )
