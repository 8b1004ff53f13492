"""Notice of impounding: the owner's letter (C11) and the posted notice (C12).

Rules: IMP-05 (NB Sec. 6-68 "every possible effort to notify the owners ... and inform
such owners of the conditions whereby they may regain custody"; Glencoe 701 Subd. 14 "the
owner shall be notified, or if the owner ... is unknown, written notice shall be posted
for five (5) days at the Police Station and the Municipal Office Building"), Appendix D
G32 (the claim-by date printed on the posted notice is never before the stored hold end).

Documents are issued through ``notices.services.document_issue`` and never changed: a
corrected notice is a void plus a new issue. Every attempt to reach the owner, the
e-mail sent after commit, the letter's mailing and each posting are ``ServiceRecord``
rows on the case.
"""

import logging
from dataclasses import dataclass
from datetime import date, datetime

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.core.mail import EmailMessage
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from base.roles import ADMINISTRATOR
from impound.models import ImpoundCase
from kernel.checks import refuse_if_future, refuse_unless_serves
from notices.models import IssuedDocument, ServiceMethod, ServiceRecord
from ordinance.calendar import due_date
from ordinance.models import Event
from ordinance.refusals import Refused, refusing
from ordinance.rules import (
    Rule,
    RuleNotInOrdinance,
    profile_for,
    rule_citation,
    rule_in_force,
    rules_in_force,
)

logger = logging.getLogger(__name__)

OWNER_NOTICE = "impound_owner_notice"
POSTED_NOTICE = "impound_posted_notice"
NOTICE_KINDS = (OWNER_NOTICE, POSTED_NOTICE)
OWNER_TEMPLATE = "impound/owner_notice.html"
POSTED_TEMPLATE = "impound/posted_notice.html"

# What a person may record about an attempt to reach the owner (NB Sec. 6-68).
ATTEMPT_METHODS = (
    ServiceMethod.PHONE,
    ServiceMethod.PERSONAL,
    ServiceMethod.MAIL,
    ServiceMethod.LEFT,
)
# How the issued letter reached the owner.
LETTER_METHODS = (ServiceMethod.MAIL, ServiceMethod.CERTIFIED, ServiceMethod.PERSONAL)

# The redemption fee lists a letter describes, in the order it prints them.
FEE_LISTS = (
    "redemption_fees_licensed",
    "redemption_fees_unlicensed",
    "redemption_fees_resident",
    "redemption_fees_per_day",
)


@dataclass(frozen=True)
class PostingRule:
    """Where and for how long a city posts the notice for an unknown owner (Subd. 14)."""

    days: Rule
    locations: tuple[str, ...]
    citation: str


def posting_rule(jurisdiction, *, on: date) -> PostingRule | None:
    """The city's posted-notice rule, or None where its ordinance sets none (NB)."""
    keys = ["impound_notice_posting_days", "impound_notice_locations"]
    try:
        days, places = rules_in_force(jurisdiction, keys, on=on).values()  # one query
    except RuleNotInOrdinance:
        days, places = rule_in_force(jurisdiction, keys[0], on=on, optional=True), None
    if days is None:
        return None
    locations = tuple(places.value) if places else ()
    return PostingRule(days=days, locations=locations, citation=days.citation)


def notice_citation(jurisdiction) -> str:
    """The city's section for notifying the owner (IMP-05)."""
    return rule_citation(jurisdiction, "IMP-05")


def case_records(case: ImpoundCase):
    """The case's service records (attempts, e-mails, mailings, postings), oldest first."""
    return ServiceRecord.objects.filter(
        subject_type=ContentType.objects.get_for_model(ImpoundCase), subject_id=case.pk
    ).select_related("document")


def case_documents(case: ImpoundCase):
    """The notices issued for the case (and their void records), newest first."""
    return IssuedDocument.objects.filter(
        subject_type=ContentType.objects.get_for_model(ImpoundCase),
        subject_id=case.pk,
        kind__in=NOTICE_KINDS,
    ).select_related("void_record", "issued_by")


