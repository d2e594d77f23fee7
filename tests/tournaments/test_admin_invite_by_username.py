# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, assignment, misc"
"""Inviting a player in the admin by username: the entrants' rows took the account's
numeric id (``raw_id_fields``), so an organiser typing ``alice`` got "Select a valid
choice"."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import translation

from games.models import Tournament, TournamentEntrant
from tests.factories import UserFactory
from tests.tournaments.factories import TournamentFactory
from tests.tournaments.test_admin import client_for, organiser, tournament_post

pytestmark = pytest.mark.django_db


def _change(t: Tournament, *names: str) -> dict[str, object]:
    data = tournament_post(name=t.name, entry="invite", **{"entrants-TOTAL_FORMS": len(names)})
    del data["status"]  # read only on the change form
    data.update({f"entrants-{i}-player": name for i, name in enumerate(names)})
    return data


@pytest.mark.parametrize("typed", ["alice", " ALICE "])
def test_an_organiser_invites_a_player_by_username(typed: str) -> None:
    org = organiser()
    assert not org.is_superuser
    assert not org.has_perm("auth.view_user")
    alice: User = UserFactory(username="alice")
    t = TournamentFactory(entry=Tournament.Entry.INVITE)
    c = client_for(org)
    url = reverse("admin:games_tournament_change", args=[t.pk])
    page = c.get(url).content.decode()
    assert 'name="entrants-__prefix__-player"' in page
    assert 'type="text"' in page
    assert "vForeignKeyRawIdAdminField" not in page
    resp = c.post(url, _change(t, typed))
    assert resp.status_code == 302, resp.content.decode()[:3000]
    entrant = TournamentEntrant.objects.get(tournament=t)
    assert (entrant.player, entrant.invited_by) == (alice, org)
    # The saved row shows the username, not the id.
    page = c.get(url).content.decode()
    assert 'value="alice"' in page


def test_an_unknown_username_is_the_rows_error_in_the_admins_language() -> None:
    t = TournamentFactory(entry=Tournament.Entry.INVITE)
    c = client_for(organiser())
    url = reverse("admin:games_tournament_change", args=[t.pk])
    resp = c.post(url, _change(t, "nobody"))
    assert resp.status_code == 200
    formset = next(
        f.formset for f in resp.context["inline_admin_formsets"] if f.formset.prefix == "entrants"
    )
    assert formset.errors[0]["player"] == [
        "No player is named “nobody”: check the spelling of the username."
    ]
    with translation.override("fr"):
        resp = c.post(url, _change(t, "nobody"), HTTP_ACCEPT_LANGUAGE="fr")
        assert "Aucun joueur ne s\u2019appelle «\u202fnobody\u202f»" in resp.content.decode()
    assert not TournamentEntrant.objects.exists()


def test_the_entrant_list_adds_a_player_by_username() -> None:
    org = organiser()
    bob: User = UserFactory(username="bob")
    t = TournamentFactory(entry=Tournament.Entry.INVITE)
    c = client_for(org)
    resp = c.post(
        reverse("admin:games_tournamententrant_add"), {"tournament": t.pk, "player": "Bob"}
    )
    assert resp.status_code == 302, resp.content.decode()[:3000]
    assert [e.player for e in t.entrants.all()] == [bob]
