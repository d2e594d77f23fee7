"""HTML pages for people: lobby, play page, races, results with replays, tournaments.

Thin views over the same services and selectors the API uses
(:func:`games.selectors.games.game_view` decides what a player may see).
"""
