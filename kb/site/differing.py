"""Which groups' rows differ between this build's store and the previous build's.

An incremental build starts from a copy of the previous store, and stages rewrite some rows of
it; the site asks which groups those rows belong to (the data dump: groups whose piece may
have changed; the page plan: groups whose findings or example runs changed). SQLite compares
the two stores itself, one attached to the other, read only.
"""

from __future__ import annotations

from pathlib import Path

from kb import store

#: Columns never compared: an example's run time is not shown anywhere.
IGNORED = ("seconds",)


def tables(previous: Path) -> set[str]:
    """The tables of the previous build's store."""
    with store.read_only(previous / "rulings.db", rows=False) as conn:
        return {
            name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }


def groups(db, previous: Path, columns: tuple[tuple[str, str], ...]) -> set[str]:
    """Groups (the values of each ``(table, column)``) of the rows that are in one store and
    not, equal in every column, in the other. A table the previous store lacks counts whole."""
    db.conn.commit()  # the second connection must see everything stored so far
    main = db.execute("PRAGMA database_list").fetchone()[2]
    found: set[str] = set()
    with store.read_only(main, rows=False) as conn:
        conn.execute(
            "ATTACH DATABASE ? AS prev", [f"{(previous / 'rulings.db').resolve().as_uri()}?mode=ro"]
        )
        now = {name for (name,) in conn.execute("SELECT name FROM sqlite_master")}
        old = {name for (name,) in conn.execute("SELECT name FROM prev.sqlite_master")}
        for table, column in columns:
            if table not in now:
                continue
            if table not in old:
                found |= {str(g) for (g,) in conn.execute(f"SELECT {column} FROM main.{table}")}
                continue
            info = conn.execute(f"PRAGMA main.table_info([{table}])").fetchall()
            compared = [c[1] for c in info if c[1] not in IGNORED]
            keys = [c[1] for c in sorted(info, key=lambda c: c[5]) if c[5]]
            for a, b in (("main", "prev"), ("prev", "main")):
                found |= {
                    str(g) for (g,) in conn.execute(_unmatched(table, column, compared, keys, a, b))
                }
    return found


def _unmatched(table: str, column: str, columns: list[str], keys: list[str], a: str, b: str) -> str:
    """SQL: ``column`` of the rows of ``a.table`` with no equal row in ``b.table``. A row is
    looked up by its primary key (``keys``), so each costs an index probe: the same answer as
    EXCEPT, which sorted both whole tables (5 s of an incremental build at 100k rulings)."""
    if not keys:
        listed = ", ".join(f"[{c}]" for c in columns)
        return (
            f"SELECT {column} FROM (SELECT {listed} FROM {a}.[{table}] EXCEPT "
            f"SELECT {listed} FROM {b}.[{table}])"
        )
    same = " AND ".join(
        [f"y.[{k}] = x.[{k}]" for k in keys]
        + [f"y.[{c}] IS x.[{c}]" for c in columns if c not in keys]
    )
    return (
        f"SELECT x.{column} FROM {a}.[{table}] AS x WHERE NOT EXISTS "
        f"(SELECT 1 FROM {b}.[{table}] AS y WHERE {same})"
    )
