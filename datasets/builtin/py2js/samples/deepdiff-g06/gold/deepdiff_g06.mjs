// LFU cache simulator: a pure JavaScript port of the deepdiff LFUCache test program.
import { readFileSync } from "node:fs";

const PY_WS = new Set([
  " ", "\t", "\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x1f", "\x85", "\xa0", "\u1680",
  "\u2000", "\u2001", "\u2002", "\u2003", "\u2004", "\u2005", "\u2006", "\u2007", "\u2008", "\u2009",
  "\u200a", "\u2028", "\u2029", "\u202f", "\u205f", "\u3000",
]);
const LINE_BREAKS = new Set(["\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]);

function splitlines(text) {
  const lines = [];
  let cur = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (LINE_BREAKS.has(ch)) {
      lines.push(cur);
      cur = "";
      if (ch === "\r" && text[i + 1] === "\n") i++;
    } else {
      cur += ch;
    }
  }
  if (cur !== "") lines.push(cur);
  return lines;
}

function pySplit(text) {
  const words = [];
  let cur = "";
  for (const ch of text) {
    if (PY_WS.has(ch)) {
      if (cur) words.push(cur);
      cur = "";
    } else {
      cur += ch;
    }
  }
  if (cur) words.push(cur);
  return words;
}

function pyStrip(text) {
  const chars = [...text];
  let a = 0;
  let b = chars.length;
  while (a < b && PY_WS.has(chars[a])) a++;
  while (b > a && PY_WS.has(chars[b - 1])) b--;
  return chars.slice(a, b).join("");
}

function pyRepr(text) {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    const c = ch.codePointAt(0);
    if (ch === quote || ch === "\\") out += "\\" + ch;
    else if (ch === "\t") out += "\\t";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (c < 0x20 || c === 0x7f || (c >= 0x80 && c <= 0xa0) || c === 0xad) out += "\\x" + c.toString(16).padStart(2, "0");
    else if (/[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u.test(ch) && ch !== " ") {
      out += c <= 0xffff ? "\\u" + c.toString(16).padStart(4, "0") : "\\U" + c.toString(16).padStart(8, "0");
    } else out += ch;
  }
  return out + quote;
}

class LFUCache {
  constructor(capacity) {
    if (capacity <= 0) throw new Error("Capacity of LFUCache needs to be positive.");
    this.capacity = capacity;
    this.map = new Map(); // key -> entry {key, value, bucket}
    this.buckets = []; // [{freq, entries: [entry]}] increasing freq
  }
  has(key) {
    return this.map.has(key);
  }
  get(key) {
    const entry = this.map.get(key);
    const bucket = entry.bucket;
    const index = this.buckets.indexOf(bucket);
    let target = this.buckets[index + 1];
    if (!target || target.freq !== bucket.freq + 1) {
      target = { freq: bucket.freq + 1, entries: [] };
      this.buckets.splice(index + 1, 0, target);
    }
    bucket.entries.splice(bucket.entries.indexOf(entry), 1);
    target.entries.push(entry);
    entry.bucket = target;
    if (bucket.entries.length === 0) this.buckets.splice(this.buckets.indexOf(bucket), 1);
    return entry.value;
  }
  set(key, value) {
    if (this.map.has(key)) {
      this.map.get(key).value = value;
      return;
    }
    if (this.map.size >= this.capacity) {
      const head = this.buckets[0];
      const victim = head.entries.shift();
      this.map.delete(victim.key);
      if (head.entries.length === 0) this.buckets.shift();
    }
    const entry = { key, value, bucket: null };
    this.map.set(key, entry);
    let head = this.buckets[0];
    if (!head || head.freq !== 0) {
      head = { freq: 0, entries: [] };
      this.buckets.unshift(head);
    }
    head.entries.push(entry);
    entry.bucket = head;
  }
  sortedKeys() {
    const rows = [...this.map.values()].map((e) => [e.key, e.bucket.freq]);
    return rows.sort((x, y) => y[1] - x[1]); // Array.prototype.sort is stable
  }
  averageText() {
    if (this.map.size === 0) return null;
    let sum = 0;
    for (const e of this.map.values()) sum += e.bucket.freq;
    const n = this.map.size;
    // round-half-even of sum/n to 3 decimals, using exact integer arithmetic
    const scaled = sum * 1000;
    let q = Math.floor(scaled / n);
    const r = scaled - q * n;
    if (2 * r > n || (2 * r === n && q % 2 === 1)) q += 1;
    const whole = Math.floor(q / 1000);
    const frac = String(q % 1000).padStart(3, "0");
    return `${whole}.${frac}`;
  }
}

function main() {
  const argv = process.argv.slice(2);
  let capacity = 3;
  for (let i = 0; i + 1 < argv.length; i += 2) if (argv[i] === "--capacity") capacity = parseInt(argv[i + 1], 10);
  const out = [];
  let cache;
  try {
    cache = new LFUCache(capacity);
  } catch (err) {
    process.stdout.write(`error: ValueError: ${err.message}\n`);
    return;
  }
  let text = "";
  try {
    text = readFileSync(0, "utf8");
  } catch {
    text = "";
  }
  const present = [];
  let hits = 0;
  let misses = 0;
  let evictions = 0;
  splitlines(text).forEach((line, i) => {
    const number = i + 1;
    const words = pySplit(line);
    if (!words.length) return;
    const command = words[0].toLowerCase();
    const rest = words.slice(1);
    if (command === "set" && rest.length === 2) {
      const [key, value] = rest;
      cache.set(key, value);
      if (!present.includes(key)) present.push(key);
      const gone = present.filter((k) => !cache.has(k));
      for (const k of gone) {
        present.splice(present.indexOf(k), 1);
        evictions += 1;
      }
      out.push(`${number}: set ${key}=${value}` + (gone.length ? ` (evicted ${gone.join(", ")})` : ""));
    } else if (command === "get" && rest.length === 1) {
      const key = rest[0];
      if (cache.has(key)) {
        hits += 1;
        out.push(`${number}: get ${key} -> ${cache.get(key)}`);
      } else {
        misses += 1;
        out.push(`${number}: get ${key} -> miss`);
      }
    } else if (command === "stats" && rest.length === 0) {
      const ranking = cache.sortedKeys();
      out.push(`${number}: stats ` + (ranking.map(([k, f]) => `${k}:${f}`).join(" ") || "(empty)"));
    } else if (command === "avg" && rest.length === 0) {
      const avg = cache.averageText();
      if (avg === null) out.push(`${number}: error: StatisticsError: mean requires at least one data point`);
      else out.push(`${number}: avg ${avg}`);
    } else {
      out.push(`${number}: error: bad command ${pyRepr(pyStrip(line))}`);
    }
  });
  out.push(`hits=${hits} misses=${misses} evictions=${evictions} size=${present.length}`);
  process.stdout.write(out.join("\n") + "\n");
}

main();
