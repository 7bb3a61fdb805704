"""Search: the whoosh index of the rulings (a build stage) and queries over it.

One whoosh document per ruling, with its text in the field of its language (``text_fr``…,
analysed by :mod:`kb.analysis` for that language), its card name in ``title_<lang>`` (matched
by free words, weighted lower) and in ``card_key`` (the ``card:`` filter), and its group's id,
rule numbers and date for the filters. A query (:mod:`kb.query`) is analysed for every language
it may be in, so a word finds the rulings of the language(s) it belongs to; results are
collapsed to one hit per group, shown in the language the reader asks for.

Words missing from the index's vocabulary are taken as typos: they match the terms within edit
distance 1 (words up to 7 letters) or 2 (longer), found with whoosh's automaton over the
vocabulary, weighted lower than exact matches. Glossary terms of a concept named in the query,
in English or any ruling language, add that concept's terms in every language.
"""

from __future__ import annotations

import re
import threading
from functools import lru_cache
from dataclasses import asdict, dataclass, field
from pathlib import Path

from whoosh import index as whoosh_index
from whoosh import query as Q
from whoosh.fields import ID, KEYWORD, STORED, TEXT, Schema

from kb import analysis
from kb.errors import KbError
from kb.languages import LANGUAGES
from kb.query import Query, QueryError, parse

TYPO_WEIGHT = {1: 0.7, 2: 0.5}  # a corrected word counts less than a word typed right
TITLE_BOOST = 0.5  # a word of the card name counts less than one of the ruling
GLOSSARY_WEIGHT = 0.6
MAX_CORRECTIONS = 4
MAX_WORD = 40  # longer "words" are never in the vocabulary: no typo search for them


@dataclass
class Hit:
    """One result: a group, shown by one of its rulings."""

    group: str
    lang: str
    card: str
    text: str
    score: float
    id: str = ""
    date: str = ""
    rules: list[str] = field(default_factory=list)
    source: str = ""
    matched_lang: str = ""  # the language of the ruling that matched, if another is shown

    def as_dict(self) -> dict:
        return asdict(self)


# --- building ---------------------------------------------------------------------------------

def index_dir_for(db_path: str | Path) -> Path:
    """Where the index of a store lives: ``index/`` next to ``rulings.db``."""
    return Path(db_path).parent / "index"


def schema(method: str = analysis.DEFAULT_METHOD) -> Schema:
    fields = {
        "id": ID(stored=True, unique=True), "group": ID(stored=True, sortable=True),
        "lang": ID(stored=True), "date": ID(stored=True), "card": STORED(),
        "text": STORED(), "source": STORED(), "rules": KEYWORD(stored=True, scorable=False),
        "card_key": TEXT(analyzer=analysis.CardAnalyzer(), phrase=True),
    }
    for lang in LANGUAGES:
        fields[f"text_{lang}"] = TEXT(analyzer=analysis.LanguageAnalyzer(lang, method))
        fields[f"title_{lang}"] = TEXT(analyzer=analysis.LanguageAnalyzer(lang, method),
                                       phrase=False, field_boost=TITLE_BOOST)
    return Schema(**fields)


def build_stage(ctx) -> None:
    """Pipeline stage "index": write the whoosh index to ``ctx.work / "index"``."""
    build_index(ctx.db, ctx.work / "index")


def build_index(db, index_dir: str | Path, method: str = analysis.DEFAULT_METHOD) -> int:
    """(Re)create the index of every ruling in the store; return how many were indexed."""
    from kb import store
    from kb.progress import progress

    index_dir = Path(index_dir)
    index_dir.mkdir(parents=True, exist_ok=True)
    ix = whoosh_index.create_in(str(index_dir), schema(method))
    groups, rules = group_map(db)
    rows = [r for r in store.rulings(db) if r["lang"] in LANGUAGES]
    writer = ix.writer(limitmb=256)
    with progress("index", len(rows)) as advance:
        for row in rows:
            group = groups.get(row["id"], row["id"])
            writer.add_document(
                id=row["id"], group=group, lang=row["lang"], date=row["date"],
                card=row["card"], text=row["text"], source=row["source"],
                rules=" ".join(rules.get(group, ())), card_key=row["card"],
                **{f"text_{row['lang']}": row["text"], f"title_{row['lang']}": row["card"]})
            advance()
    writer.commit(optimize=True)
    write_glossary(index_dir, method)
    _OPEN.pop(str(index_dir.resolve()), None)
    _glossary_table.cache_clear()
    return len(rows)


