"""TMX and TBX exports: read back with translate-toolkit, validated against the formats' DTDs."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from lxml import etree
from translate.storage import tbx, tmx

from kb import align
from kb.cli import cli
from kb.corpus.files import corpus_files
from kb.export.tbx import to_tbx
from kb.export.tmx import to_tmx
from kb.pipeline import build
from kb.pipeline.context import BuildContext
from kb.reference.glossary import load as load_glossary

SEEDS = Path(__file__).resolve().parent.parent / "rulings"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"

# The parts of the TMX 1.4b DTD (LISA OSCAR) that our files use, as the standard declares them.
TMX_DTD = """
<!ELEMENT tmx (header, body)>
<!ATTLIST tmx version CDATA #FIXED "1.4">
<!ELEMENT header (note|prop|ude)*>
<!ATTLIST header creationtool CDATA #REQUIRED creationtoolversion CDATA #REQUIRED
  segtype (block|paragraph|sentence|phrase) #REQUIRED o-tmf CDATA #REQUIRED
  adminlang CDATA #REQUIRED srclang CDATA #REQUIRED datatype CDATA #REQUIRED>
<!ELEMENT ude (map+)> <!ELEMENT map EMPTY>
<!ELEMENT note (#PCDATA)>
<!ELEMENT prop (#PCDATA)> <!ATTLIST prop type CDATA #REQUIRED>
<!ELEMENT body (tu*)>
<!ELEMENT tu ((note|prop)*, tuv+)> <!ATTLIST tu tuid CDATA #IMPLIED>
<!ELEMENT tuv ((note|prop)*, seg)> <!ATTLIST tuv xml:lang CDATA #REQUIRED>
<!ELEMENT seg (#PCDATA)>
"""
# The MARTIF core structure elements of TBX (ISO 30042) that our glossary file uses.
TBX_DTD = """
<!ELEMENT martif (martifHeader, text)>
<!ATTLIST martif type CDATA #REQUIRED xml:lang CDATA #REQUIRED>
<!ELEMENT martifHeader (fileDesc)> <!ELEMENT fileDesc (sourceDesc+)>
<!ELEMENT sourceDesc (p+)> <!ELEMENT p (#PCDATA)>
<!ELEMENT text (body)> <!ELEMENT body (termEntry+)>
<!ELEMENT termEntry (note*, langSet+)> <!ATTLIST termEntry id ID #IMPLIED>
<!ELEMENT note (#PCDATA)>
<!ELEMENT langSet (tig+)> <!ATTLIST langSet xml:lang CDATA #REQUIRED>
<!ELEMENT tig (term, termNote*)>
<!ELEMENT term (#PCDATA)>
<!ELEMENT termNote (#PCDATA)> <!ATTLIST termNote type CDATA #REQUIRED>
"""


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    work = tmp_path_factory.mktemp("exchange")
    names = [name for name, _ in build.STAGES]
    ctx = BuildContext(corpus=corpus_files([str(SEEDS)]), work=work)
    for name, target in build.STAGES[:names.index("align") + 1]:
        build.stage_function(target)(ctx)
    return ctx.db



def _valid(document: str, dtd: str) -> etree._Element:
    root = etree.fromstring(document.encode("utf-8"))
    checker = etree.DTD(io.StringIO(dtd))
    assert checker.validate(root), checker.error_log.filter_from_errors()
    return root


def test_tmx_has_one_tu_per_group_and_texts_verbatim(db):
    document = to_tmx(db)
    root = _valid(document, TMX_DTD)
    groups = align.groups(db)
    units = root.findall("body/tu")
    assert [u.get("tuid") for u in units] == [str(g["id"]) for g in groups]
    for unit, group in zip(units, groups):
        langs = [tuv.get(XML_LANG) for tuv in unit.findall("tuv")]
        assert sorted(langs) == sorted({m["lang"] for m in group["members"]})
        for tuv in unit.findall("tuv"):
            member = next(m for m in group["members"] if m["lang"] == tuv.get(XML_LANG))
            assert tuv.findtext("seg") == member["text"]


def test_tmx_reads_back_with_translate_toolkit(db):
    store = tmx.tmxfile(io.BytesIO(to_tmx(db).encode("utf-8")),
                        sourcelanguage="fr", targetlanguage="it")
    texts = {(r["lang"], r["text"]) for r in db["rulings"].rows}
    assert len(store.units) == len(align.groups(db))
    for unit in store.units:
        assert ("fr", unit.source) in texts and ("it", unit.target) in texts
    assert any("l’initiative" in u.source for u in store.units)  # typographic marks kept


def test_tbx_has_one_entry_per_concept_and_reads_back(db):
    glossary = load_glossary()
    document = to_tbx(glossary)
    root = _valid(document, TBX_DTD)
    entries = root.findall("text/body/termEntry")
    assert [e.get("id") for e in entries] == [c.id for c in glossary.concepts]
    store = tbx.tbxfile(io.BytesIO(document.encode("utf-8")))
    assert len(store.units) == len(glossary.concepts)
    by_id = {c.id: c for c in glossary.concepts}
    for unit, entry in zip(store.units, entries):
        concept = by_id[entry.get("id")]
        for lang in ("ru", "it", "fr", "de", "es"):
            terms = unit.get_target_terms(lang)
            assert [t.text for t in terms] == list(dict.fromkeys(concept.terms[lang]))
            assert terms[0].administrative_status == "preferredTerm-admn-sts"


def test_control_character_is_a_clear_error(tmp_path):
    corpus = tmp_path / "rulings"
    shutil.copytree(SEEDS, corpus, ignore=shutil.ignore_patterns("suppressions.toml"))
    path = corpus / "es-vidente-del-pasaje.txt"
    path.write_text(path.read_text(encoding="utf-8").replace("Solo un", "Solo\x01 un"),
                    encoding="utf-8")
    ctx = BuildContext(corpus=corpus_files([str(corpus)]), work=tmp_path)
    for _, target in build.STAGES[:2]:
        build.stage_function(target)(ctx)
    db_path = str(tmp_path / "rulings.db")
    result = CliRunner().invoke(cli, ["export", "tmx", "--db", db_path])
    assert result.exit_code == 2
    assert "U+0001 cannot be written to XML" in result.output


def test_export_commands_write_to_stdout(db):
    db_path = db.conn.execute("PRAGMA database_list").fetchone()[2]
    runner = CliRunner()
    out = runner.invoke(cli, ["export", "tmx", "--db", db_path])
    assert out.exit_code == 0 and out.output.startswith('<?xml version="1.0"')
    out = runner.invoke(cli, ["export", "tbx"])
    assert out.exit_code == 0 and "<martif" in out.output
