// Port of sortedcontainers-g01: running median and distinct values of an integer stream.
import { readFileSync } from "node:fs";

const WS = "\t\n\u000b\u000c\r\u001c\u001d\u001e\u001f \u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000";

function pySplit(text) {
  const out = [];
  let cur = "";
  for (const ch of text) {
    if (WS.includes(ch)) {
      if (cur) out.push(cur);
      cur = "";
    } else cur += ch;
  }
  if (cur) out.push(cur);
  return out;
}

function pyStrip(s) {
  const chars = Array.from(s);
  let a = 0;
  let b = chars.length;
  while (a < b && WS.includes(chars[a])) a++;
  while (b > a && WS.includes(chars[b - 1])) b--;
  return chars.slice(a, b).join("");
}

const ND = /^\p{Nd}$/u;

function digitValue(ch) {
  const cp = ch.codePointAt(0);
  let start = cp;
  while (ND.test(String.fromCodePoint(start - 1))) start--;
  return (cp - start) % 10;
}

// Python int(str): optional sign, digits with single underscores between them.
function pyInt(token) {
  const s = pyStrip(token);
  const chars = Array.from(s);
  let i = 0;
  let neg = false;
  if (chars[0] === "+" || chars[0] === "-") {
    neg = chars[0] === "-";
    i = 1;
  }
  if (i >= chars.length) return null;
  let value = 0n;
  let prevDigit = false;
  for (; i < chars.length; i++) {
    const ch = chars[i];
    if (ch === "_") {
      if (!prevDigit || i + 1 >= chars.length) return null;
      prevDigit = false;
      continue;
    }
    if (!ND.test(ch)) return null;
    value = value * 10n + BigInt(digitValue(ch));
    prevDigit = true;
  }
  if (!prevDigit) return null;
  return neg ? -value : value;
}

function half(total) {
  if (total % 2n === 0n) return (total / 2n).toString();
  return total > 0n ? `${(total - 1n) / 2n}.5` : `-${(-total - 1n) / 2n}.5`;
}

function insertSorted(arr, v) {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (arr[mid] <= v) lo = mid + 1;
    else hi = mid;
  }
  arr.splice(lo, 0, v);
}

function main() {
  const argv = process.argv.slice(2);
  const opts = { values: null, quiet: "false" };
  for (let i = 0; i < argv.length; i += 2) opts[argv[i].slice(2)] = argv[i + 1];
  const text = opts.values !== null ? opts.values : readFileSync(0, "utf8");
  const out = [];
  const numbers = [];
  for (const token of pySplit(text)) {
    const n = pyInt(token);
    if (n === null) {
      process.stdout.write(`error: not an integer: ${token}\n`);
      return;
    }
    numbers.push(n);
  }
  const quiet = pyStrip(opts.quiet).toLowerCase() === "true";
  const seen = [];
  const distinct = [];
  numbers.forEach((value, idx) => {
    insertSorted(seen, value);
    if (!distinct.includes(value)) insertSorted(distinct, value);
    const size = seen.length;
    const median = size % 2 ? seen[size >> 1].toString() : half(seen[size / 2 - 1] + seen[size / 2]);
    if (!quiet) out.push(`${idx + 1}: add ${value} -> median ${median}, distinct ${distinct.length}`);
  });
  out.push(`count: ${seen.length}`);
  if (seen.length) out.push(`min: ${seen[0]}, max: ${seen[seen.length - 1]}`);
  out.push(`sorted: ${seen.join(" ")}`);
  out.push(`distinct: ${distinct.join(" ")}`);
  process.stdout.write(out.join("\n") + "\n");
}

main();
