// The report's behaviour, self-contained: sortable tables, the per-run
// filter, the hover that names a chart's mark, and the legend that hides
// and shows a variant in every chart.
(function () {
  "use strict";

  // Sorting: a click on a header sorts its table by that column, numbers
  // as numbers (empty cells last), a second click the other way.
  function cellKey(row, i, numeric) {
    var text = row.cells[i].textContent.trim();
    if (!numeric) return text;
    var v = parseFloat(text);
    return isNaN(v) ? null : v;
  }
  function sortBy(table, i, th) {
    var numeric = th.classList.contains("num");
    var asc = th.getAttribute("aria-sort") !== "ascending";
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = cellKey(a, i, numeric), y = cellKey(b, i, numeric);
      if (x === y) return 0;
      if (x === null) return 1;
      if (y === null) return -1;
      var c = numeric ? x - y : x.localeCompare(y, undefined, { numeric: true });
      return asc ? c : -c;
    });
    rows.forEach(function (r) { body.appendChild(r); });
    Array.prototype.forEach.call(th.parentNode.cells, function (h) { h.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", asc ? "ascending" : "descending");
  }
  document.querySelectorAll("table.sortable").forEach(function (table) {
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, i) {
      th.addEventListener("click", function () { sortBy(table, i, th); });
    });
  });

  // Filtering: a row of the per-run table shows when it holds every word
  // of the filter (case-insensitive).
  var filter = document.getElementById("runs-filter");
  if (filter) {
    var table = document.getElementById("runs");
    var count = document.getElementById("runs-count");
    var apply = function () {
      var words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
      var shown = 0, rows = table.tBodies[0].rows;
      Array.prototype.forEach.call(rows, function (r) {
        var text = r.textContent.toLowerCase();
        var ok = words.every(function (w) { return text.indexOf(w) >= 0; });
        r.hidden = !ok;
        if (ok) shown++;
      });
      count.textContent = shown + " of " + rows.length + " runs";
    };
    filter.addEventListener("input", apply);
    apply();
  }

  // Hover: a chart's mark names its run in the tooltip.
  var tip = document.getElementById("tip");
  document.addEventListener("mouseover", function (e) {
    var mark = e.target.closest ? e.target.closest("[data-name]") : null;
    if (!mark) return;
    tip.textContent = mark.getAttribute("data-name");
    tip.hidden = false;
    tip.style.left = (e.pageX + 12) + "px";
    tip.style.top = (e.pageY + 12) + "px";
  });
  document.addEventListener("mouseout", function (e) {
    if (e.target.closest && e.target.closest("[data-name]")) tip.hidden = true;
  });

  // Legend: a click on a variant hides it in every chart, another shows it.
  document.querySelectorAll("button.key").forEach(function (key) {
    key.addEventListener("click", function () {
      var on = key.getAttribute("aria-pressed") !== "true";
      key.setAttribute("aria-pressed", on ? "true" : "false");
      var v = key.getAttribute("data-variant");
      document.querySelectorAll("g.series").forEach(function (g) {
        if (g.getAttribute("data-variant") === v) g.style.display = on ? "" : "none";
      });
    });
  });
})();
