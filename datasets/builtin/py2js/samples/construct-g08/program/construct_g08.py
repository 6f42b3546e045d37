"""Decode or build an Ethernet II frame with an optional IPv4 packet and a CRC-32 FCS, using construct."""
import argparse
import sys
import zlib

from construct import (
    BitStruct, Bytes, Check, Checksum, ConstructError, Enum, FixedSized, GreedyBytes, Hex, IfThenElse, Int8ub,
    Int16ub, Int32ul, Nibble, RawCopy, Struct, this,
)

IPV4 = Struct(
    "vihl" / BitStruct("version" / Nibble, "ihl" / Nibble),
    Check(this.vihl.version == 4),
    "tos" / Int8ub,
    "total_length" / Int16ub,
    "ident" / Hex(Int16ub),
    "fragment" / Int16ub,
    "ttl" / Int8ub,
    "protocol" / Enum(Int8ub, ICMP=1, TCP=6, UDP=17),
    "checksum" / Hex(Int16ub),
    "src" / Bytes(4),
    "dst" / Bytes(4),
    "options" / Bytes(this.vihl.ihl * 4 - 20),
    "data" / Bytes(this.total_length - this.vihl.ihl * 4),
)
BODY = Struct(
    "dst" / Bytes(6),
    "src" / Bytes(6),
    "ethertype" / Enum(Int16ub, IPv4=0x0800, ARP=0x0806, VLAN=0x8100, IPv6=0x86DD),
    "payload" / FixedSized(this._params.size, IfThenElse(this.ethertype == "IPv4", IPV4, GreedyBytes)),
)
FRAME = Struct(
    "body" / RawCopy(BODY),
    "fcs" / Checksum(Int32ul, lambda data: zlib.crc32(data), this.body.data),
)


def mac(raw: bytes) -> str:
    return ":".join(f"{b:02x}" for b in raw)


def ip(raw: bytes) -> str:
    return ".".join(str(b) for b in raw)


def ip_checksum(header: bytes) -> int:
    total = sum(int.from_bytes(header[i:i + 2], "big") for i in range(0, len(header), 2))
    while total > 0xFFFF:
        total = (total & 0xFFFF) + (total >> 16)
    return ~total & 0xFFFF


def show(data: bytes) -> None:
    frame = FRAME.parse(data, size=len(data) - 18)
    body = frame.body.value
    print(f"dst {mac(body.dst)} src {mac(body.src)} type {body.ethertype}")
    if body.ethertype == "IPv4":
        p = body.payload
        header = IPV4.build(p)[: p.vihl.ihl * 4]
        valid = ip_checksum(header) == 0
        print(f"ipv4 {ip(p.src)} -> {ip(p.dst)} proto {p.protocol} ttl {p.ttl} id {p.ident} len {p.total_length}")
        print(f"header checksum {p.checksum} {'ok' if valid else 'BAD'}, options {len(p.options)} bytes")
        print(f"data: {p.data[:16].hex()}{'...' if len(p.data) > 16 else ''} ({len(p.data)} bytes)")
    else:
        print(f"payload: {bytes(body.payload)[:16].hex()} ({len(body.payload)} bytes)")
    print(f"fcs {frame.fcs:08x} ok")


def build(args, message: bytes) -> bytes:
    ident = 0x1C46
    header = dict(vihl=dict(version=4, ihl=5), tos=0, total_length=20 + len(message), ident=ident, fragment=0x4000,
                  ttl=args.ttl, protocol=args.protocol, checksum=0, src=bytes(map(int, args.src_ip.split("."))),
                  dst=bytes(map(int, args.dst_ip.split("."))), options=b"", data=message)
    header["checksum"] = ip_checksum(IPV4.build(header)[:20])
    packet = IPV4.build(header)
    body = dict(dst=bytes.fromhex(args.dst_mac.replace(":", "")), src=bytes.fromhex(args.src_mac.replace(":", "")),
                ethertype="IPv4", payload=header)
    return FRAME.build(dict(body=dict(value=body)), size=len(packet))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--build", type=lambda s: s == "true", default=False)
    parser.add_argument("--src-mac", default="02:00:00:00:00:01")
    parser.add_argument("--dst-mac", default="ff:ff:ff:ff:ff:ff")
    parser.add_argument("--src-ip", default="192.168.0.1")
    parser.add_argument("--dst-ip", default="192.168.0.2")
    parser.add_argument("--ttl", type=int, default=64)
    parser.add_argument("--protocol", default="UDP", help="ICMP, TCP or UDP")
    args = parser.parse_args()
    text = sys.stdin.read()
    try:
        if args.build:
            try:
                data = build(args, text.encode("utf-8"))
            except ValueError:
                print("error: bad address")
                return
            print(f"frame: {data.hex()}")
        else:
            try:
                data = bytes.fromhex(text)
            except ValueError:
                print("error: stdin is not hex")
                return
            if len(data) < 18:
                print("error: frame shorter than 18 bytes")
                return
        show(data)
    except ConstructError as exc:
        print(f"error: {type(exc).__name__}")


if __name__ == "__main__":
    main()
