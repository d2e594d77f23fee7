"""Words of Django's ``naturaltime`` that this project words again (fr, es, de: ``web/locale``).

The pages say when a game started or starts through :func:`web.templatetags.web_tags.since`,
with ``naturaltime``'s words put into a sentence ("starts %(when)s").  Django's Spanish
catalogue says a time ahead "5 minutos a partir de ahora" ("empieza 5 minutos a partir de
ahora"), and its German one a time days away or ago "2 Tage, 3 Stunden von jetzt an" and
"2 Tage, 3 Stunden her".  Our catalogue (``LOCALE_PATHS``, which Django reads after its own
and which wins) says "dentro de 5 minutos", "in 2 Tagen, 3 Stunden", "vor 2 Tagen,
3 Stunden".  Listed here, with the calls and message contexts of
:class:`django.contrib.humanize.templatetags.humanize.NaturalTimeFormatter`, so that
``makemessages`` keeps them in our catalogue; Django itself translates them where it uses
them.  French reads naturally with Django's words ("dans 5 minutes", "il y a 2 jours"), which
our catalogue repeats.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy, ngettext_lazy, npgettext_lazy

NATURALTIME_WORDS = [
    # A time ahead, under a day ("in 5 minutes").
    ngettext_lazy("a second from now", "%(count)s seconds from now", "count"),
    ngettext_lazy("a minute from now", "%(count)s minutes from now", "count"),
    ngettext_lazy("an hour from now", "%(count)s hours from now", "count"),
    # A time a day or more ahead or ago: "%(delta)s" is made of the parts below
    # ("2 days, 3 hours"), which German puts in the dative after "in" and "vor".
    gettext_lazy("%(delta)s from now"),
    gettext_lazy("%(delta)s ago"),
    npgettext_lazy("naturaltime-future", "%(num)d year", "%(num)d years", "num"),
    npgettext_lazy("naturaltime-future", "%(num)d month", "%(num)d months", "num"),
    npgettext_lazy("naturaltime-future", "%(num)d day", "%(num)d days", "num"),
    npgettext_lazy("naturaltime-past", "%(num)d year", "%(num)d years", "num"),
    npgettext_lazy("naturaltime-past", "%(num)d month", "%(num)d months", "num"),
    npgettext_lazy("naturaltime-past", "%(num)d day", "%(num)d days", "num"),
]
