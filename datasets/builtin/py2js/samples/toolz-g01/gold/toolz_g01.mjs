// Port of toolz-g01: word n-gram counter.
import { readFileSync } from "node:fs";

const WS = "\t\n\u000b\u000c\r\u001c\u001d\u001e\u001f \u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000";
const PUNCT = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";

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

function stripChars(s, chars) {
  const a = Array.from(s);
  let i = 0;
  let j = a.length;
  while (i < j && chars.includes(a[i])) i++;
  while (j > i && chars.includes(a[j - 1])) j--;
  return a.slice(i, j).join("");
}

function pyLower(s) {
  // Python lower() has no final-sigma rule: map capital sigma explicitly.
  return s.replace(/\u03a3/g, "\u03c3").toLowerCase();
}

function cmpCodePoints(a, b) {
  const x = Array.from(a);
  const y = Array.from(b);
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    const d = x[i].codePointAt(0) - y[i].codePointAt(0);
    if (d) return d;
  }
  return x.length - y.length;
}

function pyInt(s) {
  const t = s.trim().replace(/_/g, "");
  if (!/^[+-]?\d+$/.test(t)) throw new Error(`invalid int: ${s}`);
  return Number(t);
}

function main() {
  const argv = process.argv.slice(2);
  const opts = { text: null, n: "2", top: "5", "keep-case": "false" };
  for (let i = 0; i < argv.length; i += 2) opts[argv[i].slice(2)] = argv[i + 1];
  const text = opts.text !== null ? opts.text : readFileSync(0, "utf8");
  const keepCase = stripChars(opts["keep-case"], WS).toLowerCase() === "true";
  const n = pyInt(opts.n);
  const top = pyInt(opts.top);
  const words = [];
  for (const token of pySplit(text)) {
    const w = stripChars(token, PUNCT);
    if (w) words.push(keepCase ? w : pyLower(w));
  }
  const out = [`words: ${words.length}`];
  if (n < 0) {
    out.push("error: ValueError: n must be >= 0");
    process.stdout.write(out.join("\n") + "\n");
    return;
  }
  const grams = [];
  if (n > 0) for (let i = 0; i + n <= words.length; i++) grams.push(words.slice(i, i + n).join(" "));
  const counts = new Map();
  for (const g of grams) counts.set(g, (counts.get(g) || 0) + 1);
  out.push(`${n}-grams: ${grams.length} (distinct ${counts.size})`);
  const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1] || cmpCodePoints(a[0], b[0]));
  for (const [g, c] of ranked.slice(0, Math.max(top, 0))) out.push(`${String(c).padStart(4)}  ${g}`);
  process.stdout.write(out.join("\n") + "\n");
}

main();