# --- Checks -----------------------------------------------------------------------------


def _check_open(case, citation):
    if not case.is_open:
        raise Refused.because(
            _("Impound case"),
            _("Case %(n)s is %(s)s: no notice is issued for a closed case.")
            % {"n": case.number, "s": case.get_status_display().lower()},
            citation,
        )


# --- Owner known: the letter (C11) ------------------------------------------------------


def _fee_descriptions(jurisdiction, codes) -> list[str]:
    fees = profile_for(jurisdiction).fees
    return [fees[c].description if c in fees else c.replace("_", " ") for c in codes]


def custody_conditions(case: ImpoundCase, *, on: date) -> list[dict]:
    """What the owner must do to regain custody, each with its section (C11).

    Labels and sections only: the amounts and the total are the counter's (redemption).
    """
    jurisdiction = case.jurisdiction
    conditions = []
    license_first = rule_in_force(jurisdiction, "redemption_license_first", on=on, optional=True)
    if license_first is not None and license_first.value:
        conditions.append({"label": license_first.label, "citation": license_first.citation})
    for key in FEE_LISTS:
        rule = rule_in_force(jurisdiction, key, on=on, optional=True)
        if rule is None or not rule.value:
            continue
        conditions.append(
            {
                "label": rule.label,
                "fees": _fee_descriptions(jurisdiction, rule.value),
                "citation": rule.citation,
            }
        )
    immunization = rule_in_force(
        jurisdiction, "redemption_nonresident_immunization", on=on, optional=True
    )
    if immunization is not None and immunization.value:
        conditions.append({"label": immunization.label, "citation": immunization.citation})
    for gate in case.gates.all():
        if gate.is_open:
            conditions.append({"label": gate.label, "citation": gate.citation})
    return conditions


def _pound(case) -> dict:
    pound = case.pound
    return {
        "name": pound.name,
        "address": pound.address,
        "phone": pound.phone,
        "hours": [
            {"day": row.get_weekday_display(), "opens": row.opens, "closes": row.closes}
            for row in pound.hours.all()
        ],
    }


def _log(case) -> list[dict]:
    return [
        {
            "at": r.served_at,
            "method": r.get_method_display(),
            "to": r.served_to or r.posted_where,
            "result": r.result,
            "reached": r.succeeded,
        }
        for r in case_records(case)
    ]


def owner_letter_context(case: ImpoundCase, *, on: date) -> dict:
    owner = case.owner
    animal = case.animal
    return {
        "case": {
            "number": case.number,
            "placed_at": timezone.localtime(case.placed_at),
            "seized_where": case.seized_where,
            "ground": case.ground_label,
            "ground_citation": case.ground_citation,
            "hold_ends_on": case.hold_ends_on,
            "hold_citation": case.hold_citation,
        },
        "owner": {
            "name": owner.name,
            "address": owner.address,
            "email": owner.email,
            "phone": owner.phone,
        },
        "animal": {
            "name": animal.name,
            "species": case.get_species_display(),
            "breed": case.breed,
            "color": case.color,
            "sex": case.get_sex_display(),
        },
        "pound": _pound(case),
        "conditions": custody_conditions(case, on=on),
        "notice_citation": notice_citation(case.jurisdiction),
        "contact_log": _log(case),
    }


