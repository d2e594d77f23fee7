"""factory_boy factories for the domain models."""

from __future__ import annotations

from typing import Any

import factory
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User


class UserFactory(factory.django.DjangoModelFactory):
    """A player with a usable password ("correct-horse-battery").

    ``tests.api.conftest.client_for`` issues an API token for one.
    """

    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"player{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.test")

    @factory.post_generation
    def password(self, create: bool, extracted: Any, **kwargs: Any) -> None:
        self.set_password(extracted or "correct-horse-battery")
        if create:
            self.save(update_fields=["password"])


class StaffFactory(UserFactory):
    """A staff user: reaches the admin, but holds no organiser permission by itself."""

    is_staff = True


class OrganiserFactory(StaffFactory):
    """A staff user in the ``organisers`` group (migration 0003): may run races and tournaments."""

    @factory.post_generation
    def organiser(self, create: bool, extracted: Any, **kwargs: Any) -> None:
        if create:
            from django.contrib.auth.models import Group

            self.groups.add(Group.objects.get(name="organisers"))


def create_user(username: str | None = None, *, staff: bool = False) -> User:
    """A saved player (or, with ``staff``, an organiser), typed for callers."""
    factory = OrganiserFactory if staff else UserFactory
    user = factory(username=username) if username else factory()
    assert isinstance(user, User)
    return user


def make_user(**kwargs: Any) -> Any:
    """A :class:`UserFactory` player, typed for callers (factory_boy is untyped)."""
    return UserFactory(**kwargs)
