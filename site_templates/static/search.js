/* rulings-kb offline search, the page: the search box, the query language, the results, the
 * query in the URL, the keys. The engine (search-engine.js, shipped as search/engine.js: kb
 * search's terms and ranking over the index in search/) is loaded on the first query, so a page
 * that is only read loads this file only. Rulings are inserted as text (textContent and text nodes), never as markup.
 */
(() => {
  "use strict";

  const EXCERPT = 220, TITLE_WORDS = 8;
  const html = document.documentElement;
  const root = html.getAttribute("data-root") || "", tree = html.getAttribute("data-tree") || "en/";
  let loading = null;

  /* The query language of kb/search/query.py: words, "phrases" (their words, here), -excluded
     words and the filters lang: card: rule: date; a filter it does not know is words (the
     engine keeps the languages the index has). */
  const TOKEN = /(-)?(?:(\p{L}+)(>=|<=|:|=|>|<)(?:"([^"]*)"?|([^\s"]*))|"([^"]*)"?|([^\s"]+))/gu;
  const RULE = /^\d{3}(\.\d+[a-z]?)?$/;

  function isoDate(value) {
    const local = /^(\d{1,2})[./](\d{1,2})[./](\d{4})$/.exec(value);
    if (local) { value = `${local[3]}-${local[2].padStart(2, "0")}-${local[1].padStart(2, "0")}`; }
    return /^\d{4}(-\d{2}(-\d{2})?)?$/.test(value) ? value : null;
  }

  function parse(text) {
    const q = { words: [], excluded: [], langs: [], cards: [], rules: [], dates: [] };
    for (const m of text.matchAll(TOKEN)) {
      const name = (m[2] || "").toLowerCase(), value = (m[4] !== undefined ? m[4] : m[5] || "").trim();
      if (m[2] && value && ["lang", "card", "rule", "date"].includes(name)) {
        if (name === "lang") { q.langs.push(...value.toLowerCase().split(",").map((c) => c.trim())); }
        if (name === "card") { q.cards.push(value); }
        if (name === "rule" && RULE.test(value)) { q.rules.push(value); }
        if (name === "date" && isoDate(value)) { q.dates.push([m[3] === ":" ? "=" : m[3], isoDate(value)]); }
        continue;
      }
      (m[1] ? q.excluded : q.words).push(m[6] !== undefined ? m[6] : m[2] ? m[2] + " " + value : m[7]);
    }
    q.ruleWords = q.words.filter((w) => RULE.test(w));
    return q;
  }

  /* The engine, loaded once as a <script> (it works from file://, where fetching is blocked):
     the index ships it (search/engine.js: search-engine.js, its comments left out). */
  const engine = () => loading || (loading = new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = root + "search/engine.js";
    script.onload = resolve;
    script.onerror = () => { loading = null; reject(new Error("search/engine.js")); };
    document.head.appendChild(script);
  }));

  function span(className, text, lang) {
    const node = document.createElement("span");
    node.className = className;
    node.textContent = text;
    if (lang) { node.lang = lang; }
    return node;
  }

  /* The excerpt of `text` around its densest run of matched words, those in <mark>. */
  function excerpt(text, lang, hits) {
    let start = 0, most = -1;
    for (const [from] of hits) {
      const begin = Math.max(0, from - 40), n = hits.filter((h) => h[0] >= begin && h[1] <= begin + EXCERPT).length;
      if (n > most) { most = n; start = begin; }
    }
    if (start > 0) { start = text.indexOf(" ", start) + 1 || start; }
    let end = Math.min(text.length, start + EXCERPT);
    if (end < text.length && text.lastIndexOf(" ", end) > start) { end = text.lastIndexOf(" ", end); }
    const node = span("result-text", start > 0 ? "…" : "", lang);
    let at = start;
    for (const [from, to] of hits) {
      if (from < at || to > end) { continue; }
      node.append(text.slice(at, from));
      const mark = document.createElement("mark");
      mark.textContent = text.slice(from, to);
      node.append(mark);
      at = to;
    }
    node.append(text.slice(at, end) + (end < text.length ? "…" : ""));
    return node;
  }

  /* What a ruling is about: its rule's title in the reader's language, else its first words. */
  function title(d, ui) {
    const words = d.text.split(/\s+/);
    return d.rule ? span("result-title", d.rule, ui)
      : span("result-title", words.slice(0, TITLE_WORDS).join(" ") + (words.length > TITLE_WORDS ? "…" : ""), d.lang);
  }

  function render(box, found, text) {
    box.textContent = "";
    if (!text.trim()) { return; }
    const status = document.createElement("p"), list = document.createElement("ol");
    status.className = "search-status";
    status.textContent = found.docs.length ? box.getAttribute("data-found")
      .replace("%d", found.count + (found.complete ? "" : "+")) : box.getAttribute("data-none");
    box.append(status);
    for (const d of found.docs) {
      const item = document.createElement("li"), link = document.createElement("a"), meta = span("result-meta", "");
      link.href = root + tree + d.page;
      meta.append(span("result-lang", d.lang.toUpperCase()), " ", span("result-card", d.card, d.lang));
      link.append(title(d, found.ui), meta, excerpt(d.text, d.lang, found.hits(d.text, d.lang)));
      item.append(link);
      list.append(item);
    }
    if (found.docs.length) { box.append(list); }
  }

  /* --- the page: the box, the URL, the keys ------------------------------------------------- */

  function urlWith(query) {
    const params = new URLSearchParams(location.search);
    if (query) { params.set("q", query); } else { params.delete("q"); }
    return location.pathname + (params.toString() ? "?" + params : "") + location.hash;
  }

  /* The language switcher leads to the same page with the same search, at the same place. */
  function keepInSwitcher() {
    for (const a of document.querySelectorAll("nav.switcher a[href]")) {
      const href = a.getAttribute("data-href") || a.getAttribute("href");
      a.setAttribute("data-href", href);
      a.setAttribute("href", href.split(/[?#]/)[0] + location.search + location.hash);
    }
  }

  function start() {
    const input = document.querySelector("input[type=search]"), box = document.getElementById("search-results");
    if (!input || !box) { return; }
    let timer = null, latest = 0;
    const done = () => box.setAttribute("data-state", "done");
    /* data-state says whether the results shown are the latest query's (busy|done) */
    function run(typing) {
      const text = input.value, ticket = ++latest;
      box.setAttribute("data-state", "busy");
      engine().then(() => window.kbSearchEngine.search(parse(text), typing && !/\s$/.test(text))).then((found) => { if (ticket === latest) { render(box, found, text); done(); } },
        () => { if (ticket === latest) { box.textContent = box.getAttribute("data-error"); done(); } });
    }
    function clear() { latest++; box.textContent = ""; done(); }
    /* The query is in the URL as it is typed (replaceState); each search is a history entry of
       its own (the first key after a submitted search pushes one, as does a submit), so back
       and forward go from search to search. */
    function remember(submitted) {
      const url = urlWith(input.value.trim() ? input.value : ""), state = history.state || {};
      const entry = { q: input.value, done: submitted };
      try {
        if (submitted ? state.q !== input.value : !("q" in state) || state.done) { history.pushState(entry, "", url); }
        else { history.replaceState(entry, "", url); }
      } catch (e) { /* a browser that will not change a file:// URL keeps the search, not the URL */ }
      keepInSwitcher();
    }
    function fromUrl() {
      input.value = new URLSearchParams(location.search).get("q") || "";
      if (input.value.trim()) { run(false); } else { clear(); }
      keepInSwitcher();
    }
    input.addEventListener("input", () => {
      clearTimeout(timer);
      box.setAttribute("data-state", "busy");
      remember(false);
      timer = setTimeout(() => run(true), 120);
    });
    if (input.form) {
      input.form.addEventListener("submit", (event) => {
        event.preventDefault();
        clearTimeout(timer);
        remember(true);
        run(false);
      });
    }
    addEventListener("popstate", fromUrl);
    addEventListener("hashchange", keepInSwitcher);
    document.addEventListener("keydown", (event) => {
      const target = event.target, links = [...box.querySelectorAll("a")], at = links.indexOf(target);
      const inBox = target === input || at >= 0;
      if (event.key === "/" && !/^(input|textarea|select)$/i.test(target.tagName) && !target.isContentEditable
          && !event.ctrlKey && !event.metaKey && !event.altKey) {
        event.preventDefault();
        input.focus();
        input.select();
      } else if (event.key === "Escape" && inBox) {
        clearTimeout(timer);
        input.value = "";
        remember(false);
        clear();
        input.focus();
      } else if ((event.key === "ArrowDown" || event.key === "ArrowUp") && inBox && links.length) {
        event.preventDefault();
        const next = event.key === "ArrowDown" ? (target === input ? 0 : Math.min(at + 1, links.length - 1)) : at - 1;
        (next >= 0 ? links[next] : input).focus();
      }
    });
    fromUrl();
  }

  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
})();
