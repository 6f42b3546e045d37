// Python text helpers: int() parsing, str.strip/rstrip whitespace, str.splitlines, stdin as UTF-8.
import { readFileSync } from "node:fs";

const PY_SPACE = "[\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
const STRIP = new RegExp(`^${PY_SPACE}+|${PY_SPACE}+$`, "gu");
const SHAPE = /^[+-]?\p{Nd}+(?:_\p{Nd}+)*$/u;

export function pyStrip(text) {
  return text.replace(STRIP, "");
}

function digitValue(ch) {
  let cp = ch.codePointAt(0);
  let offset = 0;
  while (/\p{Nd}/u.test(String.fromCodePoint(cp - 1)) && offset < 64) {
    cp -= 1;
    offset += 1;
  }
  return offset % 10;
}

/** Python int(text) in base 10 as a BigInt, or null where Python raises ValueError. */
export function pyInt(text) {
  const body = pyStrip(text);
  if (!SHAPE.test(body)) return null;
  let sign = 1n;
  let rest = body;
  if (rest[0] === "+" || rest[0] === "-") {
    sign = rest[0] === "-" ? -1n : 1n;
    rest = rest.slice(1);
  }
  let value = 0n;
  for (const ch of rest) {
    if (ch !== "_") value = value * 10n + BigInt(digitValue(ch));
  }
  return sign * value;
}

/** Python str.splitlines(). */
export function splitlines(text) {
  const parts = text.split(/\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/);
  if (parts[parts.length - 1] === "") parts.pop();
  return parts;
}

/** All of stdin decoded as strict UTF-8 (a BOM is kept, as Python keeps it). */
export function readStdin() {
  return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(readFileSync(0));
}
