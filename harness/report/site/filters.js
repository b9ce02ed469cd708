// Filters: each <select data-filter="NAME"> hides the rows of the page's
// tables.filterable whose data-NAME (space-separated values) lacks its value.
(function () {
  var selects = document.querySelectorAll("select[data-filter]");
  function apply() {
    var rows = document.querySelectorAll("table.filterable tbody tr");
    var shown = 0;
    rows.forEach(function (tr) {
      var ok = true;
      selects.forEach(function (s) {
        var want = s.value, have = (tr.getAttribute("data-" + s.dataset.filter) || "").split(" ");
        if (want && have.indexOf(want) < 0) ok = false;
      });
      tr.style.display = ok ? "" : "none";
      if (ok) shown++;
    });
    document.querySelectorAll(".shown").forEach(function (e) {
      e.textContent = shown + " of " + rows.length + " rows shown";
    });
  }
  selects.forEach(function (s) { s.addEventListener("change", apply); });
  apply();
})();
