"""A password hasher for the test process only: PBKDF2-SHA256 at one iteration.

Django's default PBKDF2 costs about 0.25 s of CPU per hash on this machine, paid by
every user a test creates and every password a test checks; over the suite that was
minutes of key stretching, not of what is tested.  The hash keeps Django's
``pbkdf2_sha256$<iterations>$<salt>$<hash>`` format and algorithm name, so a server a
test starts in another process (with the production hashers) still verifies it: the
iteration count is read from the stored hash.  Production settings never use this.
"""

from __future__ import annotations

from django.contrib.auth.hashers import PBKDF2PasswordHasher


class QuickPBKDF2PasswordHasher(PBKDF2PasswordHasher):
    """``pbkdf2_sha256`` with 1 iteration (test process only; see the module docstring)."""

    iterations = 1


class TwoIterationPBKDF2PasswordHasher(PBKDF2PasswordHasher):
    """``pbkdf2_sha256`` with 2 iterations: a "newer" hasher for the hash-upgrade tests
    (``tests/api/test_hash_upgrade_keeps_tokens.py``), under which the 1-iteration hashes
    of :class:`QuickPBKDF2PasswordHasher` must be updated."""

    iterations = 2
