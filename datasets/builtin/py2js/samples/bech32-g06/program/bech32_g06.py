"""Validate segwit addresses for a network, telling bad bech32 apart from bad segwit content."""

import argparse
import sys

import bech32


def check(hrp: str, address: str) -> str:
    got_hrp, data = bech32.bech32_decode(address)
    if got_hrp is None:
        return "INVALID  not bech32 (bad characters, mixed case, bad length or checksum)"
    if got_hrp != hrp:
        return f"INVALID  bech32 with prefix {got_hrp!r}, expected {hrp!r}"
    version, program = bech32.decode(hrp, address)
    if version is None:
        first = data[0] if data else None
        return f"INVALID  bech32 ok ({len(data)} values, first {first}) but not a segwit output"
    return f"OK       v{version} {len(program)} bytes {bytes(program).hex()}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--network", default="bc", help="expected prefix: bc, tb, bcrt, ...")
    parser.add_argument("--address", default=None, help="one address; else one per stdin line")
    args = parser.parse_args()

    if args.address is not None:
        addresses = [args.address]
    else:
        addresses = [line.strip() for line in sys.stdin.read().splitlines() if line.strip()]
    valid = 0
    for index, address in enumerate(addresses, start=1):
        verdict = check(args.network, address)
        valid += verdict.startswith("OK")
        print(f"{index:2d}. {verdict}")
    print(f"{valid} valid, {len(addresses) - valid} invalid")


if __name__ == "__main__":
    main()