@refusing()
@transaction.atomic
def case_owner_notify(*, case: ImpoundCase, actor, now: datetime | None = None):
    """Issue the owner's letter (C11) and, where the owner has an e-mail address, send it
    after commit with the PDF attached, recording the outcome (IMP-05)."""
    from notices.services import document_issue

    now = now or timezone.now()
    today = timezone.localdate(now)
    citation = notice_citation(case.jurisdiction)
    refuse_unless_serves(actor, case.jurisdiction)
    _check_open(case, citation)
    owner = case.owner
    if owner is None:
        raise Refused.because(
            _("Owner"),
            _("The owner is not known yet: identify the owner first, or post the notice."),
            citation,
        )
    document = document_issue(
        kind=OWNER_NOTICE,
        template=OWNER_TEMPLATE,
        context=owner_letter_context(case, on=today),
        jurisdiction=case.jurisdiction,
        actor=actor,
        title=_("Notice of impoundment to the owner"),
        number=case.number,
        subject=case,
        owner_user=owner.user,
        now=now,
    )
    Event.record(
        "impound.notice.owner_letter",
        case,
        actor=actor,
        at=now,
        summary=_("Owner's notice issued to %(o)s (%(c)s)") % {"o": owner.name, "c": citation},
        data={"document": document.pk, "owner": owner.pk, "email": bool(owner.email)},
    )
    if owner.email:
        transaction.on_commit(
            lambda: _send_letter(case_pk=case.pk, document_pk=document.pk, to=owner.email)
        )
    return document


def _send_letter(*, case_pk: int, document_pk: int, to: str) -> ServiceRecord:
    """After commit: e-mail the letter with its PDF and record the attempt either way."""
    from notices.services import document_pdf, thaw

    document = IssuedDocument.objects.select_related("jurisdiction").get(pk=document_pk)
    case = ImpoundCase.objects.get(pk=case_pk)
    data = thaw(document.snapshot)
    subject = _("%(city)s: your %(species)s is at the pound (case %(n)s)") % {
        "city": document.jurisdiction.name,
        "species": data["animal"]["species"].lower(),
        "n": case.number,
    }
    body = render_to_string("impound/notices/owner_notice_email.txt", data)
    succeeded, result = True, _("Sent")
    try:
        message = EmailMessage(subject, body, settings.DEFAULT_FROM_EMAIL, [to])
        message.attach(document.download_name, document_pdf(document), "application/pdf")
        message.send()
    except Exception as exc:  # the attempt is logged either way (NB Sec. 6-68)
        logger.exception("Owner notice e-mail for case %s failed", case_pk)
        succeeded, result = False, _("Not sent: %(e)s") % {"e": exc.__class__.__name__}
    return ServiceRecord.objects.create(
        document=document,
        jurisdiction=document.jurisdiction,
        subject_type=ContentType.objects.get_for_model(ImpoundCase),
        subject_id=case.pk,
        method=ServiceMethod.EMAIL,
        served_to=to,
        served_at=timezone.now(),
        succeeded=succeeded,
        result=result,
    )


@refusing()
@transaction.atomic
def case_letter_served(
    *, document: IssuedDocument, actor, method: str, served_at: datetime, served_to: str = ""
) -> ServiceRecord:
    """The issued letter was mailed or handed to the owner."""
    case = _notice_case(document, OWNER_NOTICE)
    citation = notice_citation(case.jurisdiction)
    refuse_unless_serves(actor, case.jurisdiction)
    if method not in LETTER_METHODS:
        raise Refused.because(
            _("Method"), _("A letter is mailed or handed over."), citation, field="method"
        )
    _check_not_void(document, citation)
    owner = case.owner
    return _record(
        case,
        actor=actor,
        document=document,
        method=method,
        served_at=served_at,
        served_to=served_to or (f"{owner.name}, {owner.address}" if owner else ""),
        result=_("Letter %(how)s") % {"how": ServiceMethod(method).label.lower()},
        succeeded=True,
    )