def group_map(db) -> tuple[dict[str, str], dict[str, list[str]]]:
    """``({ruling id: group id}, {group id: [rule numbers]})`` from the alignment's tables.

    Before alignment has run (no ``memberships`` table) each ruling is its own group.
    """
    names = set(db.table_names())
    groups, rules = {}, {}
    if "memberships" in names:
        columns = {c.name for c in db["memberships"].columns}
        ruling_col = "ruling_id" if "ruling_id" in columns else "ruling"
        group_col = "group_id" if "group_id" in columns else "group"
        for row in db.query(f'SELECT "{ruling_col}" AS r, "{group_col}" AS g FROM memberships'):
            groups[row["r"]] = str(row["g"])
    if "group_rules" in names:
        columns = {c.name for c in db["group_rules"].columns}
        group_col = "group_id" if "group_id" in columns else "group"
        rule_col = "rule" if "rule" in columns else "number"
        for row in db.query(f'SELECT "{group_col}" AS g, "{rule_col}" AS n FROM group_rules'
                            " ORDER BY 1, 2"):
            rules.setdefault(str(row["g"]), []).append(row["n"])
    return groups, rules


# --- searching --------------------------------------------------------------------------------

_OPEN: dict[str, object] = {}
_LOCK = threading.Lock()


def open_index(index_dir: str | Path):
    """The whoosh index in ``index_dir``, opened once per process."""
    key = str(Path(index_dir).resolve())
    with _LOCK:
        if key not in _OPEN:
            if not whoosh_index.exists_in(key):
                raise KbError(f"no search index in {index_dir}: run `kb build` first or pass --db")
            _OPEN[key] = whoosh_index.open_dir(key)
        return _OPEN[key]


def search(index_dir: str | Path, query: str | Query, lang: str | None = None,
           limit: int = 10) -> list[Hit]:
    """The best groups for ``query``, one hit per group, best first.

    ``lang`` shows each group by its ruling in that language (falling back to the ruling that
    matched when the group has none). Raises :class:`kb.query.QueryError` for a query that
    cannot be run, :class:`kb.errors.KbError` for a missing index.
    """
    if lang is not None and lang not in LANGUAGES:
        raise KbError(f"unknown language {lang!r} (use one of {', '.join(LANGUAGES)})")
    parsed = parse(query) if isinstance(query, str) else query
    ix = open_index(index_dir)
    with ix.searcher() as searcher:
        compiled = compile_query(parsed, searcher, index_dir)
        if compiled is None:
            return []
        results = searcher.search(compiled, limit=max(1, limit), collapse="group",
                                  collapse_limit=1, terms=False)
        return [_hit(searcher, r.fields(), r.score, lang) for r in results]


def _hit(searcher, fields: dict, score: float, lang: str | None) -> Hit:
    shown = fields
    if lang and fields["lang"] != lang:
        shown = searcher.document(group=fields["group"], lang=lang) or fields
    return Hit(group=shown["group"], lang=shown["lang"], card=shown["card"], text=shown["text"],
               score=round(float(score), 4), id=shown["id"], date=shown["date"],
               rules=shown.get("rules", "").split(), source=shown["source"],
               matched_lang=fields["lang"])


