"""Read side of the domain: ``<entity>_<query>`` functions that views and tasks use to
fetch what a viewer may see (``game_view`` is the only way a game is shown)."""
