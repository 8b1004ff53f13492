from django.apps import AppConfig


class NoticesConfig(AppConfig):
    name = "notices"
    verbose_name = "Documents and notices"

    def ready(self):
        import logging

        # WeasyPrint logs each layout step at INFO; a document a minute would drown the log.
        logging.getLogger("weasyprint.progress").setLevel(logging.WARNING)

        from django.utils.translation import gettext_lazy as _

        from base import nav
        from base.roles import STAFF_ROLES

        nav.register(_("Documents"), "notices:document_list", roles=STAFF_ROLES, order=90)
