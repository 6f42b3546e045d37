"""Label converter: convert single DNS labels from stdin between U-label and A-label form."""
import argparse
import sys

import idna


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mode", default="alabel", help="alabel, ulabel or both")
    parser.add_argument("--as-bytes", default="false", help="pass labels to ulabel as UTF-8 bytes")
    args = parser.parse_args()
    if args.mode not in ("alabel", "ulabel", "both"):
        print(f"error: unknown mode {args.mode}")
        return
    as_bytes = args.as_bytes.lower() in ("true", "1", "yes")
    count = errors = 0
    for line in sys.stdin.read().splitlines():
        label = line.strip()
        if not label:
            continue
        count += 1
        try:
            if args.mode == "ulabel":
                source = label.encode("utf-8") if as_bytes else label
                result = idna.ulabel(source)
                print(f"{label} -> {result} ({len(result)} chars)")
            else:
                encoded = idna.alabel(label)
                text = encoded.decode("ascii")
                puny = text[4:] if text.startswith("xn--") else "-"
                line_out = f"{label} -> {text} ({len(encoded)} bytes, punycode {puny})"
                if args.mode == "both":
                    line_out += f" -> {idna.ulabel(encoded)}"
                print(line_out)
        except UnicodeError as exc:
            errors += 1
            print(f"{label}: error: {type(exc).__name__}: {exc}")
    print(f"{count} labels, {errors} errors")


if __name__ == "__main__":
    main()
