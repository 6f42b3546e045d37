// Port of more-itertools-g01: chunk and window whitespace-separated words.
import { readFileSync } from "node:fs";

const WS = "\t\n\u000b\u000c\r\u001c\u001d\u001e\u001f \u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000";

function pySplit(text) {
  const words = [];
  let cur = "";
  for (const ch of text) {
    if (WS.includes(ch)) {
      if (cur) words.push(cur);
      cur = "";
    } else cur += ch;
  }
  if (cur) words.push(cur);
  return words;
}

function parseArgs(argv) {
  const opts = { text: null, size: "2", step: "1", fill: null, strict: "false" };
  for (let i = 0; i < argv.length; i += 2) opts[argv[i].slice(2)] = argv[i + 1];
  return opts;
}

function pyInt(s) {
  const t = s.trim().replace(/_/g, "");
  if (!/^[+-]?\d+$/.test(t)) throw new Error(`invalid int value: '${s}'`);
  return Number(t);
}

function jsonStr(s) {
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

function show(list) {
  return "[" + list.map((x) => (x === null ? "null" : jsonStr(x))).join(", ") + "]";
}

class PyValueError extends Error {}

function chunked(items, n, strict) {
  if (n === -1) throw new PyValueError("Stop argument for islice() must be None or an integer: 0 <= x <= sys.maxsize.");
  if (n < -1) throw new PyValueError("Indices for islice() must be None or an integer: 0 <= x <= sys.maxsize.");
  const out = [];
  if (n === 0) return out;
  for (let i = 0; i < items.length; i += n) {
    const chunk = items.slice(i, i + n);
    if (strict && chunk.length !== n) throw new PyValueError("iterable is not divisible by n.");
    out.push(chunk);
  }
  return out;
}

function windowed(items, n, fill, step) {
  if (n < 0) throw new PyValueError("n must be >= 0");
  if (n === 0) return [[]];
  if (step < 1) throw new PyValueError("step must be >= 1");
  const out = [];
  let window = items.slice(0, n);
  if (window.length === 0) return out;
  if (window.length < n) {
    while (window.length < n) window.push(fill);
    out.push(window);
    return out;
  }
  out.push(window.slice());
  const padCount = step >= n ? n - 1 : step - 1;
  const rest = items.slice(n);
  for (let i = 0; i < padCount; i++) rest.push(fill);
  let pushed = 0;
  for (const item of rest) {
    window.push(item);
    if (window.length > n) window.shift();
    pushed++;
    if (pushed % step === 0) out.push(window.slice());
  }
  return out;
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  const text = opts.text !== null && opts.text !== undefined ? opts.text : readFileSync(0, "utf8");
  const words = pySplit(text);
  const size = pyInt(opts.size);
  const step = pyInt(opts.step);
  const strict = ["true", "1", "yes"].includes(opts.strict.trim().toLowerCase());
  const lines = [`words: ${words.length}`];
  let chunks, windows;
  try {
    chunks = chunked(words, size, strict);
    windows = windowed(words, size, opts.fill, step);
  } catch (exc) {
    if (!(exc instanceof PyValueError)) throw exc;
    lines.push(`error: ValueError: ${exc.message}`);
    process.stdout.write(lines.join("\n") + "\n");
    return;
  }
  lines.push(`chunks: ${chunks.length}`);
  chunks.forEach((c, i) => lines.push(`  [${i + 1}] ${show(c)}`));
  lines.push(`windows: ${windows.length}`);
  windows.forEach((w, i) => lines.push(`  [${i + 1}] ${show(w)}`));
  process.stdout.write(lines.join("\n") + "\n");
}

main();
