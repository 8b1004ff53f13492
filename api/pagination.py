from django.conf import settings
from rest_framework.pagination import CursorPagination


class ChangedCursorPagination(CursorPagination):
    """Cursor pages by id: stable while rows are added, and no COUNT over the table."""

    ordering = "pk"
    page_size_query_param = "page_size"

    def get_page_size(self, request):
        self.page_size = settings.API_PAGE_SIZE
        self.max_page_size = settings.API_MAX_PAGE_SIZE
        return super().get_page_size(request)
