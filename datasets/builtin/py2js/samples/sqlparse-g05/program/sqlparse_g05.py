"""SQL statement analyzer: parses SQL with sqlparse.parse and reports each statement's type, its top-level groups, identifiers with aliases, functions and WHERE clause."""

import argparse
import sys

import sqlparse
from sqlparse import sql


def describe_identifier(ident):
    parts = [ident.get_real_name() or "?"]
    parent = ident.get_parent_name()
    if parent:
        parts.insert(0, parent + ".")
    alias = ident.get_alias()
    return "".join(parts) + (f" AS {alias}" if alias else "")


def walk_identifiers(token_list, found):
    for token in token_list.tokens:
        if isinstance(token, sql.Function):
            found.append(f"function {token.get_name()}")
        elif isinstance(token, sql.Identifier):
            found.append(f"identifier {describe_identifier(token)}")
        elif isinstance(token, sql.IdentifierList):
            walk_identifiers(token, found)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sql", default=None, help="SQL text; stdin is read when absent")
    args = parser.parse_args()

    text = args.sql if args.sql is not None else sys.stdin.buffer.read().decode("utf-8")
    statements = sqlparse.parse(text)
    print(f"statements: {len(statements)}")
    for number, statement in enumerate(statements, start=1):
        print(f"#{number} type={statement.get_type()} tokens={len(list(statement.flatten()))}")
        groups = [type(t).__name__ for t in statement.tokens if t.is_group]
        print(f"  groups: {', '.join(groups) if groups else '(none)'}")
        found = []
        walk_identifiers(statement, found)
        for item in found:
            print(f"  {item}")
        where = next((t for t in statement.tokens if isinstance(t, sql.Where)), None)
        if where is not None:
            print(f"  where: {' '.join(str(where).split())}")


if __name__ == "__main__":
    main()
