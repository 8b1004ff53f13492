"""Certificates from clinics: one at a time or a CSV batch, matched to
a registered animal, recorded through the registry's own ``vaccination_record`` (RAB-01,
RAB-05), or queued for the clerk, who confirms, rejects or registers a new owner and
animal. A recorded certificate moves an application waiting on rabies back to the clerk
and tells its owner (``application_certificate_arrived``)."""

import csv
import io
from dataclasses import dataclass
from datetime import date, datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from kernel.checks import CITY, refuse_unless_serves
from licensing.models import Animal
from licensing.models.registry import Sex
from licensing.services import registry
from licensing.services.applications import application_certificate_arrived
from ordinance.models import Event
from ordinance.refusals import Check, Refused

from ..models import CertificateBatch, CertificateSubmission, SubmissionStatus
from . import matching

CERTIFICATE = _("Certificate")
VACCINE_FIELDS = (
    "vaccinated_on",
    "duration_years",
    "next_due_on",
    "manufacturer",
    "product",
    "lot_number",
    "lot_expires_on",
    "rabies_tag_number",
    "veterinarian_name",
    "veterinarian_license",
)


def _refused(message: str, field: str = "") -> Refused:
    return Refused.because(CERTIFICATE, message, field=field)


def _check_clinic(clinic, jurisdiction) -> None:
    """A clinic sends certificates only while active, for a city it serves."""
    if not clinic.is_active or jurisdiction.pk not in {j.pk for j in clinic.jurisdictions.all()}:
        raise Refused.because(
            CITY,
            _("%(clinic)s is not an active clinic serving %(city)s.")
            % {"clinic": clinic.name, "city": jurisdiction.short_name},
        )


def _vaccination(submission, *, actor, on: date, now: datetime, animal):
    fields = {name: getattr(submission, name) for name in VACCINE_FIELDS}
    fields = {k: v for k, v in fields.items() if v not in (None, "")}
    fields["clinic_name"] = submission.clinic.name
    fields["clinic_address"] = submission.clinic.address
    if submission.certificate:
        fields["certificate"] = submission.certificate.name
    return registry.vaccination_record(animal=animal, actor=actor, on=on, now=now, **fields)


def _record(submission, *, animal, transition, actor, on, now, score=None) -> None:
    """The certificate becomes the animal's vaccination (``transition``: matched,
    confirmed or registered); an application waiting on it goes back to the clerk.
    ``actor`` None: matched by the software for the clinic."""
    vaccination = _vaccination(submission, actor=actor, on=on, now=now, animal=animal)
    submission.animal, submission.vaccination = animal, vaccination
    fields = ["animal", "vaccination"]
    if score is not None:
        submission.score = score
        fields.append("score")
    if actor is not None:
        submission.decided_by, submission.decided_at = actor, now
        fields += ["decided_by", "decided_at"]
    submission.apply(
        transition,
        actor=actor or submission.submitted_by,
        at=now,
        summary=f"Certificate {submission.pk} from {submission.clinic} recorded for {animal}",
        data={"animal": animal.pk, "vaccination": vaccination.pk, "score": submission.score},
        fields=fields,
    )
    application_certificate_arrived(animal=animal, vaccination=vaccination, now=now)


def _submit(*, clinic, jurisdiction, actor, fields, now, on, batch=None, row=None):
    submission = CertificateSubmission(
        clinic=clinic,
        jurisdiction=jurisdiction,
        batch=batch,
        row_number=row,
        submitted_by=actor,
        submitted_at=now,
        status=SubmissionStatus.QUEUED,
        **fields,
    )
    submission.save()
    found = matching.candidates(submission)
    best = matching.best_match(found)
    if best is None:
        submission.score = found[0].score if found else 0
        submission.save(update_fields=["score"])
        return submission
    try:
        with transaction.atomic():
            _record(
                submission,
                animal=best.animal,
                transition="match",
                actor=None,
                on=on,
                now=now,
                score=best.score,
            )
    except Refused:  # the registry refused it (a date): the clerk sees why in the queue
        submission.score = best.score
        submission.save(update_fields=["score"])
    return submission


@transaction.atomic
def certificate_submit(
    *, clinic, jurisdiction, actor, now: datetime | None = None, **fields
) -> CertificateSubmission:
    """One certificate from the clinic's form (with its signed certificate)."""
    now = now or timezone.now()
    _check_clinic(clinic, jurisdiction)
    return _submit(
        clinic=clinic,
        jurisdiction=jurisdiction,
        actor=actor,
        fields=fields,
        now=now,
        on=timezone.localdate(now),
    )


@dataclass
class RowCheck(Check):
    """A failed check of one line of the file (the header is line 1); ``label`` is the
    form's label of the column, or "" for the whole row."""

    row: int = 0


def _row_failed(row: int, label: str, message: str) -> RowCheck:
    return RowCheck(label, "fail", str(message), row=row)


