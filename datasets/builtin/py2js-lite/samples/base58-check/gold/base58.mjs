// Base58 and Base58Check, as the Python `base58` 2.1.1 package computes them.
import { createHash } from "node:crypto";
import { pyRstrip } from "./pyint.mjs";

export const ALPHABETS = {
  bitcoin: "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz",
  ripple: "rpshnaf39wBUDNEGHJKLM4PQRST7VWXYZ2bcdeCg65jkm8oFqi1tuvAxyz",
};

export class Base58Error extends Error {}

function encodeInt(i, alphabet, defaultOne = true) {
  if (i === 0n && defaultOne) return alphabet[0];
  let s = "";
  while (i > 0n) {
    s = alphabet[Number(i % 58n)] + s;
    i /= 58n;
  }
  return s;
}

export function b58encode(bytes, alphabet) {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros += 1;
  let acc = 0n;
  for (const b of bytes.subarray(zeros)) acc = (acc << 8n) | BigInt(b);
  return alphabet[0].repeat(zeros) + encodeInt(acc, alphabet, false);
}

function sha256d(bytes) {
  const once = createHash("sha256").update(bytes).digest();
  return createHash("sha256").update(once).digest();
}

export function b58encodeCheck(bytes, alphabet) {
  const digest = sha256d(bytes);
  const full = new Uint8Array(bytes.length + 4);
  full.set(bytes);
  full.set(digest.subarray(0, 4), bytes.length);
  return b58encode(full, alphabet);
}

function escapeCodePoint(cp) {
  const hex = cp.toString(16);
  if (cp < 0x100) return `\\x${hex.padStart(2, "0")}`;
  if (cp < 0x10000) return `\\u${hex.padStart(4, "0")}`;
  return `\\U${hex.padStart(8, "0")}`;
}

function asciiCheck(text) {
  const chars = Array.from(text);
  const start = chars.findIndex((ch) => ch.codePointAt(0) > 0x7f);
  if (start < 0) return;
  let end = start;
  while (end < chars.length && chars[end].codePointAt(0) > 0x7f) end += 1;
  const tail = "ordinal not in range(128)";
  if (end - start === 1) {
    const ch = escapeCodePoint(chars[start].codePointAt(0));
    throw new Base58Error(`'ascii' codec can't encode character '${ch}' in position ${start}: ${tail}`);
  }
  throw new Base58Error(`'ascii' codec can't encode characters in position ${start}-${end - 1}: ${tail}`);
}

function reprChar(ch) {
  const cp = ch.charCodeAt(0);
  if (ch === "'") return `"'"`;
  if (ch === "\\") return "'\\\\'";
  if (ch === "\n") return "'\\n'";
  if (ch === "\r") return "'\\r'";
  if (ch === "\t") return "'\\t'";
  if (cp < 0x20 || cp === 0x7f) return `'\\x${cp.toString(16).padStart(2, "0")}'`;
  return `'${ch}'`;
}

function decodeMap(alphabet, autofix) {
  const map = new Map([...alphabet].map((ch, i) => [ch, i]));
  if (autofix) {
    for (const group of ["0Oo", "Il1"]) {
      const pivots = [...group].filter((ch) => map.has(ch));
      if (pivots.length === 1) {
        for (const alt of group) map.set(alt, map.get(pivots[0]));
      }
    }
  }
  return map;
}

export function b58decodeInt(text, alphabet, autofix) {
  const v = pyRstrip(text);
  asciiCheck(v);
  const map = decodeMap(alphabet, autofix);
  let acc = 0n;
  for (const ch of v) {
    if (!map.has(ch)) throw new Base58Error(`Invalid character ${reprChar(ch)}`);
    acc = acc * 58n + BigInt(map.get(ch));
  }
  return acc;
}

export function b58decode(text, alphabet, autofix) {
  let v = pyRstrip(text);
  asciiCheck(v);
  const origlen = v.length;
  while (v.startsWith(alphabet[0])) v = v.slice(1);
  const zeros = origlen - v.length;
  let acc = b58decodeInt(v, alphabet, autofix);
  const bytes = [];
  while (acc > 0n) {
    bytes.push(Number(acc % 256n));
    acc /= 256n;
  }
  return Uint8Array.from([...new Array(zeros).fill(0), ...bytes.reverse()]);
}

export function b58decodeCheck(text, alphabet, autofix) {
  const full = b58decode(text, alphabet, autofix);
  const cut = Math.max(0, full.length - 4);
  const payload = full.subarray(0, cut);
  const check = full.subarray(cut);
  const digest = sha256d(payload).subarray(0, 4);
  if (Buffer.compare(Buffer.from(check), digest) !== 0) throw new Base58Error("Invalid checksum");
  return payload;
}
