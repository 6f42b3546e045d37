// Code point set compressor: a port of idna-g01 (idna.intranges) without the Python library.
import { readFileSync } from "node:fs";

function parseArgs(argv) {
  const out = {};
  for (let i = 0; i + 1 < argv.length; i += 2) out[argv[i].replace(/^--/, "")] = argv[i + 1];
  return out;
}

function readStdin() {
  let data = "";
  try {
    data = readFileSync(0, "utf8");
  } catch {
    data = "";
  }
  return data;
}

const WS = "\\t\\n\\u000b\\f\\r\\u001c-\\u001f \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const STRIP_RE = new RegExp(`^[${WS}]+|[${WS}]+$`, "g");
const pyStrip = (s) => s.replace(STRIP_RE, "");

// Python repr() of a str (enough for argument text: quotes, backslashes, control characters).
function pyRepr(s) {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const cp = ch.codePointAt(0);
    if (ch === "\\") out += "\\\\";
    else if (ch === quote) out += "\\" + ch;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (cp < 0x20 || cp === 0x7f || (cp >= 0x80 && cp < 0xa0)) out += "\\x" + cp.toString(16).padStart(2, "0");
    else out += ch;
  }
  return out + quote;
}

class ParseError extends Error {}

function pyInt(part) {
  const t = pyStrip(part);
  if (!/^[+-]?[0-9](_?[0-9])*$/.test(t)) {
    throw new ParseError(`invalid literal for int() with base 10: ${pyRepr(part)}`);
  }
  return BigInt(t.replace(/_/g, ""));
}

function numbers(text) {
  return text.split(",").filter((x) => pyStrip(x) !== "").map(pyInt);
}

function codePoints(text) {
  return Array.from(text, (ch) => BigInt(ch.codePointAt(0)));
}

const enc = (start, end) => (start << 32n) | end;

function intrangesFromList(list) {
  const sorted = [...list].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const ranges = [];
  let lastWrite = -1;
  for (let i = 0; i < sorted.length; i++) {
    if (i + 1 < sorted.length && sorted[i] === sorted[i + 1] - 1n) continue;
    const run = sorted.slice(lastWrite + 1, i + 1);
    ranges.push(enc(run[0], run[run.length - 1] + 1n));
    lastWrite = i;
  }
  return ranges;
}

function intrangesContain(x, ranges) {
  const key = enc(x, 0n);
  let lo = 0;
  let hi = ranges.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ranges[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  const pos = lo;
  const mask = (1n << 32n) - 1n;
  if (pos > 0) {
    const left = ranges[pos - 1] >> 32n;
    const right = ranges[pos - 1] & mask;
    if (left <= x && x < right) return true;
  }
  if (pos < ranges.length && ranges[pos] >> 32n === x) return true;
  return false;
}

const hex4 = (n) => "U+" + n.toString(16).toUpperCase().padStart(4, "0");

function main() {
  const args = parseArgs(process.argv.slice(2));
  const out = [];
  let points = codePoints(readStdin());
  let queries;
  try {
    points = points.concat(numbers(args.numbers ?? ""));
    queries = codePoints(args.query ?? "").concat(numbers(args["query-numbers"] ?? ""));
  } catch (exc) {
    if (!(exc instanceof ParseError)) throw exc;
    process.stdout.write(`error: ${exc.message}\n`);
    return;
  }
  if (points.concat(queries).some((p) => p < 0n || p > 0x10ffffn)) {
    process.stdout.write("error: code points must be between 0 and 1114111\n");
    return;
  }
  if (!["false", "0", "no"].includes((args.dedupe ?? "true").toLowerCase())) {
    points = [...new Set(points)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }
  const ranges = intrangesFromList(points);
  out.push(`points: ${points.length}, ranges: ${ranges.length}`);
  const mask = (1n << 32n) - 1n;
  for (const encoded of ranges) {
    const start = encoded >> 32n;
    const end = encoded & mask;
    out.push(`  ${hex4(start)}..${hex4(end - 1n)} (${end - start}) = ${encoded}`);
  }
  for (const q of queries) out.push(`${hex4(q)}: ${intrangesContain(q, ranges) ? "in" : "out"}`);
  process.stdout.write(out.join("\n") + "\n");
}

main();
