"""Print the JMESPath lexer's token stream for an expression (type, value, start, end)."""

import argparse
import json
import sys

from jmespath.exceptions import EmptyExpressionError, LexerError
from jmespath.lexer import Lexer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--expr", default=None, help="the expression; else the whole of stdin")
    parser.add_argument("--types-only", default="false", help="print only the token types on one line")
    args = parser.parse_args()

    expression = args.expr if args.expr is not None else sys.stdin.read()
    tokens = []
    try:
        for token in Lexer().tokenize(expression):
            tokens.append(token)
    except EmptyExpressionError:
        print("error: empty expression")
        return
    except LexerError as exc:
        for token in tokens:
            print(f"ok   {token['type']}")
        print(f"error: {exc.message} (position {exc.lexer_position}, text {json.dumps(exc.lexer_value)})")
        return

    if args.types_only.lower() in ("true", "1", "yes"):
        print(" ".join(token["type"] for token in tokens))
        return
    print(f"{len(tokens)} token(s)")
    for token in tokens:
        value = json.dumps(token["value"], ensure_ascii=False)
        print(f"{token['start']:>4} {token['end']:>4}  {token['type']:<20} {value}")


if __name__ == "__main__":
    main()
