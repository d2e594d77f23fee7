"""The message catalogues of the pages (French, Spanish, German): every message is
translated, placeholders are kept, and the committed ``.mo`` files match the ``.po``
files (so no gettext tools are needed to run the service)."""

from __future__ import annotations

import gettext
import re
from pathlib import Path
from typing import Any

import pytest

LOCALE = Path(__file__).resolve().parents[2] / "web" / "locale"
ENTRY = re.compile(
    r'^(?:msgctxt "(?P<ctx>.*)"\n)?msgid (?P<id>(?:".*"\n)+)(?:msgid_plural (?P<pl>(?:".*"\n)+))?'
    r"(?P<strs>(?:msgstr(?:\[\d\])? (?:\".*\"\n?)+)+)",
    re.M,
)


def _text(block: str) -> str:
    return (
        "".join(re.findall(r'"(.*)"', block))
        .encode()
        .decode("unicode_escape")
        .encode("latin-1")
        .decode()
    )


def _entries(lang: str) -> list[tuple[str | None, str, list[str]]]:
    po = (LOCALE / lang / "LC_MESSAGES" / "django.po").read_text()
    out = []
    for m in ENTRY.finditer(po):
        msgid = _text(m.group("id"))
        if not msgid:
            continue
        strs = [_text(b) for b in re.findall(r'msgstr(?:\[\d\])? ((?:".*"\n?)+)', m.group("strs"))]
        out.append((m.group("ctx"), msgid, strs))
    return out


def _plurals(lang: str) -> dict[tuple[str | None, str], str]:
    """Each plural message's ``msgid_plural``, by its context and ``msgid``."""
    po = (LOCALE / lang / "LC_MESSAGES" / "django.po").read_text()
    return {
        (m.group("ctx"), _text(m.group("id"))): _text(m.group("pl"))
        for m in ENTRY.finditer(po)
        if m.group("pl")
    }


@pytest.mark.parametrize("lang", ["fr", "es", "de"])
def test_every_message_is_translated_with_its_placeholders(lang: str) -> None:
    """Each translation keeps the placeholders of its source: the singular form those of
    ``msgid``, the plural forms those of ``msgid_plural`` (a singular may say "this race"
    where the plural says "these %(n)d races")."""
    entries = _entries(lang)
    plurals = _plurals(lang)
    assert len(entries) > 200
    for ctx, msgid, strs in entries:
        assert all(strs), msgid
        plural = plurals.get((ctx, msgid), msgid)
        for i, s in enumerate(strs):
            wanted = sorted(set(re.findall(r"%\(\w+\)[sd]", plural if i else msgid)))
            assert sorted(set(re.findall(r"%\(\w+\)[sd]", s))) == wanted, (msgid, s)


@pytest.mark.parametrize("lang", ["fr", "es", "de"])
def test_the_committed_mo_matches_the_po(lang: str) -> None:
    with (LOCALE / lang / "LC_MESSAGES" / "django.mo").open("rb") as fh:
        catalog = gettext.GNUTranslations(fh)
    for ctx, msgid, strs in _entries(lang):
        if len(strs) == 1:
            got = catalog.pgettext(ctx, msgid) if ctx else catalog.gettext(msgid)
            assert got == strs[0], msgid


@pytest.mark.parametrize("lang", ["fr", "es", "de"])
def test_every_refusal_of_the_pages_is_looked_up_in_the_catalogue(lang: str) -> None:
    """A refusal whose source held ``\\u201c`` escapes had a translation the catalogue
    never matched (xgettext keeps the escape as written): French and German pages showed
    it in English."""
    from django.utils import translation

    from web.refusals import REFUSAL_TEXT

    class Facts(dict[str, Any]):
        """Any fact a template names, as 2 (a plural template picks its form by one)."""

        def __missing__(self, key: str) -> int:
            return 2

    with translation.override("en"):
        english = {code: str(text % Facts()) for code, text in REFUSAL_TEXT.items()}
    with translation.override(lang):
        same = [c for c, text in REFUSAL_TEXT.items() if str(text % Facts()) == english[c]]
    assert same == []
    assert "2 moves" in english["move_limit_reached"]


