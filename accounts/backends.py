"""The login backend: allauth's (a username or an e-mail address), with the user row of
each request read from Django's cache.

Every request loads its user; the row is kept in the cache under the access version of
``accounts.models``, which any saved user, group or city and any change of membership
moves on (a deactivation, a new password, a reset second factor, a login). With the
shared Redis cache of production a change shows at once; with the per-process default
cache another process may answer from its copy for at most ACCESS_CACHE_SECONDS.
"""

from allauth.account.auth_backends import AuthenticationBackend as AllauthBackend

from .models import cached_for_user_pk


class AuthenticationBackend(AllauthBackend):
    def get_user(self, user_id):
        read = super().get_user
        user = cached_for_user_pk(user_id, "row", lambda: read(user_id))
        return user if user is not None and self.user_can_authenticate(user) else None
