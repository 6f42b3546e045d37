// Two-way lookup table: a port of bidict-g01 without the Python library.
import { readFileSync } from "node:fs";

class DuplicationError extends Error {
  constructor(name, args) {
    super(args.join(" / "));
    this.kind = name;
    this.args = args;
  }
}

// A one-to-one mapping: two insertion-ordered Maps (forward and inverse), like bidict's backing dicts.
class Bidict {
  constructor() {
    this.fwd = new Map();
    this.inv = new Map();
  }
  // onDupKey: "raise" or "drop_old"; values always raise.
  put(key, val, onDupKey) {
    const hasKey = this.fwd.has(key);
    const hasVal = this.inv.has(val);
    const oldVal = this.fwd.get(key);
    const oldKey = this.inv.get(val);
    if (hasKey && hasVal) {
      if (oldKey === key) return;
      throw new DuplicationError("KeyAndValueDuplicationError", [key, val]);
    } else if (hasKey) {
      if (onDupKey === "raise") throw new DuplicationError("KeyDuplicationError", [key]);
    } else if (hasVal) {
      throw new DuplicationError("ValueDuplicationError", [val]);
    }
    this.fwd.set(key, val);
    this.inv.set(val, key);
    if (hasKey) this.inv.delete(oldVal);
  }
  pop(key) {
    if (!this.fwd.has(key)) return undefined;
    const val = this.fwd.get(key);
    this.fwd.delete(key);
    this.inv.delete(val);
    return val;
  }
}

function parseArgs(argv) {
  const out = {};
  for (let i = 0; i + 1 < argv.length; i += 2) out[argv[i].replace(/^--/, "")] = argv[i + 1];
  return out;
}

function splitList(text) {
  if (text === undefined || text === "") return [];
  return text.split(",").map(pyStrip);
}

// Python's str.strip() with no argument strips Unicode whitespace.
const WS = "\\t\\n\\u000b\\f\\r\\u001c-\\u001f \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const STRIP_RE = new RegExp(`^[${WS}]+|[${WS}]+$`, "g");
function pyStrip(s) {
  return s.replace(STRIP_RE, "");
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  const strict = ["true", "1", "yes"].includes((args.strict ?? "false").toLowerCase());
  const out = [];
  const table = new Bidict();
  let data = "";
  try {
    data = readFileSync(0, "utf8");
  } catch {
    data = "";
  }
  const lines = data.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const number = i + 1;
    const stripped = pyStrip(lines[i]);
    if (!stripped || stripped.startsWith("#")) continue;
    const eq = stripped.indexOf("=");
    if (eq < 0) {
      out.push(`error: line ${number}: expected key=value`);
      process.stdout.write(out.join("\n") + "\n");
      return;
    }
    const key = pyStrip(stripped.slice(0, eq));
    const value = pyStrip(stripped.slice(eq + 1));
    try {
      table.put(key, value, strict ? "raise" : "drop_old");
    } catch (exc) {
      if (!(exc instanceof DuplicationError)) throw exc;
      out.push(`error: line ${number}: ${exc.kind}: ${exc.args.join(" / ")}`);
      process.stdout.write(out.join("\n") + "\n");
      return;
    }
  }
  for (const key of splitList(args.drop)) {
    const removed = table.pop(key);
    out.push(`drop ${key}: ${removed === undefined ? "<missing>" : removed}`);
  }
  out.push(`items: ${table.fwd.size}`);
  for (const [k, v] of table.fwd) out.push(`  ${k} -> ${v}`);
  for (const key of splitList(args.key)) out.push(`fwd ${key}: ${table.fwd.has(key) ? table.fwd.get(key) : "<missing>"}`);
  for (const value of splitList(args.value)) out.push(`inv ${value}: ${table.inv.has(value) ? table.inv.get(value) : "<missing>"}`);
  out.push("inverse order:");
  for (const [v, k] of table.inv) out.push(`  ${v} <- ${k}`);
  process.stdout.write(out.join("\n") + "\n");
}

main();
