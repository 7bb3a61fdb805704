"""A ruling printed on many cards: the checks look at each distinct text once and report its
findings for every copy, as checking each ruling on its own does."""

from __future__ import annotations

from dataclasses import replace

from kb.checks.findings import Corpus, Group
from kb.checks.load import load_corpus
from kb.checks.run import check_corpus
from kb.reference.glossary import load as load_glossary


def _copied_corpus(checks_db) -> Corpus:
    """The seed groups with every ruling printed on three more cards, one of them twice (a
    duplicate), the Italian ones also with a cleaned text, and one group copied whole into
    another group (the same texts in two groups)."""
    groups = []
    for group in load_corpus(checks_db).groups:
        members = list(group.members)
        for k in range(1, 4):
            members += [
                replace(m, id=f"{m.id}~{k}", card=f"{m.card} {k}", source=f"c{k}:{k}")
                for m in group.members
            ]
        members += [replace(m, id=f"{m.id}~twice", source="twice:9") for m in group.members]
        cleaned = [m for m in group.members if m.lang == "it" and "(the first room)" in m.text]
        members += [
            replace(
                m,
                id=f"{m.id}~clean",
                card=f"{m.card} 9",
                text=m.text.replace("(the first room)", "(la prima stanza)"),
            )
            for m in cleaned
        ]
        groups.append(Group(group.id, sorted(members, key=lambda m: (m.lang, m.card, m.id))))
    first = groups[0]
    groups.append(
        Group("zz-copy", [replace(m, id=f"{m.id}~zz", group="zz-copy") for m in first.members])
    )
    return Corpus(groups, load_glossary())


def test_copies_of_a_text_get_what_checking_each_copy_gives(checks_db, monkeypatch):
    from kb.checks import update as check_update

    corpus = _copied_corpus(checks_db)
    assert any(len(copies) > 1 for g in corpus.groups for copies in g.texts)
    found = check_corpus(corpus).findings
    counts = {name: count(corpus, corpus.members) for name, count in check_update.COUNTS.items()}
    # Each member on its own: what the checks did before they shared work between copies.
    monkeypatch.setattr(Group, "texts", property(lambda g: [[m] for m in g.members]))
    alone = _copied_corpus(checks_db)
    assert [f.to_dict() for f in found] == [f.to_dict() for f in check_corpus(alone).findings]
    assert counts == {
        name: count(alone, alone.members) for name, count in check_update.COUNTS.items()
    }
    # The copies are there: every copy of a text with a finding has it, named as itself.
    assert {f.ruling for f in found if f.check == "untranslated-fragment"} >= {
        f"{m.id}"
        for g in alone.groups
        for m in g.members
        if m.lang == "it" and "(the first room)" in m.text
    }
    assert any(f.check == "duplicate-text" and f.ruling.endswith("~twice") for f in found)


def test_each_text_is_checked_once(checks_db, monkeypatch):
    from kb.checks import fragments

    corpus = _copied_corpus(checks_db)
    calls = []
    real = fragments.text_findings
    monkeypatch.setattr(
        fragments,
        "text_findings",
        lambda c, others, m: calls.append((m.group, m.text)) or real(c, others, m),
    )
    check_corpus(corpus)
    texts = [(g.id, m.text) for g in corpus.groups for m in g.members if m.lang != "en"]
    assert sorted(calls) == sorted(set(texts)) and len(calls) < len(texts)
