"""Explain segwit addresses part by part: prefix, version, program groups and recomputed checksum."""

import argparse
import sys

import bech32


def anatomy(hrp: str, address: str) -> list[str]:
    version, program = bech32.decode(hrp, address)
    if version is None:
        return ["not a valid segwit address for this prefix"]
    groups = bech32.convertbits(program, 8, 5)
    data = [version] + groups
    checksum = bech32.bech32_create_checksum(hrp, data)
    check_chars = "".join(bech32.CHARSET[v] for v in checksum)
    program_chars = "".join(bech32.CHARSET[v] for v in groups)
    return [
        f"prefix {hrp} | separator 1 | version {bech32.CHARSET[version]}={version}"
        f" | program {len(program_chars)} chars | checksum {check_chars}",
        f"program bytes ({len(program)}): {bytes(program).hex()}",
        f"program groups: {' '.join(str(g) for g in groups)}",
        f"checksum values: {checksum}",
        f"recomputed: {hrp}1{bech32.CHARSET[version]}{program_chars}{check_chars}",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hrp", default="bc", help="network prefix")
    parser.add_argument("--address", default=None, help="one address; else whitespace-separated addresses on stdin")
    args = parser.parse_args()

    addresses = [args.address] if args.address is not None else sys.stdin.read().split()
    print(f"prefix {args.hrp!r} expands to {bech32.bech32_hrp_expand(args.hrp)}")
    for address in addresses:
        print(f"== {address}")
        for line in anatomy(args.hrp, address):
            print(f"   {line}")
    print(f"{len(addresses)} address(es)")


if __name__ == "__main__":
    main()
