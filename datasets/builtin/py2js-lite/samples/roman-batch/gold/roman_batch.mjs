// Convert a batch of integers and Roman numerals from stdin, and total them: a port of roman_batch.py.
import { readStdin, splitlines } from "./pytext.mjs";

const NAMES = ["sort"];
const MAP = [
  ["M", 1000], ["CM", 900], ["D", 500], ["CD", 400], ["C", 100], ["XC", 90],
  ["L", 50], ["XL", 40], ["X", 10], ["IX", 9], ["V", 5], ["IV", 4], ["I", 1],
];
const PATTERN = /^M{0,4}(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})\n?$/;
const PY_SPLIT = /[\t\n\v\f\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/u;
const out = [];
const print = (line) => out.push(`${line}\n`);

class RomanError extends Error {
  constructor(kind, message) {
    super(message);
    this.kind = kind;
  }
}

function usage(message) {
  process.stderr.write(`usage error: ${message}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  if (argv.length % 2) usage("expected --name value pairs");
  const opts = new Map();
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i];
    if (!key.startsWith("--") || !NAMES.includes(key.slice(2))) usage(`unknown argument ${key}`);
    opts.set(key.slice(2), argv[i + 1]);
  }
  return opts;
}

function toRoman(n) {
  if (!(n > -1n && n < 5000n)) throw new RomanError("OutOfRangeError", "number out of range (must be 0..4999)");
  if (n === 0n) return "N";
  let rest = Number(n);
  let result = "";
  for (const [numeral, value] of MAP) {
    while (rest >= value) {
      result += numeral;
      rest -= value;
    }
  }
  return result;
}

function fromRoman(s) {
  if (!s) throw new RomanError("InvalidRomanNumeralError", "Input can not be blank");
  if (s === "N") return 0n;
  if (!PATTERN.test(s)) throw new RomanError("InvalidRomanNumeralError", `Invalid Roman numeral: ${s}`);
  let result = 0;
  let index = 0;
  for (const [numeral, value] of MAP) {
    while (s.slice(index, index + numeral.length) === numeral) {
      result += value;
      index += numeral.length;
    }
  }
  return BigInt(result);
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

function convert(token) {
  if (/^\p{Nd}+$/u.test(token)) {
    let value = 0n;
    for (const ch of token) value = value * 10n + BigInt(digitValue(ch));
    return [value, toRoman(value)];
  }
  const value = fromRoman(token.toUpperCase());
  return [value, toRoman(value)];
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  const order = opts.get("sort") ?? "none";
  if (!["none", "asc", "desc"].includes(order)) return print("error: --sort must be none, asc or desc");
  const rows = [];
  splitlines(readStdin()).forEach((line, i) => {
    for (const token of line.split(PY_SPLIT).filter((t) => t)) {
      try {
        rows.push(convert(token));
      } catch (err) {
        if (!(err instanceof RomanError)) throw err;
        print(`line ${i + 1}: ${token}: ${err.kind}: ${err.message}`);
      }
    }
  });
  // Python sorts (value, numeral) tuples; equal values have equal numerals, so the value decides.
  if (order !== "none") rows.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0) * (order === "desc" ? -1 : 1));
  for (const [value, numeral] of rows) print(`${value}\t${numeral}`);
  const total = rows.reduce((acc, [value]) => acc + value, 0n);
  try {
    print(`total: ${total} = ${toRoman(total)}`);
  } catch {
    print(`total: ${total} (out of range)`);
  }
}

main();
process.stdout.write(out.join(""));
