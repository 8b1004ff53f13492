from django import forms
from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from simple_history.admin import SimpleHistoryAdmin

from base.admin_scoping import CityScopedAdminMixin, served

from . import display, kinds
from .amendments import load_profile
from .models import ClosedDay, Event, FeeScheduleEntry, Jurisdiction, RuleValue
from .profiles import ProfileError, available_profiles, get_profile, get_state_layer


class JurisdictionForm(forms.ModelForm):
    """The profile is chosen from the data files that ship in ordinance/profiles/."""

    profile_key = forms.ChoiceField(label="Ordinance profile")

    class Meta:
        model = Jurisdiction
        fields = [
            "slug",
            "name",
            "short_name",
            "state",
            "profile_key",
            "seal_text",
            "address",
            "phone",
            "next_term_sales_days_before",
        ]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["profile_key"].choices = [(k, k) for k in available_profiles()]


@admin.register(Jurisdiction)
class JurisdictionAdmin(SimpleHistoryAdmin):
    """An administrator changes the cities they serve; only a superuser adds a city."""

    city_scoped = True
    form = JurisdictionForm
    list_display = ("name", "slug", "state", "profile_key")
    prepopulated_fields = {"slug": ("short_name",)}

    def get_queryset(self, request):
        qs = super().get_queryset(request)
        return qs if request.user.is_superuser else qs.filter(pk__in=served(request))

    def has_add_permission(self, request):
        return request.user.is_superuser and super().has_add_permission(request)

    def has_delete_permission(self, request, obj=None):
        return request.user.is_superuser and super().has_delete_permission(request, obj)

    # The city's history page (simple-history) follows the same city rule as its list.
    def has_view_history_or_change_history_permission(self, request, obj):
        if not request.user.is_superuser and obj.pk not in served(request):
            raise PermissionDenied
        return super().has_view_history_or_change_history_permission(request, obj)

    def save_model(self, request, obj, form, change):
        # A new city adopts its profile at once: its values (with citations) are seeded so
        # every feature can look them up; blanks stay blank for the administrator to fill.
        super().save_model(request, obj, form, change)
        written = load_profile(obj)
        self.message_user(
            request,
            f"{obj.name}: {written} ordinance value(s) loaded from the "
            f"“{obj.profile_key}” profile.",
        )


class ReadOnlyAdminMixin:
    """Append-only records (events, issued documents): viewed in admin, never edited there."""

    actions = None  # no "delete selected"

    def get_exclude(self, request, obj=None):
        """No stored file here: admin would link it to the storage (a MEDIA_URL address, or a
        signed address on the bucket), around the views that check who may see it."""
        files = [f.name for f in self.model._meta.fields if isinstance(f, models.FileField)]
        return [*(super().get_exclude(request, obj) or ()), *files]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Event)
class EventAdmin(CityScopedAdminMixin, ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("at", "action", "actor", "jurisdiction", "summary")
    list_filter = ("action", "jurisdiction")
    search_fields = ("action", "summary", "subject_id")


class EndedNotDeletedAdminMixin:
    """Rule values and fee rows are superseded, never deleted or rewritten once in force:
    no delete, and a row in force shows read-only except its note, so
    a change is a new row with a later effective date; the history says who did what."""

    editable_when_in_force = ()

    def has_delete_permission(self, request, obj=None):
        return False

    def get_readonly_fields(self, request, obj=None):
        fields = list(super().get_readonly_fields(request, obj))
        if obj is not None and obj.pk and obj.effective_from <= timezone.localdate():
            fields += [
                f.name
                for f in self.model._meta.fields
                if f.editable and f.name not in fields and f.name not in self.editable_when_in_force
            ]
        return fields


@admin.register(RuleValue)
class RuleValueAdmin(CityScopedAdminMixin, EndedNotDeletedAdminMixin, SimpleHistoryAdmin):
    """Administrators record amendments here or on the profile page (new rows, new dates).

    A row with a state and no jurisdiction is a value of that state's law (rules.md
    Appendix H): an amendment of a statute is one new row for every city of the state.
    """

    list_display = (
        "jurisdiction",
        "state",
        "rule",
        "value_in_words",
        "effective_from",
        "citation",
        "ordinance_ref",
    )
    list_select_related = ("jurisdiction",)
    list_filter = ("jurisdiction", "state", "effective_from")
    search_fields = ("key", "citation", "ordinance_ref")
    readonly_fields = ("recorded_by", "recorded_at")
    editable_when_in_force = ("note",)

    def shared_rows(self, request):
        """The state layer of the administrator's cities, to read: a statute's value is
        every city's, so only a superuser records its amendment."""
        states = Jurisdiction.objects.filter(pk__in=served(request)).values("state")
        return Q(jurisdiction__isnull=True, state__in=states)

    @staticmethod
    def _spec(obj):
        """The value's description in its profile (or its state's law); None if gone."""
        try:
            if obj.jurisdiction_id is None:
                layer = get_state_layer(obj.state)
                return layer.values.get(obj.key) if layer else None
            return get_profile(obj.jurisdiction.profile_key).values.get(obj.key)
        except ProfileError:
            return None

    @admin.display(description=_("Rule"), ordering="key")
    def rule(self, obj):
        spec = self._spec(obj)
        return spec.label if spec else obj.key

    @admin.display(description=_("Value"))
    def value_in_words(self, obj):
        spec = self._spec(obj)
        if spec is None:
            return obj.value
        profile = None
        if obj.jurisdiction_id is not None:
            profile = get_profile(obj.jurisdiction.profile_key)
        return display.spec_words(spec, kinds.to_python(spec.kind, obj.value), profile=profile)

    def get_form(self, request, obj=None, **kwargs):
        form = super().get_form(request, obj, **kwargs)
        if not request.user.is_superuser:
            for name, required in (("jurisdiction", True), ("state", False)):
                if name in form.base_fields:
                    form.base_fields[name].required = required
                    if name == "state":
                        form.base_fields[name].disabled = True
        return form

    def save_model(self, request, obj, form, change):
        obj.recorded_by = request.user
        obj.recorded_at = timezone.now()
        super().save_model(request, obj, form, change)


@admin.register(FeeScheduleEntry)
class FeeScheduleEntryAdmin(CityScopedAdminMixin, EndedNotDeletedAdminMixin, SimpleHistoryAdmin):
    editable_when_in_force = ("notes",)

    list_display = ("jurisdiction", "code", "description", "amount", "effective_from", "resolution")
    list_filter = ("jurisdiction", "code")
    search_fields = ("code", "description", "resolution")


@admin.register(ClosedDay)
class ClosedDayAdmin(CityScopedAdminMixin, SimpleHistoryAdmin):
    list_display = ("jurisdiction", "date", "reason")
    list_filter = ("jurisdiction",)
    date_hierarchy = "date"