def compile_query(query: Query, searcher, index_dir: str | Path = ""):
    """The whoosh query for a parsed query, or None when no word can match anything."""
    reader = searcher.reader()
    method = searcher.schema[f"text_{LANGUAGES[0]}"].analyzer.method
    langs = query.langs or LANGUAGES
    wanted = []
    for word in query.words:
        per_lang = {lang: analysis.terms(word, lang, method, split=False) for lang in langs}
        sub = _word_query(word, per_lang, reader)
        if sub is not None:
            wanted.append(sub)
    wanted += _glossary_queries(query, langs, method, str(index_dir))
    required = [_phrase_query(p, langs, method) for p in query.phrases] + _filters(query)
    if not (wanted or required):
        _explain_nothing(query.words, langs)
        return None
    words = Q.Or(wanted) if wanted else None
    if required and words is not None:
        compiled = Q.AndMaybe(Q.And(required), words)
    else:
        compiled = Q.And(required) if required else words
    excluded = [q for w in query.excluded if (q := _exact(w, langs, reader, method)) is not None]
    return Q.AndNot(compiled, Q.Or(excluded)) if excluded else compiled


def _explain_nothing(words, langs) -> None:
    """Raise QueryError when the words could never match (no letters, only stop words)."""
    if not any(re.search(r"[^\W_]", w) for w in words):
        raise QueryError("nothing to search for: type some words, a \"phrase\" "
                         "or a filter such as lang:fr")
    if all(any(analysis.fold(w, lang) in analysis.stopwords(lang) for lang in langs)
           for w in words):
        raise QueryError("only very common words (" + " ".join(words[:5]) +
                         "): add a word that says what the ruling is about")


def _in_lang(lang: str, terms: list[str], boost: float = 1.0):
    """All ``terms`` in one language's ruling text or card name."""
    def one(term):
        return Q.Or([Q.Term(f"text_{lang}", term, boost=boost),
                     Q.Term(f"title_{lang}", term, boost=boost)])
    return one(terms[0]) if len(terms) == 1 else Q.And([one(t) for t in terms])


def _known(reader, lang: str, term: str) -> int:
    return reader.doc_frequency(f"text_{lang}", term) + reader.doc_frequency(f"title_{lang}", term)


def _word_query(word: str, per_lang: dict[str, list[str]], reader):
    """The word in every language whose vocabulary has it; else its typo corrections."""
    known = {lang: terms for lang, terms in per_lang.items()
             if terms and all(_known(reader, lang, t) for t in terms)}
    if known:
        return Q.Or([_in_lang(lang, terms) for lang, terms in known.items()])
    return _corrections(word, per_lang, reader)


def _corrections(word: str, per_lang: dict[str, list[str]], reader):
    """Terms within edit distance 1 (2 for words of 8+ letters) of the word's term."""
    letters = len(analysis.fold(word))
    if letters < 4 or letters > MAX_WORD:
        return None
    for distance in (1, 2) if letters >= 8 else (1,):
        found = []
        for lang, terms in per_lang.items():
            if len(terms) != 1:
                continue
            for candidate in reader.terms_within(f"text_{lang}", terms[0], distance, prefix=1):
                found.append((reader.doc_frequency(f"text_{lang}", candidate), lang, candidate))
        if found:
            best = sorted(found, reverse=True)[:MAX_CORRECTIONS]
            return Q.Or([_in_lang(lang, [term], TYPO_WEIGHT[distance])
                         for _, lang, term in best])
    return None


def _exact(word: str, langs, reader, method: str):
    per_lang = {lang: analysis.terms(word, lang, method, split=False) for lang in langs}
    parts = [_in_lang(lang, terms) for lang, terms in per_lang.items() if terms]
    return Q.Or(parts) if parts else None


def _phrase_query(phrase: str, langs, method: str):
    parts = []
    for lang in langs:
        terms = analysis.terms(phrase, lang, method, split=False)
        if len(terms) == 1:
            parts.append(Q.Term(f"text_{lang}", terms[0]))
        elif terms:
            parts.append(Q.Phrase(f"text_{lang}", terms))
    if not parts:
        raise QueryError(f'the phrase "{phrase}" has only very common words')
    return Q.Or(parts)


