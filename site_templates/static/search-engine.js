/* rulings-kb offline search, the engine: kb search's terms and ranking in the browser, loaded
 * by search.js on a page's first query.
 *
 * The index (kb/site/search_index.py) is small JavaScript files loaded as <script> tags (that
 * works from file://, where fetching JSON is blocked, and on any static host): a manifest, a
 * lexicon file per first letter (word forms -> kb search's terms, stop words, glossary
 * concepts), shards of posting lists (term -> its (ruling group, language) units with kb
 * search's BM25F weights, best first; further pages on demand), and document files. A query
 * loads the lexicon of its words, the shards of their terms and the documents of its top
 * results; further pages only while they could still change the top results, so none is lost
 * to a cut. search(query parsed by search.js, typing) -> {docs: [{page, lang, card, text, rule}], count, complete,
 * hits(text, lang)}: the page draws them (as text: rulings are data, never markup).
 */
(() => {
  "use strict";

  const MAX_RESULTS = 10, MAX_LOADS = 40;
  const TYPO_WEIGHT = [1, 0.7, 0.5], GLOSSARY_WEIGHT = 0.6, MAX_CORRECTIONS = 4;
  const RULE_WEIGHT = 3000; /* a typed rule number, in thousandths as list weights are */
  const html = document.documentElement;
  const ui = (html.getAttribute("lang") || "en").slice(0, 2), base = (html.getAttribute("data-root") || "") + "search/";
  const loaded = {}, data = { shards: {}, pages: {}, lex: {}, concepts: {}, docs: {}, rules: {}, dates: [] };
  let M; /* the manifest */

  window.kbSearch = {
    manifest: (m) => { M = m; }, shard: (i, s) => { data.shards[i] = s; },
    page: (id, k, flat) => { data.pages[id + "." + k] = flat; }, lexicon: (i, l) => { data.lex[i] = l; },
    concept: (i, c) => { data.concepts[i] = c; },
    docs: (i, d) => { data.docs[i] = d; }, rules: (r) => { data.rules = r; }, dates: (d) => { data.dates = d; }
  };

  const load = (path) => loaded[path] || (loaded[path] = new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = base + path;
    script.async = true;
    script.onload = resolve;
    script.onerror = () => reject(new Error(path));
    document.head.appendChild(script);
  }));
  const all = (paths) => Promise.all(paths.map(load));
  const keys = Object.keys;

  /* Keep in step with forms() and key() in kb/site/search_index.py. */
  const fold = (form) => form.replace(/[äöü]/g, (ch) => ({ "ä": "ae", "ö": "oe", "ü": "ue" })[ch])
    .normalize("NFD").replace(/\p{Mn}/gu, (m) => (m === "\u0306" ? m : "")).normalize("NFC");
  const tokens = (text) => (text.normalize("NFC").toLowerCase().match(/[\p{L}\p{N}]+/gu) || []).map(fold);
  /* card_word in kb/site/search_weights.py: Säuberung, Saeuberung, Sauberung are one word */
  const cardWord = (word) => word.replace(/([aou])e/g, "$1");
  const fnv = (text) => { /* FNV-1a: the shard of a term (search_index.fnv) */
    let h = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) { h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0; }
    return h;
  };
  const langIndex = (lang) => M.langs.indexOf(lang);
  const sources = () => ["en"].concat(M.langs);
  const langOf = (term) => term.split(":")[0];

  /* The lexicon file of a folded word: the longest prefix the manifest lists. */
  function lexOf(word) {
    let best = -1;
    M.lexicon.forEach((p, i) => { if (word.startsWith(p) && (best < 0 || p.length > M.lexicon[best].length)) { best = i; } });
    return best;
  }

  const isStop = (lex, word, lang) => (lex && lex.s[word] ? (lex.s[word] >> sources().indexOf(lang)) & 1 : 0);
  const endsWell = (word, stem, lang) => word.startsWith(stem) && M.endings[lang].includes(word.slice(stem.length));

  /* The stem in `lang` of a word the corpus never has: the longest stem of the language in the
     word's lexicon file that begins it, followed by an ending the language's words take in the
     corpus (командной -> командн, as командную). */
  function stemOf(word, lex, lang) {
    let best = "";
    for (const term of lex ? lex.t : []) {
      const stem = term.slice(lang.length + 1);
      if (term.startsWith(lang + ":") && stem.length > best.length && endsWell(word, stem, lang)) { best = stem; }
    }
    return best;
  }

  /* Optimal string alignment distance (a swap of two letters is one edit), at most limit + 1. */
  function distance(a, b, limit) {
    if (Math.abs(a.length - b.length) > limit) { return limit + 1; }
    const rows = [[...Array(b.length + 1).keys()]];
    for (let i = 1; i <= a.length; i++) {
      rows[i] = [i];
      let low = i;
      for (let j = 1; j <= b.length; j++) {
        let d = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) { d = Math.min(d, rows[i - 2][j - 2] + 1); }
        rows[i][j] = d;
        low = Math.min(low, d);
      }
      if (low > limit) { return limit + 1; }
    }
    return rows[a.length][b.length];
  }

  /* {term: weight} of one folded word, as kb search takes it: its terms where the corpus has
     the word, its stem in every other language; else its typo corrections (one edit, two from
     8 letters, the first letter kept: in the word's form or its stem, as kb search corrects
     verlassen's stem verlass to verlässt's); while typed, also the forms it begins. */
  function wordTerms(word, lex, langs, completing) {
    const found = {}, known = lex && lex.f[word];
    const add = (term, weight) => { if (langs.includes(langOf(term))) { found[term] = Math.max(found[term] || 0, weight); } };
    const byUse = (list) => [...new Set(list)].sort((a, b) => lex.n[b] - lex.n[a]);
    (known || []).forEach((i) => add(lex.t[i], 1));
    for (const lang of langs) {
      const has = keys(found).some((t) => langOf(t) === lang);
      const stem = has || isStop(lex, word, lang) ? "" : stemOf(word, lex, lang);
      if (stem) { add(lang + ":" + stem, 1); }
    }
    if (!known && lex && word.length >= 4 && word.length <= 40) {
      for (let d = 1; d <= (word.length >= 8 ? 2 : 1) && !keys(found).length; d++) {
        const near = [];
        for (const form of keys(lex.f)) { if (distance(form, word, d) <= d) { near.push(...lex.f[form]); } }
        for (const lang of langs) {
          for (const ending of M.endings[lang]) {
            const stem = word.slice(0, word.length - ending.length);
            if (stem.length < 2 || !word.endsWith(ending)) { continue; }
            lex.t.forEach((t, i) => { if (t.startsWith(lang + ":") && distance(t.slice(lang.length + 1), stem, d) <= d) { near.push(i); } });
          }
        }
        byUse(near).slice(0, MAX_CORRECTIONS).forEach((i) => add(lex.t[i], TYPO_WEIGHT[d]));
      }
    }
    if (completing && lex && word.length >= 3) {
      const more = keys(lex.f).filter((f) => f.length > word.length && f.startsWith(word)).flatMap((f) => lex.f[f]);
      byUse(more).slice(0, 5).forEach((i) => add(lex.t[i], 1));
    }
    return found;
  }

  /* Whether a folded word may be the glossary stem `stem` of `lang`. */
  const meets = (word, lex, lang, stem) => word === stem || endsWell(word, stem, lang) ||
    (lex && (lex.f[word] || []).some((i) => lex.t[i] === lang + ":" + stem));

  /* The glossary concepts the words name: one of a concept's terms (English or a ruling
     language) among them, stop words aside (kb/search/glossary.py's expansions). A lexicon
     file has the terms that begin with its words' letter. */
  function concepts(words, lexes) {
    const byId = {};
    lexes.forEach((lex) => (lex ? lex.g : []).forEach(([id, terms]) => {
      const concept = byId[id] || (byId[id] = {});
      keys(terms).forEach((lang) => { concept[lang] = (concept[lang] || []).concat(terms[lang]); });
    }));
    return keys(byId).filter((id) => sources().some((lang) => {
      const concept = byId[id];
      const kept = words.map((w, i) => i).filter((i) => !isStop(lexes[i], words[i], lang));
      return (concept[lang] || []).some((seq) => kept.some((_, s) => s + seq.length <= kept.length &&
        seq.every((stem, j) => meets(words[kept[s + j]], lexes[kept[s + j]], lang, stem))));
    }));
  }

  /* --- posting lists: an entry is (document, its distance from its group's first document,
     weight in thousandths or, in a filter's list, the language); a group is known by its
     first document, a unit by group * 8 + language. ------------------------------------- */

  function pageCount(n) {
    let pages = 1;
    for (let start = M.firstPage, size = M.firstPage * M.pageGrowth; start < n; start += size, size *= M.pageGrowth) { pages++; }
    return pages;
  }

  class List {
    constructor(name) { this.name = name; this.shard = fnv(name) % M.shards; this.fixed = name[0] === "#"; }
    head() {
      return load(`p/${this.shard}.js`).then(() => {
        const head = data.shards[this.shard][this.name] || [0, 0];
        [this.df, this.cid] = head;
        this.flat = head.slice(2);
        this.pages = 1;
      });
    }
    complete() { return this.flat.length / 3 >= this.df; }
    cut() { /* the most an entry not loaded yet may weigh */
      return this.complete() ? 0 : this.fixed ? RULE_WEIGHT : this.flat[this.flat.length - 1];
    }
    more(upTo) { /* the next page, or every page up to `upTo` */
      const from = this.pages, to = upTo || from + 1, paths = [];
      for (let k = from; k < to; k++) { paths.push(`c/${this.cid}.${k}.js`); }
      return all(paths).then(() => {
        for (let k = from; k < to; k++) { this.flat = this.flat.concat(data.pages[this.cid + "." + k]); }
        this.pages = to;
      });
    }
    whole() { return this.wholly || (this.wholly = this.more(pageCount(this.df))); }
    each(fn) { /* fn(unit key, group, language, document, weight) */
      const lang = langIndex(langOf(this.name));
      for (let i = 0; i < this.flat.length; i += 3) {
        const group = this.flat[i] - this.flat[i + 1], at = this.fixed ? this.flat[i + 2] : lang;
        fn(group * 8 + at, group, at, this.flat[i], this.fixed ? RULE_WEIGHT : this.flat[i + 2]);
      }
    }
  }

  /* {unit: document} of whole lists, in the languages `langs`. */
  function unitsOf(lists, langs) {
    const out = {};
    lists.forEach((list) => list.each((key, group, lang, doc) => { if (langs.includes(M.langs[lang])) { out[key] = doc; } }));
    return out;
  }

  const intersect = (a, b) => (a ? Object.fromEntries(keys(a).filter((u) => u in b).map((u) => [u, a[u]])) : b);

  /* What the loaded pages say: each unit's lower bound (what it surely scores) and upper bound
     (what it may score once the rest is loaded); groups by their best unit; the most a unit
     in no loaded entry may score. */
  function score(clauses, lists, allowed, banned, langs) {
    const units = {}, groups = {};
    for (const c of clauses) {
      for (const t of c.terms) {
        lists[t].each((key, group, lang, doc, weight) => {
          (units[key] || (units[key] = { key, group, lang, doc, seen: {} })).seen[t] = weight;
        });
      }
    }
    const sums = (unit) => {
      let low = 0, high = 0;
      for (const c of clauses) {
        if (c.lang !== null && langIndex(c.lang) !== unit.lang) { continue; }
        let sure = 0, may = 0, every = true, possible = true;
        for (const t of c.terms) {
          const w = unit.seen[t];
          if (w) { sure += w; may += w; } else { every = false; possible = possible && !lists[t].complete(); may += lists[t].cut(); }
        }
        if (every) { low += c.weight * sure; }
        if (possible) { high += c.weight * may; }
      }
      return [low, high];
    };
    let bound = Math.max(0, ...langs.map((lang) => sums({ lang: langIndex(lang), seen: {} })[1]));
    for (const unit of Object.values(units)) {
      if (!langs.includes(M.langs[unit.lang]) || (allowed && !(unit.key in allowed)) || (banned && unit.group in banned)) { continue; }
      const [low, high] = sums(unit), g = groups[unit.group] || (groups[unit.group] = { group: unit.group, low: 0, high: 0, units: [] });
      unit.low = low;
      g.low = Math.max(g.low, low);
      g.high = Math.max(g.high, high);
      g.units.push(unit);
    }
    if (allowed && keys(allowed).every((key) => key in units)) { bound = 0; } /* unseen units must be allowed ones */
    const ranked = Object.values(groups).filter((g) => g.low > 0).sort((a, b) => (b.low - a.low) || (a.group - b.group));
    return { ranked, bound, groups };
  }

  /* Whether more pages could change the top results (which they are, or their order). */
  function settled(result) {
    const top = result.ranked.slice(0, MAX_RESULTS), last = top.length ? top[top.length - 1].low : 0;
    const outside = Math.max(result.bound, ...Object.values(result.groups).filter((g) => !top.includes(g)).map((g) => g.high));
    return !(outside > last || (top.length < MAX_RESULTS && outside > 0)) && top.every((g, i) => !top[i + 1] || g.low >= top[i + 1].high);
  }

  function refine(clauses, lists, allowed, banned, langs, loads) {
    const result = score(clauses, lists, allowed, banned, langs);
    let next = null, best = 0;
    for (const c of clauses) {
      for (const t of c.terms) { if (!lists[t].complete() && c.weight * lists[t].cut() > best) { best = c.weight * lists[t].cut(); next = lists[t]; } }
    }
    if (!next || settled(result) || loads >= MAX_LOADS) { return Promise.resolve(result); }
    return next.more().then(() => refine(clauses, lists, allowed, banned, langs, loads + 1));
  }

  function dateTerms(op, value) {
    if (op === "=") { return ["#d:" + value]; }
    const end = value + "\uffff", keep = { ">=": (d) => d >= value, ">": (d) => d > end, "<=": (d) => d <= end, "<": (d) => d < value }[op];
    const out = data.dates.filter(keep).map((d) => "#d:" + d);
    return out.length ? out : ["#d:none"];
  }

  /* --- a query ---------------------------------------------------------------------------- */

  function search(q, typing) { /* q: the page's parse() of the query */
    return all(["manifest.js", `r/${ui}.js`]).then(() => {
      const asked = q.langs.filter((l) => M.langs.includes(l)), langs = asked.length ? asked : M.langs;
      const words = q.words.flatMap(tokens).filter((t) => t.length >= 2), excluded = q.excluded.flatMap(tokens);
      const files = [...new Set(words.concat(excluded).map(lexOf).filter((i) => i >= 0))].map((i) => `l/${i}.js`);
      return all(files.concat(q.dates.length ? ["dates.js"] : []))
        .then(() => rank(q, words, excluded, langs, typing));
    });
  }

  /* The query's scored clauses {lang, terms, weight} (weights of one clause asked twice add
     up, as in kb search): each word's terms, the named concepts' terms in every language
     (their files loaded first), and the rule numbers typed. */
  function clausesOf(q, words, lexes, langs, typing) {
    const weights = {}, named = concepts(words, lexes);
    const clause = (lang, terms, weight) => { const key = lang + "|" + terms.join(" "); weights[key] = (weights[key] || 0) + weight; };
    words.forEach((w, i) => {
      const found = wordTerms(w, lexes[i], langs, typing && i === words.length - 1);
      keys(found).forEach((t) => clause(langOf(t), [t], found[t]));
    });
    return all(named.map((id) => `g/${id}.js`)).then(() => {
      named.forEach((id) => langs.forEach((lang) => (data.concepts[id][lang] || [])
        .forEach((seq) => clause(lang, seq.map((s) => lang + ":" + s), GLOSSARY_WEIGHT))));
      q.ruleWords.forEach((r) => clause("", ["#r:" + r], 1)); /* 726.4 */
      return keys(weights).map((key) => {
        const [lang, terms] = key.split("|");
        return { lang: lang || null, terms: terms.split(" "), weight: weights[key] };
      });
    });
  }

  function rank(q, words, excluded, langs, typing) {
    const lexes = words.map((w) => data.lex[lexOf(w)] || null);
    return clausesOf(q, words, lexes, langs, typing).then((clauses) => rankClauses(q, clauses, lexes, excluded, langs));
  }

  function rankClauses(q, clauses, lexes, excluded, langs) {
    const lists = {}, filters = [], list = (name) => lists[name] || (lists[name] = new List(name));
    const terms = {};
    clauses.forEach((c) => c.terms.forEach((t) => { terms[t] = true; list(t); }));
    q.cards.forEach((card) => filters.push(tokens(card).map((w) => list("#c:" + cardWord(w)))));
    if (q.rules.length) { filters.push(q.rules.map((r) => list("#r:" + r))); }
    q.dates.forEach(([op, value]) => filters.push(dateTerms(op, value).map(list)));
    const out = excluded.flatMap((w) => keys(wordTerms(w, data.lex[lexOf(w)], langs, false)).map(list));
    return Promise.all(Object.values(lists).map((l) => l.head()))
      .then(() => Promise.all(filters.flat().concat(out).map((l) => l.whole())))
      .then(() => {
        let allowed = null, cardDoc = null;
        filters.forEach((f, i) => {
          const units = i < q.cards.length ? f.reduce((a, l) => intersect(a, unitsOf([l], langs)), null) || {} : unitsOf(f, langs);
          if (i < q.cards.length) { cardDoc = units; }
          allowed = intersect(allowed, units);
        });
        /* an excluded word leaves out a ruling, in whichever language it holds the word */
        const banned = out.length ? Object.fromEntries(keys(unitsOf(out, M.langs)).map((u) => [Math.floor(u / 8), true])) : null;
        return refine(clauses, lists, allowed, banned, langs, 0).then((result) => {
          let ranked = result.ranked;
          if (!clauses.length && allowed) { /* filters alone: their rulings, by group */
            const seen = {};
            ranked = keys(allowed).map(Number).sort((a, b) => a - b).filter((u) => {
              const g = Math.floor(u / 8);
              return !(banned && g in banned) && !seen[g] && (seen[g] = true);
            }).map((u) => ({ group: Math.floor(u / 8), units: [{ key: u, lang: u % 8, doc: allowed[u] }] }));
          }
          const complete = Object.values(lists).every((l) => l.complete());
          return show(ranked, q, cardDoc, langs, complete, { terms, forms: matchedForms(lexes, terms) });
        });
      });
  }

  /* The forms of the loaded lexicon files that give a term of the query (to mark them). */
  function matchedForms(lexes, terms) {
    const forms = {};
    lexes.forEach((lex) => keys(lex ? lex.f : {}).forEach((f) => { if (lex.f[f].some((i) => terms[lex.t[i]])) { forms[f] = true; } }));
    return forms;
  }

  /* --- results ------------------------------------------------------------------------------ */

  const docPath = (n) => `d/${Math.floor(n / M.docsPerChunk)}.js`;
  function doc(n) { /* [page, language, card, text, rules, {language: document} or 0] */
    const chunk = data.docs[Math.floor(n / M.docsPerChunk)], d = chunk[n % M.docsPerChunk].slice();
    for (let i = n % M.docsPerChunk; d[0][0] === "#"; i--) { d[0] = chunk[i - 1][0].split("#")[0] + d[0]; } /* the page before's */
    return d;
  }

  /* The top groups' rulings: the reader's language's when the group has one (the rulings that
     matched in it first), else the best matched. */
  function show(ranked, q, cardDoc, langs, complete, query) {
    const reader = langIndex(ui), canSwitch = reader >= 0 && langs.includes(ui) && !cardDoc;
    const direct = (g) => g.units.some((u) => u.lang === reader && u.low > 0);
    let top = ranked.slice(0, MAX_RESULTS);
    if (reader >= 0) { top = top.filter(direct).concat(top.filter((g) => !direct(g))); }
    const picks = top.map((g) => {
      const best = g.units.slice().sort((a, b) => (b.low || 0) - (a.low || 0))[0];
      const unit = (canSwitch && g.units.find((u) => u.lang === reader)) || best;
      return cardDoc && cardDoc[unit.key] !== undefined ? cardDoc[unit.key] : unit.doc;
    });
    return all(picks.map(docPath)).then(() => {
      const again = picks.map((n) => { const d = doc(n); return canSwitch && d[1] !== ui && d[5] && d[5][ui] !== undefined ? d[5][ui] : n; });
      return all(again.map(docPath)).then(() => {
        const cardKey = (text) => ` ${tokens(text).map(cardWord).join(" ")} `;
        const rule = (d) => (d[4] || []).find((r) => data.rules[r]);
        const docs = again.map(doc).filter((d) => q.cards.every((card) => cardKey(d[2]).includes(cardKey(card))))
          .map((d) => ({ page: d[0], lang: d[1], card: d[2], text: d[3], rule: rule(d) && `${rule(d)} · ${data.rules[rule(d)]}` }));
        return { docs, count: ranked.length, complete, ui, hits: (text, lang) => hits(text, lang, query) };
      });
    });
  }

  /* Whether a (folded) word of a ruling in `lang` is one the query matched. */
  const matches = (word, lang, query) => query.forms[word] || keys(query.terms).some((t) => {
    if (langOf(t) !== lang) { return false; }
    const stem = t.slice(lang.length + 1), at = lang === "de" ? word.indexOf(stem, 1) : -1; /* a compound's part */
    return endsWell(word, stem, lang) || (at > 0 && M.endings.de.includes(word.slice(at + stem.length)));
  });
  /* [start, end] of the words of `text` the query matched (to mark them). */
  const hits = (text, lang, query) => [...text.matchAll(/[\p{L}\p{N}]+/gu)]
    .filter((m) => matches(fold(m[0].toLowerCase()), lang, query)).map((m) => [m.index, m.index + m[0].length]);

  window.kbSearchEngine = { search };
})();
