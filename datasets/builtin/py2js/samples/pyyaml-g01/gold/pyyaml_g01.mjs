// PyYAML-style diagnostic formatter: a port of pyyaml-g01 (yaml.Mark, yaml.MarkedYAMLError) without PyYAML.
import { readFileSync } from "node:fs";

function parseArgs(argv) {
  const out = {};
  for (let i = 0; i + 1 < argv.length; i += 2) out[argv[i].replace(/^--/, "")] = argv[i + 1];
  return out;
}

function readStdin() {
  try {
    return readFileSync(0, "utf8");
  } catch {
    return "";
  }
}

const WS = "\\t\\n\\u000b\\f\\r\\u001c-\\u001f \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const STRIP_RE = new RegExp(`^[${WS}]+|[${WS}]+$`, "g");
const pyStrip = (s) => s.replace(STRIP_RE, "");

// Python str.isdigit() for the characters a position can hold (ASCII and other Unicode digits).
const isDigits = (s) => s.length > 0 && /^[\p{Nd}\u00b2\u00b3\u00b9\u2070-\u2079\u2080-\u2089\u2460-\u2468\u2474-\u247c\u2488-\u2490]+$/u.test(s);

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

// Strings are handled as arrays of code points, as Python indexes them.
const cps = (s) => Array.from(s);

class Mark {
  constructor(name, index, line, column, buffer, pointer) {
    Object.assign(this, { name, index, line, column, buffer, pointer });
  }
  getSnippet(indent = 4, maxLength = 75) {
    if (this.buffer === null) return null;
    const buf = this.buffer;
    const breaks = "\0\r\n\x85\u2028\u2029";
    let head = "";
    let start = this.pointer;
    while (start > 0 && !breaks.includes(buf[start - 1])) {
      start -= 1;
      if (this.pointer - start > maxLength / 2 - 1) {
        head = " ... ";
        start += 5;
        break;
      }
    }
    let tail = "";
    let end = this.pointer;
    while (end < buf.length && !breaks.includes(buf[end])) {
      end += 1;
      if (end - this.pointer > maxLength / 2 - 1) {
        tail = " ... ";
        end -= 5;
        break;
      }
    }
    const snippet = buf.slice(start, end).join("");
    return " ".repeat(indent) + head + snippet + tail + "\n" + " ".repeat(indent + this.pointer - start + head.length) + "^";
  }
  toString() {
    const snippet = this.getSnippet();
    let where = `  in "${this.name}", line ${this.line + 1}, column ${this.column + 1}`;
    if (snippet !== null) where += ":\n" + snippet;
    return where;
  }
}

function markedError(context, contextMark, problem, problemMark, note) {
  const lines = [];
  if (context !== undefined) lines.push(context);
  if (
    contextMark !== null &&
    (problem === undefined ||
      problemMark === null ||
      contextMark.name !== problemMark.name ||
      contextMark.line !== problemMark.line ||
      contextMark.column !== problemMark.column)
  ) {
    lines.push(String(contextMark));
  }
  if (problem !== undefined) lines.push(problem);
  if (problemMark !== null) lines.push(String(problemMark));
  if (note !== undefined) lines.push(note);
  return lines.join("\n");
}

class PositionError extends Error {}

function locate(text, line, column) {
  const lines = text.split("\n").map(cps);
  if (line < 1 || line > lines.length || column < 1 || column > lines[line - 1].length + 1) return null;
  let index = 0;
  for (let i = 0; i < line - 1; i++) index += lines[i].length + 1;
  return index + column - 1;
}

function pyInt(s) {
  // isdigit() passed; Python int() accepts Unicode decimal digits after stripping.
  const t = pyStrip(s);
  let v = 0n;
  for (const ch of t) {
    const d = Number.parseInt(ch, 10);
    if (!Number.isNaN(d)) v = v * 10n + BigInt(d);
    else throw new PositionError("unsupported digit");
  }
  return v;
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  const text = readStdin();
  const buffer = cps(text + "\0");
  const withSnippet = !["false", "0", "no"].includes((args.snippet ?? "true").toLowerCase());
  const name = args.name ?? "<unicode string>";
  const marks = [];
  try {
    for (const spec of [args["context-at"], args.at]) {
      if (spec === undefined) {
        marks.push(null);
        continue;
      }
      const idx = spec.indexOf(":");
      const line = idx < 0 ? spec : spec.slice(0, idx);
      const column = idx < 0 ? "" : spec.slice(idx + 1);
      if (idx < 0 || !isDigits(pyStrip(line)) || !isDigits(pyStrip(column))) {
        throw new PositionError(`bad position ${pyRepr(spec)}, expected LINE:COLUMN`);
      }
      const l = pyInt(line);
      const c = pyInt(column);
      const index = l > 1000000000n || c > 1000000000n ? null : locate(text, Number(l), Number(c));
      if (index === null) throw new PositionError(`position ${l}:${c} is outside the document`);
      marks.push(new Mark(name, index, Number(l) - 1, Number(c) - 1, withSnippet ? buffer : null, index));
    }
  } catch (exc) {
    if (!(exc instanceof PositionError)) throw exc;
    process.stdout.write(`error: ${exc.message}\n`);
    return;
  }
  const rendered = markedError(args.context, marks[0], args.problem, marks[1], args.note);
  const out = [rendered || "(empty report)"];
  for (const [label, mark] of [["context", marks[0]], ["problem", marks[1]]]) {
    if (mark !== null) out.push(`[${label} at index ${mark.index}, line ${mark.line + 1}, column ${mark.column + 1}]`);
  }
  process.stdout.write(out.join("\n") + "\n");
}

main();
