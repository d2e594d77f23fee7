"""Data migration: the "organisers" group, which runs tournaments without being superuser.

Members must also be staff (``is_staff``) to reach the admin. Permissions are
created here first, since Django only creates them after ``migrate`` finishes.
"""

from django.db import migrations

GROUP = "organisers"

#: (model, actions) the organisers get on the ``games`` app.
PERMISSIONS = {
    "tournament": ("add", "change", "delete", "view"),
    "tournamententrant": ("add", "change", "delete", "view"),
    "tournamentstanding": ("view",),
    "race": ("add", "change", "view"),
    "raceentry": ("change", "view"),
}


def create_group(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=GROUP)
    codenames = [f"{action}_{model}" for model, actions in PERMISSIONS.items() for action in actions]
    perms = Permission.objects.filter(content_type__app_label="games", codename__in=codenames)
    group.permissions.add(*perms)


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0002_tournaments"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_group, remove_group)]
