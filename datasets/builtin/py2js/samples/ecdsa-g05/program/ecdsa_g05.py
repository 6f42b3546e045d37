"""Dump a DER structure (hex on stdin) as an indented tree using ecdsa.der's remove_* decoders."""
import argparse
import sys

from ecdsa.der import (
    UnexpectedDER,
    remove_bitstring,
    remove_constructed,
    remove_integer,
    remove_object,
    remove_octet_string,
    remove_sequence,
)


def show_bytes(data: bytes, limit: int) -> str:
    text = data[:limit].hex()
    return text + ("..." if len(data) > limit else "")


def walk(data: bytes, depth: int, limit: int) -> int:
    count = 0
    pad = "  " * depth
    while data:
        tag = data[0]
        count += 1
        if tag == 0x30:
            body, data = remove_sequence(data)
            print(f"{pad}SEQUENCE ({len(body)} bytes)")
            count += walk(body, depth + 1, limit)
        elif tag == 0x02:
            value, data = remove_integer(data)
            shown = str(value) if value < 2**64 else f"0x{value:x}"
            print(f"{pad}INTEGER {shown}")
        elif tag == 0x06:
            oid, data = remove_object(data)
            print(f"{pad}OBJECT IDENTIFIER {'.'.join(str(part) for part in oid)}")
        elif tag == 0x04:
            body, data = remove_octet_string(data)
            print(f"{pad}OCTET STRING ({len(body)} bytes) {show_bytes(body, limit)}")
        elif tag == 0x03:
            (body, unused), data = remove_bitstring(data, None)
            print(f"{pad}BIT STRING ({len(body)} bytes, {unused} unused bits) {show_bytes(body, limit)}")
        elif tag & 0xE0 == 0xA0:
            number, body, data = remove_constructed(data)
            print(f"{pad}[{number}] ({len(body)} bytes)")
            count += walk(body, depth + 1, limit)
        else:
            print(f"{pad}unsupported tag 0x{tag:02x}, {len(data)} bytes left")
            return count
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--limit", type=int, default=16, help="bytes of string contents to show")
    args = parser.parse_args()
    text = "".join(sys.stdin.read().split())
    try:
        data = bytes.fromhex(text)
    except ValueError:
        print("error: input is not hex")
        return
    if not data:
        print("error: empty input")
        return
    try:
        count = walk(data, 0, max(args.limit, 0))
    except UnexpectedDER as exc:
        print(f"error: UnexpectedDER: {exc}")
        return
    print(f"elements: {count}")


if __name__ == "__main__":
    main()
