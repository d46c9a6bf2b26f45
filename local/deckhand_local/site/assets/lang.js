// The reader's language (docs/cli.md, `deckhand site`): every page exists in each language and names
// the others with <link rel="alternate" hreflang>. A `lang` parameter in the URL, or the choice
// remembered from the switch, opens the page in that language; without the script the page reads
// in its own language and the switch is a plain link.
(function () {
  var root = document.documentElement;
  var key = root.getAttribute("data-storage");
  function remember(lang) {
    try { localStorage.setItem(key, lang); } catch (e) { /* private mode: the link still works */ }
  }
  document.addEventListener("click", function (event) {
    var link = event.target.closest ? event.target.closest("a[data-switch]") : null;
    if (link) { remember(link.getAttribute("hreflang")); }
  });
  var want = new URLSearchParams(location.search).get("lang");
  if (want) { remember(want); }
  else { try { want = localStorage.getItem(key); } catch (e) { want = null; } }
  if (!want || want === root.lang || !/^[A-Za-z-]{2,10}$/.test(want)) { return; }
  var other = document.querySelector('link[rel="alternate"][hreflang="' + want + '"]');
  if (other) { location.replace(other.href); }
})();
