"""Trace how natsort builds a sort key: assemble the natsort.utils factories for an algorithm and print each stage."""
import argparse
import json
import sys

from natsort import natsort_keygen, ns
from natsort.utils import (
    final_data_transform_factory,
    input_string_transform_factory,
    natsort_key,
    parse_bytes_factory,
    parse_number_or_none_factory,
    parse_path_factory,
    parse_string_factory,
    regex_chooser,
    string_component_transform_factory,
)

FLAGS = ["INT", "FLOAT", "SIGNED", "NOEXP", "REAL", "IGNORECASE", "LOWERCASEFIRST", "GROUPLETTERS", "NANLAST", "PATH"]


def decode(value):
    if isinstance(value, dict) and set(value) == {"bytes"}:
        return bytes.fromhex(value["bytes"])
    if isinstance(value, dict) and set(value) == {"float"}:
        return float(value["float"])
    if isinstance(value, list):
        return [decode(v) for v in value]
    return value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--alg", default="INT", help="comma-separated ns flags")
    args = parser.parse_args()
    alg = ns.DEFAULT
    for name in filter(None, (p.strip().upper() for p in args.alg.split(","))):
        if name not in FLAGS:
            print(f"error: unsupported flag {name}")
            return
        alg |= ns[name]

    sep, pre_sep = "", ""
    regex = regex_chooser(alg)
    input_transform = input_string_transform_factory(alg)
    component_transform = string_component_transform_factory(alg)
    final_transform = final_data_transform_factory(alg, sep, pre_sep)
    string_func = parse_string_factory(alg, sep, regex.split, input_transform, component_transform, final_transform)
    if alg & ns.PATH:
        string_func = parse_path_factory(string_func)
    bytes_func = parse_bytes_factory(alg)
    num_func = parse_number_or_none_factory(alg, sep, pre_sep)
    reference = natsort_keygen(alg=alg)
    print(f"alg {int(alg)}: pattern {'float' if alg & ns.FLOAT else 'int'}, "
          f"{'signed' if alg & ns.SIGNED else 'unsigned'}{', no exponent' if alg & ns.NOEXP and alg & ns.FLOAT else ''}")

    for number, line in enumerate(sys.stdin.read().splitlines(), start=1):
        if not line.strip():
            continue
        try:
            value = decode(json.loads(line))
        except ValueError:
            print(f"{number}: error: not JSON")
            continue
        if isinstance(value, (bool, dict)):
            print(f"{number}: error: unsupported value")
            continue
        print(f"{number}: {value!r}")
        if isinstance(value, str) and not alg & ns.PATH:
            transformed = input_transform(value)
            pieces = [p for p in regex.split(transformed) if p]
            print(f"  transformed: {transformed!r}")
            print(f"  pieces: {pieces!r}")
            print(f"  components: {list(component_transform(pieces))!r}")
        try:
            key = natsort_key(value, None, string_func, bytes_func, num_func)
        except (TypeError, ValueError) as exc:
            print(f"  error: {type(exc).__name__}")
            continue
        print(f"  key: {key!r}")
        print(f"  matches natsort_keygen: {'yes' if key == reference(value) else 'no'}")


if __name__ == "__main__":
    main()
