"""Dialect keyword checker: tokenizes SQL with a customised sqlparse Lexer (extra keywords, optionally only the common keyword set) and lists the keywords and names it recognises."""

import argparse
import sys

import sqlparse.lexer as lexer
import sqlparse.sql as sql
from sqlparse import keywords, tokens


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sql", default=None, help="SQL text; stdin is read when absent")
    parser.add_argument("--extra", default="", help="comma-separated words to treat as keywords")
    parser.add_argument("--minimal", default="false", help="true to load only the common keyword set")
    args = parser.parse_args()

    text = args.sql if args.sql is not None else sys.stdin.buffer.read().decode("utf-8")
    lex = lexer.Lexer()
    if args.minimal.lower() == "true":
        lex.clear()
        lex.set_SQL_REGEX(keywords.SQL_REGEX)
        lex.add_keywords(keywords.KEYWORDS_COMMON)
    else:
        lex.default_initialization()
    extra = {word.strip().upper(): tokens.Keyword for word in args.extra.split(",") if word.strip()}
    if extra:
        lex.add_keywords(extra)

    stream = sql.TokenList([sql.Token(ttype, value) for ttype, value in lex.get_tokens(text)])
    words = [t for t in stream.flatten() if t.is_keyword or t.ttype in tokens.Name]
    first = stream.token_first(skip_cm=True)
    print(f"first token: {first.normalized if first is not None else '(none)'}")
    print(f"tokens: {len(stream.tokens)}, keywords: {sum(1 for t in words if t.is_keyword)}, names: {sum(1 for t in words if not t.is_keyword)}")
    for token in words:
        kind = str(token.ttype)[6:]
        print(f"  {token.normalized:<20} {kind}")


if __name__ == "__main__":
    main()
