// Small behaviours shared by every page. No inline scripts anywhere (CSP without 'unsafe-inline').
document.addEventListener("htmx:configRequest", function (event) {
  var token = document.querySelector('meta[name="csrf-token"]');
  if (token) { event.detail.headers["X-CSRFToken"] = token.content; }
});
// Buttons with data-print print the page.
document.addEventListener("click", function (event) {
  var el = event.target.closest("[data-print]");
  if (el) { event.preventDefault(); window.print(); }
});
// Reflow (WCAG 1.4.10): every table in the main content becomes stacked rows on a phone
// (static/css/app.css, .table-stack). Each body cell is labelled with its column's
// heading; the roles keep the table's meaning for screen readers once CSS makes its
// parts blocks. Runs on load and on every htmx swap.
function stackTables(root) {
  (root || document).querySelectorAll("main table").forEach(function (table) {
    if (table.dataset.stacked) { return; }
    table.dataset.stacked = "1";
    var headings = [];
    var head = table.tHead && table.tHead.rows[table.tHead.rows.length - 1];
    if (head) {
      Array.prototype.forEach.call(head.cells, function (cell) {
        var span = cell.colSpan || 1;
        for (var i = 0; i < span; i++) { headings.push(cell.textContent.trim()); }
      });
    }
    table.classList.add("table-stack");
    table.setAttribute("role", "table");
    Array.prototype.forEach.call(table.rows, function (row) {
      row.setAttribute("role", "row");
      var column = 0;
      Array.prototype.forEach.call(row.cells, function (cell) {
        var inHead = row.parentNode === table.tHead;
        if (cell.tagName === "TH") {
          cell.setAttribute("role", inHead ? "columnheader" : "rowheader");
        } else {
          cell.setAttribute("role", "cell");
        }
        var label = headings[column];
        if (!inHead && label && !cell.hasAttribute("data-label") && cell.textContent.trim()) {
          cell.setAttribute("data-label", label);
        }
        column += cell.colSpan || 1;
      });
    });
  });
}
document.addEventListener("DOMContentLoaded", function () { stackTables(document); });
document.addEventListener("htmx:afterSwap", function (event) { stackTables(event.target.ownerDocument); });
