"""URLs of version 1 of the API, mounted at ``/api/v1/``."""

from django.urls import path, re_path
from django.views.decorators.csrf import csrf_exempt

from api import accounts, exports, games, races, ratings, streams, tournaments
from api.docs import OfflineRedocView, SchemaView, SwaggerView, redoc_bundle
from api.errors import api_unknown_path
from api.views import HealthView

app_name = "api"

urlpatterns = [
    path("health", HealthView.as_view(), name="health"),
    path("auth/register", accounts.RegisterView.as_view(), name="register"),
    path("auth/token", accounts.TokenView.as_view(), name="token"),
    path("auth/logout", accounts.LogoutView.as_view(), name="logout"),
    path("auth/logout-all", accounts.LogoutAllView.as_view(), name="logout-all"),
    path("auth/password", accounts.PasswordChangeView.as_view(), name="password"),
    path("variants", games.VariantsView.as_view(), name="variants"),
    path("games", games.GamesView.as_view(), name="games"),
    path("games/<uuid:game_id>", games.GameDetailView.as_view(), name="game"),
    path("games/<uuid:game_id>/moves", games.GameMovesView.as_view(), name="game-moves"),
    path("games/<uuid:game_id>/undo", games.GameUndoView.as_view(), name="game-undo"),
    path("games/<uuid:game_id>/resign", games.GameResignView.as_view(), name="game-resign"),
    path("games/<uuid:game_id>/export", games.GameExportView.as_view(), name="game-export"),
    path("games/<uuid:game_id>/solution", games.GameSolutionView.as_view(), name="game-solution"),
    path("games/<uuid:game_id>/hint", games.GameHintView.as_view(), name="game-hint"),
    path("games/<uuid:game_id>/events", streams.game_events, name="game-events"),
    path("races", races.RacesView.as_view(), name="races"),
    path("races/<uuid:race_id>", races.RaceDetailView.as_view(), name="race"),
    path("races/<uuid:race_id>/join", races.RaceJoinView.as_view(), name="race-join"),
    path("races/<uuid:race_id>/start", races.RaceStartView.as_view(), name="race-start"),
    path(
        "races/<uuid:race_id>/standings", races.RaceStandingsView.as_view(), name="race-standings"
    ),
    path("races/<uuid:race_id>/events", streams.race_events, name="race-events"),
    path("races/<uuid:race_id>/results", races.RaceResultsView.as_view(), name="race-results"),
    path(
        "races/<uuid:race_id>/standings.csv",
        exports.RaceStandingsCSVView.as_view(),
        name="race-standings-csv",
    ),
    path("tournaments", tournaments.TournamentsView.as_view(), name="tournaments"),
    path(
        "tournaments/<uuid:tournament_id>",
        tournaments.TournamentDetailAPIView.as_view(),
        name="tournament",
    ),
    path(
        "tournaments/<uuid:tournament_id>/standings",
        tournaments.TournamentStandingsView.as_view(),
        name="tournament-standings",
    ),
    path(
        "tournaments/<uuid:tournament_id>/standings.csv",
        exports.TournamentStandingsCSVView.as_view(),
        name="tournament-standings-csv",
    ),
    path(
        "tournaments/<uuid:tournament_id>/races.csv",
        exports.TournamentRacesCSVView.as_view(),
        name="tournament-races-csv",
    ),
    path(
        "tournaments/<uuid:tournament_id>/events",
        streams.tournament_events,
        name="tournament-events",
    ),
    path(
        "tournaments/<uuid:tournament_id>/me",
        tournaments.TournamentMeView.as_view(),
        name="tournament-me",
    ),
    path(
        "tournaments/<uuid:tournament_id>/races",
        tournaments.TournamentRacesView.as_view(),
        name="tournament-races",
    ),
    path(
        "tournaments/<uuid:tournament_id>/rescore",
        tournaments.TournamentRescoreView.as_view(),
        name="tournament-rescore",
    ),
    path("leaderboards", ratings.LeaderboardsView.as_view(), name="leaderboards"),
    path("leaderboards/<str:pool>", ratings.LeaderboardView.as_view(), name="leaderboard"),
    path("players/<str:username>", ratings.PlayerDetailView.as_view(), name="player"),
    path(
        "players/<str:username>/history",
        ratings.PlayerHistoryView.as_view(),
        name="player-history",
    ),
    path("races/<uuid:race_id>/rating", ratings.RaceRatingAPIView.as_view(), name="race-rating"),
    re_path(r"^schema/?$", SchemaView.as_view(), name="schema"),
    re_path(r"^docs/?$", SwaggerView.as_view(url_name="api:schema"), name="docs"),
    re_path(r"^redoc/?$", OfflineRedocView.as_view(url_name="api:schema"), name="redoc"),
    re_path(r"^redoc/redoc\.standalone\.js$", redoc_bundle, name="redoc-bundle"),
    # Anything else under /api/v1/ (including ids that are not UUIDs): problem+json 404.
    # Exempt from CSRF: it changes nothing, and a POST must get the 404, not a CSRF 403.
    re_path(r"^.*$", csrf_exempt(api_unknown_path), name="unknown"),
]
