// Port of jmespath-g02: extract fields from a JSON document by dotted paths (JMESPath subexpressions).
import { readFileSync } from "node:fs";

class PyFloat {
  constructor(v) {
    this.v = v;
  }
}
class JSONError extends Error {
  constructor(msg, s, pos) {
    const before = s.slice(0, pos);
    const lineno = (before.match(/\n/g) || []).length + 1;
    const nl = before.lastIndexOf("\n");
    const colno = nl < 0 ? pos + 1 : pos - nl;
    super(`${msg}: line ${lineno} column ${colno} (char ${pos})`);
  }
}
class StopIter {
  constructor(idx) {
    this.idx = idx;
  }
}

// Python's json.loads over an array of code points (positions count code points).
function pyJsonLoads(text) {
  const s = Array.from(text);
  const WS = new Set([" ", "\t", "\n", "\r"]);
  const skip = (i) => {
    while (i < s.length && WS.has(s[i])) i++;
    return i;
  };
  const at = (i) => (i < s.length ? s[i] : "");
  const startsWith = (i, lit) => s.slice(i, i + lit.length).join("") === lit;

  function scanString(end) {
    const begin = end - 1;
    let out = "";
    for (;;) {
      if (end >= s.length) throw new JSONError("Unterminated string starting at", text, begin);
      const c = s[end];
      if (c === '"') return [out, end + 1];
      if (c === "\\") {
        end++;
        if (end >= s.length) throw new JSONError("Unterminated string starting at", text, begin);
        const e = s[end];
        const simple = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
        if (e in simple) {
          out += simple[e];
          end++;
        } else if (e === "u") {
          const hex = s.slice(end + 1, end + 5).join("");
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new JSONError("Invalid \\uXXXX escape", text, end - 1);
          let code = parseInt(hex, 16);
          end += 5;
          if (code >= 0xd800 && code <= 0xdbff && s[end] === "\\" && s[end + 1] === "u") {
            const hex2 = s.slice(end + 2, end + 6).join("");
            if (/^[0-9a-fA-F]{4}$/.test(hex2)) {
              const low = parseInt(hex2, 16);
              if (low >= 0xdc00 && low <= 0xdfff) {
                out += String.fromCharCode(code, low);
                end += 6;
                continue;
              }
            }
          }
          out += String.fromCharCode(code);
        } else {
          throw new JSONError("Invalid \\escape", text, end - 1);
        }
      } else if (c.codePointAt(0) < 0x20) {
        throw new JSONError("Invalid control character at", text, end);
      } else {
        out += c;
        end++;
      }
    }
  }

  function scanOnce(idx) {
    const c = at(idx);
    if (c === '"') return scanString(idx + 1);
    if (c === "{") return parseObject(idx + 1);
    if (c === "[") return parseArray(idx + 1);
    if (c === "n" && startsWith(idx, "null")) return [null, idx + 4];
    if (c === "t" && startsWith(idx, "true")) return [true, idx + 4];
    if (c === "f" && startsWith(idx, "false")) return [false, idx + 5];
    const rest = s.slice(idx).join("");
    const m = /^(-?(?:0|[1-9]\d*))(\.\d+)?([eE][-+]?\d+)?/.exec(rest);
    if (m) {
      const len = Array.from(m[0]).length;
      if (m[2] === undefined && m[3] === undefined) return [BigInt(m[1]), idx + len];
      return [new PyFloat(Number(m[0])), idx + len];
    }
    if (c === "N" && startsWith(idx, "NaN")) return [new PyFloat(NaN), idx + 3];
    if (c === "I" && startsWith(idx, "Infinity")) return [new PyFloat(Infinity), idx + 8];
    if (c === "-" && startsWith(idx, "-Infinity")) return [new PyFloat(-Infinity), idx + 9];
    throw new StopIter(idx);
  }

  function valueAt(idx) {
    try {
      return scanOnce(idx);
    } catch (e) {
      if (e instanceof StopIter) throw new JSONError("Expecting value", text, e.idx);
      throw e;
    }
  }

  function skipAfterSep(end) {
    if (end < s.length && WS.has(s[end])) {
      end++;
      if (end < s.length && WS.has(s[end])) end = skip(end + 1);
    }
    return end;
  }

  function parseObject(end) {
    const obj = new Map();
    let nextchar = at(end);
    if (nextchar !== '"') {
      if (WS.has(nextchar)) {
        end = skip(end);
        nextchar = at(end);
      }
      if (nextchar === "}") return [obj, end + 1];
      if (nextchar !== '"') throw new JSONError("Expecting property name enclosed in double quotes", text, end);
    }
    end++;
    for (;;) {
      let key;
      [key, end] = scanString(end);
      if (at(end) !== ":") {
        end = skip(end);
        if (at(end) !== ":") throw new JSONError("Expecting ':' delimiter", text, end);
      }
      end = skipAfterSep(end + 1);
      let value;
      [value, end] = valueAt(end);
      obj.set(key, value);
      nextchar = at(end);
      if (WS.has(nextchar)) {
        end = skip(end + 1);
        nextchar = at(end);
      }
      end++;
      if (nextchar === "}") break;
      if (nextchar !== ",") throw new JSONError("Expecting ',' delimiter", text, end - 1);
      end = skip(end);
      nextchar = at(end);
      end++;
      if (nextchar !== '"') throw new JSONError("Expecting property name enclosed in double quotes", text, end - 1);
    }
    return [obj, end];
  }

  function parseArray(end) {
    const arr = [];
    let nextchar = at(end);
    if (WS.has(nextchar)) {
      end = skip(end + 1);
      nextchar = at(end);
    }
    if (nextchar === "]") return [arr, end + 1];
    for (;;) {
      let value;
      [value, end] = valueAt(end);
      arr.push(value);
      nextchar = at(end);
      if (WS.has(nextchar)) {
        end = skip(end + 1);
        nextchar = at(end);
      }
      end++;
      if (nextchar === "]") break;
      if (nextchar !== ",") throw new JSONError("Expecting ',' delimiter", text, end - 1);
      end = skipAfterSep(end);
    }
    return [arr, end];
  }

  let [obj, end] = valueAt(skip(0));
  end = skip(end);
  if (end !== s.length) throw new JSONError("Extra data", text, end);
  return obj;
}

