"""Create the table of the ``"database"`` cache alias (``canfield_site.cache``): the
login attempts in flight are counted there while Redis is down, or always without
``CACHE_URL`` (``canfield_site.security.reserve_login_slot``).

Django's ``createcachetable`` for the table named here, so ``migrate`` alone makes it
(``dev.py serve``, compose's ``migrate`` service, CI); it does nothing when the table
exists (made by hand with ``manage.py createcachetable``, or by a test database).
Reversing drops the table.
"""

from django.core.management import call_command
from django.db import migrations

#: ``canfield_site.cache.DATABASE_CACHE_TABLE`` when this migration was written.
TABLE = "canfield_cache"


def forwards(apps, schema_editor):
    call_command("createcachetable", TABLE, database=schema_editor.connection.alias, verbosity=0)


def backwards(apps, schema_editor):
    connection = schema_editor.connection
    if TABLE in connection.introspection.table_names():
        schema_editor.execute(f"DROP TABLE {connection.ops.quote_name(TABLE)}")


class Migration(migrations.Migration):
    dependencies = [("api", "0001_knox_tokens_from_drf_tokens")]

    operations = [migrations.RunPython(forwards, backwards)]
