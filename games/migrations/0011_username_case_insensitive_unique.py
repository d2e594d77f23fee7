"""Usernames unique regardless of case: a unique index on LOWER(username) (issue 18.6).

Fails if the table already holds two usernames equal but for case; merge or rename
those accounts first (``SELECT LOWER(username) FROM auth_user GROUP BY 1 HAVING COUNT(*) > 1``).
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("games", "0010_solver_queue"),
    ]

    operations = [
        migrations.RunSQL(
            sql="CREATE UNIQUE INDEX auth_user_username_ci_unique ON auth_user (LOWER(username))",
            reverse_sql="DROP INDEX auth_user_username_ci_unique",
        ),
    ]
