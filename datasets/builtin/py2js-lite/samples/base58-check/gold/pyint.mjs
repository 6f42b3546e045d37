// Python's int(text) for base 10: surrounding whitespace, a sign, underscores between digits, and any
// Unicode decimal digit. Returns a BigInt, or null where Python raises ValueError.

const PY_SPACE = "[\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
const STRIP = new RegExp(`^${PY_SPACE}+|${PY_SPACE}+$`, "gu");
const SHAPE = /^[+-]?\p{Nd}+(?:_\p{Nd}+)*$/u;

export function pyStrip(text) {
  return text.replace(STRIP, "");
}

function digitValue(ch) {
  // Unicode decimal digits come in runs of ten starting at zero: count back to the run's start.
  let cp = ch.codePointAt(0);
  let offset = 0;
  while (/\p{Nd}/u.test(String.fromCodePoint(cp - 1)) && offset < 64) {
    cp -= 1;
    offset += 1;
  }
  return offset % 10;
}

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

const RSTRIP = new RegExp(`${PY_SPACE}+$`, "u");

export function pyRstrip(text) {
  return text.replace(RSTRIP, "");
}