#: Words that name different things on the same pages: each language keeps them apart (a
#: walkthrough found Spanish "Clasificación" for the standings, the ranking rule and the
#: leaderboards, and "Puntuación" for the rating beside the casino score; German used
#: "Stand" for the standings and for a game's status).
DISTINCT = ("Standings", "Leaderboard", "Rating", "Casino score", "Scoring", "Ranking:", "Status")


@pytest.mark.parametrize("lang", ["fr", "es", "de"])
def test_different_things_have_different_words(lang: str) -> None:
    catalogue = gettext.translation("django", localedir=LOCALE, languages=[lang])
    words = {msgid: catalogue.gettext(msgid).rstrip(":").strip() for msgid in DISTINCT}
    assert len(set(words.values())) == len(DISTINCT), words
    rating = words["Rating"].lower()
    assert rating not in words["Casino score"].lower(), words
    # One word for the foundations: "cards home" is counted on them.
    foundations = catalogue.gettext("Foundations").lower()
    assert foundations in catalogue.gettext("Cards home").lower() or lang != "es", words


def test_german_keeps_one_word_for_the_seed_and_one_register() -> None:
    """A walkthrough read "Startwert" on the practice form but "Seed" on the race pages,
    "Sie" everywhere but "Du" for the player's own leaderboard row, and "Sie sind
    angemeldet" (you are logged in) for having joined a race."""
    catalogue = gettext.translation("django", localedir=LOCALE, languages=["de"])
    po = (LOCALE / "de" / "LC_MESSAGES" / "django.po").read_text()
    translated = [_text(m["strs"]) for m in ENTRY.finditer(po) if m["id"] != '""\n']
    assert not [t for t in translated if re.search(r"\bSeeds?\b", t.replace("(Seed)", ""))]
    assert catalogue.gettext("You") == "Sie"
    joined = catalogue.gettext("You have joined; the play button appears when the race starts.")
    assert "angemeldet" not in joined


def test_german_keeps_one_word_for_the_solver_and_a_clear_way_back() -> None:
    """German said "Löser" on the lobby and game pages (11 messages) but "Solver" on the
    admin's race forms (3); and the admin confirmation pages' "No, take me back" read
    "Nein, bitte abbrechen" (no, please cancel), on a page about cancelling a race."""
    catalogue = gettext.translation("django", localedir=LOCALE, languages=["de"])
    translated = [t for _ctx, _id, strs in _entries("de") for t in strs]
    assert [t for t in translated if "Solver" in t] == []
    assert len([t for t in translated if "Löser" in t]) >= 14
    assert catalogue.gettext("No, take me back") == "Nein, zurück"


def test_german_says_anmelden_only_for_logging_in() -> None:
    """ "Anmelden" (log in) also meant joining a race or entering a tournament: "Anmeldung
    ab", "Späte Anmeldung", "Noch hat sich niemand angemeldet", beside "Anmelden" on the
    login page.  Joining is "teilnehmen"/"Teilnahme" now (as "Am Rennen teilnehmen" and
    "Rennteilnahme" already said), never "beitreten" either; logging in keeps
    "anmelden"."""
    catalogue = gettext.translation("django", localedir=LOCALE, languages=["de"])
    joining = [
        (ident, text)
        for _ctx, ident, strs in _entries("de")
        for text in strs
        if re.search(r"\b(join|joined|joining|entries|entry|enters?)\b", ident, re.I)
        and not re.search(r"\blog in\b", ident, re.I)
    ]
    assert len(joining) > 20
    assert [t for t in joining if re.search(r"nmeld|beitr|beigetr|treten sie", t[1], re.I)] == []
    assert catalogue.gettext("Log in") == "Anmelden"
    assert catalogue.gettext("Log in to join") == "Zum Teilnehmen anmelden"
    assert catalogue.gettext("Join the race") == "Am Rennen teilnehmen"
    assert catalogue.gettext("Join %(name)s") == "An %(name)s teilnehmen"
    assert catalogue.gettext("Joining opens") == "Teilnahme ab"
    assert catalogue.gettext("Joining closes") == "Teilnahmeschluss"
    assert catalogue.gettext("Late join") == "Später Einstieg"
    assert catalogue.gettext("Nobody has joined yet.") == "Noch nimmt niemand teil."


