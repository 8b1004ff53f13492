"""The read API: licenses, animals, owners, receipts under /api/v1/.

Read only, token only (authentication.py), scoped to the token's cities: another city's
record is a 404, as for staff (style.md "Deny by default"). Each endpoint needs its
scope; names, addresses, phones and e-mails need ``personal-data`` as well. Cursor pages
by id, ``changed_since`` on every list (filters.py), one rate per integration
(throttling.py). Every call, answered or refused, is logged (one INSERT)."""

from django.db.models import Prefetch
from django.utils import timezone
from drf_spectacular.utils import extend_schema, extend_schema_view
from drf_spectacular.views import SpectacularAPIView
from rest_framework import viewsets
from rest_framework.permissions import AllowAny

from base.client_ip import client_ip
from licensing.models import Animal, License, Owner, Receipt, Tag

from . import filters, serializers
from .models import Integration, Scope
from .services import api_call_record


class LoggedCallMixin:
    """Every answer, 2xx or 4xx, is one ApiCall row; none is cached by a browser or proxy."""

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        auth = getattr(request, "_auth", None)  # not re-run: a 401 stays anonymous
        api_call_record(
            integration_id=auth.pk if isinstance(auth, Integration) else None,
            method=request.method,
            path=request.path,
            query=request.META.get("QUERY_STRING", ""),
            status=response.status_code,
            at=timezone.now(),
            ip=client_ip(request),
        )
        response["Cache-Control"] = "no-store"
        return response


class ScopedReadViewSet(LoggedCallMixin, viewsets.ReadOnlyModelViewSet):
    required_scope: str = ""
    personal_serializer_class = None
    lookup_value_regex = r"\d+"

    def get_queryset(self):
        qs = self.base_queryset()
        if getattr(self, "swagger_fake_view", False):  # the schema reads no rows
            return qs.none()
        return qs.filter(jurisdiction_id__in=self.request.auth.city_ids)

    def base_queryset(self):
        raise NotImplementedError

    def get_serializer_class(self):
        if getattr(self, "swagger_fake_view", False):
            return self.personal_serializer_class or self.serializer_class
        if self.personal_serializer_class and self.request.auth.has_scope(Scope.PERSONAL_DATA):
            return self.personal_serializer_class
        return self.serializer_class


@extend_schema_view(
    list=extend_schema(description="Dog licenses of the token's cities (scope: licenses)."),
    retrieve=extend_schema(description="One dog license (scope: licenses)."),
)
class LicenseViewSet(ScopedReadViewSet):
    required_scope = Scope.LICENSES
    serializer_class = serializers.LicenseSerializer
    filterset_class = filters.LicenseFilterSet

    def base_queryset(self):
        return License.objects.select_related("jurisdiction").prefetch_related(
            Prefetch("tags", queryset=Tag.objects.only("license_id", "status", "number", "year"))
        )


@extend_schema_view(
    list=extend_schema(
        description="Animals of the token's cities (scope: animals); the premises' address "
        "only with personal-data."
    ),
    retrieve=extend_schema(description="One animal (scope: animals)."),
)
class AnimalViewSet(ScopedReadViewSet):
    required_scope = Scope.ANIMALS
    serializer_class = serializers.AnimalSerializer
    personal_serializer_class = serializers.AnimalPersonalSerializer
    filterset_class = filters.AnimalFilterSet

    def base_queryset(self):
        return Animal.objects.select_related("jurisdiction", "premises")


@extend_schema_view(
    list=extend_schema(
        description="Owners of the token's cities (scope: owners): ids and non-personal "
        "fields; names, addresses, phones and e-mails only with personal-data."
    ),
    retrieve=extend_schema(description="One owner (scope: owners)."),
)
class OwnerViewSet(ScopedReadViewSet):
    required_scope = Scope.OWNERS
    serializer_class = serializers.OwnerSerializer
    personal_serializer_class = serializers.OwnerPersonalSerializer
    filterset_class = filters.OwnerFilterSet

    def base_queryset(self):
        return Owner.objects.select_related("jurisdiction")


@extend_schema_view(
    list=extend_schema(
        description="Receipts of the token's cities for the finance export (scope: "
        "receipts), by issue date with issued_from and issued_to; the payer's name and "
        "address only with personal-data. A void is its own receipt pointing at the original."
    ),
    retrieve=extend_schema(description="One receipt (scope: receipts)."),
)
class ReceiptViewSet(ScopedReadViewSet):
    required_scope = Scope.RECEIPTS
    serializer_class = serializers.ReceiptSerializer
    personal_serializer_class = serializers.ReceiptPersonalSerializer
    filterset_class = filters.ReceiptFilterSet

    def base_queryset(self):
        return Receipt.objects.select_related("jurisdiction").prefetch_related("lines", "regarding")


class SchemaView(LoggedCallMixin, SpectacularAPIView):
    """The OpenAPI schema: public (it shows no record), logged like every call."""

    authentication_classes = []
    permission_classes = [AllowAny]
    throttle_classes = []