function pyFloatRepr(x) {
  if (Number.isNaN(x)) return "NaN";
  if (x === Infinity) return "Infinity";
  if (x === -Infinity) return "-Infinity";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const sign = x < 0 ? "-" : "";
  const [mant, expStr] = Math.abs(x).toExponential().split("e");
  const digits = mant.replace(".", "");
  const exp = parseInt(expStr, 10);
  if (exp >= -4 && exp < 16) {
    if (exp >= 0) {
      const intPart = digits.slice(0, exp + 1).padEnd(exp + 1, "0");
      const frac = digits.slice(exp + 1) || "0";
      return `${sign}${intPart}.${frac}`;
    }
    return `${sign}0.${"0".repeat(-exp - 1)}${digits}`;
  }
  const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  return `${sign}${m}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
}

function dumpString(str) {
  let out = '"';
  for (let i = 0; i < str.length; i++) {
    const c = str[i];
    const code = str.charCodeAt(i);
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
  return out + '"';
}

function cmpCodePoints(a, b) {
  const x = Array.from(a, (c) => c.codePointAt(0));
  const y = Array.from(b, (c) => c.codePointAt(0));
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

function dumps(v) {
  if (v === null) return "null";
  if (v === true) return "true";
  if (v === false) return "false";
  if (typeof v === "bigint") return v.toString();
  if (v instanceof PyFloat) return pyFloatRepr(v.v);
  if (typeof v === "string") return dumpString(v);
  if (Array.isArray(v)) return "[" + v.map(dumps).join(", ") + "]";
  const keys = [...v.keys()].sort(cmpCodePoints);
  return "{" + keys.map((k) => `${dumpString(k)}: ${dumps(v.get(k))}`).join(", ") + "}";
}

function kind(v) {
  if (v === null) return "null";
  if (typeof v === "boolean") return "boolean";
  if (typeof v === "bigint" || v instanceof PyFloat) return "number";
  if (typeof v === "string") return "string";
  return Array.isArray(v) ? "array" : "object";
}

const PY_SPACE = new Set([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001,
  0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f,
  0x205f, 0x3000,
]);
function pyStrip(str) {
  const cps = Array.from(str);
  let a = 0;
  let b = cps.length;
  while (a < b && PY_SPACE.has(cps[a].codePointAt(0))) a++;
  while (b > a && PY_SPACE.has(cps[b - 1].codePointAt(0))) b--;
  return cps.slice(a, b).join("");
}

function parseArgs(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith("--")) {
      const eq = a.indexOf("=");
      if (eq > 0) out[a.slice(2, eq)] = a.slice(eq + 1);
      else out[a.slice(2)] = argv[++i];
    }
  }
  return out;
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  const lines = [];
  const text = readFileSync(0, "utf8").replace(/\r\n?/g, "\n");
  let data;
  try {
    data = pyJsonLoads(text);
  } catch (e) {
    if (!(e instanceof JSONError)) throw e;
    process.stdout.write(`error: stdin is not JSON: ${e.message}\n`);
    return;
  }
  for (let path of args.paths.split(",")) {
    path = pyStrip(path);
    const segments = path.split(".");
    if (!segments.every((seg) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(seg))) {
      lines.push(`${path || "(empty)"}: error: each segment must be a plain identifier`);
      continue;
    }
    let value = data;
    for (const seg of segments) {
      value = value instanceof Map && value.has(seg) ? value.get(seg) : null;
      if (value === null) break;
    }
    lines.push(`${path}: ${kind(value)} ${dumps(value)}`);
  }
  process.stdout.write(lines.map((l) => l + "\n").join(""));
}

main();
