"""Register editor: pack named bit fields into a BitArray, then apply set/invert/rotate commands from stdin."""
import argparse
import json
import sys

import bitstring


def parse_layout(text):
    fields = []
    for part in [p.strip() for p in text.split(",") if p.strip()]:
        name, _, width = part.partition(":")
        if not name.isidentifier() or not width.isdigit() or int(width) == 0:
            raise ValueError(f"bad field {part!r} (want NAME:WIDTH)")
        fields.append((name, int(width)))
    if not fields:
        raise ValueError("empty layout")
    return fields


def show(reg, fields):
    pos, parts = 0, []
    for name, width in fields:
        parts.append(f"{name}={reg[pos:pos + width].uint}")
        pos += width
    hex_text = reg.hex if len(reg) % 4 == 0 else "-"
    return f"bin={reg.bin} hex={hex_text} " + " ".join(parts)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--layout", required=True, help="comma-separated NAME:WIDTH fields, most significant first")
    parser.add_argument("--values", default="{}", help="JSON object of initial field values (default 0)")
    args = parser.parse_args()
    try:
        fields = parse_layout(args.layout)
        values = json.loads(args.values)
        if not isinstance(values, dict):
            raise ValueError("--values must be a JSON object")
        unknown = sorted(set(values) - {n for n, _ in fields})
        if unknown:
            raise ValueError(f"unknown field {unknown[0]}")
        fmt = ", ".join(f"uint:{w}={n}" for n, w in fields)
        reg = bitstring.BitArray(bitstring.pack(fmt, **{n: values.get(n, 0) for n, _ in fields}))
    except ValueError as exc:
        print(f"error: {exc}")
        return
    offsets, pos = {}, 0
    for name, width in fields:
        offsets[name] = (pos, width)
        pos += width
    print(f"start: {show(reg, fields)}")
    for number, line in enumerate(sys.stdin.read().splitlines(), start=1):
        words = line.split()
        if not words:
            continue
        cmd, rest = words[0], words[1:]
        try:
            if cmd == "set" and len(rest) == 2 and rest[0] in offsets:
                start, width = offsets[rest[0]]
                reg.overwrite(bitstring.pack(f"uint:{width}", int(rest[1], 0)), start)
            elif cmd == "invert" and len(rest) == 1 and rest[0] in offsets:
                start, width = offsets[rest[0]]
                reg.invert(range(start, start + width))
            elif cmd in ("rol", "ror") and len(rest) == 1:
                getattr(reg, cmd)(int(rest[0]))
            elif cmd == "flip" and len(rest) == 1:
                reg.invert(int(rest[0]))
            elif cmd == "clear" and not rest:
                reg.set(False)
            elif cmd == "fill" and not rest:
                reg.set(True)
            elif cmd == "show" and not rest:
                pass
            else:
                print(f"line {number}: error: bad command {line.strip()!r}")
                continue
        except (ValueError, IndexError) as exc:
            print(f"line {number}: error: {exc}")
            continue
        print(f"line {number}: {show(reg, fields)}")


if __name__ == "__main__":
    main()
