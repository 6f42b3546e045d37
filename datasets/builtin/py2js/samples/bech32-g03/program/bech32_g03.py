"""Build segwit (bech32) addresses from a witness version and program, or decode an address back."""

import argparse
import re

import bech32

HEX = re.compile(r"(?:[0-9a-fA-F]{2})*")
KINDS = {(0, 20): "P2WPKH", (0, 32): "P2WSH", (1, 32): "P2TR"}


def describe(version: int, program: list[int]) -> str:
    kind = KINDS.get((version, len(program)), "other")
    return f"version {version}, {len(program)}-byte program ({kind}): {bytes(program).hex()}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hrp", default="bc", help="network prefix: bc, tb, bcrt, ...")
    parser.add_argument("--version", type=int, default=0, help="witness version")
    parser.add_argument("--program", default=None, help="witness program as hex (encode)")
    parser.add_argument("--address", default=None, help="an address to decode instead")
    args = parser.parse_args()

    if args.address is not None:
        version, program = bech32.decode(args.hrp, args.address)
        if version is None:
            print(f"error: not a valid {args.hrp!r} segwit address")
            return
        print(describe(version, program))
        return

    if args.program is None:
        print("error: give --program or --address")
        return
    if not HEX.fullmatch(args.program):
        print("error: --program is not an even-length hex string")
        return
    if not 0 <= args.version <= 31:
        print(f"error: witness version {args.version} does not fit in 5 bits")
        return
    program = list(bytes.fromhex(args.program))
    address = bech32.encode(args.hrp, args.version, program)
    if address is None:
        print(f"error: version {args.version} with a {len(program)}-byte program is not a valid segwit output")
        return
    print(address)
    version, decoded = bech32.decode(args.hrp, address)
    print(f"round trip: {describe(version, decoded)}")


if __name__ == "__main__":
    main()
