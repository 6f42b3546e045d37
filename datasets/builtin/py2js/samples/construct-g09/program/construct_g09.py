"""Build, list or extract a small offset-based archive (magic, version, prefixed table of Pointer-addressed members) with construct."""
import argparse
import json
import sys

from construct import (
    Check, Const, ConstructError, Default, FixedSized, GreedyBytes, Int8ub, Int16ul, Int32ul, PascalString,
    Pointer, PrefixedArray, Struct, len_, this,
)

ENTRY = Struct(
    "name" / PascalString(Int8ub, "utf8"),
    "offset" / Int32ul,
    "size" / Int32ul,
    "data" / Pointer(this.offset, FixedSized(this.size, GreedyBytes)),
)
ARCHIVE = Struct(
    "magic" / Const(b"RZAR"),
    "version" / Default(Int8ub, 1),
    "entries" / PrefixedArray(Int16ul, ENTRY),
    Check(len_(this.entries) <= 64),
)


def describe(data: bytes) -> str:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return f"hex {data.hex()}"
    return json.dumps(text)


def build(files) -> bytes:
    table = 4 + 1 + 2 + sum(1 + len(name.encode("utf-8")) + 8 for name, _ in files)
    entries, offset = [], table
    for name, content in files:
        raw = content.encode("utf-8")
        entries.append(dict(name=name, offset=offset, size=len(raw), data=raw))
        offset += len(raw)
    return ARCHIVE.build(dict(entries=entries))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--action", default="list", help="list, build or extract")
    parser.add_argument("--name", default="", help="member to extract")
    args = parser.parse_args()
    text = sys.stdin.read()

    try:
        if args.action == "build":
            try:
                files = [(str(name), str(content)) for name, content in json.loads(text)]
            except (ValueError, TypeError):
                print("error: expected a JSON list of [name, content] pairs")
                return
            data = build(files)
            print(f"archive: {data.hex()}")
        elif args.action in ("list", "extract"):
            try:
                data = bytes.fromhex(text)
            except ValueError:
                print("error: stdin is not hex")
                return
        else:
            print(f"error: unknown action {args.action}")
            return
        archive = ARCHIVE.parse(data)
    except ConstructError as exc:
        print(f"error: {type(exc).__name__}")
        return

    if args.action == "extract":
        for entry in archive.entries:
            if entry.name == args.name:
                print(describe(entry.data))
                return
        print(f"error: no member named {args.name!r}")
        return
    print(f"version {archive.version}, {len(archive.entries)} member(s), {len(data)} bytes")
    for entry in archive.entries:
        print(f"{entry.name!r} at {entry.offset} ({entry.size} bytes): {describe(entry.data)}")


if __name__ == "__main__":
    main()
