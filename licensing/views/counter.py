"""The clerk's counter: license a dog in three screens, then work on a license.

(1) find or create the owner, (2) find or create the animal, enter its rabies
certificate and see the checks with their citations, (3) fees line by line, payment and
tag, "Issue license". Views are thin: they parse input, check access and call one service.
"""

from django.contrib import messages
from django.db.models import Count, Prefetch
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from base.access import get_in_jurisdiction, in_user_cities, role_required
from base.confirm import ConfirmStep
from base.forms import apply_service_errors
from base.messages import success_with_receipt
from base.roles import ADMINISTRATOR, CLERK, OFFICER
from licensing.forms.counter import (
    AddressChangeForm,
    CloseForm,
    CounterAnimalForm,
    CounterOwnerForm,
    CounterVaccinationForm,
    DuplicateTagForm,
    ExemptionForm,
    IssueForm,
    OwnerSearchForm,
    TagStockForm,
    TransferForm,
    VoidForm,
)
from licensing.models import (
    Animal,
    License,
    Owner,
    Receipt,
    Tag,
    TagStatus,
    TagStock,
)
from licensing.selectors import owner_choices, registry_search
from licensing.services import licenses as svc
from licensing.services import registry, voids
from licensing.services.application_rules import application_requirements
from licensing.services.assessment import license_assess, license_term_choice, licensing_status
from licensing.services.documents import documents_for, license_papers
from licensing.services.owner_merge import owner_duplicates
from licensing.services.receipts import fee_quote
from licensing.services.standing import license_standing, standing_prefetch
from licensing.services.tags import tag_replace_lost, tag_stock_receive
from ordinance.refusals import Refused

COUNTER = (CLERK, ADMINISTRATOR)
STAFF = (CLERK, OFFICER, ADMINISTRATOR)
SEARCH_LIMIT = 25
MAX_ID_DIGITS = 18  # fits a 64-bit primary key
YEAR_DIGITS = 4


def _refused(form, exc):
    apply_service_errors(form, exc)


# --- Screen 1: owner ------------------------------------------------------------------


@role_required(*COUNTER)
@require_http_methods(["GET", "POST"])
def counter_start(request):
    search = OwnerSearchForm(request.GET or None)
    owners = []
    if search.is_valid() and (q := search.cleaned_data["q"].strip()):
        # The registry's one search: names, address, phone, microchip, rabies or license tag.
        hits = registry_search(user=request.user, query=q, limit=SEARCH_LIMIT)
        # A record merged into another is not offered: its survivor is.
        owners = [hit.owner for hit in hits if not hit.owner.merged_into_id]
    form = CounterOwnerForm(request.POST or None, user=request.user)
    duplicates = []
    if request.method == "POST" and form.is_valid():
        fields = {k: v for k, v in form.cleaned_data.items() if k != "jurisdiction"}
        # The same normalized name and address in the same city: offer that record; the
        # clerk may still confirm a new one (a namesake at the same address).
        if not request.POST.get("confirm_new"):
            duplicates = owner_duplicates(jurisdiction=form.chosen_jurisdiction(), **fields)
        if not duplicates:
            owner = registry.owner_create(
                jurisdiction=form.chosen_jurisdiction(), actor=request.user, **fields
            )
            return redirect("licensing:counter_animal", owner_pk=owner.pk)
    return render(
        request,
        "licensing/counter/start.html",
        {
            "search": search,
            "owners": owners,
            "form": form,
            "duplicates": duplicates,
            "searched": bool(search.data),
            "many_cities": len(request.user.jurisdiction_ids) > 1,
        },
    )


# --- Screen 2: animal, vaccination, checks --------------------------------------------


def _animal_for_counter(user, pk):
    qs = (
        standing_prefetch(Animal.objects)
        .select_related("jurisdiction", "owner", "premises")
        .prefetch_related("vaccinations")
    )
    return get_in_jurisdiction(qs, user, pk=pk)


