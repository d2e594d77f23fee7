"""Live events: publish after commit, fan out to Server-Sent Event streams (DESIGN.md).

Services call :func:`games.live.publish.publish_on_commit` with a topic
(``race:<id>``, ``tournament:<id>``, ``game:<id>``) and a small notification
(what changed, never a card).  :mod:`games.live.hub` receives those
notifications in each ASGI web process (one Redis pub/sub subscription per
topic per process, or the in-process broker on the embedded default) and hands
them to the stream endpoints, which turn them into events with the selectors.
"""
