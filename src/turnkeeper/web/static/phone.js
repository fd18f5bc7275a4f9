// A player's phone: the character's choices post to the page's own link, the phone calls its
// player when something is wanted of them, says when the live connection is lost, and asks
// to keep the screen on.
(function () {
  "use strict";

  var body = function () { return document.body; };
  function now() { return document.getElementById("now"); }

  // The display is drawn once for every page of a seat, without a token: the page knows its
  // own link.
  document.addEventListener("htmx:configRequest", function (event) {
    var form = event.detail.elt;
    if (form && form.hasAttribute && form.hasAttribute("data-hand-form") && body().dataset.hand) {
      event.detail.path = body().dataset.hand;
    }
  });

  // What was typed or chosen in the character's choices survives the table moving on: the
  // live stream redraws the display, the choices with it.
  var kept = {};
  function fieldKey(field) {
    var form = field.form, action = form && form.querySelector("[name=action]");
    return (form ? form.querySelector("[name=verb]").value + ":" + (action ? action.value : "") : "") +
      ":" + field.name;
  }
  function keep() {
    kept = {};
    document.querySelectorAll("#now input:not([type=hidden]), #now select").forEach(function (field) {
      kept[fieldKey(field)] = field.value;
    });
  }
  function restore() {
    document.querySelectorAll("#now input:not([type=hidden]), #now select").forEach(function (field) {
      var value = kept[fieldKey(field)];
      if (value === undefined) return;
      if (field.tagName === "SELECT" && !Array.prototype.some.call(field.options, function (o) {
        return o.value === value;
      })) return;  // a foe who fell is no longer on the menu
      field.value = value;
    });
  }
  document.addEventListener("htmx:sseBeforeMessage", keep);

  // Roll the ruleset's attack die on the phone: the faces go with the declaration, as the
  // player's own dice.
  document.addEventListener("click", function (event) {
    var button = event.target && event.target.closest && event.target.closest("[data-roll]");
    if (!button) return;
    var roll = button.closest(".roll");
    var sides = roll.getAttribute("data-sides").split(" ").filter(Boolean).map(Number);
    var random = new Uint32Array(sides.length);
    window.crypto.getRandomValues(random);
    var faces = sides.map(function (s, i) { return 1 + (random[i] % s); });
    roll.querySelector("[name=rolled]").value = faces.join(", ");
    roll.querySelector(".rolled").textContent = "rolled " + faces.join(", ");
  });

  // The answer to a choice: an error is in words, and goes once the question it answered has.
  var asked = null, answered = false;
  function question() {
    var n = now();
    return n ? n.getAttribute("data-key") + "|" + (n.querySelector("h2") || n).textContent : null;
  }
  document.addEventListener("htmx:beforeRequest", function (event) {
    var said = document.getElementById("said");
    if (said && event.detail.elt && event.detail.elt.hasAttribute("data-hand-form")) said.innerHTML = "";
  });

  // A choice taken is spent: its roll was used (a refused one keeps it, to be mended).
  document.addEventListener("htmx:afterRequest", function (event) {
    var form = event.detail.elt, status = event.detail.xhr ? event.detail.xhr.status : 0;
    if (form && form.hasAttribute && form.hasAttribute("data-hand-form") && status >= 200 && status < 300) {
      answered = true;
      form.reset();
      form.querySelectorAll(".rolled").forEach(function (said) { said.textContent = ""; });
    }
  });

  // The phone calls its player once each time a declaration, a vote or a roll is wanted of them.
  var called = null, title = null;
  var sound = null;
  function beep() {
    try {
      var Context = window.AudioContext || window.webkitAudioContext;
      if (!Context) return;
      sound = sound || new Context();
      var tone = sound.createOscillator(), gain = sound.createGain();
      tone.frequency.value = 880;
      gain.gain.value = 0.15;
      tone.connect(gain).connect(sound.destination);
      tone.start();
      tone.stop(sound.currentTime + 0.25);
    } catch (ignored) { /* a phone without sound: the vibration and the title call */ }
  }
  function call() {
    var n = now();
    if (!n) return;
    title = title || body().dataset.title || document.title;
    var wanted = n.getAttribute("data-call"), key = n.getAttribute("data-key");
    if (!wanted) {
      document.title = title;
      body().removeAttribute("data-called");
      return;
    }
    var calls = { vote: "● Your vote · ", roll: "● Your roll · " };
    document.title = (calls[wanted] || "● Your turn · ") + title;
    if (key === called) return;
    called = key;
    body().setAttribute("data-called", key);
    if (navigator.vibrate) navigator.vibrate([200, 100, 200]);
    var box = document.getElementById("call-sound");
    if (box && box.checked) beep();
  }

  function settled() {
    restore();
    var q = question();
    var said = document.getElementById("said");
    if (said && asked !== null && q !== asked) {
      // the question changed: a refusal no longer applies; what was done stays until the
      // table moves on again (its own move changes the question once)
      said.querySelectorAll(".problem").forEach(function (p) { p.remove(); });
      if (answered) answered = false;
      else said.innerHTML = "";
    }
    asked = q;
    call();
  }
  document.addEventListener("htmx:sseMessage", settled);
  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.target && (event.target.id === "display" || event.target.id === "parts")) settled();
  });

  // A banner when the live connection is lost, and when it is back (the stream then sends
  // what changed meanwhile).
  var lost = false, hide = null;
  function banner(text, kind) {
    var box = document.getElementById("connection");
    if (!box) return;
    clearTimeout(hide);
    box.textContent = text;
    box.className = "connection " + kind;
    box.hidden = false;
  }
  document.addEventListener("htmx:sseError", function () {
    lost = true;
    banner("Connection lost: the table may have moved on. Trying again…", "lost");
  });
  document.addEventListener("htmx:sseOpen", function () {
    if (!lost) return;
    lost = false;
    banner("Back online: caught up with the table.", "back");
    hide = setTimeout(function () { document.getElementById("connection").hidden = true; }, 4000);
  });

  // Keep the screen on during a session, where the browser lets a page ask.
  var lock = null;
  function stayAwake() {
    if (!("wakeLock" in navigator) || document.visibilityState !== "visible") {
      body().setAttribute("data-awake", "wakeLock" in navigator ? "hidden" : "unsupported");
      return;
    }
    navigator.wakeLock.request("screen").then(function (held) {
      lock = held;
      body().setAttribute("data-awake", "yes");
      held.addEventListener("release", function () { lock = null; });
    }, function () { body().setAttribute("data-awake", "refused"); });
  }
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && lock === null) stayAwake();
  });

  document.addEventListener("change", function (event) {
    if (event.target && event.target.id === "call-sound") {
      try { localStorage.setItem("turnkeeper-sound", event.target.checked ? "on" : ""); } catch (e) { /* private mode */ }
      if (event.target.checked) beep();  // a touch lets the page sound later
    }
  });
  document.addEventListener("DOMContentLoaded", function () {
    var box = document.getElementById("call-sound");
    try { if (box && localStorage.getItem("turnkeeper-sound") === "on") box.checked = true; } catch (e) { /* private mode */ }
    asked = question();
    call();
    stayAwake();
  });
})();