@role_required(*COUNTER)
@require_http_methods(["GET", "POST"])
def counter_animal(request, owner_pk):
    owner = get_in_jurisdiction(
        Owner.objects.select_related("jurisdiction"), request.user, pk=owner_pk
    )
    if owner.merged_into_id:  # a merged duplicate: the counter works on the survivor
        return redirect("licensing:counter_animal", owner_pk=owner.merged_into_id)
    animal = None
    animal_pk = request.GET.get("animal", "")
    # An id is a bounded number: a 5,000-digit "id" must be a 404, not a ValueError.
    if animal_pk.isdigit() and len(animal_pk) <= MAX_ID_DIGITS:
        animal = _animal_for_counter(request.user, int(animal_pk))
        if animal.owner_id != owner.pk:
            animal = None
    action = request.POST.get("action")
    today = timezone.localdate()
    animal_form = CounterAnimalForm(
        request.POST if action == "animal" else None,
        prefix="animal",
        jurisdiction=owner.jurisdiction,
        on=today,
    )
    vacc_form = CounterVaccinationForm(
        request.POST if action == "vaccination" else None,
        request.FILES if action == "vaccination" else None,
        prefix="vacc",
    )
    exemption_form = ExemptionForm(request.POST if action == "exemption" else None, prefix="ex")
    # The registry services apply the date, microchip and veterinarian rules (one
    # implementation each, RAB-03, RAB-05); their errors go back next to the fields.
    if action == "animal" and animal_form.is_valid():
        try:
            new = registry.animal_register(
                owner=owner, actor=request.user, on=today, **animal_form.cleaned_data
            )
        except Refused as exc:
            _refused(animal_form, exc)
        else:
            return redirect(f"{request.path}?animal={new.pk}")
    if animal and action == "vaccination" and vacc_form.is_valid():
        try:
            registry.vaccination_record(
                animal=animal, actor=request.user, on=today, **vacc_form.cleaned_data
            )
        except Refused as exc:
            _refused(vacc_form, exc)
        else:
            return redirect(f"{request.path}?animal={animal.pk}")
    if animal and action == "exemption" and exemption_form.is_valid():
        try:
            svc.exemption_record(animal=animal, actor=request.user, **exemption_form.cleaned_data)
        except Refused as exc:  # LIC-02: a blank or not-yet-adopted rule, with its section
            _refused(exemption_form, exc)
        else:
            return redirect(f"{request.path}?animal={animal.pk}")
    assessment = (
        license_assess(animal=animal, owner=owner, on=today, term_year=_year_param(request.GET))
        if animal
        else None
    )
    status = (
        None
        if animal
        else licensing_status(jurisdiction=owner.jurisdiction, species="dog", on=today)
    )
    return render(
        request,
        "licensing/counter/animal.html",
        {
            "owner": owner,
            "animal": animal,
            "animals": owner.animals.all(),
            "animal_form": animal_form,
            "vacc_form": vacc_form,
            "exemption_form": exemption_form,
            "application": application_requirements(owner.jurisdiction, on=today),  # LIC-04
            "assessment": assessment,
            "status": status,
            "standing": license_standing(animal, on=today) if animal else None,  # LIC-01/02/07
        },
    )


# --- Screen 3: fees, payment, tag, issue ----------------------------------------------


def _year_param(query) -> int | None:
    """The term the clerk chose (the year its tags carry) from the address; anything
    else is no choice (the service then takes the default term)."""
    value = query.get("term_year", "")
    return int(value) if value.isdigit() and len(value) == YEAR_DIGITS else None


@role_required(*COUNTER)
@require_http_methods(["GET", "POST"])
def counter_pay(request, animal_pk):
    animal = _animal_for_counter(request.user, animal_pk)
    today = timezone.localdate()
    terms = license_term_choice(jurisdiction=animal.jurisdiction, on=today)
    # Arriving from the checks screen (only the term in the address): nothing typed yet.
    data = request.POST or (request.GET if "method" in request.GET else None)
    form = IssueForm(data, terms=terms, initial={"term_year": _year_param(request.GET)})
    subject_on, term_year = None, _year_param(request.GET)
    if form.is_bound:
        form.is_valid()  # the valid fields (term, subject date) recalculate the fee
        subject_on = form.cleaned_data.get("became_subject_on")
        term_year = form.cleaned_data.get("term_year")
    if request.method == "POST" and form.is_valid():
        try:
            result = svc.license_issue(
                animal=animal,
                owner=animal.owner,
                actor=request.user,
                on=today,
                method=form.cleaned_data["method"],
                reference=form.cleaned_data["reference"],
                tendered=form.cleaned_data.get("amount_tendered"),
                tag_number=form.cleaned_data.get("tag_number"),
                subject_on=subject_on,
                term_year=term_year,
            )
        except Refused as exc:
            _refused(form, exc)
        else:
            return redirect("licensing:license_issued", pk=result.license.pk)
    assessment = license_assess(
        animal=animal, owner=animal.owner, on=today, subject_on=subject_on, term_year=term_year
    )
    return render(
        request,
        "licensing/counter/pay.html",
        {
            "animal": animal,
            "owner": animal.owner,
            "assessment": assessment,
            "form": form,
        },
    )


def _tags_newest_first():
    return Prefetch("tags", queryset=Tag.objects.order_by("-pk"))


