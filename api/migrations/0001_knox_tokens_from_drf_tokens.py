"""Move DRF's API tokens (``authtoken_token``) into django-rest-knox, then delete them.

Each old 40-character key becomes a knox row that accepts the same key (its first 15
characters and SHA-512 digest), without expiry, so clients holding a token keep working
until they log out or change their password.  The old table, if the database has one,
is emptied (it held the keys in clear) but left in place; drop it by hand if wanted
(``DROP TABLE authtoken_token``).  A fresh database has no such table: nothing to do.
"""

from django.db import migrations

OLD_TABLE = "authtoken_token"


def forwards(apps, schema_editor):
    from api.authentication import legacy_token_row

    connection = schema_editor.connection
    if OLD_TABLE not in connection.introspection.table_names():
        return
    AuthToken = apps.get_model("knox", "AuthToken")
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT key, user_id, created FROM {OLD_TABLE}")  # noqa: S608
        rows = cursor.fetchall()
    for key, user_id, created in rows:
        token_key, digest = legacy_token_row(key)
        if not AuthToken.objects.filter(digest=digest).exists():
            AuthToken.objects.bulk_create(
                [AuthToken(digest=digest, token_key=token_key, user_id=user_id, expiry=None)]
            )
            AuthToken.objects.filter(digest=digest).update(created=created)
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {OLD_TABLE}")  # noqa: S608


class Migration(migrations.Migration):
    dependencies = [
        ("knox", "0009_extend_authtoken_field"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
