// Python-compatible JSON reading (json.loads) and canonicaljson's two encoders.
// Values: null, true/false, BigInt (JSON integers), PyFloat (JSON floats), string, Array, Map (objects).

export class PyFloat {
  constructor(value) { this.value = value; }
}

export class JSONError extends Error {}

const WS = new Set([" ", "\t", "\n", "\r"]);
const NUMBER = /^(-?(?:0|[1-9][0-9]*))(\.[0-9]+)?([eE][-+]?[0-9]+)?/;

export function loads(text) {
  let i = 0;
  const skip = () => { while (i < text.length && WS.has(text[i])) i++; };
  const fail = () => { throw new JSONError("invalid JSON"); };

  function parseString() {
    // text[i] === '"'
    i++;
    let out = "";
    for (;;) {
      if (i >= text.length) fail();
      const ch = text[i];
      if (ch === '"') { i++; return out; }
      if (ch === "\\") {
        const e = text[i + 1];
        if (e === undefined) fail();
        const simple = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
        if (e in simple) { out += simple[e]; i += 2; continue; }
        if (e !== "u") fail();
        const hex = text.slice(i + 2, i + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail();
        let code = parseInt(hex, 16);
        i += 6;
        if (code >= 0xd800 && code <= 0xdbff && text[i] === "\\" && text[i + 1] === "u") {
          const hex2 = text.slice(i + 2, i + 6);
          if (/^[0-9a-fA-F]{4}$/.test(hex2)) {
            const low = parseInt(hex2, 16);
            if (low >= 0xdc00 && low <= 0xdfff) {
              out += String.fromCharCode(code, low);
              i += 6;
              continue;
            }
          }
        }
        out += String.fromCharCode(code);
        continue;
      }
      if (ch.charCodeAt(0) < 0x20) fail();
      out += ch;
      i++;
    }
  }

  function parseValue() {
    skip();
    if (i >= text.length) fail();
    const ch = text[i];
    if (ch === "{") {
      i++;
      const map = new Map();
      skip();
      if (text[i] === "}") { i++; return map; }
      for (;;) {
        skip();
        if (text[i] !== '"') fail();
        const key = parseString();
        skip();
        if (text[i] !== ":") fail();
        i++;
        const value = parseValue();
        map.set(key, value);
        skip();
        if (text[i] === ",") { i++; continue; }
        if (text[i] === "}") { i++; return map; }
        fail();
      }
    }
    if (ch === "[") {
      i++;
      const arr = [];
      skip();
      if (text[i] === "]") { i++; return arr; }
      for (;;) {
        arr.push(parseValue());
        skip();
        if (text[i] === ",") { i++; continue; }
        if (text[i] === "]") { i++; return arr; }
        fail();
      }
    }
    if (ch === '"') return parseString();
    if (text.startsWith("null", i)) { i += 4; return null; }
    if (text.startsWith("true", i)) { i += 4; return true; }
    if (text.startsWith("false", i)) { i += 5; return false; }
    if (text.startsWith("NaN", i)) { i += 3; return new PyFloat(NaN); }
    if (text.startsWith("Infinity", i)) { i += 8; return new PyFloat(Infinity); }
    if (text.startsWith("-Infinity", i)) { i += 9; return new PyFloat(-Infinity); }
    const m = NUMBER.exec(text.slice(i));
    if (!m) fail();
    i += m[0].length;
    if (m[2] === undefined && m[3] === undefined) return BigInt(m[1]);
    return new PyFloat(Number(m[0]));
  }

  const value = parseValue();
  skip();
  if (i !== text.length) fail();
  return value;
}

export function floatRepr(x) {
  if (Object.is(x, -0)) return "-0.0";
  if (x === 0) return "0.0";
  const sign = x < 0 ? "-" : "";
  const [mant, expText] = Math.abs(x).toExponential().split("e");
  const digits = mant.replace(".", "");
  const e = parseInt(expText, 10);
  if (e >= -4 && e < 16) {
    const decpt = e + 1;
    if (decpt <= 0) return `${sign}0.${"0".repeat(-decpt)}${digits}`;
    if (decpt >= digits.length) return `${sign}${digits}${"0".repeat(decpt - digits.length)}.0`;
    return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
  }
  const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  const ae = Math.abs(e);
  return `${sign}${m}e${e < 0 ? "-" : "+"}${ae < 10 ? "0" + ae : ae}`;
}

export function encodeString(s) {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0);
    if (ch === '"') out += '\\"';
    else if (ch === "\\") out += "\\\\";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (ch === "\b") out += "\\b";
    else if (ch === "\f") out += "\\f";
    else if (c < 0x20) out += "\\u" + c.toString(16).padStart(4, "0");
    else out += ch;
  }
  return out + '"';
}

export function compareCodePoints(a, b) {
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done && y.done) return 0;
    if (x.done) return -1;
    if (y.done) return 1;
    const cx = x.value.codePointAt(0);
    const cy = y.value.codePointAt(0);
    if (cx !== cy) return cx < cy ? -1 : 1;
  }
}

// The C (one-shot canonical) encoder says just this; the pure-Python one (pretty, iterencode) appends
// ": " and repr of the value (nan, inf, -inf).
export class OutOfRange extends Error {
  constructor(value, withRepr) {
    const repr = Number.isNaN(value) ? "nan" : value > 0 ? "inf" : "-inf";
    super("Out of range float values are not JSON compliant" + (withRepr ? ": " + repr : ""));
  }
}

function scalar(v, withRepr = false) {
  if (v === null) return "null";
  if (v === true) return "true";
  if (v === false) return "false";
  if (typeof v === "bigint") return v.toString();
  if (v instanceof PyFloat) {
    if (!Number.isFinite(v.value)) throw new OutOfRange(v.value, withRepr);
    return floatRepr(v.value);
  }
  if (typeof v === "string") return encodeString(v);
  return undefined;
}

function sortedEntries(map) {
  return [...map.entries()].sort((p, q) => compareCodePoints(p[0], q[0]));
}

export function canonical(v) {
  const s = scalar(v);
  if (s !== undefined) return s;
  if (Array.isArray(v)) return "[" + v.map(canonical).join(",") + "]";
  return "{" + sortedEntries(v).map(([k, x]) => encodeString(k) + ":" + canonical(x)).join(",") + "}";
}

export function pretty(v, level = 0) {
  const s = scalar(v, true);
  if (s !== undefined) return s;
  const inner = " ".repeat(4 * (level + 1));
  const outer = " ".repeat(4 * level);
  if (Array.isArray(v)) {
    if (v.length === 0) return "[]";
    return "[\n" + v.map((x) => inner + pretty(x, level + 1)).join(",\n") + "\n" + outer + "]";
  }
  if (v.size === 0) return "{}";
  return "{\n" + sortedEntries(v).map(([k, x]) => inner + encodeString(k) + ": " + pretty(x, level + 1)).join(",\n") + "\n" + outer + "}";
}

export function hasLoneSurrogate(s) {
  return /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);
}

export class LoneSurrogate extends Error {}

// encode_*_json: text -> UTF-8 bytes, failing like Python's str.encode on lone surrogates.
export function toUtf8(text) {
  if (hasLoneSurrogate(text)) throw new LoneSurrogate("lone surrogate");
  return Buffer.from(text, "utf-8");
}
