"""Streaming IDNA codec: feed each stdin domain to idna's incremental codec in chunks and compare with one shot."""
import argparse
import sys

from idna import IDNAError
from idna.codec import Codec, IncrementalDecoder, IncrementalEncoder, search_function


def chunks(data, size):
    return [data[i:i + size] for i in range(0, len(data), size)]


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--codec", default="idna2008", help="codec name to look up")
    parser.add_argument("--direction", default="encode", help="encode or decode")
    parser.add_argument("--chunk", type=int, default=4, help="chunk size in characters (encode) or bytes (decode)")
    parser.add_argument("--errors", default="strict", help="error handling passed to the codec")
    args = parser.parse_args()
    info = search_function(args.codec)
    if info is None:
        print(f"error: no codec named {args.codec}")
        return
    if args.chunk < 1 or args.direction not in ("encode", "decode"):
        print("error: --chunk must be positive and --direction encode or decode")
        return
    print(f"codec: {info.name}")

    for line in sys.stdin.read().splitlines():
        domain = line.strip()
        print(f"input: {domain}")
        try:
            if args.direction == "encode":
                coder = IncrementalEncoder(errors=args.errors)
                pieces = [coder.encode(part) for part in chunks(domain, args.chunk)]
                pieces.append(coder.encode("", final=True))
                streamed = b"".join(pieces).decode("ascii")
                whole, used = Codec().encode(domain, args.errors)
                whole = whole.decode("ascii")
            else:
                data = domain.encode("ascii")
                coder = IncrementalDecoder(errors=args.errors)
                pieces = [coder.decode(part) for part in chunks(data, args.chunk)]
                pieces.append(coder.decode(b"", final=True))
                streamed = "".join(pieces)
                whole, used = Codec().decode(data, args.errors)
        except UnicodeError as exc:
            print(f"  error: {type(exc).__name__}: {exc}")
            continue
        shown = " | ".join(p.decode("ascii") if isinstance(p, bytes) else p for p in pieces)
        print(f"  pieces: {shown}")
        print(f"  streamed: {streamed}")
        print(f"  one shot: {whole} (consumed {used})")
        print(f"  same: {'yes' if streamed == whole else 'no'}")


if __name__ == "__main__":
    main()
