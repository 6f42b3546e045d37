"""Apply field changes to an Ethereum-style account record through an rlp changeset and show both encodings."""

import argparse
import json

import rlp
from rlp.sedes import big_endian_int, binary
from rlp.sedes.serializable import Changeset


class Account(rlp.Serializable):
    fields = [
        ("nonce", big_endian_int),
        ("balance", big_endian_int),
        ("storage_root", binary),
        ("code_hash", binary),
    ]


NAMES = ("nonce", "balance", "storage_root", "code_hash")
BINARY = ("storage_root", "code_hash")


def convert(name, value):
    if name in BINARY and isinstance(value, str):
        try:
            return bytes.fromhex(value)
        except ValueError:
            raise ValueError(f"field {name}: invalid hex") from None
    return value


def show(value):
    if isinstance(value, bytes):
        return "0x" + value.hex()
    return json.dumps(value)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--account", default="{}", help="JSON object with the account's fields")
    parser.add_argument("--changes", default="{}", help="JSON object: field -> new value")
    args = parser.parse_args()

    try:
        account = json.loads(args.account)
        changes = json.loads(args.changes)
    except json.JSONDecodeError:
        print("error: invalid JSON")
        return
    if not isinstance(account, dict) or not isinstance(changes, dict):
        print("error: --account and --changes must be JSON objects")
        return
    for name in list(account) + list(changes):
        if name not in NAMES:
            print(f"error: unknown field {name}")
            return
    try:
        fields = {"nonce": 0, "balance": 0, "storage_root": b"", "code_hash": b""}
        fields.update({name: convert(name, value) for name, value in account.items()})
        updates = {name: convert(name, value) for name, value in changes.items()}
    except ValueError as exc:
        print(f"error: {exc}")
        return

    before = Account(**fields)
    try:
        print(f"before: {rlp.encode(before).hex()}")
    except rlp.SerializationError as exc:
        print(f"error: {type(exc).__name__}: {exc}")
        return
    changeset = Changeset(before, {})
    with changeset:
        for name, value in updates.items():
            setattr(changeset, name, value)
        after = changeset.build_rlp()
    try:
        encoded = rlp.encode(after)
    except rlp.SerializationError as exc:
        print(f"error: {type(exc).__name__}: {exc}")
        return
    changed = [name for name in NAMES if after[name] != before[name]]
    print(f"changed: {', '.join(changed) or '(none)'}")
    for name in NAMES:
        print(f"  {name}: {show(after[name])}")
    print(f"after: {encoded.hex()}")
    print(f"equal: {'yes' if after == before else 'no'}")


if __name__ == "__main__":
    main()
