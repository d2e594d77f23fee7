/* The tournament form (games.admin.tournament.TournamentForm.Media): shows only the
   fields of the chosen scoring scheme.  Each scheme's fields carry data-scheme (the
   scheme's value); the others' rows are hidden whenever the scheme changes.  Without
   this script every field stays in sight, its help text naming its scheme, and the
   server ignores the fields the chosen scheme does not use. */
"use strict";
(function () {
    function setUp() {
        var scoring = document.getElementById("id_scoring");
        if (!scoring) {
            return;
        }
        var fields = document.querySelectorAll("[data-scheme]");
        function show() {
            fields.forEach(function (field) {
                var row = field.closest(".form-row") || field.parentElement;
                row.hidden = field.getAttribute("data-scheme") !== scoring.value;
            });
        }
        scoring.addEventListener("change", show);
        show();
    }
    if (document.readyState === "loading") {
        document.addEventListener("DOMContentLoaded", setUp);
    } else {
        setUp();
    }
})();
