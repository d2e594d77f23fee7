"""The game domain as a Django app: models, services (writes), selectors (reads), tasks.

The pure rules engine lives in ``games.engine`` and imports nothing from Django.
"""
