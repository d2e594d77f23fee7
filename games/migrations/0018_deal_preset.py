"""Record the preset a deal's rules were built from (``Deal.preset``).

A game or race started from a preset with option overrides was stored with variant
``custom`` and nothing else: its pages and API could not say it was, say, classic with
two redeals.  New deals record the preset asked for
(``games.services.games.deal_create``).  Existing deals get, as well as can be known,
the preset whose options equal theirs (their variant when it names one; a ``custom``
deal whose options are exactly a preset's gets that preset), else ``custom``.
Going back drops the column.
"""

from django.db import migrations, models


def preset_of(options):
    """The preset whose options equal ``options`` (all nine), or ``"custom"``."""
    from games.engine.rules import PRESETS, RulesError, make_rules, variant_name

    if not isinstance(options, dict):
        return "custom"
    try:
        name = variant_name(make_rules("classic", **options))
    except (RulesError, TypeError, ValueError):
        return "custom"
    return name if name in PRESETS else "custom"


def fill(apps, schema_editor):
    from games.engine.rules import PRESETS

    deal_model = apps.get_model("games", "Deal")
    for name in PRESETS:
        deal_model.objects.filter(variant=name).update(preset=name)
    for deal in deal_model.objects.exclude(variant__in=list(PRESETS)).only("id", "options").iterator():
        preset = preset_of(deal.options)
        if preset != "custom":
            deal_model.objects.filter(id=deal.id).update(preset=preset)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0017_cancel_races_of_cancelled_tournaments"),
    ]

    operations = [
        migrations.AddField(
            model_name="deal",
            name="preset",
            field=models.CharField(
                default="custom",
                help_text="the preset the rules were built from, options overriding it "
                "(variant 'custom' from preset 'classic': classic with changes); 'custom' "
                "when unknown (a deal stored before it was recorded, its options no preset's)",
                max_length=32,
            ),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
