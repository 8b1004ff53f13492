"""What the rabies records share: where their files go, the case base, and Glencoe's
release-report fields (RAB-24, C45)."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from kernel.models import CaseRecord


def upload_path(instance, filename):
    return f"rabies/{instance.jurisdiction.slug}/{filename}"


class RabiesCase(CaseRecord):
    """A rabies case on the kernel (status, attention flag, closing) that keeps the time
    it was entered."""

    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        abstract = True


class ReleaseReportFields(models.Model):
    """Glencoe's release gate (RAB-24, C45): a veterinarian's written report that the
    animal was inspected and no signs of rabies were observed, received by the animal
    control officer and by the Minnesota Board of Animal Health, each date recorded."""

    report_veterinarian = models.CharField(_("veterinarian"), max_length=160, blank=True)
    report_inspected_on = models.DateField(_("inspected on"), null=True, blank=True)
    report_no_signs = models.BooleanField(_("the report states no signs of rabies"), default=False)
    report_file = models.FileField(
        _("the written report"), upload_to=upload_path, blank=True, max_length=300
    )
    report_received_by_officer_on = models.DateField(
        _("received by the animal control officer on"), null=True, blank=True
    )
    report_received_by_board_on = models.DateField(
        _("received by the Board of Animal Health on"), null=True, blank=True
    )

    class Meta:
        abstract = True

    @property
    def release_report_complete(self) -> bool:
        return bool(
            self.report_no_signs
            and self.report_received_by_officer_on
            and self.report_received_by_board_on
        )
