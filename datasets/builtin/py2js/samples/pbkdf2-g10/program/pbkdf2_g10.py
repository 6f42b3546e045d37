"""Hash a password with crypt() at an iteration count given as JSON, validated with pbkdf2.isinteger."""

import argparse
import json

import pbkdf2


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--password", required=True)
    parser.add_argument("--salt", default="saltsalt")
    parser.add_argument("--iterations", default="null", help="JSON value: an integer, or null for the default")
    args = parser.parse_args()

    try:
        iterations = json.loads(args.iterations)
    except json.JSONDecodeError:
        print("error: --iterations is not JSON")
        return
    if iterations is not None and not pbkdf2.isinteger(iterations):
        print(f"error: iterations must be an integer, got {type(iterations).__name__}")
        return
    if iterations is not None and iterations > 500:
        print("error: iterations above 500 are not allowed here")
        return
    try:
        hashed = pbkdf2.crypt(args.password, args.salt, iterations)
    except (ValueError, TypeError, UnicodeError) as exc:
        print(f"error: {type(exc).__name__}: {exc}")
        return
    print(f"hash: {hashed}")
    print(f"effective iterations: {hashed.split('$')[2] or '(default 400)'}")


if __name__ == "__main__":
    main()
