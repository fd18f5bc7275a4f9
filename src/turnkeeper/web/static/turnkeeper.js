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
    }
  });

  // Dice typed in are spent by the command that used them: clear them once it ran.
  document.addEventListener("htmx:afterRequest", function (event) {
    var form = event.detail.elt;
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    if (form && form.classList && form.classList.contains("control") && status >= 200 && status < 300) {
      var dice = form.querySelector("input[name=dice]");
      if (dice) dice.value = "";
    }
  });

  document.addEventListener("htmx:afterSettle", showFittingControls);
  document.addEventListener("htmx:sseMessage", showFittingControls);
  document.addEventListener("change", function (event) {
    if (event.target && event.target.id === "every-control") showFittingControls();
  });
  document.addEventListener("DOMContentLoaded", showFittingControls);
})();
