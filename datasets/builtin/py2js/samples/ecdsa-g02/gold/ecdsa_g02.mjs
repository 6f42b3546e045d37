// Port of ecdsa-g02: encode a JSON tree of integers, OIDs and lists as DER.
import { readFileSync } from "node:fs";

// ---------- a JSON parser with Python json.loads semantics ----------
class JsonError extends Error {}

function parseJson(text) {
  let i = 0;
  const ws = () => {
    while (i < text.length && " \t\n\r".includes(text[i])) i++;
  };
  const value = () => {
    ws();
    if (i >= text.length) throw new JsonError("eof");
    const c = text[i];
    if (c === "{") return object();
    if (c === "[") return array();
    if (c === '"') return { t: "str", v: string() };
    if (text.startsWith("true", i)) { i += 4; return { t: "bool", v: true }; }
    if (text.startsWith("false", i)) { i += 5; return { t: "bool", v: false }; }
    if (text.startsWith("null", i)) { i += 4; return { t: "null" }; }
    if (text.startsWith("NaN", i)) { i += 3; return { t: "float", v: NaN }; }
    if (text.startsWith("Infinity", i)) { i += 8; return { t: "float", v: Infinity }; }
    if (text.startsWith("-Infinity", i)) { i += 9; return { t: "float", v: -Infinity }; }
    const m = /^-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/.exec(text.slice(i));
    if (!m) throw new JsonError("value");
    i += m[0].length;
    if (m[1] === undefined && m[2] === undefined) return { t: "int", v: BigInt(m[0]) };
    return { t: "float", v: Number(m[0]) };
  };
  const string = () => {
    i++; // opening quote
    let out = "";
    for (;;) {
      if (i >= text.length) throw new JsonError("unterminated string");
      const c = text[i];
      if (c === '"') { i++; return out; }
      if (c === "\\") {
        const e = text[i + 1];
        const simple = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
        if (e in simple) { out += simple[e]; i += 2; continue; }
        if (e === "u") {
          const hex = text.slice(i + 2, i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new JsonError("bad escape");
          out += String.fromCharCode(parseInt(hex, 16));
          i += 6;
          continue;
        }
        throw new JsonError("bad escape");
      }
      if (c.charCodeAt(0) < 0x20) throw new JsonError("control character");
      out += c;
      i++;
    }
  };
  const array = () => {
    i++;
    const items = [];
    ws();
    if (text[i] === "]") { i++; return { t: "list", v: items }; }
    for (;;) {
      items.push(value());
      ws();
      if (text[i] === ",") { i++; continue; }
      if (text[i] === "]") { i++; return { t: "list", v: items }; }
      throw new JsonError("array");
    }
  };
  const object = () => {
    i++;
    const pairs = []; // [key, value], Python dict semantics for duplicate keys
    ws();
    if (text[i] === "}") { i++; return { t: "dict", v: pairs }; }
    for (;;) {
      ws();
      if (text[i] !== '"') throw new JsonError("key");
      const key = string();
      ws();
      if (text[i] !== ":") throw new JsonError("colon");
      i++;
      const val = value();
      const existing = pairs.find((p) => p[0] === key);
      if (existing) existing[1] = val;
      else pairs.push([key, val]);
      ws();
      if (text[i] === ",") { i++; continue; }
      if (text[i] === "}") { i++; return { t: "dict", v: pairs }; }
      throw new JsonError("object");
    }
  };
  const result = value();
  ws();
  if (i !== text.length) throw new JsonError("extra data");
  return result;
}

// ---------- Python json.dumps (default settings) ----------
function pyFloatRepr(x) {
  if (Number.isNaN(x)) return "NaN";
  if (x === Infinity) return "Infinity";
  if (x === -Infinity) return "-Infinity";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const [mant, expStr] = x.toExponential().split("e");
  const exp = parseInt(expStr, 10);
  const neg = mant.startsWith("-");
  const digits = mant.replace("-", "").replace(".", "");
  let body;
  if (exp >= -4 && exp < 16) {
    if (exp >= 0) {
      const intPart = digits.slice(0, exp + 1).padEnd(exp + 1, "0");
      const frac = digits.slice(exp + 1);
      body = `${intPart}.${frac || "0"}`;
    } else {
      body = `0.${"0".repeat(-exp - 1)}${digits}`;
    }
  } else {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const sign = exp < 0 ? "-" : "+";
    body = `${m}e${sign}${String(Math.abs(exp)).padStart(2, "0")}`;
  }
  return (neg ? "-" : "") + body;
}

function dumpString(s) {
  let out = '"';
  for (const ch of s) {
    for (let k = 0; k < ch.length; k++) {
      const code = ch.charCodeAt(k);
      const c = ch[k];
      if (c === '"') out += '\\"';
      else if (c === "\\") out += "\\\\";
      else if (c === "\n") out += "\\n";
      else if (c === "\r") out += "\\r";
      else if (c === "\t") out += "\\t";
      else if (c === "\b") out += "\\b";
      else if (c === "\f") out += "\\f";
      else if (code < 0x20 || code > 0x7e) out += "\\u" + code.toString(16).padStart(4, "0");
      else out += c;
    }
  }
  return out + '"';
}

function dumps(node) {
  switch (node.t) {
    case "int": return node.v.toString();
    case "float": return pyFloatRepr(node.v);
    case "bool": return node.v ? "true" : "false";
    case "null": return "null";
    case "str": return dumpString(node.v);
    case "list": return "[" + node.v.map(dumps).join(", ") + "]";
    case "dict": return "{" + node.v.map(([k, v]) => `${dumpString(k)}: ${dumps(v)}`).join(", ") + "}";
  }
  throw new Error("unreachable");
}

// ---------- ecdsa.der ----------
const hexOf = (n) => {
  let h = n.toString(16);
  if (h.length % 2) h = "0" + h;
  return h;
};
function encodeLength(l) {
  if (l < 0x80) return l.toString(16).padStart(2, "0");
  const h = hexOf(BigInt(l));
  return (0x80 | (h.length / 2)).toString(16) + h;
}
function encodeInteger(r) {
  const s = hexOf(r);
  const first = parseInt(s.slice(0, 2), 16);
  if (first <= 0x7f) return "02" + encodeLength(s.length / 2) + s;
  return "02" + encodeLength(s.length / 2 + 1) + "00" + s;
}
function encodeNumber(n) {
  const digits = [];
  while (n) {
    digits.unshift(Number(n & 0x7fn) | 0x80);
    n >>= 7n;
  }
  if (!digits.length) digits.push(0);
  digits[digits.length - 1] &= 0x7f;
  return digits.map((d) => d.toString(16).padStart(2, "0")).join("");
}
function encodeOid(numbers) {
  const body = encodeNumber(40n * numbers[0] + numbers[1]) + numbers.slice(2).map(encodeNumber).join("");
  return "06" + encodeLength(body.length / 2) + body;
}
function encodeSequence(pieces) {
  const body = pieces.join("");
  return "30" + encodeLength(body.length / 2) + body;
}

class Unsupported extends Error {}

function encode(node, depth) {
  if (depth > 32) throw new Unsupported("nesting too deep");
  if (["bool", "null", "float", "dict"].includes(node.t)) throw new Unsupported(`unsupported value ${dumps(node)}`);
  if (node.t === "int") {
    if (node.v < 0n) throw new Unsupported(`negative integer ${node.v}`);
    return encodeInteger(node.v);
  }
  if (node.t === "str") {
    const parts = node.v.split(".");
    if (parts.length < 2 || !parts.every((p) => /^[0-9]+$/.test(p))) throw new Unsupported(`bad OID ${dumps(node)}`);
    const numbers = parts.map((p) => BigInt(p));
    const [first, second] = numbers;
    if (!((first >= 0n && first < 2n && second >= 0n && second <= 39n) || first === 2n)) {
      throw new Unsupported(`bad OID ${dumps(node)}`);
    }
    return encodeOid(numbers);
  }
  const pieces = [];
  for (const item of node.v) pieces.push(encode(item, depth + 1));
  return encodeSequence(pieces);
}

function main() {
  const argv = process.argv.slice(2);
  let wrap = false;
  for (let k = 0; k < argv.length; k += 2) if (argv[k] === "--wrap") wrap = argv[k + 1] === "true";
  let text = "";
  try {
    text = readFileSync(0, "utf8");
  } catch {
    text = "";
  }
  let tree;
  try {
    tree = parseJson(text);
  } catch (exc) {
    if (exc instanceof JsonError) {
      console.log("error: stdin is not valid JSON");
      return;
    }
    throw exc;
  }
  let pieces;
  try {
    if (tree.t === "list" && !wrap) pieces = tree.v.map((item) => encode(item, 1));
    else pieces = [encode(tree, 0)];
  } catch (exc) {
    if (exc instanceof Unsupported) {
      console.log(`error: ${exc.message}`);
      return;
    }
    throw exc;
  }
  for (const p of pieces) console.log(p);
  const total = pieces.reduce((a, p) => a + p.length / 2, 0);
  console.log(`total: ${total} bytes in ${pieces.length} element(s)`);
}

main();
