"""Issuing a citation: the number, the class the officer confirms, the document (REC-14).

``issue_citation`` is the one way a citation comes to be: the citation page calls it, and
the complaints app (an incident whose outcome is a citation) will call it with its
complaint as ``source``. The number is the next of the city's gap-free series, allocated
in the same transaction as the insert, as receipts are; the document (Appendix C10) is
frozen and archived through ``notices`` in the same transaction, so a citation never
exists without its document, and re-printing gives the archived bytes.
"""

from dataclasses import dataclass
from datetime import date, datetime

from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from citations.models import ChargeClass, Citation
from kernel.checks import refuse_if_future, refuse_unless_serves
from kernel.numbers import allocate
from notices.models import IssuedDocument
from notices.services import document_issue
from ordinance.models import Event
from ordinance.refusals import Refused, refusing
from ordinance.rules import rule_citation

from .violations import propose_for

DOCUMENT_KIND = "citation"
DOCUMENT_TEMPLATE = "citations/citation.html"


def _check(condition: bool, label, message, *, field: str = "", section: str = ""):
    if not condition:
        raise Refused.because(label, message, section, field=field)


def _check_parties(jurisdiction, actor, owner, animal):
    refuse_unless_serves(actor, jurisdiction)
    if owner is not None:
        _check(
            owner.jurisdiction_id == jurisdiction.pk,
            _("Defendant"),
            _("The owner is not in %(c)s's registry.") % {"c": jurisdiction},
            field="owner",
        )
    if animal is not None:
        _check(
            animal.jurisdiction_id == jurisdiction.pk,
            _("Animal"),
            _("The animal is not in %(c)s's registry.") % {"c": jurisdiction},
            field="animal",
        )


def _check_dates(jurisdiction, *, violated_at, appearance_on, now):
    refuse_if_future(
        violated_at,
        _("Date and time"),
        message=_("The violation cannot be in the future."),
        field="violated_at",
        now=now,
    )
    _check(
        appearance_on > timezone.localdate(now),
        _("Appearance date"),
        _("The appearance date must be after the day the citation is issued."),
        field="appearance_on",
        section=rule_citation(jurisdiction, "REC-14"),
    )


def _check_class(proposal, charge_class: str, class_reason: str):
    _check(
        charge_class in ChargeClass.values,
        _("Charge class"),
        _("Choose the charge class."),
        field="charge_class",
    )
    _check(
        charge_class == proposal.charge_class or bool(class_reason.strip()),
        _("Charge class"),
        _("The class proposed is %(cls)s; give the reason for another class.")
        % {"cls": proposal.class_label},
        field="class_reason",
        section=proposal.citation,
    )


def _animal_description(animal) -> str:
    if animal is None:
        return ""
    parts = [animal.name, animal.get_species_display(), animal.breed, animal.color]
    return ", ".join(p for p in parts if p)


@dataclass(frozen=True)
class Charge:
    """What the officer charges: the violation (a profile code), when and where it was
    observed, the court and appearance date, and the class the officer confirms
    (another than the one proposed needs ``class_reason``)."""

    violation: str
    violated_at: datetime
    location: str
    court: str
    appearance_on: date
    charge_class: str
    class_reason: str = ""


@dataclass(frozen=True)
class Defendant:
    """Who is cited: the owner (or the animal's owner), or a person named with an
    address (Glencoe Subd. 6)."""

    owner: object = None
    animal: object = None
    name: str = ""
    address: str = ""

    def resolved(self) -> "Defendant":
        owner = self.owner or (self.animal.owner if self.animal is not None else None)
        name = (self.name or (owner.name if owner else "")).strip()
        address = (self.address or (owner.address if owner else "")).strip()
        return Defendant(owner, self.animal, name, address)


@refusing(_("Citation"))
@transaction.atomic
def issue_citation(
    *,
    jurisdiction,
    actor,
    charge: Charge,
    defendant: Defendant,
    source=None,
    source_label: str = "",
    now: datetime | None = None,
) -> Citation:
    """Issue a citation and its document (C10), numbered from the city's series."""
    now = now or timezone.now()
    defendant = defendant.resolved()
    _check_request(jurisdiction, actor, charge, defendant, now)
    code, proposal = propose_for(
        jurisdiction=jurisdiction,
        violation=charge.violation,
        violated_at=charge.violated_at,
        animal=defendant.animal,
        owner=defendant.owner,
    )
    _check_class(proposal, charge.charge_class, charge.class_reason)
    citation = Citation.objects.create(
        jurisdiction=jurisdiction,
        number=allocate(jurisdiction, "citation"),
        **_charged(code, proposal, charge),
        **_parties(defendant, actor),
        **_source(source, source_label),
        issued_at=now,
    )
    citation_document_issue(citation, actor=actor, now=now)
    _record_issued(citation, code, proposal, actor=actor, now=now)
    return citation