def test_french_keeps_one_word_for_cards_home() -> None:
    """A new user read "cartes montées" in a tournament's ranking rule and "Cartes
    posées" in every table and count beside it."""
    catalogue = gettext.translation("django", localedir=LOCALE, languages=["fr"])
    assert catalogue.gettext("Cards home") == "Cartes posées"
    translated = [text for _ctx, _id, strs in _entries("fr") for text in strs]
    assert [t for t in translated if re.search(r"\bmontées?\b", t)] == []
    rule = catalogue.gettext(
        "Ordered by points, then wins, then cards home (more first), then total time (less "
        "first); players equal on all four share a rank. Only finished races count; a "
        "disqualified entry earns nothing."
    )
    assert "puis cartes posées (le plus" in rule


def test_french_typography_is_one_style() -> None:
    """A walkthrough saw a typographic apostrophe beside a straight one on one page, and
    narrow spaces before some colons only: French messages use the typographic
    apostrophe (U+2019) and a narrow no-break space (U+202F) before : ; ! ? and inside
    « »."""
    text = (LOCALE / "fr" / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    strings = [_text(m.group("strs")) for m in ENTRY.finditer(text)]
    assert len(strings) > 300
    assert [s for s in strings if "'" in s] == []
    assert [s for s in strings if re.search(r"[ \u00a0][:;!?]", s)] == []
    # Inside guillemets too: three admin strings had plain spaces ("« Cup »").
    assert [s for s in strings if re.search(r"«[ \u00a0]|[ \u00a0]»", s)] == []


def test_spanish_says_phases_and_statuses_without_reflexive_gerunds() -> None:
    """A walkthrough on a Spanish phone read "cerrándose" for a closing race (tournament
    page, race status), "calculándose" in the results' rating column and "Valorándose:"
    under it: reflexive gerunds no Spanish page shows for a state.  The pages say "en
    cierre" and "en cálculo", alike wherever the state is named."""
    catalogue = gettext.translation("django", localedir=LOCALE, languages=["es"])
    translated = [text for _ctx, _id, strs in _entries("es") for text in strs]
    assert [t for t in translated if re.search(r"\w+[áé]ndo(?:se|la|lo)\b", t)] == []
    assert catalogue.pgettext("race phase", "closing") == "en cierre"
    assert catalogue.pgettext("race status", "Closing") == "En cierre"
    closing = catalogue.gettext("Closing: the results are being computed.")
    assert closing == "En cierre: se están calculando los resultados."
    assert catalogue.gettext("being rated") == "en cálculo"
    rating = catalogue.gettext("Being rated: the rating changes appear here in a moment.")
    assert rating == "Valoración en cálculo: los cambios aparecerán aquí en un momento."


def test_spanish_seed_help_and_error_say_digits_alike() -> None:
    """The practice form's seed help said "cifras" and its error "dígitos" for the same
    characters."""
    catalogue = gettext.translation("django", localedir=LOCALE, languages=["es"])
    helps = catalogue.gettext("1 to 64 letters, digits, '-' or '_'; a game number such as 12345.")
    error = catalogue.gettext(
        "A seed is 1 to 64 characters: letters A-Z and a-z, digits, '_' and '-'."
    )
    assert "dígitos" in helps
    assert "dígitos" in error
    assert "cifra" not in helps


def test_german_play_page_instructions_say_sie() -> None:
    """The play page said "Wählen Sie zuerst eine Karte." (formal) but "… — jetzt ein
    Ziel wählen." (a bare infinitive) once a card was chosen."""
    catalogue = gettext.translation("django", localedir=LOCALE, languages=["de"])
    assert catalogue.gettext("Choose a card first.") == "Wählen Sie zuerst eine Karte."
    assert catalogue.gettext("now choose a destination") == "wählen Sie jetzt ein Ziel"


def test_the_race_page_heading_of_a_race_not_over_reads_naturally() -> None:
    """A race page's live section was headed "Ahora" / "Jetzt" (a bare "now") above
    "Empieza en 4:59" or "Läuft; endet in …": it is the race's present state."""
    for lang, heading in (("es", "Estado actual"), ("de", "Aktueller Stand")):
        catalogue = gettext.translation("django", localedir=LOCALE, languages=[lang])
        assert catalogue.gettext("Now") == heading
