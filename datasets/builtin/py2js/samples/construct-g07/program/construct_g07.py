"""Build or decode a 23-byte archive entry (kind, permission flags, size, name) with construct Mapping/FlagsEnum."""
import argparse
import sys

from construct import ConstructError, CString, Default, FlagsEnum, Int8ub, Int16ub, Int32ub, Mapping, Padded, Struct

ORDER = ["owner_r", "owner_w", "owner_x", "group_r", "group_w", "group_x", "other_r", "other_w", "other_x"]
PERM = FlagsEnum(Int16ub, other_x=1, other_w=2, other_r=4, group_x=8, group_w=16, group_r=32,
                 owner_x=64, owner_w=128, owner_r=256, sticky=512, setgid=1024, setuid=2048)
ENTRY = Struct(
    "kind" / Mapping(Int8ub, {"file": 0, "dir": 1, "link": 2, "fifo": 3}),
    "perm" / PERM,
    "size" / Default(Int32ub, 0),
    "name" / Padded(16, CString("utf8")),
)
LETTERS = {"file": "-", "dir": "d", "link": "l", "fifo": "p"}


def render(entry) -> str:
    chars = "".join(("rwx"[i % 3] if entry.perm[flag] else "-") for i, flag in enumerate(ORDER))
    specials = [name for name in ("setuid", "setgid", "sticky") if entry.perm[name]]
    text = f"{LETTERS[entry.kind]}{chars} {entry.size:>8} {entry.name}"
    return text + (f"  [{', '.join(specials)}]" if specials else "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--decode", type=lambda s: s == "true", default=False, help="stdin is hex of one entry")
    parser.add_argument("--kind", default="file")
    parser.add_argument("--mode", default="rw-r--r--", help="nine rwx characters, or a number like 0o755 / 493")
    parser.add_argument("--size", type=int, default=None)
    parser.add_argument("--name", default="untitled")
    parser.add_argument("--flags", default="", help="extra flag names joined with |, e.g. setuid|sticky")
    args = parser.parse_args()

    try:
        if args.decode:
            try:
                data = bytes.fromhex(sys.stdin.read())
            except ValueError:
                print("error: stdin is not hex")
                return
            entry = ENTRY.parse(data)
        else:
            if len(args.mode) == 9 and all(c in "rwx-" for c in args.mode):
                perm = {flag: args.mode[i] == "rwx"[i % 3] for i, flag in enumerate(ORDER)}
                if any(args.mode[i] not in ("-", "rwx"[i % 3]) for i in range(9)):
                    print(f"error: bad mode {args.mode}")
                    return
                for extra in args.flags.split("|"):
                    if extra.strip():
                        perm[extra.strip()] = True
            else:
                try:
                    perm = int(args.mode, 0)
                except ValueError:
                    print(f"error: bad mode {args.mode}")
                    return
            fields = dict(kind=args.kind, perm=perm, name=args.name)
            if args.size is not None:
                fields["size"] = args.size
            data = ENTRY.build(fields)
            print(f"bytes: {data.hex()}")
            entry = ENTRY.parse(data)
    except ConstructError as exc:
        print(f"error: {type(exc).__name__}")
        return
    print(f"numeric mode: {PERM.build(entry.perm).hex()}")
    print(render(entry))


if __name__ == "__main__":
    main()
