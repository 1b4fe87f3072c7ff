// The web interface's few behaviours that need a script; every page works without it too.
document.addEventListener("DOMContentLoaded", function () {
  var all = document.getElementById("select-all");
  if (all) {
    all.addEventListener("change", function () {
      document.querySelectorAll("input[name=pk]").forEach(function (box) { box.checked = all.checked; });
    });
  }
  var show = document.getElementById("show-columns");
  if (show) {
    show.addEventListener("click", function () {
      var chosen = Array.from(document.querySelectorAll(".column-choice:checked")).map(function (e) { return e.value; });
      document.getElementById("columns-value").value = chosen.join(",");
    });
  }
});