def _license_qs():
    return License.objects.select_related(
        "jurisdiction", "animal", "owner", "receipt", "vaccination", "issued_by"
    ).prefetch_related(_tags_newest_first())


@role_required(*COUNTER)
def license_issued(request, pk):
    license = get_in_jurisdiction(_license_qs(), request.user, pk=pk)
    return render(
        request,
        "licensing/counter/issued.html",
        {
            "license": license,
            "tag": license.current_tag,
            "receipt": license.receipt,
            "receipt_docs": documents_for(license.receipt) if license.receipt else {},
            "license_docs": documents_for(license),
        },
    )


# --- License page and its actions -----------------------------------------------------


@role_required(*STAFF)
def license_detail(request, pk):
    # What the page shows, no more: each related table read is a join to build.
    license = get_in_jurisdiction(
        License.objects.select_related("animal", "owner", "vaccination").prefetch_related(
            _tags_newest_first()
        ),
        request.user,
        pk=pk,
    )
    papers = license_papers(license)
    return render(
        request,
        "licensing/counter/license_detail.html",
        {
            "license": license,
            "tag": license.current_tag,
            "receipts": papers.receipts,
            "today": timezone.localdate(),
            "can_act": request.user.has_role(*COUNTER),
            "may_close": license.may("close"),
            "license_docs": papers.documents,
        },
    )


def _license_action(
    request, pk, *, form_class, title, run, form_kwargs=None, fee_code=None, confirm_question=""
):
    """A counter action on a license; ``fee_code``: the fee it takes, shown with its
    section before the payment."""
    license = get_in_jurisdiction(_license_qs(), request.user, pk=pk)
    kwargs = form_kwargs(license) if form_kwargs else {}
    form = form_class(request.POST or None, **kwargs)
    # A form with a confirmation step is asked again before it is run.
    confirming = isinstance(form, ConfirmStep)
    awaiting = form.is_bound and confirming and form.awaiting_confirmation()
    ready = form.confirmed_now() if confirming else form.is_valid()
    if request.method == "POST" and ready:
        try:
            data = form.action_data if confirming else form.cleaned_data
            message = run(license, data)
        except Refused as exc:  # e.g. a fee not set (FEE-01): the check cites it
            _refused(form, exc)
        else:
            message, receipt = message  # ``run`` gives the message and any receipt issued
            if receipt is not None:
                success_with_receipt(request, message, receipt)
            else:
                messages.success(request, message)
            return redirect("licensing:license_detail", pk=license.pk)
    return render(
        request,
        "licensing/counter/license_action.html",
        {
            "license": license,
            "form": form,
            "title": title,
            "tag": license.current_tag,
            "pick": getattr(request, "owner_pick", None),
            "awaiting": awaiting,
            "question": confirm_question,
            "quote": (
                fee_quote(license.jurisdiction, fee_code, on=timezone.localdate())
                if fee_code
                else None
            ),
        },
    )


@role_required(*COUNTER)
@require_http_methods(["GET", "POST"])
def license_transfer(request, pk):
    def run(license, data):
        result = svc.license_transfer(
            license=license,
            new_owner=data["new_owner"],
            actor=request.user,
            on=timezone.localdate(),
            method=data["method"],
            reference=data["reference"],
            tendered=data.get("amount_tendered"),
        )
        return (
            _("License transferred; receipt %(n)s issued.") % {"n": result.receipt.number},
            result.receipt,
        )

    def form_kwargs(license):
        return owner_pick_kwargs(
            request, jurisdiction=license.jurisdiction, exclude_owner=license.owner
        )

    return _license_action(
        request,
        pk,
        form_class=TransferForm,
        title=_("Transfer license"),
        run=run,
        form_kwargs=form_kwargs,
        fee_code="transfer",  # LIC-12
    )


def owner_pick_kwargs(request, *, jurisdiction, exclude_owner) -> dict:
    """The new-owner choices of a transfer page: search results for ``q`` and the owner
    picked (``pick`` after registering them, or the POSTed choice)."""
    query = request.GET.get("q", "").strip()
    picked = request.POST.get("new_owner") or request.GET.get("pick", "")
    candidates = owner_choices(
        user=request.user,
        jurisdiction=jurisdiction,
        query=query,
        exclude_pk=exclude_owner.pk,
        picked=picked,
    )
    request.owner_pick = {"q": query, "searched": bool(query), "count": len(candidates)}
    return {"jurisdiction": jurisdiction, "exclude_owner": exclude_owner, "candidates": candidates}


