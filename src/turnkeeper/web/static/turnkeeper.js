// turnkeeper's pages: the few things htmx does not do by itself.
(function () {
  "use strict";

  // The version the referee is looking at: forms send it, so a command aimed at a table that
  // moved on meanwhile is refused (409) instead of run against what was not seen.
  function shownVersion() {
    var display = document.querySelector("#display .display");
    return display ? display.getAttribute("data-version") : null;
  }

  // Offer the controls that fit where the party is; the forms stay in the page, values kept.
  function showFittingControls() {
    var display = document.querySelector("#display .display");
    if (!display || !display.hasAttribute("data-here")) return;
    var here = display.getAttribute("data-here").split(" ").filter(Boolean);
    var every = document.getElementById("every-control");
    document.body.setAttribute("data-here", here.join(" "));
    document.querySelectorAll(".controls .group[data-place]").forEach(function (group) {
      var place = group.getAttribute("data-place");
      var always = group.hasAttribute("data-always");
      group.hidden = !(always || here.indexOf(place) >= 0 || (every && every.checked));
    });
  }

  document.addEventListener("htmx:configRequest", function (event) {
    var form = event.detail.elt;
    if (form && form.classList && form.classList.contains("control")) {
      var seen = shownVersion();
      if (seen !== null) event.detail.parameters["expected_version"] = seen;
      // the page's id, from its stream's link: the answer shows the display, the stream skips it
      var live = document.querySelector("[sse-connect]");
      var page = live && /[?&]page=([^&]+)/.exec(live.getAttribute("sse-connect"));
      if (page) event.detail.headers["X-Turnkeeper-Page"] = page[1];
    }
    if (form && form.id === "older-journal") {
      event.detail.parameters["before"] = oldestLine();
    }
  });

  // The journal pages back: older lines go below the display's, before the oldest shown.
  function oldestLine() {
    var oldest = null;
    document.querySelectorAll("#display .journal li[data-seq], #older-lines li[data-seq]")
      .forEach(function (line) {
        var seq = Number(line.getAttribute("data-seq"));
        if (oldest === null || seq < oldest) oldest = seq;
      });
    return oldest === null ? 1 : oldest;
  }

  // A move shifts the display's lines: the older ones shown would leave a gap, so they go,
  // and the button asks again from the display's oldest.
  var olderButton = null;
  document.addEventListener("DOMContentLoaded", function () {
    var button = document.getElementById("older-journal");
    if (button) olderButton = button.outerHTML;
  });
  document.addEventListener("htmx:sseMessage", function (event) {
    var older = document.getElementById("older-lines");
    if (!older || !event.target || (event.target.id !== "display" && event.target.id !== "parts")) return;
    if (older.children.length) older.innerHTML = "";
    var shown = document.getElementById("older-journal");
    if (olderButton && shown && shown.tagName !== "BUTTON") {
      shown.outerHTML = olderButton;
      htmx.process(document.getElementById("older-journal"));
    }
  });

  // A command that ran is spent: its form goes back to its defaults (a box left ticked, such
  // as "ranged", would go out with the next attack; typed dice were used). A refused command
  // keeps what was typed, to be mended.
  document.addEventListener("htmx:afterRequest", function (event) {
    var form = event.detail.elt;
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    if (form && form.classList && form.classList.contains("control") && status >= 200 && status < 300) {
      form.reset();
    }
  });

  // The display comes both with a form's answer and by the live stream, in either order: a
  // display never replaces a newer one.
  function versionIn(html) {
    var found = /data-version="(\d+)"/.exec(html);
    return found ? Number(found[1]) : null;
  }

  function older(html) {
    var incoming = versionIn(html), seen = shownVersion();
    return incoming !== null && seen !== null && incoming < Number(seen);
  }

  document.addEventListener("htmx:sseBeforeMessage", function (event) {
    var target = event.target;
    if (target && target.id === "display" && older(event.detail.data)) event.preventDefault();
    if (target && target.id === "parts") {
      // the parts that changed since the version this page shows: only onto that version
      var base = /data-base="(\d+)"/.exec(event.detail.data);
      if (!base || Number(base[1]) !== Number(shownVersion())) {
        event.preventDefault();
        wholeDisplay();
      }
    }
  });

  // The parts are in place: the display says its new version and where the party is.
  document.addEventListener("htmx:sseMessage", function (event) {
    if (!event.target || event.target.id !== "parts") return;
    var parts = event.target.querySelector(".parts");
    var display = document.querySelector("#display .display");
    if (parts && display) {
      ["data-version", "data-here"].forEach(function (name) {
        if (parts.hasAttribute(name)) display.setAttribute(name, parts.getAttribute(name));
      });
    }
    event.target.innerHTML = "";
  });

  // A form's answer may carry the parts that changed since the version its page showed when
  // it was sent (each taking its part's place out of band, as the stream's do): only onto
  // that version. A page the stream moved on meanwhile keeps what it shows (newer, or the
  // whole display is asked for); the answer's line stays beside its form.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var answer = event.detail.serverResponse;
    if (typeof answer !== "string" || answer.indexOf('<div class="parts"') < 0) return;
    var base = /<div class="parts" data-base="(\d+)"/.exec(answer);
    if (base && Number(base[1]) === Number(shownVersion())) return;
    event.detail.serverResponse = answer.slice(0, answer.indexOf('<div class="parts"'));
    var incoming = versionIn(answer.slice(answer.indexOf('<div class="parts"')));
    if (incoming !== null && incoming > Number(shownVersion())) wholeDisplay();
  });

  // The answer's parts are in place: the display says its new version and where the party is.
  document.addEventListener("htmx:afterSwap", function (event) {
    var parts = event.detail.target && event.detail.target.querySelector
      ? event.detail.target.querySelector(".parts") : null;
    var display = document.querySelector("#display .display");
    if (!parts || !display || event.detail.target.id === "parts") return;
    ["data-version", "data-here"].forEach(function (name) {
      if (parts.hasAttribute(name)) display.setAttribute(name, parts.getAttribute(name));
    });
    parts.remove();
  });

  // The whole display, asked for when parts came for a version this page does not show.
  function wholeDisplay() {
    var live = document.querySelector("[sse-connect]");
    if (!live) return;
    var url = live.getAttribute("sse-connect").replace("/live?", "/display?");
    htmx.ajax("GET", url, { target: "#display", swap: "innerHTML" });
  }

  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail.target;
    if (!target || target.id !== "display") return;
    var held = document.createElement("div");
    held.appendChild(event.detail.fragment.cloneNode(true));
    if (older(held.innerHTML)) event.detail.shouldSwap = false;
  });

  // No inline handlers (the pages' Content-Security-Policy forbids them): these stand in.
  document.addEventListener("click", function (event) {
    var target = event.target;
    if (!target || !target.closest) return;
    if (target.closest("[data-back]") && history.length > 1) {
      event.preventDefault();
      history.back();  // back to the page, the form as it was typed
    } else if (target.matches("[data-select-on-click]")) {
      target.select();
    } else if (target.matches("[data-attack], [data-hurt], [data-mend]")) {
      // a combatant's row acts through the verb's own form: filled from the row, then sent
      var row = target.closest("tr");
      var name = target.getAttribute("data-attack") || target.getAttribute("data-hurt") ||
        target.getAttribute("data-mend");
      if (target.hasAttribute("data-attack")) {
        var whom = row.querySelector("[data-attack-from]");
        send("combat_attack", { attacker: name, target: whom ? whom.value : "" });
      } else {
        var amount = row.querySelector("[data-amount-for]");
        var verb = target.hasAttribute("data-hurt") ? "damage" : "heal";
        send(verb, { target: name, amount: amount && amount.value ? amount.value : "1" });
        if (amount) amount.value = "";  // spent: a redraw must not bring it back
      }
    } else if (target.matches("[data-turn-mode]")) {
      // a dungeon turn in one click: the Dungeon turn form, sent with this mode
      // (not named "send": a var is hoisted to the whole handler and would hide send())
      var mode = document.getElementById("f-turn-mode");
      var turnButton = document.querySelector("#control-turn button");
      if (mode && turnButton) {
        mode.value = target.getAttribute("data-turn-mode");
        turnButton.click();
      }
    }
  });

  // What is typed in a combatant's row survives the live stream redrawing the tracker.
  var rowValues = {};
  document.addEventListener("htmx:sseBeforeMessage", function () {
    rowValues = {};
    document.querySelectorAll("[data-amount-for], [data-attack-from]").forEach(function (field) {
      var key = field.hasAttribute("data-amount-for") ? "amount:" + field.getAttribute("data-amount-for")
        : "whom:" + field.getAttribute("data-attack-from");
      if (field.value) rowValues[key] = field.value;
    });
  });
  document.addEventListener("htmx:sseMessage", function () {
    Object.keys(rowValues).forEach(function (key) {
      var who = key.slice(key.indexOf(":") + 1);
      var field = key.indexOf("amount:") === 0
        ? document.querySelector('[data-amount-for="' + CSS.escape(who) + '"]')
        : document.querySelector('[data-attack-from="' + CSS.escape(who) + '"]');
      if (field && field.tagName === "SELECT" && !Array.prototype.some.call(field.options, function (o) {
        return o.value === rowValues[key];
      })) return;
      if (field) field.value = rowValues[key];
    });
  });

  // Send a verb's own form with these values (its other fields as they stand).
  function send(verb, values) {
    var button = document.querySelector("#control-" + verb + " button");
    if (!button) return;
    Object.keys(values).forEach(function (field) {
      var input = document.getElementById("f-" + verb + "-" + field);
      if (input) input.value = values[field];
    });
    button.click();
  }

  // How many dice of which kinds a form's command rolls, asked of the server as the form is
  // filled (the engine counts them from the state now), shown beside its dice field: the
  // referee types in that many, not one error at a time.
  var countLater = {};
  function countDice(form) {
    var url = form.getAttribute("data-dice"), shown = form.querySelector(".dice-asked");
    if (!url || !shown) return;
    var fields = new URLSearchParams(new FormData(form)).toString();
    fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "HX-Request": "true", "Content-Type": "application/x-www-form-urlencoded" },
      body: fields
    })
      .then(function (answer) { return answer.ok ? answer.text() : ""; })
      .then(function (text) {
        // typed on meanwhile: a newer count follows
        if (new URLSearchParams(new FormData(form)).toString() === fields) shown.innerHTML = text;
      }, function () { /* offline: the banner says so; the count waits for the next change */ });
  }
  function countSoon(form) {
    if (!form.hasAttribute("data-dice")) return;
    clearTimeout(countLater[form.id]);
    countLater[form.id] = setTimeout(function () { countDice(form); }, 350);
  }
  ["input", "change"].forEach(function (kind) {
    document.addEventListener(kind, function (event) {
      var form = event.target && event.target.closest && event.target.closest("form.control");
      if (form) countSoon(form);
    });
  });
  document.addEventListener("focusin", function (event) {
    var field = event.target;
    if (field && field.name === "dice" && field.form && field.form.classList.contains("control")) {
      countSoon(field.form);  // the table may have moved on since the form was filled
    }
  });
  // A command that ran spent its form: its count goes with its values.
  document.addEventListener("htmx:afterRequest", function (event) {
    var form = event.detail.elt, status = event.detail.xhr ? event.detail.xhr.status : 0;
    if (!form || !form.classList || !form.classList.contains("control")) return;
    var shown = form.querySelector(".dice-asked");
    if (shown && status >= 200 && status < 300) {
      clearTimeout(countLater[form.id]);
      shown.innerHTML = "";
    }
  });

  document.addEventListener("htmx:afterSettle", showFittingControls);
  document.addEventListener("htmx:sseMessage", showFittingControls);
  document.addEventListener("change", function (event) {
    if (event.target && event.target.id === "every-control") showFittingControls();
  });
  document.addEventListener("DOMContentLoaded", showFittingControls);

  // Zoom and pan on the map, by wheel, drag, pinch and keys; the hex under the pointer stays
  // put. The view survives the live updates: a new drawing of the map takes the last view.
  var mapView = null;

  function mapSvg() { return document.querySelector(".map svg"); }

  function box(svg) { return svg.viewBox.baseVal; }

  function setBox(svg, x, y, width, height) {
    svg.setAttribute("viewBox", [x, y, width, height].join(" "));
    mapView = [x, y, width, height];
  }

  function pointIn(svg, clientX, clientY) {
    var point = svg.createSVGPoint();
    point.x = clientX; point.y = clientY;
    return point.matrixTransform(svg.getScreenCTM().inverse());
  }

  function zoomAt(svg, clientX, clientY, factor) {
    var b = box(svg), at = pointIn(svg, clientX, clientY);
    setBox(svg, at.x - (at.x - b.x) * factor, at.y - (at.y - b.y) * factor,
           b.width * factor, b.height * factor);
  }

  function centre(svg) {
    var r = svg.getBoundingClientRect();
    return [r.left + r.width / 2, r.top + r.height / 2];
  }

  function readyMap() {
    var svg = mapSvg();
    if (!svg || svg.dataset.zoomable) return;
    svg.dataset.zoomable = "yes";
    svg.setAttribute("tabindex", "0");
    svg.dataset.home = svg.getAttribute("viewBox");
    if (mapView) svg.setAttribute("viewBox", mapView.join(" "));
    var pointers = {}, pinch = null, pressed = null;

    svg.addEventListener("wheel", function (event) {
      event.preventDefault();
      zoomAt(svg, event.clientX, event.clientY, event.deltaY > 0 ? 1.2 : 1 / 1.2);
    }, { passive: false });

    svg.addEventListener("pointerdown", function (event) {
      svg.setPointerCapture(event.pointerId);
      pointers[event.pointerId] = [event.clientX, event.clientY];
      pressed = Object.keys(pointers).length === 1 ? [event.clientX, event.clientY] : null;
    });
    svg.addEventListener("pointermove", function (event) {
      var last = pointers[event.pointerId];
      if (!last) return;
      var ids = Object.keys(pointers);
      if (ids.length === 1) {
        var from = pointIn(svg, last[0], last[1]), to = pointIn(svg, event.clientX, event.clientY);
        var b = box(svg);
        setBox(svg, b.x - (to.x - from.x), b.y - (to.y - from.y), b.width, b.height);
      } else if (ids.length === 2) {
        var other = pointers[ids[0] == event.pointerId ? ids[1] : ids[0]];
        var span = Math.hypot(event.clientX - other[0], event.clientY - other[1]);
        if (pinch) {
          zoomAt(svg, (event.clientX + other[0]) / 2, (event.clientY + other[1]) / 2, pinch / span);
        }
        pinch = span;
      }
      pointers[event.pointerId] = [event.clientX, event.clientY];
    });
    function lift(event) { delete pointers[event.pointerId]; pinch = null; }
    svg.addEventListener("pointerup", function (event) {
      // a press that did not drag chooses the hex under it, on a page that can travel
      if (pressed && Math.hypot(event.clientX - pressed[0], event.clientY - pressed[1]) < 5) {
        var at = pointIn(svg, event.clientX, event.clientY);
        chooseHex(hexAt(at.x, at.y));
      }
      pressed = null;
      lift(event);
    });
    svg.addEventListener("pointercancel", lift);

    svg.addEventListener("keydown", function (event) {
      var b = box(svg), step = b.width / 10, c = centre(svg);
      var moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
      if (event.key === "+" || event.key === "=") zoomAt(svg, c[0], c[1], 1 / 1.2);
      else if (event.key === "-") zoomAt(svg, c[0], c[1], 1.2);
      else if (event.key === "0") { svg.setAttribute("viewBox", svg.dataset.home); mapView = null; }
      else if (moves[event.key]) setBox(svg, b.x + moves[event.key][0], b.y + moves[event.key][1], b.width, b.height);
      else return;
      event.preventDefault();
    });
  }

  // The hex whose centre is nearest a point of the drawing (turnkeeper.world.drawing.centres:
  // flat-topped hexes 20 units across, odd columns half a hex lower), as the map labels it.
  // Here and not taken from the server: the drawing holds no centre per hex (a terrain is one
  // path of relative steps, so a huge map stays small), and asking the server which hex a
  // press is on would cost a request per press; tests/unit/test_house.py holds SIZE and the
  // formula to the server's.
  var SIZE = 20, ROW = SIZE * Math.sqrt(3);
  function hexAt(x, y) {
    var best = null, nearest = Infinity, guess = Math.round((x / SIZE - 1) / 1.5);
    for (var col = guess - 1; col <= guess + 1; col++) {
      var row = Math.round(y / ROW - 0.5 - 0.5 * (col & 1));
      var cx = SIZE * (1 + 1.5 * col), cy = ROW * (0.5 + row + 0.5 * (col & 1));
      var d = Math.hypot(x - cx, y - cy);
      if (col >= 0 && row >= 0 && d < nearest) { nearest = d; best = [col, row]; }
    }
    if (best === null || nearest > SIZE) return null;
    var width = Math.max(2, String(best[0]).length, String(best[1]).length);
    function pad(n) { var t = String(n); while (t.length < width) t = "0" + t; return t; }
    return pad(best[0]) + pad(best[1]);
  }

  function chooseHex(label) {
    var targets = document.querySelectorAll("#f-travel-target, #f-explore-target");
    if (!label || !targets.length) return;
    targets.forEach(function (field) { field.value = label; });
    var said = document.getElementById("chosen-hex");
    if (!said) return;
    said.textContent = "hex " + label + " chosen: Travel or Explore toward it";
    var form = document.getElementById("command-line");
    if (!form) return;
    var url = form.getAttribute("data-route") + "&to=" + encodeURIComponent(label);
    // asked as htmx asks, so that a refusal comes back as its one line of words
    fetch(url, { credentials: "same-origin", headers: { "HX-Request": "true" } })
      .then(function (answer) { return answer.text().then(function (text) { return [answer.ok, text]; }); })
      .then(function (both) {
        if (!both[0]) {
          var refusal = new DOMParser().parseFromString(both[1], "text/html").body;
          var status = refusal.querySelector("strong");
          if (status) status.remove();
          said.textContent = "hex " + label + ": " + refusal.textContent.trim();
          return;
        }
        var body = JSON.parse(both[1]);
        said.textContent = "hex " + label + " chosen: " + body.days + (body.days === 1 ? " day, " : " days, ") +
          body.tp + " TP by the best route (" + body.hexes + (body.hexes === 1 ? " hex" : " hexes") +
          "); " + (body.travel ? "Travel to it: a known destination" : "Explore toward it: not a known destination");
        drawRoute(body.line);
      });
  }

  // The chosen hex marked and its route drawn on the referee's map, until the map is drawn
  // again (a command redraws it, and the route from the party's new hex is another).
  var SVG_NS = "http://www.w3.org/2000/svg";
  function drawRoute(line) {
    var svg = mapSvg();
    if (!svg || !line) return;
    ["chosen-route", "chosen-mark"].forEach(function (id) {
      var old = svg.querySelector("#" + id);
      if (old) old.remove();
    });
    var route = document.createElementNS(SVG_NS, "polyline");
    route.setAttribute("id", "chosen-route");
    route.setAttribute("points", line);
    route.setAttribute("fill", "none");
    route.setAttribute("stroke", "#7a1fa2");
    route.setAttribute("stroke-width", "3");
    route.setAttribute("stroke-dasharray", "6 4");
    route.setAttribute("pointer-events", "none");
    var points = line.split(" "), end = points[points.length - 1].split(",");
    var mark = document.createElementNS(SVG_NS, "circle");
    mark.setAttribute("id", "chosen-mark");
    mark.setAttribute("cx", end[0]);
    mark.setAttribute("cy", end[1]);
    mark.setAttribute("r", "7");
    mark.setAttribute("fill", "none");
    mark.setAttribute("stroke", "#7a1fa2");
    mark.setAttribute("stroke-width", "3");
    mark.setAttribute("pointer-events", "none");
    svg.appendChild(route);
    svg.appendChild(mark);
  }

  document.addEventListener("htmx:afterSettle", readyMap);
  document.addEventListener("htmx:sseMessage", readyMap);
  document.addEventListener("DOMContentLoaded", readyMap);

  // The command line: the verbs as play takes them, completed as play completes them (the
  // server reads both from the verb table), with keys for the common moves.
  var sentLines = [];
  var offered = { start: 0, words: [] };
  var asking = null;
  function lineForm() { return document.getElementById("command-line"); }
  function lineInput() { return document.getElementById("line"); }
  function askWords(text) {
    var form = lineForm();
    if (!form) return;
    var url = form.getAttribute("data-complete") + "&line=" + encodeURIComponent(text);
    fetch(url, { credentials: "same-origin" })
      .then(function (answer) { return answer.ok ? answer.json() : { start: 0, words: [] }; })
      .then(function (found) {
        if (lineInput().value !== text) return; // typed on meanwhile: a newer ask follows
        offered = found;
        var list = document.getElementById("line-words");
        list.innerHTML = "";
        found.words.forEach(function (word) {
          var option = document.createElement("option");
          option.value = text.slice(0, found.start) + word;
          list.appendChild(option);
        });
      });
  }
  function sharedStart(words) {
    if (!words.length) return "";
    var first = words[0];
    var end = first.length;
    words.forEach(function (word) {
      var i = 0;
      while (i < end && i < word.length && word[i].toLowerCase() === first[i].toLowerCase()) i++;
      end = i;
    });
    return first.slice(0, end);
  }
  document.addEventListener("input", function (event) {
    if (event.target !== lineInput()) return;
    clearTimeout(asking);
    var text = event.target.value;
    asking = setTimeout(function () { askWords(text); }, 120);
  });
  document.addEventListener("keydown", function (event) {
    var input = lineInput();
    if (!input) return;
    var typing = /^(INPUT|TEXTAREA|SELECT)$/.test(document.activeElement.tagName);
    if (event.key === "/" && !typing) {
      event.preventDefault();
      input.focus();
      return;
    }
    if (event.target !== input) return;
    if (event.key === "Escape") {
      input.blur();
    } else if (event.key === "ArrowUp" && !input.value && sentLines.length) {
      event.preventDefault();
      input.value = sentLines[sentLines.length - 1];
      askWords(input.value);
    } else if (event.key === "Tab" && offered.words.length && !event.shiftKey) {
      var text = input.value;
      var typed = text.slice(offered.start);
      var fits = offered.words.filter(function (word) {
        return word.toLowerCase().indexOf(typed.toLowerCase().replace(/^["']/, "")) >= 0 ||
          word.toLowerCase().indexOf(typed.toLowerCase()) === 0;
      });
      var taken = fits.length === 1 ? fits[0] + " " : sharedStart(fits);
      if (taken.length > typed.length) {
        event.preventDefault();
        input.value = text.slice(0, offered.start) + taken;
        askWords(input.value);
      }
    }
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    var input = lineInput();
    if (input && event.detail.elt === lineForm() && input.value.trim()) sentLines.push(input.value);
  });
  document.addEventListener("focusin", function (event) {
    if (event.target === lineInput() && !offered.words.length) askWords(event.target.value);
  });
})();