def _filters(query: Query) -> list:
    out = []
    if query.langs:
        out.append(Q.Or([Q.Term("lang", lang) for lang in query.langs]))
    for card in query.cards:
        keys = analysis.card_key(card)
        if not keys:
            raise QueryError(f'card:"{card}" has no letters to match a card name')
        out.append(Q.Term("card_key", keys[0]) if len(keys) == 1 else Q.Phrase("card_key", keys))
    if query.rules:
        out.append(Q.Or([Q.Or([Q.Term("rules", rule), Q.Prefix("rules", rule + ".")])
                         for rule in query.rules]))
    for op, value in query.dates:
        out.append(_date_query(op, value))
    return out


def _date_query(op: str, value: str):
    # ISO prefixes sort like dates; "\uffff" closes a prefix: 2022 <= 2022-06-10 < 2022\uffff.
    end = value + "\uffff"
    if op == "=":
        return Q.Prefix("date", value)
    if op == ">=":
        return Q.TermRange("date", value, None)
    if op == ">":
        return Q.TermRange("date", end, None, startexcl=True)
    if op == "<=":
        return Q.TermRange("date", None, end)
    return Q.TermRange("date", None, value, endexcl=True)


def _glossary_queries(query: Query, langs, method: str, index_dir: str) -> list:
    """Terms, in every language searched, of the glossary concepts the query's words name.

    A concept is named when one of its terms (in English or any ruling language, analysed
    like the query) appears in the query's words. The table comes from the index folder
    (:func:`write_glossary`), so no YAML is parsed and no regex compiled per query.
    """
    concepts = _glossary_table(index_dir)
    text = " ".join(query.words)
    if not concepts or not text:
        return []
    named = set()
    for source in GLOSSARY_SOURCES:
        words = analysis.terms(text, source, method, split=False)
        named |= {cid for cid, by_lang in concepts.items()
                  if any(_contains(words, term) for term in by_lang.get(source, ()))}
    return [_in_lang(lang, term, GLOSSARY_WEIGHT)
            for cid in sorted(named) for lang in langs for term in concepts[cid].get(lang, ())]


def _contains(words: list[str], term: list[str]) -> bool:
    n = len(term)
    return n > 0 and any(words[i:i + n] == term for i in range(len(words) - n + 1))


GLOSSARY_SOURCES = ("en",) + tuple(LANGUAGES)


def write_glossary(index_dir: Path, method: str) -> None:
    """Save the glossary's terms, analysed per language, as ``glossary.json`` in the index."""
    import json

    try:
        from kb import glossary
    except ImportError:  # no glossary yet: no cross-language expansion
        return
    table = {c.id: {lang: [t for t in (analysis.terms(term, lang, method, split=False)
                                       for term in c.terms.get(lang, ())) if t]
                    for lang in GLOSSARY_SOURCES}
             for c in glossary.load().concepts}
    (index_dir / "glossary.json").write_text(json.dumps(table, ensure_ascii=False, sort_keys=True),
                                             encoding="utf-8")


@lru_cache(maxsize=8)
def _glossary_table(index_dir: str) -> dict:
    import json

    path = Path(index_dir) / "glossary.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def render_text(hits: list[Hit]) -> str:
    """Hits as text for a terminal: a heading line per hit, then its text indented."""
    if not hits:
        return "no rulings found"
    import textwrap

    blocks = []
    for rank, hit in enumerate(hits, 1):
        rules = f"  rules {', '.join(hit.rules)}" if hit.rules else ""
        head = f"{rank}. [{hit.lang}] {hit.card} · {hit.date}{rules}  (score {hit.score:.2f})"
        body = textwrap.fill(hit.text, width=96, initial_indent="   ", subsequent_indent="   ")
        blocks.append(f"{head}\n{body}")
    return "\n\n".join(blocks)