@role_required(*COUNTER)
@require_http_methods(["GET", "POST"])
def license_duplicate_tag(request, pk):
    def run(license, data):
        result = tag_replace_lost(
            license=license,
            actor=request.user,
            on=timezone.localdate(),
            method=data["method"],
            reference=data["reference"],
            tendered=data.get("amount_tendered"),
            tag_number=data["tag_number"],
        )
        message = _("Tag %(t)s issued; receipt %(n)s.") % {
            "t": result.tag.number,
            "n": result.receipt.number,
        }
        return message, result.receipt

    return _license_action(
        request,
        pk,
        form_class=DuplicateTagForm,
        title=_("Lost tag: issue a duplicate"),
        run=run,
        fee_code="duplicate_tag",  # LIC-10, FEE-05
    )


@role_required(*COUNTER)
@require_http_methods(["GET", "POST"])
def license_address(request, pk):
    def run(license, data):
        change = svc.license_address_change(
            license=license,
            moved_on=data["moved_on"],
            reported_on=data["reported_on"],
            within_city=data["within_city"],
            address=svc.NewAddress.of(data),
            actor=request.user,
        )
        note = (
            _("Reported late: due by %(due)s (%(cite)s).")
            if change.late
            else _("Reported in time (due by %(due)s, %(cite)s).")
        )
        return _("Address change recorded. ") + note % {
            "due": date_format(change.due_on),
            "cite": change.citation,
        }, None

    return _license_action(
        request, pk, form_class=AddressChangeForm, title=_("Address change"), run=run
    )


@role_required(*COUNTER)
@require_http_methods(["GET", "POST"])
def license_close(request, pk):
    def run(license, data):
        svc.license_close(license=license, actor=request.user, **data)
        return _("License closed."), None

    return _license_action(
        request,
        pk,
        form_class=CloseForm,
        title=_("Close license"),
        run=run,
        confirm_question=_(
            "The license will be closed and the animal recorded as dead or moved away. "
            "This cannot be undone at the counter."
        ),
    )


# --- Receipts -------------------------------------------------------------------------


def _receipt_qs():
    return Receipt.objects.select_related("jurisdiction", "issued_by", "voids").prefetch_related(
        "lines", "licenses"
    )


@role_required(*COUNTER)
def receipt_detail(request, pk):
    receipt = get_in_jurisdiction(_receipt_qs(), request.user, pk=pk)
    return render(
        request,
        "licensing/counter/receipt_detail.html",
        {
            "receipt": receipt,
            "docs": documents_for(receipt),
            "void": Receipt.objects.filter(voids=receipt).first(),
        },
    )


@role_required(*COUNTER)
@require_http_methods(["GET", "POST"])
def receipt_void(request, pk):
    receipt = get_in_jurisdiction(_receipt_qs(), request.user, pk=pk)
    form = VoidForm(request.POST or None)  # asked again before the void
    if request.method == "POST" and form.confirmed_now():
        try:
            void = voids.receipt_void(
                receipt=receipt, actor=request.user, reason=form.cleaned_data["reason"]
            )
        except Refused as exc:
            _refused(form, exc)
        else:
            messages.success(
                request,
                _("Receipt %(n)s voided by receipt %(v)s.")
                % {"n": receipt.number, "v": void.number},
            )
            return redirect("licensing:receipt_detail", pk=void.pk)
    return render(
        request,
        "licensing/counter/receipt_void.html",
        {
            "receipt": receipt,
            "form": form,
            "awaiting": form.is_bound and form.awaiting_confirmation(),
        },
    )


# --- Tags -----------------------------------------------------------------------------


@role_required(*COUNTER)
@require_http_methods(["GET", "POST"])
def tag_stock(request):
    form = TagStockForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        data = dict(form.cleaned_data)
        data.pop("jurisdiction", None)
        try:
            stock = tag_stock_receive(
                jurisdiction=form.chosen_jurisdiction(), actor=request.user, **data
            )
        except Refused as exc:  # overlap or too many (LIC-08): at the range
            _refused(form, exc)
        else:
            messages.success(request, _("%(s)s entered.") % {"s": stock})
            return redirect("licensing:tag_stock")
    stocks = in_user_cities(TagStock.objects, request.user).select_related("jurisdiction")[:50]
    counts = {}
    for row in (
        Tag.objects.filter(stock__in=stocks).values("stock_id", "status").annotate(n=Count("pk"))
    ):
        counts.setdefault(row["stock_id"], {})[row["status"]] = row["n"]
    for stock in stocks:
        stock.available = counts.get(stock.pk, {}).get(TagStatus.AVAILABLE, 0)
    return render(
        request,
        "licensing/counter/tag_stock.html",
        {
            "form": form,
            "stocks": stocks,
            "many_cities": len(request.user.jurisdiction_ids) > 1,
        },
    )
