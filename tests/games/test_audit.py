"""``manage.py audit_games``: snapshots equal their replay after real play; tampering is caught."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games.models import Game
from games.services.games import game_end, game_start, game_undo, move_play
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def audit() -> str:
    out = StringIO()
    call_command("audit_games", stdout=out, stderr=StringIO())
    return out.getvalue()


def play_some(seed: str, moves: int, **start: object) -> Game:
    player = make_user()
    game = game_start(player=player, seed=seed, **start)  # type: ignore[arg-type]
    for n in range(moves):
        legal = Game.objects.get(id=game.id).engine_state().legal_moves()
        cards = [m for m in legal if m not in ("draw", "redeal")]
        move = cards[0] if cards and n % 3 else legal[0]
        move_play(game_id=game.id, player=player, move=move, expected_move_number=n)
    return Game.objects.get(id=game.id)


def test_audit_passes_after_play_undo_and_resign() -> None:
    a = play_some("3", 30)
    b = play_some("11", 20, variant="storehouse")
    game_undo(game_id=a.id, player=a.player, expected_move_number=30)
    game_undo(game_id=a.id, player=a.player, expected_move_number=29)
    move_play(game_id=a.id, player=a.player, move="draw", expected_move_number=28)
    game_end(game_id=b.id, player=b.player, how="resigned")
    a.refresh_from_db()
    assert a.move_number == 29
    assert a.moves.filter(undone_at__isnull=False).count() == 2
    assert audit() == "checked 2 games: 2 match, 0 differ\n"


@pytest.mark.parametrize(
    "tamper",
    [
        lambda s: s.update(stock=s["stock"][1:] + s["stock"][:1]),
        lambda s: s.update(redeals_used=s["redeals_used"] + 1),
        lambda s: s["tableau"].reverse(),
    ],
)
def test_audit_fails_and_names_a_tampered_game(tamper: object) -> None:
    good = play_some("3", 10)
    bad = play_some("4", 10)
    state = dict(bad.state)
    tamper(state)  # type: ignore[operator]
    Game.objects.filter(id=bad.id).update(state=state)
    err = StringIO()
    with pytest.raises(CommandError, match="1 game snapshot"):
        call_command("audit_games", stdout=StringIO(), stderr=err)
    assert str(bad.id) in err.getvalue()
    assert str(good.id) not in err.getvalue()


def test_audit_fails_on_a_wrong_counter() -> None:
    game = play_some("5", 5)
    Game.objects.filter(id=game.id).update(move_number=6)
    err = StringIO()
    with pytest.raises(CommandError):
        call_command("audit_games", stdout=StringIO(), stderr=err)
    assert f"{game.id}: counters differ: move_number 6 vs 5 live moves" in err.getvalue()