def batch_rows(text: str, form_for) -> list[tuple[int, dict]]:
    """Each row of the CSV checked by the certificate form (``form_for(data)``): the
    cleaned fields, or Refused with every row's errors in the form's words (``RowCheck``)."""
    from ..forms import FORM51_FIELDS

    reader = csv.DictReader(io.StringIO(text))
    missing = [
        f for f in ("owner_last_name", "vaccinated_on") if f not in (reader.fieldnames or [])
    ]
    if missing:
        raise Refused(
            [_row_failed(1, "", _("The first line must name the columns: download the template."))]
        )
    rows, errors = [], []
    for line, data in enumerate(reader, start=2):
        values = {k: (v or "").strip() for k, v in data.items() if k in FORM51_FIELDS}
        if not any(values.values()):
            continue  # a blank line a spreadsheet left
        form = form_for(values)
        if form.is_valid():
            rows.append((line, {k: form.cleaned_data[k] for k in FORM51_FIELDS}))
            continue
        for name, messages in form.errors.items():
            label = str(form.fields[name].label) if name in form.fields else ""
            errors += [_row_failed(line, label, m) for m in messages]
    if errors:
        raise Refused(errors)
    if not rows:
        raise Refused([_row_failed(1, "", _("The file has no certificates."))])
    return rows


@transaction.atomic
def batch_submit(
    *, clinic, jurisdiction, actor, rows: list[tuple[int, dict]], now: datetime | None = None
) -> CertificateBatch:
    """Every row of a checked CSV (``batch_rows``), all or none: a file with a bad row
    records nothing, so fixing it and sending it again records nothing twice."""
    now = now or timezone.now()
    _check_clinic(clinic, jurisdiction)
    batch = CertificateBatch.objects.create(
        clinic=clinic,
        jurisdiction=jurisdiction,
        submitted_by=actor,
        submitted_at=now,
        row_count=len(rows),
    )
    on = timezone.localdate(now)
    for line, fields in rows:
        _submit(
            clinic=clinic,
            jurisdiction=jurisdiction,
            actor=actor,
            fields=fields,
            now=now,
            on=on,
            batch=batch,
            row=line,
        )
    Event.record(
        "clinics.batch.submitted",
        batch,
        actor=actor,
        jurisdiction=jurisdiction,
        at=now,
        summary=f"{len(rows)} certificates from {clinic}",
    )
    return batch


# --- The clerk's queue -------------------------------------------------------------------


def _queued(submission, actor, transition: str) -> CertificateSubmission:
    """The certificate locked, in a city the clerk serves, waiting for ``transition``."""
    submission = (
        CertificateSubmission.objects.select_for_update(of=("self",))
        .select_related("clinic", "jurisdiction")
        .get(pk=submission.pk)
    )
    refuse_unless_serves(actor, submission.jurisdiction)
    submission.ensure(transition)
    return submission


@transaction.atomic
def certificate_confirm(*, submission, animal: Animal, actor, now=None) -> CertificateSubmission:
    """The clerk says which animal the certificate is about."""
    now = now or timezone.now()
    submission = _queued(submission, actor, "confirm")
    if animal.jurisdiction_id != submission.jurisdiction_id:
        raise _refused(_("The animal is registered in another city."), "animal")
    found = {c.animal.pk: c.score for c in matching.candidates(submission)}
    _record(
        submission,
        animal=animal,
        transition="confirm",
        actor=actor,
        on=timezone.localdate(now),
        now=now,
        score=found.get(animal.pk, 0),
    )
    return submission


@transaction.atomic
def certificate_reject(*, submission, actor, reason: str, now=None) -> CertificateSubmission:
    """Not an animal of this city, a duplicate, illegible: closed with the reason."""
    now = now or timezone.now()
    reason = (reason or "").strip()
    if not reason:
        raise _refused(_("Say why the certificate is rejected."), "reason")
    submission = _queued(submission, actor, "reject")
    submission.reject_reason, submission.decided_by, submission.decided_at = reason, actor, now
    submission.apply(
        "reject",
        actor=actor,
        at=now,
        summary=f"Certificate {submission.pk} rejected: {reason}",
        fields=["reject_reason", "decided_by", "decided_at"],
    )
    return submission


@transaction.atomic
def certificate_register(*, submission, actor, now=None) -> CertificateSubmission:
    """No registered animal: the owner and the animal as the certificate names them are
    registered through the registry's services, then the certificate is recorded."""
    now = now or timezone.now()
    on = timezone.localdate(now)
    submission = _queued(submission, actor, "register")
    owner = registry.owner_create(
        jurisdiction=submission.jurisdiction,
        actor=actor,
        now=now,
        first_name=submission.owner_first_name,
        last_name=submission.owner_last_name,
        address_line=submission.owner_address,
        city=submission.owner_city or submission.jurisdiction.short_name,
        postal_code=submission.owner_postal_code,
        phone=submission.owner_phone,
    )
    animal = registry.animal_register(
        owner=owner,
        actor=actor,
        on=on,
        name=submission.animal_name,
        species=submission.species,
        breed=submission.breed,
        color=submission.color,
        sex=submission.sex or Sex.UNKNOWN,
        microchip=submission.microchip,
    )
    _record(
        submission,
        animal=animal,
        transition="register",
        actor=actor,
        on=on,
        now=now,
    )
    return submission
