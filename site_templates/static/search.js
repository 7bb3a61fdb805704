/* rulings-kb offline search.
 *
 * The index (built by kb/site/search_index.py) is a set of small JavaScript files: a manifest
 * listing each shard's first word form, the shards (word form -> analysed terms, and each term's
 * best documents with their ruling group and BM25 weight), and chunks of document summaries.
 * A query loads the manifest, the shard of each of its words and the chunks of its top results,
 * as <script> tags:
 * that works from file:// (where fetching JSON is blocked) and on any static host.
 * Every text from the index is inserted with textContent: ruling texts are data, never markup.
 */
(function () {
  "use strict";

  var MAX_RESULTS = 10;
  var html = document.documentElement;
  var root = html.getAttribute("data-root") || "";
  var tree = html.getAttribute("data-tree") || "en/";
  var base = root + "search/";
  var loaded = {};
  var data = { manifest: null, shards: {}, docs: {} };

  window.kbSearch = {
    manifest: function (m) { data.manifest = m; },
    shard: function (i, s) { data.shards[i] = s; },
    docs: function (i, d) { data.docs[i] = d; }
  };

  function load(path) {
    if (!loaded[path]) {
      loaded[path] = new Promise(function (resolve, reject) {
        var script = document.createElement("script");
        script.src = base + path;
        script.async = true;
        script.onload = resolve;
        script.onerror = function () { reject(new Error(path)); };
        document.head.appendChild(script);
      });
    }
    return loaded[path];
  }

  /* Keep in step with forms() and key() in kb/site/search_index.py. */
  function fold(form) {
    return form.replace(/[äöü]/g, function (ch) { return { "ä": "ae", "ö": "oe", "ü": "ue" }[ch]; })
      .normalize("NFD").replace(/\p{Mn}/gu, function (m) { return m === "\u0306" ? m : ""; })
      .normalize("NFC");
  }

  function tokens(query) {
    return (query.normalize("NFC").toLowerCase().match(/[\p{L}\p{N}]+/gu) || []).map(fold);
  }

  function shardOf(form) {
    var firsts = data.manifest.shards, lo = 0, hi = firsts.length - 1;
    if (hi < 0) { return -1; }
    while (lo < hi) {
      var mid = (lo + hi + 1) >> 1;
      if (firsts[mid] <= form) { lo = mid; } else { hi = mid - 1; }
    }
    return lo;
  }

  function commonPrefix(a, b) {
    var n = Math.min(a.length, b.length), i = 0;
    while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) { i++; }
    return i;
  }

  /* The analysed terms of one query word. A form the corpus never used (another inflection)
     falls back to the corpus forms sharing the longest prefix with it (at least 60% of the
     word), as stems are prefixes: командной finds командную (командн-), not команды. The word
     being typed also matches the forms it begins. */
  function termsOf(word, shard, typing) {
    var forms = shard.f, found = {}, form;
    function add(list) { for (var i = 0; i < list.length; i++) { found[list[i]] = true; } }
    if (forms[word]) {
      add(forms[word]);
    } else {
      var best = Math.max(3, Math.ceil(0.6 * word.length)), nearest = [];
      for (form in forms) {
        var shared = commonPrefix(form, word);
        if (shared > best) { best = shared; nearest = []; }
        if (shared === best) { nearest.push(form); }
      }
      nearest.forEach(function (f) { add(forms[f]); });
    }
    if (typing && word.length >= 3) {
      for (form in forms) {
        if (form.length > word.length && form.lastIndexOf(word, 0) === 0) { add(forms[form]); }
      }
    }
    return Object.keys(found);
  }

  /* Best document of each ruling group, groups ranked by the words they match (every word
     first, as an AND query), then by BM25 score: one result per ruling, as kb search gives. */
  function rank(words, typing) {
    var scores = {}, hits = {}, groupOf = {};
    words.forEach(function (word, index) {
      var shard = data.shards[shardOf(word)];
      if (!shard) { return; }
      var best = {};
      termsOf(word, shard, typing && index === words.length - 1).forEach(function (term) {
        var postings = shard.p[term] || [];
        for (var i = 0; i < postings.length; i += 3) {
          var doc = postings[i], weight = postings[i + 2];
          groupOf[doc] = postings[i + 1];
          if (!(best[doc] >= weight)) { best[doc] = weight; }
        }
      });
      Object.keys(best).forEach(function (doc) {
        scores[doc] = (scores[doc] || 0) + best[doc];
        hits[doc] = (hits[doc] || 0) + 1;
      });
    });
    var ranked = Object.keys(scores).map(Number).sort(function (a, b) {
      return (hits[b] - hits[a]) || (scores[b] - scores[a]) || (a - b);
    });
    var seen = {}, top = [];
    for (var i = 0; i < ranked.length && top.length < MAX_RESULTS; i++) {
      var group = groupOf[ranked[i]];
      if (!seen[group]) { seen[group] = true; top.push(ranked[i]); }
    }
    return top;
  }

  function docOf(number) {
    var per = data.manifest.docsPerChunk;
    return data.docs[Math.floor(number / per)][number % per];
  }

  function search(query, typing) {
    return load("manifest.js").then(function () {
      var words = tokens(query);
      var shards = {};
      words.forEach(function (w) { var s = shardOf(w); if (s >= 0) { shards[s] = true; } });
      return Promise.all(Object.keys(shards).map(function (s) { return load("t/" + s + ".js"); }))
        .then(function () {
          var top = rank(words, typing);
          var chunks = {};
          top.forEach(function (n) { chunks[Math.floor(n / data.manifest.docsPerChunk)] = true; });
          return Promise.all(Object.keys(chunks).map(function (c) { return load("d/" + c + ".js"); }))
            .then(function () { return top.map(docOf); });
        });
    });
  }

  function span(className, text, lang) {
    var node = document.createElement("span");
    node.className = className;
    node.textContent = text;
    if (lang) { node.lang = lang; }
    return node;
  }

  function show(box, results, query) {
    box.textContent = "";
    if (!query.trim()) { return; }
    var status = document.createElement("p");
    status.className = "search-status";
    status.textContent = results.length ? box.getAttribute("data-found").replace("%d", results.length)
      : box.getAttribute("data-none");
    box.appendChild(status);
    if (!results.length) { return; }
    var list = document.createElement("ol");
    results.forEach(function (doc) {
      var item = document.createElement("li"), link = document.createElement("a");
      link.href = root + tree + doc[0];
      link.appendChild(span("result-card", doc[2], doc[1]));
      link.appendChild(span("result-lang", doc[1].toUpperCase()));
      link.appendChild(span("result-text", doc[3], doc[1]));
      item.appendChild(link);
      list.appendChild(item);
    });
    box.appendChild(list);
  }

  function start() {
    var input = document.querySelector("input[type=search]");
    var box = document.getElementById("search-results");
    if (!input || !box) { return; }
    var form = input.form, timer = null, latest = 0;
    /* data-state says whether the shown results are those of the latest query (busy|done). */
    function run(typing) {
      var query = input.value, ticket = ++latest;
      box.setAttribute("data-state", "busy");
      search(query, typing).then(function (results) {
        if (ticket === latest) { show(box, results, query); box.setAttribute("data-state", "done"); }
      }, function () {
        if (ticket === latest) {
          box.textContent = box.getAttribute("data-error");
          box.setAttribute("data-state", "done");
        }
      });
    }
    input.addEventListener("input", function () {
      clearTimeout(timer);
      box.setAttribute("data-state", "busy");
      timer = setTimeout(function () { run(true); }, 120);
    });
    if (form) {
      form.addEventListener("submit", function (event) {
        event.preventDefault();
        clearTimeout(timer);
        run(false);
      });
    }
    var initial = new URLSearchParams(window.location.search).get("q");
    if (initial) { input.value = initial; run(false); }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
}());