def _check_request(jurisdiction, actor, charge: Charge, defendant: Defendant, now) -> None:
    _check_parties(jurisdiction, actor, defendant.owner, defendant.animal)
    _check(bool(defendant.name), _("Defendant"), _("Name the defendant."), field="defendant_name")
    _check(
        bool(defendant.address),
        _("Defendant"),
        _("Give the defendant's address."),
        field="defendant_address",
    )
    _check(
        bool(charge.location.strip()),
        _("Place"),
        _("Say where the violation was observed."),
        field="location",
    )
    _check(bool(charge.court.strip()), _("Court"), _("Name the court."), field="court")
    _check_dates(
        jurisdiction, violated_at=charge.violated_at, appearance_on=charge.appearance_on, now=now
    )


def _charged(code, proposal, charge: Charge) -> dict:
    """The citation's columns for what is charged and how its class was reached (FEE-15,
    RES-06): the confirmed class, the proposed one and the priors counted."""
    confirmed = charge.charge_class
    priors = proposal.priors
    return {
        "violation_code": code.code,
        "violation_label": code.label,
        "violation_citation": code.citation,
        "charge_class": confirmed,
        "charge_class_citation": (
            proposal.citation if confirmed == proposal.charge_class else code.class_citation
        ),
        "proposed_class": proposal.charge_class,
        "proposal_basis": proposal.basis,
        "class_reason": charge.class_reason.strip() if confirmed != proposal.charge_class else "",
        "fine_cap": code.fine_cap,
        "fine_cap_citation": code.fine_cap_citation,
        "prior_animal": priors.animal,
        "prior_owner": priors.owner,
        "prior_address": priors.address,
        "prior_same_code": priors.same_code,
        "violated_at": charge.violated_at,
        "location": charge.location.strip()[:300],
        "court": charge.court.strip()[:200],
        "appearance_on": charge.appearance_on,
    }


def _parties(defendant: Defendant, actor) -> dict:
    """The citation's columns for who is cited, the animal, the address, the officer."""
    animal = defendant.animal
    premises = animal.premises if animal is not None and animal.premises_id else None
    return {
        "owner": defendant.owner,
        "defendant_name": defendant.name[:200],
        "defendant_address": defendant.address[:300],
        "animal": animal,
        "animal_description": _animal_description(animal)[:300],
        "premises": premises,
        "address": (premises.address if premises else defendant.address)[:300],
        "officer": actor,
        "officer_name": (actor.get_full_name() or actor.username)[:200],
    }


def _source(source, label: str) -> dict:
    if source is None:
        return {"source_type": None, "source_id": None, "source_label": label[:200]}
    return {
        "source_type": ContentType.objects.get_for_model(source),
        "source_id": source.pk,
        "source_label": (label or str(source))[:200],
    }


def _record_issued(citation: Citation, code, proposal, *, actor, now) -> None:
    Event.record(
        "citations.citation.issued",
        citation,
        actor=actor,
        at=now,
        summary=_("Citation %(n)s: %(v)s (%(s)s), %(cls)s; appear %(d)s")
        % {
            "n": citation.number,
            "v": code.label,
            "s": code.citation,
            "cls": citation.get_charge_class_display(),
            "d": date_format(citation.appearance_on),
        },
        data={
            "number": citation.number,
            "code": code.code,
            "charge_class": citation.charge_class,
            "proposed_class": proposal.charge_class,
            "appearance_on": str(citation.appearance_on),
        },
    )


def _snapshot(citation: Citation) -> dict:
    """What the citation prints (C10), frozen as issued."""
    return {
        "citation": {
            "number": citation.number,
            "violation": citation.violation_label,
            "violation_citation": citation.violation_citation,
            "charge_class": citation.get_charge_class_display(),
            "charge_class_citation": citation.charge_class_citation,
            "fine_cap": citation.fine_cap,
            "fine_cap_citation": citation.fine_cap_citation,
            "violated_at": citation.violated_at,
            "location": citation.location,
            "address": citation.address,
            "court": citation.court,
            "appearance_on": citation.appearance_on,
            "officer": citation.officer_name,
            "authority": rule_citation(citation.jurisdiction, "REC-14"),
        },
        "defendant": {"name": citation.defendant_name, "address": citation.defendant_address},
        "animal": {"description": citation.animal_description},
    }


def citation_document_issue(citation: Citation, *, actor, now: datetime) -> IssuedDocument:
    return document_issue(
        kind=DOCUMENT_KIND,
        template=DOCUMENT_TEMPLATE,
        context=_snapshot(citation),
        jurisdiction=citation.jurisdiction,
        actor=actor,
        title=_("Citation to appear in court"),
        number=str(citation.number),
        subject=citation,
        now=now,
    )


def citation_document(citation: Citation) -> IssuedDocument | None:
    """The citation's archived document (the one issued with it)."""
    return (
        IssuedDocument.objects.filter(
            subject_type=ContentType.objects.get_for_model(Citation),
            subject_id=citation.pk,
            kind=DOCUMENT_KIND,
            voids__isnull=True,
        )
        .order_by("issued_at", "pk")
        .first()
    )
