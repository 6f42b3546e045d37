// Turn heading texts (one per stdin line) into URL slugs, as Python-Markdown 3.7's toc.slugify does.
import { readFileSync } from "node:fs";

const PROG = "markdown_g01.mjs";

function usage(message) {
  process.stderr.write(
    `usage: ${PROG} [-h] [--separator SEPARATOR] [--unicode {true,false}] [--dedupe {true,false}]\n` +
      `${PROG}: error: ${message}\n`,
  );
  process.exit(2);
}

function parseArgs(argv) {
  const opts = { separator: "-", unicode: "false", dedupe: "true" };
  const names = ["separator", "unicode", "dedupe"];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    let name;
    let value;
    if (arg.startsWith("--") && arg.includes("=")) {
      name = arg.slice(2, arg.indexOf("="));
      value = arg.slice(arg.indexOf("=") + 1);
    } else if (arg.startsWith("--")) {
      name = arg.slice(2);
      if (!names.includes(name)) usage(`unrecognized arguments: ${arg}`);
      if (i + 1 >= argv.length) usage(`argument --${name}: expected one argument`);
      value = argv[++i];
    } else {
      usage(`unrecognized arguments: ${arg}`);
    }
    if (!names.includes(name)) usage(`unrecognized arguments: ${arg}`);
    opts[name] = value;
  }
  for (const name of ["unicode", "dedupe"]) {
    if (opts[name] !== "true" && opts[name] !== "false") {
      usage(`argument --${name}: invalid choice: '${opts[name]}' (choose from 'true', 'false')`);
    }
  }
  return opts;
}

// Python str.isspace() characters.
const PY_SPACE = new Set(
  [
    0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002,
    0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
  ].map((c) => String.fromCodePoint(c)),
);
// Python str.splitlines() boundaries (besides \r\n).
const LINE_BREAKS = new Set(
  [0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x85, 0x2028, 0x2029].map((c) => String.fromCodePoint(c)),
);

function splitlines(text) {
  const lines = [];
  let current = "";
  const chars = Array.from(text);
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i];
    if (LINE_BREAKS.has(ch)) {
      lines.push(current);
      current = "";
      if (ch === "\r" && chars[i + 1] === "\n") i++;
    } else {
      current += ch;
    }
  }
  if (current !== "") lines.push(current);
  return lines;
}

const isSpace = (ch) => PY_SPACE.has(ch);
const isWordAscii = (ch) => /^[A-Za-z0-9_]$/.test(ch);
const isWordUnicode = (ch) => /^[\p{L}\p{N}_]$/u.test(ch);

function pyStrip(chars) {
  let start = 0;
  let end = chars.length;
  while (start < end && isSpace(chars[start])) start++;
  while (end > start && isSpace(chars[end - 1])) end--;
  return chars.slice(start, end);
}

function slugify(value, separator, unicode) {
  if (!unicode) {
    value = Array.from(value.normalize("NFKD"))
      .filter((ch) => ch.codePointAt(0) < 0x80)
      .join("");
  }
  const isWord = unicode ? isWordUnicode : isWordAscii;
  // re.sub(r'[^\w\s-]', '', value).strip().lower()
  let chars = Array.from(value).filter((ch) => isWord(ch) || isSpace(ch) || ch === "-");
  chars = pyStrip(chars);
  const lowered = Array.from(chars.join("").toLowerCase());
  // re.sub(r'[{sep}\s]+', sep, value): runs of separator characters or whitespace -> one separator
  const sepChars = new Set(Array.from(separator));
  let out = "";
  let inRun = false;
  for (const ch of lowered) {
    if (sepChars.has(ch) || isSpace(ch)) {
      if (!inRun) out += separator;
      inRun = true;
    } else {
      out += ch;
      inRun = false;
    }
  }
  return out;
}

function unique(id, ids) {
  while (ids.has(id) || !id) {
    const m = /^(.*)_([0-9]+)$/su.exec(id);
    if (m) id = `${m[1]}_${BigInt(m[2]) + 1n}`;
    else id = `${id}_1`;
  }
  ids.add(id);
  return id;
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  const text = readFileSync(0, "utf8");
  const seen = new Set();
  const out = [];
  let count = 0;
  for (const line of splitlines(text)) {
    let slug = slugify(line, opts.separator, opts.unicode === "true");
    if (opts.dedupe === "true") slug = unique(slug, seen);
    out.push(`${slug}\t${line}`);
    count++;
  }
  out.push(`(${count} headings)`);
  process.stdout.write(out.join("\n") + "\n");
}

main();