@refusing()
@transaction.atomic
def case_contact_attempt(
    *,
    case: ImpoundCase,
    actor,
    method: str,
    attempted_at: datetime,
    contacted: str,
    result: str,
    reached: bool,
) -> ServiceRecord:
    """Log one attempt to reach the owner: every possible effort is kept (NB Sec. 6-68)."""
    citation = notice_citation(case.jurisdiction)
    refuse_unless_serves(actor, case.jurisdiction)
    if method not in ATTEMPT_METHODS:
        raise Refused.because(_("Method"), _("Choose how you tried."), citation, field="method")
    refuse_if_future(
        attempted_at,
        _("When"),
        message=_("An attempt cannot be in the future."),
        citation=citation,
        field="attempted_at",
    )
    if attempted_at < case.placed_at:
        raise Refused.because(
            _("When"),
            _("The animal was placed in the pound later than that."),
            citation,
            field="attempted_at",
        )
    return _record(
        case,
        actor=actor,
        method=method,
        served_at=attempted_at,
        served_to=contacted.strip(),
        result=result.strip(),
        succeeded=reached,
    )


def _record(case, *, actor, method, served_at, served_to, result, succeeded, document=None, **kw):
    record = ServiceRecord.objects.create(
        document=document,
        jurisdiction=case.jurisdiction,
        subject_type=ContentType.objects.get_for_model(ImpoundCase),
        subject_id=case.pk,
        method=method,
        served_to=served_to[:200],
        served_by_name=(actor.get_full_name() or actor.username)[:120],
        served_at=served_at,
        succeeded=succeeded,
        result=result[:300],
        recorded_by=actor,
        **kw,
    )
    Event.record(
        "impound.notice.service",
        case,
        actor=actor,
        summary=f"{record.get_method_display()}: {served_to or kw.get('posted_where', '')}"[:300],
        data={"service_record": record.pk, "method": method, "reached": succeeded},
    )
    return record


# --- Owner unknown: the posted notice (C12) --------------------------------------------

# The form's two signature lines (Subd. 14): "(Pound Master)" and "(Police Officer)".
SIGNERS = {"pound_master": _lazy("Pound Master"), "police_officer": _lazy("Police Officer")}


def claim_by(case: ImpoundCase) -> dict:
    """The date and hour printed on the posted notice: the stored hold end (never
    earlier, G32) at the city's closing time."""
    return {
        "date": case.hold_ends_on,
        "time": case.jurisdiction.office_closes_at,
        "citation": case.hold_citation,
    }


def _posting_or_refuse(case, *, on) -> PostingRule:
    rule = posting_rule(case.jurisdiction, on=on)
    if rule is None:
        raise Refused.because(
            _("Posted notice"),
            _(
                "%(city)s's ordinance sets no posted notice of impounding: notify the owner "
                "and log every attempt."
            )
            % {"city": case.jurisdiction},
            notice_citation(case.jurisdiction),
        )
    return rule


@refusing()
@transaction.atomic
def case_posted_notice_issue(
    *, case: ImpoundCase, actor, signed_as: str = "", now: datetime | None = None
):
    """Issue the Subd. 14 NOTICE OF IMPOUNDING DOG OR CAT for an unknown owner (C12)."""
    from notices.services import document_issue

    now = now or timezone.now()
    today = timezone.localdate(now)
    refuse_unless_serves(actor, case.jurisdiction)
    rule = _posting_or_refuse(case, on=today)
    _check_open(case, rule.citation)
    if case.animal_id:
        raise Refused.because(
            _("Posted notice"),
            _("The owner is known: send the owner's notice instead of posting one."),
            rule.citation,
        )
    if signed_as and signed_as not in SIGNERS:
        raise Refused.because(
            _("Signed as"), _("Sign as the pound master or a police officer."), field="signed_as"
        )
    deadline = claim_by(case)
    document = document_issue(
        kind=POSTED_NOTICE,
        template=POSTED_TEMPLATE,
        context=posted_notice_context(
            case, rule, on=today, signed_as=signed_as or default_signer(actor)
        ),
        jurisdiction=case.jurisdiction,
        actor=actor,
        title=_("Notice of impounding dog or cat"),
        number=case.number,
        subject=case,
        now=now,
    )
    Event.record(
        "impound.notice.posted_issued",
        case,
        actor=actor,
        at=now,
        summary=_("Posted notice issued; claim by %(d)s (%(c)s)")
        % {"d": deadline["date"], "c": rule.citation},
        data={"document": document.pk, "claim_by": str(deadline["date"])},
    )
    return document


