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
