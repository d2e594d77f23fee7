"""``manage.py ensure_dev_superuser``: create a development superuser if none exists."""

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser


class Command(BaseCommand):
    """Create a superuser for local development unless one already exists.

    Refuses to run with ``DEBUG`` off: production superusers are made with
    ``createsuperuser`` and a real password.
    """

    help = "Create a development superuser (DEBUG only) if the database has none."

    def add_arguments(self, parser: CommandParser) -> None:
        """Declare ``--username``, ``--password`` and ``--base-url`` (for the login hint)."""
        parser.add_argument("--username", default="admin")
        parser.add_argument("--password", default="admin")
        parser.add_argument("--base-url", default="http://127.0.0.1:8000")

    def handle(self, *args: Any, **options: Any) -> None:
        """Create the user, or say how to log in with the existing one."""
        from django.conf import settings

        if not settings.DEBUG:
            raise CommandError("ensure_dev_superuser only runs with DEBUG on.")
        admin_url = options["base_url"].rstrip("/") + "/admin/"
        user_model = get_user_model()
        existing = user_model.objects.filter(is_superuser=True).order_by("pk").first()
        if existing is not None:
            self.stdout.write(
                f"Superuser exists: log in at {admin_url} as "
                f"'{existing.get_username()}' (password: '{options['password']}' if it was "
                f"created by dev.py; 'python3 dev.py manage changepassword "
                f"{existing.get_username()}' to reset it)."
            )
            return
        user_model.objects.create_superuser(
            username=options["username"], email="", password=options["password"]
        )
        self.stdout.write(
            f"Created dev superuser: log in at {admin_url} with "
            f"username '{options['username']}' and password '{options['password']}'."
        )
