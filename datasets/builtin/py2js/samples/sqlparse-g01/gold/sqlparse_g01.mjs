// Quote-aware SQL line splitter: a JavaScript port of sqlparse-g01 (sqlparse.utils helpers).
import { readFileSync } from "node:fs";

// The alternatives of sqlparse's SPLIT_REGEX, tried at one position (sticky). `.` in Python excludes
// only "\n", hence [^\n] after a backslash.
const NEWLINE = /\r\n|\r|\n/y;
const PLAIN = /[^\r\n'"]+/y;
const DQ = /"(?:[^"\\]|\\[^\n])*"/y;
const SQ = /'(?:[^'\\]|\\[^\n])*'/y;

function splitUnquotedNewlines(text) {
  const out = [""];
  let i = 0;
  while (i < text.length) {
    NEWLINE.lastIndex = i;
    let m = NEWLINE.exec(text);
    if (m) { out.push(""); i += m[0].length; continue; }
    let matched = false;
    for (const re of [PLAIN, DQ, SQ]) {
      re.lastIndex = i;
      m = re.exec(text);
      if (m) { out[out.length - 1] += m[0]; i += m[0].length; matched = true; break; }
    }
    if (!matched) { out[out.length - 1] += text[i]; i += 1; }
  }
  return out;
}

function removeQuotes(val) {
  const first = val[0];
  const last = val[val.length - 1];
  if ((first === '"' || first === "'" || first === "`") && first === last) return val.slice(1, -1);
  return val;
}

// Python str.strip() whitespace (str.isspace characters).
const PY_SPACE = /^[\t\n\x0b\x0c\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$/;

const visible = (s) => s.replace(/\r/g, "\\r").replace(/\n/g, "\\n").replace(/\t/g, "\\t");
const cpLen = (s) => [...s].length;

function main() {
  const argv = process.argv.slice(2);
  const args = { sql: null, names: null, "skip-blank": "false" };
  for (let i = 0; i < argv.length; i += 2) args[argv[i].replace(/^--/, "")] = argv[i + 1];
  let text = args.sql;
  if (text === null || text === undefined) {
    let raw;
    try { raw = readFileSync(0); } catch { raw = Buffer.alloc(0); }
    text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(raw);
  }
  const out = [];
  const lines = splitUnquotedNewlines(text);
  const skipBlank = args["skip-blank"].toLowerCase() === "true";
  out.push(`lines: ${lines.length}`);
  lines.forEach((line, idx) => {
    if (skipBlank && PY_SPACE.test(line)) return;
    const multi = line.includes("\n") || line.includes("\r") ? " [spans newlines]" : "";
    out.push(`${String(idx + 1).padStart(3)} (${cpLen(line)} chars)${multi}: ${visible(line)}`);
  });
  if (args.names !== null && args.names !== undefined) {
    for (const name of args.names.split(",")) {
      if (!name) { out.push("name: (empty, skipped)"); continue; }
      out.push(`name: ${name} -> ${removeQuotes(name)}`);
    }
  }
  process.stdout.write(out.map((l) => l + "\n").join(""));
}

main();
