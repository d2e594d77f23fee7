"""Bot accounts for the load benchmarks, made in the server's own environment.

Registering hundreds of bots over HTTP would measure registration, not races; this
module's script creates them in ``manage.py shell`` of a :class:`canfield_bot.stack.Stack`
with the server's token service, so the bot package itself never imports ``games/``
(DESIGN.md).
"""

from __future__ import annotations


def bot_accounts_script(prefix: str, count: int) -> str:
    """Python for ``manage.py shell -c`` that creates ``count`` accounts ``<prefix>-NNNN``
    (no usable password) with one API token each and prints ``{username: token}`` as JSON.

    For load benchmarks: far faster than registering over HTTP.  Runs inside the server's
    Django project, with its token service (``games.services.tokens``), so the bot
    package, a client of the public API only, never reaches into ``games/`` (DESIGN.md).
    """
    return f"""
import json
from django.contrib.auth.models import User
from django.contrib.auth.hashers import make_password
from games.services.tokens import token_issue
hashed = make_password(None)
names = [f"{prefix}-{{i:04d}}" for i in range({count})]
User.objects.bulk_create([User(username=name, password=hashed) for name in names])
users = list(User.objects.filter(username__startswith="{prefix}-").order_by("username"))
print(json.dumps({{u.username: token_issue(user=u)[0] for u in users}}))
"""
