(function () {
  "use strict";
  var state = { group: "", layer: "", failure: "" };
  var rows = Array.prototype.slice.call(document.querySelectorAll("tbody.row"));
  var shown = document.getElementById("shown");
  var buttons = Array.prototype.slice.call(document.querySelectorAll("button[data-filter]"));
  function apply() {
    var count = 0;
    rows.forEach(function (row) {
      var kind = row.getAttribute("data-kind");
      var show = (!state.group || row.getAttribute("data-group") === state.group) &&
        (!state.layer || kind === state.layer) &&
        (!state.failure || kind === state.failure);
      row.hidden = !show;
      if (show) { count += 1; }
    });
    buttons.forEach(function (button) {
      var on = state[button.getAttribute("data-filter")] === button.getAttribute("data-value");
      button.setAttribute("aria-pressed", on ? "true" : "false");
    });
    shown.textContent = count + " of " + rows.length + " rows shown";
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-filter]");
    if (!button) { return; }
    var filter = button.getAttribute("data-filter");
    state[filter] = button.getAttribute("data-value");
    // A row is one outcome: a layer and a failure kind never hold together.
    if (filter === "layer" && state.layer) { state.failure = ""; }
    if (filter === "failure" && state.failure) { state.layer = ""; }
    apply();
  });
  apply();
})();
