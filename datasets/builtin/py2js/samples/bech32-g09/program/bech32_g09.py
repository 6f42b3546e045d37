"""Build a segwit address and show its 5-bit groups, checksum verification and a simulated typo."""

import argparse
import re

import bech32

HEX = re.compile(r"(?:[0-9a-fA-F]{2})*")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hrp", default="bc", help="network prefix")
    parser.add_argument("--version", type=int, default=0, help="witness version 0..16")
    parser.add_argument("--program", required=True, help="witness program as hex")
    parser.add_argument("--typo", type=int, default=None, help="data position to alter by one")
    args = parser.parse_args()

    if not HEX.fullmatch(args.program):
        print("error: --program is not an even-length hex string")
        return
    if not 0 <= args.version <= 31:
        print(f"error: witness version {args.version} does not fit in 5 bits")
        return
    program = bytes.fromhex(args.program)
    groups = bech32.convertbits(program, 8, 5)
    print(f"program: {len(program)} bytes -> {len(groups)} groups {groups}")
    address = bech32.encode(args.hrp, args.version, program)
    if address is None:
        print("error: not a valid segwit output (version/program length rules)")
        return
    print(f"address: {address}")
    print(f"expanded hrp: {bech32.bech32_hrp_expand(args.hrp)}")
    values = [bech32.CHARSET.find(c) for c in address[len(args.hrp) + 1:]]
    print(f"values: {len(values)} (1 version + {len(groups)} program + 6 checksum)")
    print(f"checksum verifies: {bech32.bech32_verify_checksum(args.hrp, values)}")
    if args.typo is None:
        return
    if not 0 <= args.typo < len(values):
        print(f"error: --typo must be in 0..{len(values) - 1}")
        return
    altered = list(values)
    altered[args.typo] = (altered[args.typo] + 1) % 32
    typo_text = args.hrp + "1" + "".join(bech32.CHARSET[v] for v in altered)
    print(f"typo at {args.typo}: {typo_text}")
    print(f"typo verifies: {bech32.bech32_verify_checksum(args.hrp, altered)}")


if __name__ == "__main__":
    main()
