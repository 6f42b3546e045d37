"""SQL lineage extractor: splits SQL into statements, groups each token stream with sqlparse's grouping engine and reports which tables every statement reads and writes, its CTEs, output columns, placeholders and string literals."""

import argparse
import sys

from sqlparse import sql
from sqlparse import tokens as T
from sqlparse.engine import StatementSplitter
from sqlparse.engine.grouping import group
from sqlparse.exceptions import SQLParseError
from sqlparse.lexer import Lexer
from sqlparse.utils import imt, remove_quotes

READ_KEYWORDS = ("FROM", "JOIN", "USING")
WRITE_KEYWORDS = ("INTO", "UPDATE", "TABLE", "VIEW")
SKIPPED_KEYWORDS = ("IF", "NOT", "EXISTS", "ONLY", "LATERAL")


def table_name(token):
    if isinstance(token, sql.Function):
        return token.get_name() or "?"
    if isinstance(token, sql.Identifier):
        name = token.get_real_name() or "?"
        parent = token.get_parent_name()
        alias = token.get_alias()
        text = f"{parent}.{name}" if parent else name
        return f"{text} AS {alias}" if alias else text
    return " ".join(str(token).split())


def is_subquery(token):
    return isinstance(token, sql.Parenthesis) and any(
        imt(t, m=(T.DML, "SELECT")) for t in token.tokens)


def clean(token):
    return " ".join(str(token).split())


class Lineage:
    def __init__(self):
        self.reads, self.writes, self.ctes = [], [], []
        self.columns, self.placeholders, self.strings = [], [], []

    def add(self, bucket, value):
        if value not in bucket:
            bucket.append(value)


def collect_targets(token, bucket, lineage, cte_names):
    items = token.get_identifiers() if isinstance(token, sql.IdentifierList) else [token]
    for item in items:
        if is_subquery(item) or (isinstance(item, sql.Identifier) and is_subquery(item.tokens[0])):
            walk(item, lineage, cte_names, False, False)
            continue
        name = table_name(item)
        if isinstance(item, (sql.Identifier, sql.Function)):
            base = name.split(" AS ")[0]
            if base in cte_names:
                name += " (cte)"
            lineage.add(bucket, name)
            if isinstance(item, sql.Function):
                for param in item.get_parameters():
                    lineage.add(lineage.columns, f"{item.get_name()}.{clean(param)}")


def walk(tlist, lineage, cte_names, top, deleting):
    pending = None
    for token in tlist.tokens:
        if token.is_whitespace or imt(token, i=sql.Comment, t=T.Comment):
            continue
        if imt(token, t=T.Name.Placeholder):
            lineage.add(lineage.placeholders, token.value)
            continue
        if imt(token, t=T.Literal.String.Single):
            lineage.strings.append(remove_quotes(token.value))
            continue
        if imt(token, m=(T.Keyword.CTE, "WITH")):
            pending = "cte"
            continue
        if imt(token, m=(T.DML, "SELECT")):
            pending = "columns" if top else None
            continue
        if imt(token, t=T.Keyword):
            word = token.normalized
            if pending == "columns" and word in ("DISTINCT", "ALL"):
                continue
            if pending == "cte" and word == "RECURSIVE":
                continue
            if pending in ("read", "write") and word in SKIPPED_KEYWORDS:
                continue
            if pending in ("read", "write") and token.ttype is T.Keyword and not word.endswith(
                    READ_KEYWORDS + WRITE_KEYWORDS):
                # sqlparse lexes some table names (events, backup, ...) as keywords
                bucket = lineage.reads if pending == "read" else lineage.writes
                lineage.add(bucket, f"{token.value} (keyword)")
                pending = None
                continue
            if word.endswith(READ_KEYWORDS):
                pending = "write" if deleting and word == "FROM" else "read"
            elif word.endswith(WRITE_KEYWORDS):
                pending = "write"
            else:
                pending = None
            continue
        if pending == "cte" and isinstance(token, (sql.Identifier, sql.IdentifierList)):
            items = token.get_identifiers() if isinstance(token, sql.IdentifierList) else [token]
            for item in items:
                lineage.add(lineage.ctes, item.get_name() or "?")
                cte_names.add(item.get_name())
                for sub in item.tokens:
                    if isinstance(sub, sql.Parenthesis):
                        walk(sub, lineage, cte_names, False, False)
            pending = None
            continue
        if pending == "columns" and (isinstance(token, (sql.Identifier, sql.IdentifierList, sql.Function))
                                     or imt(token, t=T.Wildcard)):
            items = token.get_identifiers() if isinstance(token, sql.IdentifierList) else [token]
            for item in items:
                lineage.add(lineage.columns, clean(item))
            pending = None
            continue
        if pending in ("read", "write") and isinstance(
                token, (sql.Identifier, sql.IdentifierList, sql.Function, sql.Parenthesis)):
            bucket = lineage.reads if pending == "read" else lineage.writes
            collect_targets(token, bucket, lineage, cte_names)
            pending = None
            continue
        if token.is_group:
            walk(token, lineage, cte_names, False, False)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sql", default=None, help="SQL text; stdin is read when absent")
    parser.add_argument("--skip-empty", default="true", choices=["true", "false"],
                        help="skip statements that contain only whitespace/comments")
    args = parser.parse_args()

    text = args.sql if args.sql is not None else sys.stdin.buffer.read().decode("utf-8")
    stream = Lexer.get_default_instance().get_tokens(text)
    count = 0
    try:
        for statement in StatementSplitter().process(stream):
            statement = group(statement)
            if args.skip_empty == "true" and all(
                    t.is_whitespace or imt(t, t=(T.Comment, T.Punctuation)) for t in statement.flatten()):
                continue
            count += 1
            lineage = Lineage()
            first = statement.token_first(skip_cm=True)
            walk(statement, lineage, set(), True, imt(first, m=(T.DML, "DELETE")))
            print(f"#{count} {statement.get_type()}")
            for label, values in (("ctes", lineage.ctes), ("reads", lineage.reads),
                                  ("writes", lineage.writes), ("columns", lineage.columns),
                                  ("placeholders", lineage.placeholders), ("strings", lineage.strings)):
                if values:
                    print(f"  {label}: {' | '.join(values)}")
    except SQLParseError as exc:
        print(f"error: {exc}")
        return
    print(f"statements: {count}")


if __name__ == "__main__":
    main()
