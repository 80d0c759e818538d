// Filters of the mltheory report: verdict chips, method, tag and a search box.
// Cards (claims, errata, problems, plot index entries) carry data-verdict,
// data-method, data-tags and data-search; hidden sections and the sidebar counts
// follow the filters. Nothing is stored or fetched: the page is a plain file.
(function () {
  "use strict";
  var chips = Array.prototype.slice.call(document.querySelectorAll(".chip[data-verdict]"));
  var method = document.getElementById("f-method");
  var tag = document.getElementById("f-tag");
  var search = document.getElementById("f-search");
  var count = document.getElementById("f-count");
  var cards = Array.prototype.slice.call(document.querySelectorAll(".filterable"));
  var claims = Array.prototype.slice.call(document.querySelectorAll("article.claim"));
  var sections = Array.prototype.slice.call(document.querySelectorAll("section.group, section.block"));
  var navGroups = Array.prototype.slice.call(document.querySelectorAll("#nav a.nav-group"));

  function matches(el, verdicts, m, t, words) {
    if (!verdicts[el.getAttribute("data-verdict")]) { return false; }
    if (m && el.getAttribute("data-method") !== m) { return false; }
    if (t && el.getAttribute("data-tags").indexOf(" " + t + " ") < 0) { return false; }
    var text = el.getAttribute("data-search");
    for (var i = 0; i < words.length; i++) {
      if (text.indexOf(words[i]) < 0) { return false; }
    }
    return true;
  }

  function apply() {
    var verdicts = {};
    chips.forEach(function (c) {
      if (c.getAttribute("aria-pressed") === "true") { verdicts[c.getAttribute("data-verdict")] = true; }
    });
    var m = method.value, t = tag.value;
    var words = search.value.toLowerCase().split(/\s+/).filter(function (w) { return w.length > 0; });
    cards.forEach(function (el) { el.hidden = !matches(el, verdicts, m, t, words); });
    sections.forEach(function (s) {
      var visible = s.querySelectorAll(".filterable:not([hidden])").length;
      s.hidden = s.querySelectorAll(".filterable").length > 0 && visible === 0;
    });
    navGroups.forEach(function (a) {
      var s = document.getElementById(a.getAttribute("data-group"));
      var n = s ? s.querySelectorAll("article.claim:not([hidden])").length : 0;
      var span = a.querySelector(".count");
      var total = span.getAttribute("data-total");
      span.textContent = n === Number(total) ? total : n + "/" + total;
      a.classList.toggle("dim", n === 0);
    });
    var shown = claims.filter(function (el) { return !el.hidden; }).length;
    count.textContent = shown + " of " + claims.length + " claims shown";
    document.getElementById("empty").hidden = shown > 0;
  }

  chips.forEach(function (c) {
    c.addEventListener("click", function () {
      c.setAttribute("aria-pressed", c.getAttribute("aria-pressed") === "true" ? "false" : "true");
      apply();
    });
  });
  method.addEventListener("change", apply);
  tag.addEventListener("change", apply);
  search.addEventListener("input", apply);
  document.getElementById("f-reset").addEventListener("click", function () {
    chips.forEach(function (c) { c.setAttribute("aria-pressed", "true"); });
    method.value = ""; tag.value = ""; search.value = "";
    apply();
  });
  // Following a link to a hidden card clears the filters first.
  window.addEventListener("hashchange", function () {
    var target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (target && target.closest("[hidden]")) {
      document.getElementById("f-reset").click();
      target.scrollIntoView();
    }
  });
  apply();
}());
