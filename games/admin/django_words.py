"""Django admin messages that this project words again (fr, es, de: ``web/locale``).

Django's catalogues build these around a model's name with a gendered word of their own:
French "Modifier l'objet tournoi sélectionné", "L'objet course « R1 » a été ajouté avec
succès", Spanish "El carrera ...".  Our catalogue (``LOCALE_PATHS``, which Django reads
after its own) says them without one: "Modifier la sélection (tournoi)", "Ajout réussi :
tournoi « Evening Cup »".  Listed here with ``gettext_noop`` so that ``makemessages``
keeps them in our catalogue; Django itself translates them where it uses them.  The
titles and buttons that name one of our models say it with its article instead
(:mod:`games.admin.names`).
"""

from __future__ import annotations

from django.utils.translation import gettext_noop

DJANGO_WORDS = [
    # The buttons beside a foreign key (RelatedFieldWidgetWrapper).
    gettext_noop("Change selected %(model)s"),
    gettext_noop("Add another %(model)s"),
    gettext_noop("View selected %(model)s"),
    gettext_noop("Delete selected %(model)s"),
    # An inline's "add another" link and a list's title, for a model without a name with
    # its article (a third-party admin's).
    gettext_noop("Add another %(verbose_name)s"),
    gettext_noop("Select %s to change"),
    gettext_noop("Select %s to view"),
    # The messages after a save or a deletion.
    gettext_noop("The {name} “{obj}” was added successfully."),
    gettext_noop("The {name} “{obj}” was added successfully. You may edit it again below."),
    gettext_noop("The {name} “{obj}” was added successfully. You may add another {name} below."),
    gettext_noop("The {name} “{obj}” was changed successfully."),
    gettext_noop("The {name} “{obj}” was changed successfully. You may edit it again below."),
    gettext_noop("The {name} “{obj}” was changed successfully. You may add another {name} below."),
    gettext_noop("The %(name)s “%(obj)s” was deleted successfully."),
]
