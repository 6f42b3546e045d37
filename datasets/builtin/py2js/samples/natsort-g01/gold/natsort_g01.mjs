// Port of natsort-g01: natural sort of stdin lines (natsort DEFAULT / IGNORECASE / REAL), or an order check.
import { readFileSync } from "node:fs";

function parseArgs(argv) {
  const out = { ignoreCase: false, real: false, reverse: false, check: false };
  const names = { "--ignore-case": "ignoreCase", "--real": "real", "--reverse": "reverse", "--check": "check" };
  for (let i = 0; i < argv.length; i += 2) {
    if (argv[i] in names) out[names[argv[i]]] = argv[i + 1] === "true";
  }
  return out;
}

// Python str.splitlines()
function splitlines(text) {
  const lines = [];
  let cur = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\r") {
      lines.push(cur);
      cur = "";
      if (text[i + 1] === "\n") i++;
    } else if ("\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029".includes(c)) {
      lines.push(cur);
      cur = "";
    } else {
      cur += c;
    }
  }
  if (cur !== "") lines.push(cur);
  return lines;
}

// Value of a Unicode decimal digit (Nd): digits come in contiguous runs of ten.
function digitValue(ch) {
  const cp = ch.codePointAt(0);
  if (cp >= 48 && cp <= 57) return cp - 48;
  let k = 0;
  while (k < 9 && /\p{Nd}/u.test(String.fromCodePoint(cp - k - 1))) k++;
  return k % 10;
}

function toAsciiDigits(s) {
  return Array.from(s, (ch) => (/\p{Nd}/u.test(ch) ? String(digitValue(ch)) : ch)).join("");
}

const INT_RE = /(\p{Nd}+)/u;
const REAL_RE = /([-+]?(?:\p{Nd}+\.?\p{Nd}*|\.\p{Nd}+)(?:[eE][-+]?\p{Nd}+)?)/u;

function naturalKey(s, opts) {
  let x = s.normalize("NFD");
  if (opts.ignoreCase) x = x.toLowerCase();
  const re = opts.real ? REAL_RE : INT_RE;
  const parts = x.split(new RegExp(re.source, "u")).filter((p) => p !== "");
  const comps = parts.map((p) => {
    const full = new RegExp(`^${re.source}$`, "u");
    if (!full.test(p)) return p;
    const ascii = toAsciiDigits(p);
    return opts.real ? Number(ascii) : BigInt(ascii);
  });
  const key = [];
  let prevNum = false;
  for (let i = 0; i < comps.length; i++) {
    const isNum = typeof comps[i] !== "string";
    if (isNum && (i === 0 || prevNum)) key.push("");
    key.push(comps[i]);
    prevNum = isNum;
  }
  return key;
}

function cmpStr(a, b) {
  const ca = Array.from(a, (c) => c.codePointAt(0));
  const cb = Array.from(b, (c) => c.codePointAt(0));
  const n = Math.min(ca.length, cb.length);
  for (let i = 0; i < n; i++) if (ca[i] !== cb[i]) return ca[i] < cb[i] ? -1 : 1;
  return ca.length === cb.length ? 0 : ca.length < cb.length ? -1 : 1;
}

function cmpKey(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i];
    const y = b[i];
    let c;
    if (typeof x === "string") c = cmpStr(x, y);
    else c = x < y ? -1 : x > y ? 1 : 0;
    if (c !== 0) return c;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

function pyRepr(s) {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const cp = ch.codePointAt(0);
    if (ch === "\\") out += "\\\\";
    else if (ch === quote) out += "\\" + quote;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (ch !== " " && /[\p{C}\p{Z}]/u.test(ch)) {
      if (cp < 0x100) out += "\\x" + cp.toString(16).padStart(2, "0");
      else if (cp < 0x10000) out += "\\u" + cp.toString(16).padStart(4, "0");
      else out += "\\U" + cp.toString(16).padStart(8, "0");
    } else out += ch;
  }
  return out + quote;
}

const opts = parseArgs(process.argv.slice(2));
let text = "";
try {
  text = readFileSync(0, "utf8");
} catch {
  text = "";
}
const lines = splitlines(text);
if (opts.check) {
  for (let n = 1; n < lines.length; n++) {
    const before = naturalKey(lines[n - 1], opts);
    const after = naturalKey(lines[n], opts);
    const c = cmpKey(after, before);
    if (opts.reverse ? c > 0 : c < 0) {
      process.stdout.write(`unsorted: line ${n + 1} ${pyRepr(lines[n])} comes after ${pyRepr(lines[n - 1])}\n`);
      process.exit(0);
    }
  }
  process.stdout.write(`sorted: ${lines.length} line(s)\n`);
} else {
  const items = lines.map((line, index) => ({ line, index, key: naturalKey(line, opts) }));
  items.sort((a, b) => {
    const c = cmpKey(a.key, b.key);
    if (c !== 0) return opts.reverse ? -c : c;
    return a.index - b.index;
  });
  process.stdout.write(items.map((it) => it.line + "\n").join(""));
}
