"""Human-readable file sizes with humanize.naturalsize, from --bytes or from each line of stdin."""

import sys

import humanize

NAMES = ("bytes", "mode", "precision")


def usage(message):
    sys.stderr.write(f"usage error: {message}\n")
    sys.exit(2)


def parse_args(argv):
    if len(argv) % 2:
        usage("expected --name value pairs")
    opts = {}
    for key, value in zip(argv[::2], argv[1::2]):
        if not key.startswith("--") or key[2:] not in NAMES:
            usage(f"unknown argument {key}")
        opts[key[2:]] = value
    return opts


def main():
    opts = parse_args(sys.argv[1:])
    mode = opts.get("mode", "decimal")
    if mode not in ("decimal", "binary", "gnu"):
        print("error: --mode must be decimal, binary or gnu")
        return
    try:
        precision = int(opts.get("precision", "1"))
    except ValueError:
        print("error: --precision is not an integer")
        return
    if not 0 <= precision <= 12:
        print("error: --precision must be between 0 and 12")
        return
    if "bytes" in opts:
        lines = [opts["bytes"]]
    else:
        lines = sys.stdin.buffer.read().decode("utf-8").splitlines()
    for number, line in enumerate(lines, start=1):
        try:
            size = humanize.naturalsize(line, binary=mode == "binary", gnu=mode == "gnu", format=f"%.{precision}f")
        except ValueError:
            print(f"line {number}: not a number")
            continue
        print(size)


main()
