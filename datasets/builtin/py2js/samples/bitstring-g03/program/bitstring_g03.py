"""Record decoder: read a sequence of typed fields (bitstring Dtypes) from hex data and list them."""
import argparse

import bitstring


def shown(value):
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, bytes):
        return "bytes:" + value.hex()
    return str(value)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hex", required=True, help="the data as hex digits")
    parser.add_argument("--format", required=True, help="comma-separated dtypes, e.g. uint8,int16,bool,ue")
    parser.add_argument("--repeat", default="false", help="repeat the format until the data runs out")
    args = parser.parse_args()
    try:
        stream = bitstring.ConstBitStream(hex=args.hex)
        dtypes = [bitstring.Dtype(t.strip()) for t in args.format.split(",") if t.strip()]
    except ValueError as exc:
        print(f"error: {exc}")
        return
    if not dtypes:
        print("error: empty format")
        return
    repeat = args.repeat.lower() in ("true", "1", "yes")
    record = 0
    while True:
        record += 1
        for dtype in dtypes:
            start = stream.pos
            try:
                value = stream.read(dtype)
            except (bitstring.ReadError, ValueError, TypeError) as exc:
                print(f"record {record} {dtype.name}@{start}: error: {type(exc).__name__}: {exc}")
                print(f"stopped at bit {start} of {stream.len}")
                return
            width = stream.pos - start
            print(f"record {record} {dtype.name}@{start}+{width}: {shown(value)}")
        if not repeat or stream.pos >= stream.len:
            break
    print(f"consumed {stream.pos} of {stream.len} bits, {stream.len - stream.pos} left")


if __name__ == "__main__":
    main()
