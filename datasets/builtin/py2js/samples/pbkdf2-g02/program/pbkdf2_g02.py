"""Hash a password with PBKDF2 crypt(), using a salt built from seed bytes in crypt's ./ base64 alphabet."""

import argparse

import pbkdf2


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--password", required=True)
    parser.add_argument("--seed", default="000000000000", help="hex seed bytes turned into the salt")
    parser.add_argument("--salt", default=None, help="explicit salt string (overrides --seed)")
    parser.add_argument("--iterations", type=int, default=None)
    args = parser.parse_args()

    if args.salt is not None:
        salt = args.salt
    else:
        try:
            seed = bytes.fromhex(args.seed)
        except ValueError:
            print("error: invalid --seed")
            return
        salt = pbkdf2.b64encode(seed, "./")
    print(f"salt: {salt}")
    try:
        hashed = pbkdf2.crypt(args.password, salt, args.iterations)
    except (ValueError, TypeError, UnicodeError) as exc:
        print(f"error: {type(exc).__name__}: {exc}")
        return
    print(f"hash: {hashed}")
    print(f"length: {len(hashed)}")


if __name__ == "__main__":
    main()
