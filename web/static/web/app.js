/* Canfield races: the little JavaScript the pages need (no build step, no inline script).
 *
 * 1. Clocks: <time data-local> in the viewer's time zone; [data-countdown] counts down by
 *    the SERVER clock (body[data-server-now] gives the offset).
 * 2. Live parts: [data-poll] elements are refreshed with conditional requests
 *    (If-None-Match / ETag, 304 when unchanged), at most once a second; subscribe() below
 *    follows the race event stream (SSE) instead where the server offers it.
 * 3. The play page (#board): click/tap a card then a destination, double-click sends home,
 *    keyboard shortcuts (listed on the page). Every move is POSTed as the API takes it
 *    (move, expected_move_number) and the server's board fragment replaces the board.
 *    No rule lives here: the server (the engine) accepts or refuses each move.
 */
(function () {
  "use strict";

  var lang = document.documentElement.lang || "en";
  var body = document.body;
  var serverNow = Number(body.dataset.serverNow || 0);
  var clockOffset = serverNow ? serverNow - Date.now() : 0; // server minus client, ms

  function now() { return Date.now() + clockOffset; }

  function csrf() {
    var meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.content : "";
  }

  /* ---------------------------------------------------------------- clocks */
  // data-local="seconds" keeps the seconds (a race's times: one ending at 16:43:30 read
  // "4:43 PM"); plain data-local shows hours and minutes.  Both end with the time zone's
  // name ("02:30:00 CEST"): local times without it read as the server's UTC, and a race
  // across a change of summer time read "Starts 02:30:00, Ends 02:15:00" in Paris on the
  // last Sunday of October (that hour comes twice); "02:30:00 CEST", "02:15:00 CET" now.
  function localize(root) {
    var fmt, fine, zones;
    try {
      fmt = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" });
      fine = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "medium" });
      zones = new Intl.DateTimeFormat(lang, { timeZoneName: "short" });
    } catch (e) { return; }
    function zoned(f, d) {
      var zone = "";
      try {
        zones.formatToParts(d).forEach(function (p) { if (p.type === "timeZoneName") { zone = p.value; } });
      } catch (e) { zone = ""; }
      return zone ? f.format(d) + "\u00a0" + zone : f.format(d);  // no break before the zone
    }
    root.querySelectorAll("time[data-local]").forEach(function (el) {
      var d = new Date(el.getAttribute("datetime"));
      if (!isNaN(d)) { el.textContent = zoned(el.dataset.local === "seconds" ? fine : fmt, d); }
    });
    // data-local-title: the text stays (e.g. "started 2 minutes ago"), the full date and
    // time, with seconds, goes to the tooltip in the viewer's time zone.
    root.querySelectorAll("time[data-local-title]").forEach(function (el) {
      var d = new Date(el.getAttribute("datetime"));
      if (!isNaN(d)) { el.title = zoned(fine, d); }
    });
  }

  // A table wider than the screen (a phone) gets a line above it saying that it scrolls
  // sideways (body data-scroll-text, in the page's language), hidden while it fits.
  function markScrollers(root) {
    var text = document.body.dataset.scrollText || "";
    root.querySelectorAll(".scroll").forEach(function (el) {
      var cue = el.previousElementSibling;
      if (!cue || !cue.classList.contains("scroll-cue")) {
        cue = document.createElement("p");
        cue.className = "scroll-cue";
        cue.setAttribute("aria-hidden", "true");
        cue.textContent = text;
        el.parentNode.insertBefore(cue, el);
      }
      cue.hidden = el.scrollWidth <= el.clientWidth + 1;
    });
  }

  // A table.stack (race, results, tournament, player and leaderboard pages) stacks its rows
  // on a phone (app.css): each body cell gets its column's heading as data-label, shown
  // before the value; a heading's data-short, where it has one, instead ("Last card home
  // (s)": the whole heading took four or five lines in the label's 40 % of a phone).
  function labelStacks(root) {
    root.querySelectorAll("table.stack").forEach(function (table) {
      var heads = Array.prototype.map.call(table.querySelectorAll("thead th"), function (th) {
        return th.getAttribute("data-short") || th.textContent.trim();
      });
      table.querySelectorAll("tbody tr").forEach(function (tr) {
        Array.prototype.forEach.call(tr.children, function (cell, i) {
          if (heads[i]) { cell.setAttribute("data-label", heads[i]); }
        });
      });
      table.setAttribute("data-labelled", "");
    });
  }

  function pad(n) { return n < 10 ? "0" + n : String(n); }

  function tickCountdowns() {
    var t = now();
    document.querySelectorAll("[data-countdown]").forEach(function (el) {
      var end = Date.parse(el.dataset.countdown);
      if (isNaN(end)) { return; }
      var s = Math.max(0, Math.ceil((end - t) / 1000));
      var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
      el.textContent = (h ? h + ":" + pad(m) : m) + ":" + pad(sec);
      el.setAttribute("role", "timer");
      if (s === 0 && !el.dataset.done) {
        el.dataset.done = "1";
        if (el.dataset.refreshBoard) { refreshBoard(); }
        var live = el.closest("[data-poll]");
        if (live) { live.dispatchEvent(new Event("poll-now")); }
      }
    });
  }

  /* ---------------------------------------------------------------- live updates */
  var OVER_POLL_MS = 60000;

  function isOver(el) {
    return !!el.querySelector('[data-phase="finished"], [data-phase="cancelled"]');
  }

  // Focus inside a live part survives its refresh (it was lost to the page's body with
  // the element that held it): the element with the same id, else the same link (href),
  // data-key or form button, is focused in the new content, the same one of several
  // alike (a keyboard user tabbing through the race page stays where they were).
  function focusMark(root, node) {
    var tag = node.tagName.toLowerCase();
    var sel;
    if (node.id) { sel = "#" + CSS.escape(node.id); }
    else if (node.hasAttribute("href")) { sel = tag + '[href="' + CSS.escape(node.getAttribute("href")) + '"]'; }
    else if (node.dataset && node.dataset.key) { sel = '[data-key="' + CSS.escape(node.dataset.key) + '"]'; }
    else if (node.form && node.form.getAttribute("action")) {
      sel = 'form[action="' + CSS.escape(node.form.getAttribute("action")) + '"] ' + tag;
    } else { sel = tag; }
    var alike = Array.prototype.slice.call(root.querySelectorAll(sel));
    return { sel: sel, nth: Math.max(0, alike.indexOf(node)) };
  }

  function refocusLive(root, mark) {
    var alike = root.querySelectorAll(mark.sel);
    var target = alike[mark.nth] || alike[0];
    if (target) { target.focus({ preventScroll: true }); }
    if (!target || document.activeElement !== target) {
      // Gone from the new content: focus stays in the live part, not on the body.
      root.setAttribute("tabindex", "-1");
      root.focus({ preventScroll: true });
    }
  }

  // A race page's phase changing under a screen reader (the race starts: "Running; ends
  // in 4:59" and the Play button; it finishes, or is cancelled) is said through the
  // region data-phase-said names, outside the part the poll replaces (a live region
  // swapped in says nothing; the change was heard by no one).  Only a change is said,
  // not each refresh of the standings.
  function phaseOf(el) {
    var p = el.querySelector("[data-phase]");
    return p ? p.dataset.phase : null;
  }
  function sayPhase(el, before) {
    var region = el.dataset.phaseSaid ? document.getElementById(el.dataset.phaseSaid) : null;
    var now = phaseOf(el);
    if (!region || !now || now === before) { return; }
    var words = el.querySelector("[data-phase] .big");
    region.textContent = words ? words.textContent.replace(/\s+/g, " ").trim() : "";
  }

  function poll(el) {
    // One request at a time and never more than one a second, whatever asks for it
    // (the timer, an event of the race stream, the stream failing): a request asked
    // for while one is under way is sent once it is back.
    var url = el.dataset.poll;
    var etag = null;
    var timer = null;
    var busy = false;
    var again = false;
    var last = -Infinity; // performance.now() when the last request was sent

    function schedule(delay) {
      // Read each time: subscribe() slows polling down while the event stream is open;
      // a finished (or cancelled) race only changes if the organisers re-score it, so its
      // page asks once a minute (it asked every second, forever).
      var every = isOver(el) ? OVER_POLL_MS : Math.max(1000, Number(el.dataset.pollMs || 1000));
      clearTimeout(timer);
      timer = setTimeout(tick, delay === undefined ? every : delay);
    }

    function tick() {
      if (busy) { again = true; return; }
      var wait = last + 1000 - performance.now();
      if (wait > 0) { schedule(wait); return; }
      if (document.hidden) { schedule(); return; }
      busy = true;
      again = false;
      last = performance.now();
      var headers = { "HX-Request": "true" };
      if (etag) { headers["If-None-Match"] = etag; }
      fetch(url, { headers: headers, cache: "no-store", credentials: "same-origin" })
        .then(function (r) {
          var date = Date.parse(r.headers.get("Date") || "");
          if (r.status === 200) {
            etag = r.headers.get("ETag");
            return r.text().then(function (html) {
              var active = document.activeElement;
              var keep = active && active !== el && el.contains(active) ? focusMark(el, active) : null;
              var before = phaseOf(el);
              el.innerHTML = html;
              localize(el);
              labelStacks(el);
              markScrollers(el);
              tickCountdowns();
              if (window.htmx) { window.htmx.process(el); }
              if (keep) { refocusLive(el, keep); }
              sayPhase(el, before);
            });
          }
          return null;
        })
        .catch(function () { /* offline for a moment: try again next tick */ })
        .then(function () {
          busy = false;
          if (again) { again = false; schedule(300); } else { schedule(); }
        });
    }

    el.addEventListener("poll-now", function () { schedule(300); });
    schedule();
  }

  function subscribe(el) {
    // Live updates: a race's part of the page follows the race event stream
    // (/api/v1/races/{id}/events, Server-Sent Events): each event fetches the same
    // fragment once, by a conditional request, so the server renders it through the same
    // selectors as ever (the events' own data is not used).  While the stream is open the
    // poll slows to a 15 s safety net; when the stream is refused or drops (the WSGI
    // server, a Redis outage, the race over) polling at most once a second takes over,
    // and a dropped stream is reconnected (with a notice on the page meanwhile).
    poll(el);
    var race = el.dataset.race;
    // A race already over has no events to follow (its stream would end at once).
    if (!race || !window.EventSource || isOver(el)) { return; }
    var fast = el.dataset.pollMs || "1000";
    // A polite notice (data-live-note names it) says while a dropped stream reconnects.
    var note = el.dataset.liveNote ? document.getElementById(el.dataset.liveNote) : null;
    function paused(on) {
      if (!note) { return; }
      var text = on ? note.dataset.paused || "" : "";
      if (note.textContent !== text) { note.textContent = text; }
    }
    var source = new EventSource("/api/v1/races/" + encodeURIComponent(race) + "/events");
    source.onopen = function () {
      el.dataset.pollMs = "15000";
      el.dataset.stream = "open";
      paused(false);
    };
    ["snapshot", "phase", "standings"].forEach(function (type) {
      source.addEventListener(type, function () { el.dispatchEvent(new Event("poll-now")); });
    });
    // The race over, its stream ends: closed here, so that the end is not taken for a
    // dropped connection (the browser would reconnect, to be answered 204).
    source.addEventListener("phase", function (e) {
      var p = null;
      try { p = JSON.parse(e.data); } catch (err) { p = null; }
      if (p && (p.phase === "finished" || p.phase === "cancelled")) {
        source.close();
        el.dataset.stream = "closed";
        paused(false);
      }
    });
    // The race no longer ours to see (moved into a draft tournament): the stream's last
    // event; polling alone goes on (and finds the race gone).
    source.addEventListener("gone", function () {
      source.close();
      el.dataset.stream = "closed";
      paused(false);
      el.dataset.pollMs = fast;
      el.dispatchEvent(new Event("poll-now"));
    });
    source.onerror = function () {
      // Polling at most once a second stands in while the stream is down.  A dropped
      // connection is reconnected by the browser (readyState CONNECTING: the notice
      // shows until it is open again); a stream refused or ended for good (CLOSED: the
      // WSGI server's 503, a Redis outage, 204) is given up, and polling goes on alone.
      el.dataset.pollMs = fast;
      el.dispatchEvent(new Event("poll-now"));
      if (source.readyState === EventSource.CLOSED || isOver(el)) {
        source.close();
        el.dataset.stream = "closed";
        paused(false);
      } else {
        el.dataset.stream = "reconnecting";
        paused(true);
      }
    };
  }

  /* ---------------------------------------------------------------- the board */
  var selected = null; // {card: "QH", from: "t2", key: "..."}
  var undoFocusKey = null;  // the data-key focused on the board when U was pressed
  var boardBefore = null;  // what the board htmx is drawing again said (saidBefore)
  var sending = false;

  function board() { return document.getElementById("board"); }

  // Words the page writes on the board itself (a selection's "now choose a destination",
  // "Choose a card first.", the server not answering) show in the board's message and are
  // said through #announcer, the page's one live region for the board (announce); an
  // emptied message (Escape, the close button) says nothing.
  function say(text, isError) {
    var m = document.getElementById("board-message");
    if (!m) { return; }
    m.className = "message" + (isError ? " error" : "");
    m.textContent = text;
    if (text) { announce(text); }
    armFade();
  }

  // A message (a draw's words, "now choose a destination", a hint) fades after FADE_MS on
  // a live board: on a phone it takes the counts' place (app.css; as a band over the top
  // of the cards it hid the reserve's top card and the Draw button until the next action).  A refusal fades
  // too, after REFUSAL_FADE_MS (a new user's refusal covered the reserve's top card on a
  // phone for as long as they thought about their next move); the next action or the
  // close button takes either sooner.  An ended board's last word ("You resigned: 9 cards home.", a
  // win) stays until closed: it is in the page's flow, so it hides nothing.  #announcer
  // is not touched.  A board a poll brought back (polled) with the same words keeps
  // their fade's timer, or stays faded.
  var FADE_MS = 4000;
  var REFUSAL_FADE_MS = 10000;
  var fadeTimer = null;
  var armedWords = null;  // the words whose fade is under way (or done: faded true)
  var faded = false;
  function armFade(polled) {
    var b = board();
    var m = b && b.querySelector("#board-message");
    var words = boardWords(b);
    if (polled && words === armedWords) {
      if (faded && m) { m.classList.add("faded"); }
      return;
    }
    clearTimeout(fadeTimer);
    armedWords = null;
    faded = false;
    if (!m || !words || b.classList.contains("over")) { return; }
    var after = m.classList.contains("error") ? REFUSAL_FADE_MS : FADE_MS;
    armedWords = words;
    fadeTimer = setTimeout(function () {
      var now = board();
      var shown = now && now.querySelector("#board-message");
      if (shown) { shown.classList.add("faded"); }
      faded = true;
    }, after);
  }

  // A message as a sentence, as the server words every other one (web.refusals.sentence):
  // its first letter a capital, a full stop at the end ("queen of hearts — now choose a
  // destination" -> "Queen of hearts — now choose a destination.").
  function sentence(text) {
    text = (text || "").trim();
    if (!text) { return text; }
    if (!/[.!?\u2026]$/.test(text)) { text += "."; }
    return text.charAt(0).toUpperCase() + text.slice(1);
  }

  // Screen readers hear each outcome from #announcer, a live region outside the board
  // that stays on the page, and from it alone: the board's message (#board-message) is
  // shown but is no live region.  It is swapped whole with the board, and a live region
  // added to the page is read on arrival by some screen readers and by others not at
  // all: as a live region too it was heard twice by the first (the board's words and
  // #announcer's), and a refusal, a win or the time being up once by the others.  The
  // same words twice in a row (a second identical refusal) get a trailing no-break
  // space, so that the region changes and is read again.
  function announce(text) {
    var a = document.getElementById("announcer");
    if (!a) { return; }
    if (text && a.textContent === text) { text += "\u00a0"; }
    a.textContent = text;
  }

  // The board's message, as the page shows it.
  function boardWords(b) {
    var m = b && b.querySelector("#board-message");
    return m ? m.textContent.replace(/\s+/g, " ").trim() : "";
  }

  // The notes of a board that #announcer says after its message ([data-said]: a race
  // game over, "the results appear when the race is finished", which was a live region
  // of its own, added with the board; a race game's links once the deal is revealed).
  function notesSaid(b) {
    var notes = b ? b.querySelectorAll("[data-said]") : [];
    return Array.prototype.map.call(notes, function (n) {
      return n.textContent.replace(/\s+/g, " ").trim();
    }).filter(Boolean).join(" ");
  }

  // What #announcer says of a board: its message, then its notes.
  function boardSaid(b) {
    return [boardWords(b), notesSaid(b)].filter(Boolean).join(" ");
  }

  // What a board said before it was drawn again (compared by sayBoard).
  function saidBefore(b) {
    return b ? { words: boardWords(b), notes: notesSaid(b) } : null;
  }

  // A new board's words through #announcer.  A board the player's own action brought (a
  // move, Undo, Hint, Resign) says its outcome, the same words again too.  A board the
  // page asked for by itself (bySelf: the time up, a pending hint asking again, a race
  // game waiting for the results) says what is new: its message (and notes) when the
  // message changed, else its notes alone when they changed (the race finished: the
  // results are out; the time-up words were said again), else nothing (the same note
  // every few seconds is noise), and nothing that #announcer holds already.
  function sayBoard(b, before, bySelf) {
    if (!bySelf || !before) { announce(boardSaid(b)); return; }
    var notes = notesSaid(b);
    var said = boardWords(b) !== before.words ? boardSaid(b)
      : notes !== before.notes ? notes : "";
    var heard = document.getElementById("announcer");
    if (!said || (heard && heard.textContent.replace(/\u00a0$/, "") === said)) { return; }
    announce(said);
  }

  // Focus that a redrawn board left on the page's body (the focused card was swapped with
  // the board, or Undo switched itself off at the first move) goes back where a keyboard
  // user can go on: the Undo button while there is a move to take back; on a board whose
  // game is over (Resign, a typed move that won), its message, the result ("You
  // resigned: 9 cards home."; focus went to the message's close button, the board's
  // only button left), or once that is closed the first link after the board (Replay,
  // the race page); else the board's first card (or other button), else its message.
  function refocus(b) {
    var active = document.activeElement;
    if (active && active !== document.body && document.contains(active) &&
        !active.disabled && active.getClientRects().length) { return; }
    var undo = document.querySelector('[data-action="undo"]');
    var shown = function (el) { return !el.disabled && el.getClientRects().length > 0; };
    var over = !b.dataset.moveUrl;
    var target = undo && shown(undo) ? undo
      : over && boardWords(b) ? b.querySelector("#board-message")
      : over && b.querySelector(".after a") ? b.querySelector(".after a")
      : b.querySelector("button[data-card]") ||
        Array.prototype.filter.call(b.querySelectorAll("button"), shown)[0] ||
        b.querySelector("#board-message");
    if (target) { target.focus(); }
  }

  function clearSelection() {
    var b = board();
    if (b) {
      b.querySelectorAll(".selected").forEach(function (e) {
        e.classList.remove("selected");
        if (e.hasAttribute("aria-pressed")) { e.setAttribute("aria-pressed", "false"); }
      });
      b.querySelectorAll(".target").forEach(function (e) { e.classList.remove("target"); });
    }
    selected = null;
  }

  function select(btn) {
    clearSelection();
    selected = { card: btn.dataset.card, from: btn.dataset.from, key: btn.dataset.key };
    btn.classList.add("selected");
    btn.setAttribute("aria-pressed", "true");
    var b = board();
    // Highlight only what the server listed as legal (data-legal), never computed here.
    var legal = (b.dataset.legal || "").split(" ");
    legal.forEach(function (mv) {
      var parts = mv.split(">");
      if (parts.length === 2 && parts[0] === selected.card) {
        // A card goes home to its own suit's foundation: only that one is outlined (all
        // four were, though any of them takes the click).
        var where = parts[1] === "f"
          ? '[data-key="f-' + parts[0].slice(-1) + '"]'
          : '[data-dest="' + parts[1] + '"]';
        b.querySelectorAll(where).forEach(function (d) { d.classList.add("target"); });
      }
    });
    // A covered card names the cards that move with it (data-run, from the server: "seven
    // of hearts to four of clubs, 4 cards"), a top card itself (its bottom card alone was
    // said for a whole pile).
    say(sentence((btn.dataset.run || btn.getAttribute("aria-label")) + " — " +
      (body.dataset.chooseText || "now choose a destination")));
  }

  function syncControls(b) {
    var n = b && b.dataset.moveNumber;
    document.querySelectorAll('[data-sync="move-number"]').forEach(function (i) {
      if (n !== undefined) { i.value = n; }
    });
    var playing = !!(b && b.dataset.moveUrl);
    // Undo follows the server's undo_allowed (data-undo): a blocked game's last move may
    // be taken back, a game with no move or over for good has none to take back.
    var undoable = !!(b && b.dataset.undo);
    var undo = document.querySelector('[data-action="undo"]');
    if (undo) { undo.disabled = !undoable; }
    // Once the game is over (won, blocked, resigned, out of time) nothing more can be
    // played: hint and the typed move are switched off with the board; resign stays
    // while a blocked game may still be taken back (it ends it for good).
    document.querySelectorAll(
      '[data-action="hint"], form[data-typed-move] input[name="move"], ' +
      "form[data-typed-move] button"
    ).forEach(function (r) { r.disabled = !playing; });
    document.querySelectorAll("button.danger").forEach(function (r) {
      r.disabled = !playing && !undoable;
    });
    // An ended game's buttons and typed move are hidden (app.css).
    var controls = document.querySelector(".controls");
    if (controls && b) { controls.classList.toggle("idle", !playing && !undoable); }
    var typed = document.querySelector("details.typed");
    if (typed && b) { typed.hidden = !playing; }
  }

  // A hint names a move (data-hint on the board, from the server): its card and where
  // it goes are outlined (.hinted), the stock for a draw or a redeal.  The hint's words
  // stay in the board's message for screen readers; the next board drops the marks.
  function markHint(b) {
    var mv = b && b.dataset.hint;
    if (!mv) { return; }
    var parts = mv.split(">");
    var marks = [];
    if (parts.length === 2) {
      marks = Array.prototype.slice.call(
        b.querySelectorAll('[data-card="' + parts[0] + '"]'));
      marks.push(b.querySelector(parts[1] === "f"
        ? '[data-key="f-' + parts[0].slice(-1) + '"]'
        : '[data-key="pile-' + parts[1] + '"]'));
    } else {
      marks.push(b.querySelector('[data-action="stock"]'));
    }
    marks.forEach(function (el) { if (el) { el.classList.add("hinted"); } });
  }

  // Focus on a board drawn again stays with the card or button it was on (focusKey, its
  // data-key; "message": the board's message); a card that left its pile leaves it on
  // that pile: a tableau pile's button, the reserve's or the waste's new top card (the
  // stock once the waste is empty); else on the board's message.  A disabled button (a
  // stock with nothing left to draw) takes no focus: it fell to the page's body, and the
  // next shortcut key's board lost it for good.
  function focusKept(fresh, focusKey) {
    var usable = function (el) { return el && !el.disabled ? el : null; };
    var f = usable(fresh.querySelector('[data-key="' + focusKey + '"]'));
    var pile = focusKey.indexOf("-") > 0 ? focusKey.split("-")[0] : null;
    if (!f && pile) { f = usable(fresh.querySelector('[data-key="pile-' + pile + '"]')); }
    if (!f && (pile === "reserve" || pile === "waste")) {
      var tops = fresh.querySelectorAll('button[data-key^="' + pile + '-"]');
      f = usable(tops[tops.length - 1]) ||
        (pile === "waste" ? usable(fresh.querySelector('[data-key="stock"]')) : null);
    }
    (f || fresh.querySelector("#board-message")).focus();
  }

  function replaceBoard(html, focusKey, bySelf) {
    var b = board();
    if (!b) { return; }
    var before = saidBefore(b);
    var tpl = document.createElement("template");
    tpl.innerHTML = html.trim();
    var fresh = tpl.content.firstElementChild;
    if (!fresh || fresh.id !== "board") { say(html.slice(0, 200), true); return; }
    b.replaceWith(fresh);
    if (window.htmx) { window.htmx.process(fresh); }  // its hx- attributes (polls) work too
    selected = null;
    rove(fresh);
    // The board (and its message) is new: say the outcome through a region that stays.
    sayBoard(fresh, before, bySelf);
    armFade();
    localize(fresh);
    tickCountdowns();
    syncControls(fresh);
    followGame();
    awaitResults();
    if (focusKey) { focusKept(fresh, focusKey); }
    fresh.dispatchEvent(new CustomEvent("board:updated", { bubbles: true }));
  }

  function send(move) {
    var b = board();
    if (!b || !b.dataset.moveUrl || sending) { return; }
    sending = true;
    // Focus in the board on something without a key of its own (its message, after a
    // card went home by the keyboard) goes to the new board's message: it fell to the
    // page's body, and every later shortcut key (D) left it there.
    var active = document.activeElement;
    var focusKey = active && active.dataset ? active.dataset.key : null;
    if (!focusKey && active && active !== b && b.contains(active)) { focusKey = "message"; }
    var form = new URLSearchParams();
    form.set("move", move);
    form.set("expected_move_number", b.dataset.moveNumber);
    fetch(b.dataset.moveUrl, {
      method: "POST",
      headers: { "X-CSRFToken": csrf(), "HX-Request": "true" },
      body: form,
      credentials: "same-origin"
    })
      .then(function (r) {
        return r.text().then(function (html) {
          return { status: r.status, html: html, redirect: r.headers.get("HX-Redirect") };
        });
      }, function () { return null; })
      .then(function (answer) {
        sending = false;
        // The server sends the page elsewhere (a race game before its race starts: 204
        // with HX-Redirect to the race page, whose message says why), as htmx does for
        // the typed move and the buttons; it showed an empty error instead.
        if (answer && answer.redirect) {
          window.location.assign(answer.redirect);
          return;
        }
        // No answer (the network), or a proxy's own error page instead of a board (502,
        // 503, 504: the server behind it did not answer): said as such, never as the
        // page's raw HTML.  Only the request is judged here: a failure while the board
        // is drawn is not "the server did not answer" (it said so after a move played).
        // The next board answered replaces the message, so it goes once moves work.
        if (!answer || (answer.status >= 500 && answer.html.indexOf('id="board"') < 0)) {
          say(body.dataset.offlineText || "The server did not answer.", true);
          return;
        }
        replaceBoard(answer.html, focusKey);
      });
  }

  // The board drawn again by the page itself (its time is up, the race was cancelled, the
  // player disqualified).  Focus that was in the old board stays with the same card or
  // button, else goes to the board's message (a game over has no buttons left): it fell
  // to the page's body, and a keyboard user had to Tab from the top of the page again.
  // Focus elsewhere (the header, the typed move) is left where it is.
  function refreshBoard() {
    var b = board();
    if (!b || !b.dataset.boardUrl) { return; }
    fetch(b.dataset.boardUrl, { headers: { "HX-Request": "true" }, cache: "no-store" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (!html) { return; }
        var cur = board();
        var active = document.activeElement;
        var focusKey = cur && active && active !== cur && cur.contains(active)
          ? (active.dataset && active.dataset.key) || "message" : null;
        replaceBoard(html, focusKey, true);
      });
  }

  // A race game's play page follows the game's event stream (/api/v1/games/{id}/events):
  // when the organisers disqualify the player, or lift it, the board is drawn again at
  // once (the server's fragment says why), not at the next refused move.  Without a
  // stream (the WSGI server, no live events) the next move's answer still says it.
  // The stream is closed once the game is over (its slot counts against the player's
  // open streams) or when a redrawn board no longer asks for it; a dropped connection is
  // reconnected by the browser (followGame's onerror).  A stream the server refused or
  // ended for good is asked for again by one timer, waiting twice as long each time
  // (GAME_RETRY_MS up to GAME_RETRY_MAX_MS): the page holds at most one stream or one
  // timer, however many boards are drawn meanwhile (each redrawn board opened a new
  // stream after a refusal: one more request per move).
  var GAME_RETRY_MS = 5000;
  var GAME_RETRY_MAX_MS = 300000;
  var gameSource = null;
  var gameRetry = null;  // the timer of the next try after a refusal
  var gameRetryMs = GAME_RETRY_MS;
  function stopFollowing() {
    if (gameSource) { gameSource.close(); gameSource = null; }
    if (gameRetry) { clearTimeout(gameRetry); gameRetry = null; }
    gameRetryMs = GAME_RETRY_MS;
  }
  function followGame() {
    var b = board();
    var id = b && b.dataset.gameEvents;
    if (!id) { stopFollowing(); return; }
    if (!window.EventSource || gameSource || gameRetry) { return; }
    var source = new EventSource("/api/v1/games/" + encodeURIComponent(id) + "/events");
    gameSource = source;
    function check(view) {
      var cur = board();
      if (!cur || !view) { return; }
      if (view.status !== "playing") { stopFollowing(); }
      var out = view.disqualified_reason !== null && view.disqualified_reason !== undefined;
      if (out !== (cur.dataset.disqualified === "1") || view.status !== "playing") {
        refreshBoard();
      }
    }
    function parsed(e) { try { return JSON.parse(e.data); } catch (err) { return null; } }
    source.onopen = function () {
      if (gameSource === source) { gameRetryMs = GAME_RETRY_MS; }
    };
    source.addEventListener("snapshot", function (e) {
      var data = parsed(e);
      check(data && data.game);
    });
    source.addEventListener("game", function (e) { check(parsed(e)); });
    // A dropped connection (a proxy's idle timeout, a server restart, the network) is
    // an error with the source still CONNECTING: the browser reconnects by itself and the
    // server's snapshot on reconnecting redraws whatever changed meanwhile.  A source the
    // browser gave up (CLOSED: the server answered 204 after the game's last event, or
    // refused the stream, as the WSGI server does or during a Redis outage) is closed
    // here and asked for again after the back-off, if the board still asks for it.
    source.onerror = function () {
      if (gameSource !== source || source.readyState !== EventSource.CLOSED) { return; }
      source.close();
      gameSource = null;
      var wait = gameRetryMs;
      gameRetryMs = Math.min(gameRetryMs * 2, GAME_RETRY_MAX_MS);
      gameRetry = setTimeout(function () {
        gameRetry = null;
        followGame();
      }, wait);
    };
  }

  // A race game over before the race is: the board waits for the results.  The race's
  // event stream (/api/v1/races/{id}/events) says when the race is finished, and the
  // board is drawn again at once, with its results link (a walkthrough's only entrant
  // still read "the results appear when the race is finished" after it was, until a
  // reload).  Where the stream is refused (the WSGI server) the board's poll stands in.
  var raceSource = null;
  var raceRefused = null;  // the race whose stream the server refused: not asked again
  function stopAwaiting() {
    if (raceSource) { raceSource.close(); raceSource = null; }
  }
  function awaitResults() {
    var b = board();
    var wait = b && b.querySelector("[data-await-results][data-race-events]");
    var id = wait && wait.dataset.raceEvents;
    if (!id) { stopAwaiting(); return; }
    if (!window.EventSource || raceSource || raceRefused === id) { return; }
    var source = new EventSource("/api/v1/races/" + encodeURIComponent(id) + "/events");
    raceSource = source;
    function parsed(e) { try { return JSON.parse(e.data); } catch (err) { return null; } }
    function done(p) {
      if (!p || (p.phase !== "finished" && p.phase !== "cancelled")) { return; }
      if (raceSource === source) { raceSource = null; }
      source.close();
      refreshBoard();
    }
    source.addEventListener("phase", function (e) { done(parsed(e)); });
    source.addEventListener("gone", function () {  // the race is no longer ours to see
      if (raceSource === source) { raceSource = null; }
      source.close();
      raceRefused = id;
    });
    source.addEventListener("snapshot", function (e) {
      var s = parsed(e);
      done(s && s.race);
    });
    source.onerror = function () {
      if (source.readyState !== EventSource.CLOSED) { return; }  // reconnecting by itself
      if (raceSource === source) { raceSource = null; }
      source.close();
      raceRefused = id;
    };
  }

  function onClick(e) {
    var b = board();
    var btn = e.target.closest && e.target.closest("button");
    if (!b || !btn || !b.contains(btn) || !b.dataset.moveUrl) { return; }
    if (btn.dataset.action === "stock") {
      clearSelection();
      if (btn.dataset.move) { send(btn.dataset.move); }
      return;
    }
    if (btn.dataset.card) {
      if (selected && selected.card === btn.dataset.card) { clearSelection(); say(""); return; }
      if (selected && btn.dataset.from && btn.dataset.from.charAt(0) === "t" &&
          btn.dataset.from !== selected.from) {
        var mv = selected.card + ">" + btn.dataset.from;
        clearSelection();
        send(mv);
        return;
      }
      select(btn);
      return;
    }
    if (btn.dataset.dest) {
      if (!selected) { say(body.dataset.pickText || "Choose a card first.", true); return; }
      var move = selected.card + ">" + btn.dataset.dest;
      clearSelection();
      send(move);
    }
  }

  // The close button of the phone's message band (a phone has no Escape key) empties
  // the board's message; focus it held goes on to the board.
  function onDismiss(e) {
    var btn = e.target.closest && e.target.closest('[data-action="dismiss-message"]');
    if (!btn) { return; }
    var had = document.activeElement === btn;
    say("");
    if (had && board()) { refocus(board()); }
  }

  function onDblClick(e) {
    var b = board();
    var btn = e.target.closest && e.target.closest("button[data-card]");
    if (!b || !btn || !b.contains(btn) || !b.dataset.moveUrl) { return; }
    clearSelection();
    send(btn.dataset.card + ">f");
  }

  // One Tab stop per pile (WAI-ARIA Authoring Practices, "Keyboard Navigation Inside
  // Components": a roving tabindex).  The piles, in reading order: the reserve's top
  // card, the stock, the waste's top card, each foundation, each tableau pile (its
  // button, then its cards, bottom first).  In each pile one button has tabindex 0 (at
  // first the top card, else the pile's only button), the others -1: Tab goes from pile
  // to pile (a long pile's every covered card was a Tab stop, some 19 presses per move),
  // Up and Down (Home, End) go among a pile's cards, Left and Right to the pile before or
  // after.  Enter and Space press the button, as ever.  Only buttons the board already
  // draws are reached: a face-down card, the stock's order, is never one (RULES.md 7).
  // Left and Right keep to this order, Tab's, whatever the layout (Left on pile 1 goes to
  // the spades foundation; the key list says so).  A 2-D move (Left and Right within a
  // row, Up and Down between rows) was weighed and left: the rows change with the
  // screen's width (under 48rem the foundations are a row of their own and a wide
  // reserve one too), so the same key would go elsewhere on a phone; Up and Down already
  // go among a pile's cards, so they would change rows only at a pile's ends; and the
  // board is no grid (role="grid", WAI-ARIA's pattern for 2-D arrow keys): a screen
  // reader hears no rows or columns, and hears the piles in this order.
  function roveGroups(b) {
    var groups = [];
    if (!b) { return groups; }
    function add(list) {
      var items = Array.prototype.filter.call(list, function (el) { return !el.disabled; });
      if (items.length) { groups.push(items); }
    }
    add(b.querySelectorAll(".area.reserve button"));
    add(b.querySelectorAll('.area.stock [data-action="stock"]'));
    add(b.querySelectorAll(".area.stock .waste button"));
    b.querySelectorAll(".area.foundations button").forEach(function (f) { add([f]); });
    b.querySelectorAll(".tableau [data-pile]").forEach(function (p) {
      add(p.querySelectorAll("button"));
    });
    return groups;
  }

  function roveTo(items, el) {
    items.forEach(function (i) { i.setAttribute("tabindex", i === el ? "0" : "-1"); });
  }

  // A board drawn (the page, a move's answer, htmx): each pile's Tab stop is its top
  // card, or the button that already is (a board's buttons are new when it is drawn).
  function rove(b) {
    roveGroups(b).forEach(function (items) {
      var stop = items.filter(function (el) { return el.getAttribute("tabindex") === "0"; });
      roveTo(items, stop[0] || items[items.length - 1]);
    });
  }

  function roveFind(b, el) {
    var groups = roveGroups(b);
    for (var g = 0; g < groups.length; g++) {
      var i = groups[g].indexOf(el);
      if (i >= 0) { return { groups: groups, g: g, i: i }; }
    }
    return null;
  }

  // Whatever focused a button of a pile (a click, a shortcut key, focus put back after a
  // move), it becomes the pile's Tab stop.
  function onRoveFocus(e) {
    var b = board();
    if (!b || !b.contains(e.target)) { return; }
    var at = roveFind(b, e.target);
    if (at) { roveTo(at.groups[at.g], e.target); }
  }

  function onRoveKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey || e.shiftKey) { return; }
    var k = e.key;
    if (["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End"].indexOf(k) < 0) {
      return;
    }
    var b = board();
    var at = b && b.contains(e.target) ? roveFind(b, e.target) : null;
    if (!at) { return; }
    var items = at.groups[at.g];
    var target = null;
    if (k === "ArrowUp") { target = items[at.i - 1]; }
    else if (k === "ArrowDown") { target = items[at.i + 1]; }
    else if (k === "Home") { target = items[0]; }
    else if (k === "End") { target = items[items.length - 1]; }
    else {
      var next = at.groups[at.g + (k === "ArrowLeft" ? -1 : 1)];
      target = next && (next.filter(function (el) {
        return el.getAttribute("tabindex") === "0";
      })[0] || next[next.length - 1]);
    }
    e.preventDefault();  // the page does not scroll under the board's arrow keys
    if (target) { target.focus(); }
  }

  function pileCards(n) {
    var b = board();
    return b ? b.querySelectorAll('[data-pile="t' + n + '"] button[data-card]') : [];
  }

  function onKey(e) {
    var b = board();
    if (!b) { return; }
    var key = (e.key || "").toLowerCase();
    // Escape takes the message away on an ended board too ("You resigned: 9 cards home.").  A blocked
    // game whose last move may still be taken back (data-undo, the view's undo_allowed)
    // has no move to play but takes U as its Undo button (U did nothing there).
    if (!b.dataset.moveUrl) {
      if (key === "escape") {
        // As the close button does (onDismiss): focus held by the message, emptied now,
        // goes on (refocus: Undo where the game allows it, else the first link after the
        // board, Replay), not left on an empty element.
        var msg = b.querySelector(".message-band");
        var held = msg && msg.contains(document.activeElement);
        say("");
        if (held) { document.activeElement.blur(); refocus(b); }
        return;
      }
      if (key !== "u" || !b.dataset.undo) { return; }
    }
    if (e.ctrlKey || e.metaKey || e.altKey) { return; }
    var tag = (e.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "select" || tag === "textarea") { return; }
    var digit = /^Digit([1-4])$/.exec(e.code || "");
    var btn;
    if (digit) {
      var n = digit[1];
      var cards = pileCards(n);
      if (e.shiftKey) {
        if (cards.length) { select(cards[0]); cards[0].focus(); }
      } else if (selected) {
        var mv = selected.card + ">t" + n;
        clearSelection();
        send(mv);
      } else if (cards.length) {
        select(cards[cards.length - 1]);
        cards[cards.length - 1].focus();
      }
      e.preventDefault();
      return;
    }
    if (key === "r" || key === "w") {
      var list = b.querySelectorAll('button[data-card][data-from="' + (key === "r" ? "reserve" : "waste") + '"]');
      btn = list[list.length - 1];
      if (btn) { select(btn); btn.focus(); }
      // Said, not ignored: no card to pick there.
      else { say(document.body.dataset[key === "r" ? "noReserveText" : "noWasteText"] || "", true); }
      e.preventDefault();
    } else if (key === "h" || key === "f") {
      if (selected) { var m = selected.card + ">f"; clearSelection(); send(m); }
      else { say(document.body.dataset.pickText || "Choose a card first.", true); }
      e.preventDefault();
    } else if (key === "d") {
      btn = b.querySelector('[data-action="stock"]');
      if (btn && btn.dataset.move) { clearSelection(); send(btn.dataset.move); }
      e.preventDefault();
    } else if (key === "u") {
      btn = document.querySelector('[data-action="undo"]');
      if (btn && !btn.disabled) {
        // U pressed on the board: the board the Undo answers keeps focus where it was
        // (it went to the Undo button, out of the board, where the arrow keys do nothing).
        var on = document.activeElement;
        undoFocusKey = on && on !== b && b.contains(on)
          ? (on.dataset && on.dataset.key) || "message" : null;
        btn.click();
      }
      else if (btn) { say(document.body.dataset.nothingUndoText || "", true); }  // nothing to take back
      var controls = document.querySelector(".controls[data-no-undo]");
      if (!btn && controls) { say(controls.dataset.noUndo, true); }  // said, not ignored
      e.preventDefault();
    } else if (key === "escape") {
      clearSelection();
      say("");
    }
  }

  /* ---------------------------------------------------------------- replay keys */
  // Replay steps: Back and Forward (buttons or arrow keys) move a target step at once,
  // and the viewer asks for the latest target when its last answer is back, so quick
  // presses are all counted (htmx dropped a click made while a step was loading: five
  // quick presses went four steps).  The address follows the step shown.
  var replayWanted = null;
  var replayBusy = false;
  function replayNav() { return document.querySelector("[data-replay]"); }
  function replayFetch() {
    var nav = replayNav();
    if (!nav || replayWanted === null || !window.htmx) { replayBusy = false; return; }
    var step = replayWanted;
    var url = nav.dataset.replayUrl + "?step=" + step;
    replayBusy = true;
    window.htmx.ajax("GET", url, { target: "#replay", swap: "innerHTML" }).then(function () {
      history.replaceState(history.state, "", url);
      if (replayWanted === step) { replayWanted = null; replayBusy = false; } else { replayFetch(); }
    }, function () { replayWanted = null; replayBusy = false; });
  }
  function replayStep(delta) {
    var nav = replayNav();
    var shown = document.querySelector("[data-replay-step]");
    if (!nav || !shown) { return false; }
    var total = Number(nav.dataset.total || 0);
    var from = replayWanted !== null ? replayWanted : Number(shown.dataset.replayStep || 0);
    var to = Math.max(0, Math.min(total, from + delta));
    if (to === from) { return true; }
    replayWanted = to;
    if (!replayBusy) { replayFetch(); }
    return true;
  }
  // The replay's buttons are drawn again with each step (#replay's content is swapped):
  // focus on one of them (Forward, Back, Start, End, the move number, Go) went with the old
  // content to the page's body, so a keyboard user's second Enter on Forward did nothing.
  // It goes to the same control of the new content (by data-step, its links' addresses
  // change with the step), else stays in the replay.
  var replayFocus = null;
  function onReplayBeforeSwap(e) {
    var t = e.detail && e.detail.target;
    if (!t || t.id !== "replay") { return; }
    var a = document.activeElement;
    if (!a || a === t || !t.contains(a)) { replayFocus = null; return; }
    replayFocus = a.dataset && a.dataset.step
      ? { sel: '[data-step="' + CSS.escape(a.dataset.step) + '"]', nth: 0 }
      : focusMark(t, a);
  }
  // The step's words ("Move 2 of 9: ...") are in the swapped content, and a live region
  // added to the page is not read: screen readers hear them from #replay-announcer, which
  // stays on the page.
  function onReplayAfterSwap(e) {
    var t = e.detail && e.detail.target;
    if (!t || t.id !== "replay") { return; }
    var said = document.getElementById("replay-announcer");
    var shown = t.querySelector("[data-replay-step]");
    if (said && shown) { said.textContent = shown.textContent.replace(/\s+/g, " ").trim(); }
    if (!replayFocus) { return; }
    var mark = replayFocus;
    replayFocus = null;
    refocusLive(t, mark);
  }

  function onReplayClick(e) {
    var a = e.target.closest && e.target.closest("[data-replay] [data-step]");
    if (!a) { return; }
    var delta = a.dataset.step === "next" ? 1 : a.dataset.step === "prev" ? -1 : 0;
    if (delta && replayStep(delta)) { e.preventDefault(); e.stopPropagation(); }
  }
  function onReplayKey(e) {
    if (!replayNav() || e.ctrlKey || e.metaKey || e.altKey) { return; }
    var tag = (e.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "select" || tag === "textarea") { return; }
    if (e.key === "Home" || e.key === "End") {  // Start and End, as their buttons
      var a = document.querySelector(
        '[data-replay] [data-step="' + (e.key === "Home" ? "first" : "last") + '"]');
      if (a && a.getAttribute("aria-disabled") !== "true") { a.click(); }
      e.preventDefault();
      return;
    }
    var delta = e.key === "ArrowLeft" ? -1 : e.key === "ArrowRight" ? 1 : 0;
    if (delta && replayStep(delta)) { e.preventDefault(); }
  }

  /* ---------------------------------------------------------------- solution page */
  // While the solver works the solution page asks for its answers every few seconds
  // (_solution.html, htmx: swapped into #solution-parts; the page reloaded itself, and a
  // screen reader lost its place each time).  Once no answer is pending, what they say
  // (each [data-verdict]: "The deal can be won in 96 moves. ...") is said through
  // #solution-said, a polite live region that stays on the page; the answers still
  // awaited are not said again every few seconds.
  function onSolutionSwap(e) {
    var t = e.detail && e.detail.target;
    if (!t || t.id !== "solution-parts" || t.querySelector("[data-pending]")) { return; }
    var said = document.getElementById("solution-said");
    if (!said) { return; }
    said.textContent = Array.prototype.map.call(t.querySelectorAll("[data-verdict]"), function (p) {
      return p.textContent.replace(/\s+/g, " ").trim();
    }).join(" ");
  }

  /* ---------------------------------------------------------------- start */
  function start() {
    localize(document);
    labelStacks(document);
    markScrollers(document);
    window.addEventListener("resize", function () { markScrollers(document); });
    tickCountdowns();
    setInterval(tickCountdowns, 1000);
    document.querySelectorAll("[data-poll]").forEach(subscribe);
    document.addEventListener("click", onClick);
    document.addEventListener("click", onDismiss);
    document.addEventListener("dblclick", onDblClick);
    document.addEventListener("keydown", onKey);
    document.addEventListener("keydown", onRoveKey);
    document.addEventListener("focusin", onRoveFocus);
    document.addEventListener("keydown", onReplayKey);
    // Capture: before htmx's own handler on the link, which would drop a quick click.
    document.addEventListener("click", onReplayClick, true);
    document.body.addEventListener("htmx:beforeSwap", onReplayBeforeSwap);
    // What the board said before htmx draws it again (sayBoard, after settling).
    document.body.addEventListener("htmx:beforeSwap", function (e) {
      var t = e.detail && e.detail.target;
      if (t && t.id === "board") { boardBefore = saidBefore(t); }
    });
    document.body.addEventListener("htmx:afterSwap", onReplayAfterSwap);
    document.body.addEventListener("htmx:afterSwap", onSolutionSwap);
    document.body.addEventListener("htmx:afterSwap", function (e) {
      localize(document);
      labelStacks(document);
      markScrollers(document);
      tickCountdowns();
      var b = board();
      // A new board (Undo, Hint, Resign, a typed move, a poll) has no card selected:
      // the card chosen before it no longer waits for a destination (after an Undo a
      // tap on a pile still moved it).
      if (b && e.detail && e.detail.elt === b) { selected = null; }
      if (b) { rove(b); syncControls(b); markHint(b); followGame(); awaitResults(); }
    });
    // A typed move that was played clears its field; a refused one stays to be fixed.
    // After settling: until then htmx keeps the old message's classes on the new one.
    document.body.addEventListener("htmx:afterSettle", function (e) {
      var cfg = e.detail && e.detail.requestConfig;
      var form = cfg && cfg.elt && cfg.elt.closest && cfg.elt.closest("form[data-typed-move]");
      var b = board();
      // A board answered to the player's typed move, Undo, Hint or Resign says its outcome
      // through #announcer, as a clicked move does (replaceBoard).  A board the page asked
      // for by itself (a pending hint asking again, a game over waiting for the results)
      // says only what is new (sayBoard): the same note every few seconds is noise.
      var polled = cfg && cfg.elt && cfg.elt.matches &&
        cfg.elt.matches("[data-hint-poll], [data-await-results]");
      if (b && cfg && e.detail.elt === b) {
        sayBoard(b, boardBefore, polled);
        armFade(polled);
      }
      // After Undo, Hint or Resign, focus stays on the page; U pressed on the board keeps
      // it on the board (focusKept).
      var undone = cfg && cfg.elt && cfg.elt.closest && cfg.elt.closest("form") &&
        cfg.elt.closest("form").querySelector('[data-action="undo"]');
      if (b && cfg && e.detail.elt === b && undone && undoFocusKey) {
        focusKept(b, undoFocusKey);
      } else if (b && cfg && e.detail.elt === b && !form && !polled) { refocus(b); }
      if (b && cfg && e.detail.elt === b && !polled) { undoFocusKey = null; }
      if (form && b && !b.querySelector(".message.error")) {
        var input = form.querySelector('input[name="move"]');
        if (input) { input.value = ""; }
        // The field takes the next move; once the game is over (a typed move that won
        // or blocked it) it is switched off and focus was lost to the page's body, so
        // it goes where a clicked move leaves it (refocus: a blocked game's Undo).
        if (input && !input.disabled) { input.focus(); } else { refocus(b); }
      }
    });
    rove(board());
    syncControls(board());
    markHint(board());
    followGame();
    awaitResults();
    armFade();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
