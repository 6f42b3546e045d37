"""ECDH key agreement with ecdsa.ECDH: shared secret between our private key and a peer public key."""
import argparse
import hashlib
import sys

from ecdsa import ECDH, InvalidCurveError, InvalidSharedSecretError, MalformedPointError, NoKeyError, SigningKey
from ecdsa.curves import curves
from ecdsa.der import UnexpectedDER

CURVES = {c.name: c for c in curves}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--curve", default="NIST256p")
    parser.add_argument("--secret", type=int, default=0, help="our private scalar; 0 = read a PEM private key from stdin")
    parser.add_argument("--peer", default="", help="peer public point as hex (compressed/uncompressed/hybrid/raw)")
    parser.add_argument("--peer-secret", type=int, default=0, help="peer private scalar (to check both sides agree)")
    args = parser.parse_args()

    curve = CURVES.get(args.curve)
    if curve is None:
        print(f"error: unknown curve {args.curve!r}")
        return
    ours = ECDH(curve=curve)
    try:
        if args.secret:
            ours.load_private_key(SigningKey.from_secret_exponent(args.secret, curve=curve))
        else:
            ours.load_private_key_pem(sys.stdin.read())
        print(f"our public key: {ours.get_public_key().to_string('compressed').hex()}")
        peer = None
        if args.peer_secret:
            peer = ECDH(curve=curve, private_key=SigningKey.from_secret_exponent(args.peer_secret, curve=curve))
            ours.load_received_public_key(peer.get_public_key())
        elif args.peer:
            ours.load_received_public_key_bytes(bytes.fromhex(args.peer))
        else:
            print("error: give --peer or --peer-secret")
            return
        print(f"peer public key: {ours.public_key.to_string('compressed').hex()}")
        shared = ours.generate_sharedsecret_bytes()
        print(f"shared secret: {shared.hex()}")
        print(f"shared x: {ours.generate_sharedsecret()}")
        print(f"sha256: {hashlib.sha256(shared).hexdigest()}")
        if peer is not None:
            peer.load_received_public_key(ours.get_public_key())
            agree = peer.generate_sharedsecret_bytes() == shared
            print(f"peer computes the same secret: {'yes' if agree else 'no'}")
    except InvalidCurveError:
        print("error: the keys are on different curves")
    except InvalidSharedSecretError:
        print("error: shared secret is the point at infinity")
    except NoKeyError:
        print("error: missing key")
    except MalformedPointError:
        print("error: malformed key or point")
    except UnexpectedDER as exc:
        print(f"error: UnexpectedDER: {exc}")
    except ValueError as exc:
        print(f"error: ValueError: {exc}")


if __name__ == "__main__":
    main()