def posted_notice_context(case: ImpoundCase, rule: PostingRule, *, on: date, signed_as) -> dict:
    """What the posted notice (C12) prints: the animal, the claim-by date, the pound,
    where and how long it is posted, and who signs it."""
    return {
        "notice_date": on,
        "animal": {
            "species": case.get_species_display().lower(),
            "sex": case.get_sex_display(),
            "color": case.color,
            "breed": case.breed,
            "age": _age(case.approximate_age_months),
        },
        "owner_name": _("Unknown"),
        "case_number": case.number,
        "claim_by": claim_by(case),
        "pound": _pound(case),
        "posting": {
            "days": rule.days.display(),
            "locations": list(rule.locations),
            "citation": rule.citation,
        },
        "signed_as": str(SIGNERS[signed_as]),
    }


def default_signer(actor) -> str:
    return "pound_master" if actor.has_role(ADMINISTRATOR) else "police_officer"


def _age(months: int) -> str:
    if months >= 24:
        return _("%(n)s years") % {"n": months // 12}
    return _("%(n)s months") % {"n": months}


@refusing()
@transaction.atomic
def case_notice_posted(
    *, document: IssuedDocument, actor, location: str, posted_at: datetime
) -> ServiceRecord:
    """Record the notice posted at one of the city's places, with its end date."""
    case = _notice_case(document, POSTED_NOTICE)
    refuse_unless_serves(actor, case.jurisdiction)
    posted_on = timezone.localdate(posted_at)
    rule = _posting_or_refuse(case, on=posted_on)
    _check_not_void(document, rule.citation)
    if location not in rule.locations:
        raise Refused.because(
            _("Where"),
            _("The notice is posted at: %(places)s.") % {"places": ", ".join(rule.locations)},
            rule.citation,
            field="location",
        )
    refuse_if_future(
        posted_at,
        _("When"),
        message=_("A posting cannot be in the future."),
        citation=rule.citation,
        field="posted_at",
    )
    if posted_at < document.issued_at:
        raise Refused.because(
            _("When"),
            _("The notice was issued later than that."),
            rule.citation,
            field="posted_at",
        )
    until, days = due_date(case.jurisdiction, "impound_notice_posting_days", posted_on)
    return _record(
        case,
        actor=actor,
        document=document,
        method=ServiceMethod.POSTED,
        served_at=posted_at,
        served_to="",
        result=_("Posted for %(d)s (%(c)s)") % {"d": days.display(), "c": days.citation},
        succeeded=True,
        posted_where=location,
        posted_until=until,
    )


def _notice_case(document: IssuedDocument, kind: str) -> ImpoundCase:
    if document.kind != kind or document.is_void_record:
        raise Refused.because(_("Document"), _("That is not this kind of notice."))
    return ImpoundCase.objects.select_related("jurisdiction", "animal__owner").get(
        pk=document.subject_id
    )


def _is_void(document) -> bool:
    # Asked of the database: the instance may have cached "no void record" before.
    return IssuedDocument.objects.filter(voids=document).exists()


def _check_not_void(document, citation):
    if _is_void(document):
        raise Refused.because(
            _("Document"),
            _("That notice was voided: issue a new one and serve that."),
            citation,
        )


@refusing()
@transaction.atomic
def case_notice_void(*, document: IssuedDocument, actor, reason: str):
    """Void an issued notice: it is never changed; a corrected one is issued anew."""
    from notices.services import document_void

    case = _notice_case(document, document.kind if document.kind in NOTICE_KINDS else "")
    refuse_unless_serves(actor, case.jurisdiction)
    if not (reason or "").strip():
        raise Refused.because(_("Reason"), _("Say why it is void."), field="reason")
    if _is_void(document):
        raise Refused.because(_("Document"), _("That notice is already void."))
    return document_void(document=document, actor=actor, reason=reason)
