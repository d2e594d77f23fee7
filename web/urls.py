"""URLs of the pages (mounted at the site root)."""

from django.urls import path

from web.views import accounts, lobby, people, play, races, ratings

app_name = "web"

urlpatterns = [
    path("", lobby.lobby, name="lobby"),
    path("lobby/races", lobby.lobby_live, name="lobby_live"),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/login/", accounts.login_view, name="login"),
    path("accounts/logout/", accounts.logout_view, name="logout"),
    path("accounts/password/", accounts.password_change, name="password_change"),
    path("accounts/password/done/", accounts.password_change_done, name="password_change_done"),
    path("practice", play.practice, name="practice"),
    path("play/<uuid:game_id>/", play.play, name="play"),
    path("play/<uuid:game_id>/board", play.board, name="board"),
    path("play/<uuid:game_id>/move", play.move, name="move"),
    path("play/<uuid:game_id>/undo", play.undo, name="undo"),
    path("play/<uuid:game_id>/resign", play.resign, name="resign"),
    path("play/<uuid:game_id>/solution", play.solution, name="solution"),
    # Sent to the page (301), as "results/" is: the other pages end in a slash.
    path("play/<uuid:game_id>/solution/", play.solution_slash, name="solution_slash"),
    path("play/<uuid:game_id>/hint", play.hint, name="hint"),
    path("races/<uuid:race_id>/", races.race_page, name="race"),
    path("races/<uuid:race_id>/live", races.race_live, name="race_live"),
    path("races/<uuid:race_id>/join", races.join, name="join"),
    path("races/<uuid:race_id>/start", races.start, name="start"),
    path("races/<uuid:race_id>/results", races.results, name="results"),
    # The other pages end in a slash: a typed "results/" is sent to the page (301).
    path("races/<uuid:race_id>/results/", races.results_slash, name="results_slash"),
    path("replay/<uuid:game_id>/", races.replay, name="replay"),
    path("tournaments/", people.tournaments, name="tournaments"),
    path("tournaments/<uuid:tournament_id>/", people.tournament, name="tournament"),
    path("players/<str:username>/", people.player, name="player"),
    path("leaderboards/", ratings.leaderboards, name="leaderboards"),
    path("leaderboards/<str:pool>/", ratings.pool_leaderboard, name="leaderboard"),
]
