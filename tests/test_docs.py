"""The documentation stays in step with the code: the CLI, the rules, the links between pages.

As sqlite-utils does with its docs: every command's ``--help`` is run through click's CliRunner
and each option it lists must appear in that command's section of docs/cli.md, so an option
added to the code without a line in the docs fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from kb.cli import cli
from kb.core import registry
from kb.store import schema

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
README = ROOT / "README.md"
CLI_DOC = DOCS / "cli.md"
#: Options every command has; docs/cli.md documents them once, under "Conventions".
COMMON = {"-h", "--help"}


def command_paths(group: click.Group = cli, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every command and subcommand, as the words typed after `kb`."""
    paths = []
    for name, command in sorted(group.commands.items()):
        paths.append((*prefix, name))
        if isinstance(command, click.Group):
            paths += command_paths(command, (*prefix, name))
    return paths


def help_options(path: tuple[str, ...]) -> set[str]:
    """The option names the `Options:` part of ``kb PATH --help`` lists."""
    result = CliRunner().invoke(cli, [*path, "--help"], prog_name="kb")
    assert result.exit_code == 0, result.output
    options_part = result.output.split("\nOptions:\n", 1)[1].split("\n\n", 1)[0]
    names = set()
    for line in options_part.splitlines():
        if re.match(r"  -", line):  # an option's first line; its wrapped help is indented more
            column = re.split(r"\s{2,}", line.strip(), maxsplit=1)[0]
            names.update(re.findall(r"(?<![\w-])--?[a-z][\w-]*", column))
    return names


def sections(text: str) -> dict[str, str]:
    """{heading: its text up to the next heading of the same or a higher level}."""
    found = {}
    headings = list(re.finditer(r"^(#{1,6}) (.+)$", text, flags=re.MULTILINE))
    for i, match in enumerate(headings):
        level = len(match[1])
        end = next((h.start() for h in headings[i + 1 :] if len(h[1]) <= level), len(text))
        found[match[2].strip()] = text[match.end() : end]
    return found


def test_every_command_has_a_section_and_every_section_a_command():
    documented = {
        h.removeprefix("kb ")
        for h in sections(CLI_DOC.read_text(encoding="utf-8"))
        if h.startswith("kb ")
    }
    commands = {" ".join(path) for path in command_paths()}
    assert sorted(commands - documented) == [], "commands missing from docs/cli.md"
    assert sorted(documented - commands) == [], "docs/cli.md documents commands kb lacks"


@pytest.mark.parametrize("path", command_paths(), ids=" ".join)
def test_every_option_in_help_is_in_the_command_section(path):
    section = sections(CLI_DOC.read_text(encoding="utf-8"))["kb " + " ".join(path)]
    missing = sorted(
        o for o in help_options(path) - COMMON if not re.search(rf"`{re.escape(o)}[ `=]", section)
    )
    assert missing == [], f"kb {' '.join(path)}: options missing from docs/cli.md"


def test_options_every_command_has_are_documented_once():
    conventions = sections(CLI_DOC.read_text(encoding="utf-8"))["Conventions"]
    for option in COMMON | (help_options(()) - COMMON):  # -h, --help and kb --version
        assert f"`{option}`" in conventions, option
    for path in command_paths():
        assert help_options(path) >= COMMON, path  # else COMMON hides an undocumented option


def test_help_options_are_read_from_the_help_text():
    # The parser above must see what --help prints, not nothing.
    assert help_options(("build",)) >= {"--out", "--lang", "--full", "--timings-json"}
    assert help_options(("search",)) >= {"--db", "--lang", "--limit", "--format"}


def links(path: Path) -> list[tuple[str, str]]:
    """(target file, anchor) of every relative Markdown link in a page."""
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.DOTALL)
    found = []
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue  # http(s), mailto: not ours to check
        file, _, anchor = target.partition("#")
        found.append((file, anchor))
    return found


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def test_readme_links_every_docs_page_and_each_exists():
    linked = {file for file, _ in links(README) if file.startswith("docs/")}
    pages = {f"docs/{p.name}" for p in DOCS.glob("*.md")}
    assert sorted(f for f in linked if not (ROOT / f).is_file()) == []
    assert sorted(pages - linked) == [], "docs pages the README does not link"


@pytest.mark.parametrize("page", [README, *sorted(DOCS.glob("*.md"))], ids=lambda p: p.name)
def test_relative_links_and_anchors_resolve(page):
    for file, anchor in links(page):
        target = (page.parent / file).resolve() if file else page
        assert target.exists(), f"{page.name}: {file}"
        if anchor and target.suffix == ".md":
            anchors = {slug(h) for h in sections(target.read_text(encoding="utf-8"))}
            assert anchor in anchors, f"{page.name}: {file}#{anchor}"


def test_the_rules_model_page_lists_every_rule_and_its_code():
    page = (DOCS / "core.md").read_text(encoding="utf-8")
    for rule in registry.RULES.values():
        assert f"| {rule.number} |" in page, rule.number
        assert f"`{rule.carried_by.removeprefix('kb.core.')}`" in page, rule.carried_by


def test_the_architecture_page_documents_every_table_of_the_schema():
    page = (DOCS / "architecture.md").read_text(encoding="utf-8")
    part = page.split("\n## The schema\n", 1)[1].split("\n## ", 1)[0]
    heading, rows = "", {}
    for line in part.splitlines():
        if line.startswith("### "):
            heading = line
        elif match := re.match(r"\| `(\w+)` \|", line):
            rows[match[1]] = (heading, line)
    assert sorted(set(schema.TABLES) - set(rows)) == [], "tables missing from docs/architecture.md"
    for name, table in schema.TABLES.items():
        heading, row = rows[name]
        assert re.search(rf"\b{table.stage}\b", heading), f"{name}: written by {table.stage}"
        documented = set(re.findall(r"`(\w+)`", row))
        assert sorted(set(table.columns) - documented) == [], f"{name}: columns missing"


def test_readme_is_short_and_gives_the_ci_test_command():
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) < 200
    assert "pip install . && kb build" in text
    assert "pip install '.[test]' && pytest" in text
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "pip install" in ci and "'.[test]'" in ci and "-m pytest" in ci
    # The options CI gives pytest (workers, scheduling) are the README's.
    (readme_options,) = re.findall(r"pip install '\.\[test\]' && pytest([^\n`]*)", text)
    (ci_options,) = re.findall(r"-m pytest -p no:cacheprovider([^\n]*)", ci)
    assert readme_options.split() == ci_options.split()
