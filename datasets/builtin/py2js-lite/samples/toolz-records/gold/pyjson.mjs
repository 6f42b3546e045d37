// Python's json.loads / json.dumps (defaults) and repr() of the decoded values, in JavaScript.
// Decoded values: null, true/false, BigInt (int), PyFloat (float), string, Array (list), Map (dict).
import { floatRepr } from "./pyfloat.mjs";

export class PyFloat {
  constructor(value) {
    this.value = value;
  }
}

export class JSONError extends Error {}

const WS = /[ \t\n\r]*/y;

class Parser {
  constructor(text) {
    this.text = text;
    this.i = 0;
  }

  ws() {
    WS.lastIndex = this.i;
    WS.exec(this.text);
    this.i = WS.lastIndex;
  }

  fail() {
    throw new JSONError("invalid JSON");
  }

  value() {
    this.ws();
    const t = this.text;
    const ch = t[this.i];
    if (ch === "{") return this.object();
    if (ch === "[") return this.array();
    if (ch === '"') return this.string();
    for (const [word, val] of [["null", null], ["true", true], ["false", false], ["NaN", new PyFloat(Number.NaN)],
      ["Infinity", new PyFloat(Infinity)], ["-Infinity", new PyFloat(-Infinity)]]) {
      if (t.startsWith(word, this.i)) {
        this.i += word.length;
        return val;
      }
    }
    const m = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/y;
    m.lastIndex = this.i;
    const found = m.exec(t);
    if (!found) this.fail();
    this.i = m.lastIndex;
    if (found[1] === undefined && found[2] === undefined) return BigInt(found[0]);
    return new PyFloat(Number(found[0]));
  }

  object() {
    const map = new Map();
    this.i += 1;
    this.ws();
    if (this.text[this.i] === "}") {
      this.i += 1;
      return map;
    }
    for (;;) {
      this.ws();
      if (this.text[this.i] !== '"') this.fail();
      const key = this.string();
      this.ws();
      if (this.text[this.i] !== ":") this.fail();
      this.i += 1;
      map.set(key, this.value());
      this.ws();
      const sep = this.text[this.i++];
      if (sep === "}") return map;
      if (sep !== ",") this.fail();
    }
  }

  array() {
    const list = [];
    this.i += 1;
    this.ws();
    if (this.text[this.i] === "]") {
      this.i += 1;
      return list;
    }
    for (;;) {
      list.push(this.value());
      this.ws();
      const sep = this.text[this.i++];
      if (sep === "]") return list;
      if (sep !== ",") this.fail();
    }
  }

  string() {
    const t = this.text;
    let i = this.i + 1;
    let out = "";
    for (;;) {
      if (i >= t.length) this.fail();
      const ch = t[i];
      if (ch === '"') break;
      if (ch.charCodeAt(0) < 0x20) this.fail();
      if (ch !== "\\") {
        out += ch;
        i += 1;
        continue;
      }
      const esc = t[i + 1];
      const simple = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
      if (esc in simple) {
        out += simple[esc];
        i += 2;
      } else if (esc === "u") {
        const hex = t.slice(i + 2, i + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail();
        let code = Number.parseInt(hex, 16);
        i += 6;
        // A high surrogate followed by an escaped low surrogate combines into one code point.
        if (code >= 0xd800 && code <= 0xdbff && t[i] === "\\" && t[i + 1] === "u") {
          const low = t.slice(i + 2, i + 6);
          if (/^[0-9a-fA-F]{4}$/.test(low)) {
            const lowCode = Number.parseInt(low, 16);
            if (lowCode >= 0xdc00 && lowCode <= 0xdfff) {
              code = 0x10000 + ((code - 0xd800) << 10) + (lowCode - 0xdc00);
              i += 6;
            }
          }
        }
        out += String.fromCodePoint(code);
      } else {
        this.fail();
      }
    }
    this.i = i + 1;
    return out;
  }
}

/** json.loads(text): raises JSONError where Python raises JSONDecodeError. */
export function loads(text) {
  const parser = new Parser(text);
  const value = parser.value();
  parser.ws();
  if (parser.i !== text.length) parser.fail();
  return value;
}

function dumpString(s) {
  let out = '"';
  for (let i = 0; i < s.length; i += 1) {
    const ch = s[i];
    const code = s.charCodeAt(i);
    const named = { '"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f" }[ch];
    if (named) out += named;
    else if (code < 0x20 || code > 0x7e) out += `\\u${code.toString(16).padStart(4, "0")}`;
    else out += ch;
  }
  return `${out}"`;
}

function dumpFloat(x) {
  if (Number.isNaN(x)) return "NaN";
  if (x === Infinity) return "Infinity";
  if (x === -Infinity) return "-Infinity";
  return floatRepr(x);
}

/** json.dumps(value) with Python's defaults (ensure_ascii, ", " and ": " separators). */
export function dumps(value) {
  if (value === null) return "null";
  if (value === true) return "true";
  if (value === false) return "false";
  if (typeof value === "bigint") return value.toString();
  if (value instanceof PyFloat) return dumpFloat(value.value);
  if (typeof value === "string") return dumpString(value);
  if (Array.isArray(value)) return `[${value.map(dumps).join(", ")}]`;
  if (value instanceof Map) return `{${[...value].map(([k, v]) => `${dumpString(k)}: ${dumps(v)}`).join(", ")}}`;
  if (value && Array.isArray(value.pairs)) {
    // A dict whose keys were converted for JSON: converted keys may repeat, as Python's dumps allows.
    return `{${value.pairs.map(([k, v]) => `${dumpString(k)}: ${dumps(v)}`).join(", ")}}`;
  }
  throw new TypeError("not JSON serializable");
}

function isPrintable(ch) {
  if (ch === " ") return true;
  return !/[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u.test(ch);
}

export function strRepr(text) {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    const cp = ch.codePointAt(0);
    if (ch === quote || ch === "\\") out += `\\${ch}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (!isPrintable(ch)) {
      const hex = cp.toString(16);
      if (cp < 0x100) out += `\\x${hex.padStart(2, "0")}`;
      else if (cp < 0x10000) out += `\\u${hex.padStart(4, "0")}`;
      else out += `\\U${hex.padStart(8, "0")}`;
    } else out += ch;
  }
  return out + quote;
}

/** Python repr() of a decoded JSON value. */
export function repr(value) {
  if (value === null) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "bigint") return value.toString();
  if (value instanceof PyFloat) return floatRepr(value.value);
  if (typeof value === "string") return strRepr(value);
  if (Array.isArray(value)) return `[${value.map(repr).join(", ")}]`;
  if (value instanceof Map) return `{${[...value].map(([k, v]) => `${strRepr(k)}: ${repr(v)}`).join(", ")}}`;
  throw new TypeError("no repr");
}

/** Python's type name: the `<class '...'>` text of type(value). */
export function typeName(value) {
  if (value === null) return "NoneType";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "bigint") return "int";
  if (value instanceof PyFloat) return "float";
  if (typeof value === "string") return "str";
  if (Array.isArray(value)) return "list";
  return "dict";
}
