// Group, count, merge and reach into JSON records: a JavaScript port of toolz_records.py.
import { floatRepr } from "./pyfloat.mjs";
import { setFloatKeyFormatter } from "./pydict.mjs";
import { JSONError, dumps, loads } from "./pyjson.mjs";
import { readStdin } from "./pytext.mjs";
import * as toolz from "./toolz.mjs";

setFloatKeyFormatter((x) => (Number.isNaN(x) ? "NaN" : x === Infinity ? "Infinity" : x === -Infinity ? "-Infinity" : floatRepr(x)));

const NAMES = ["key", "path", "value"];
const out = [];
const print = (line) => out.push(`${line}\n`);

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

function show(name, compute) {
  try {
    print(`${name}: ${dumps(compute())}`);
  } catch (err) {
    if (err instanceof toolz.PyKeyError) print(`${name}: error: KeyError: ${err.message}`);
    else if (err instanceof toolz.PyTypeError) print(`${name}: error: TypeError: ${err.message}`);
    else throw err;
  }
}

function assoc(record, path, value) {
  let node = record;
  for (const step of path.slice(0, -1)) {
    if (node.has(step) && !(node.get(step) instanceof Map)) return `not an object at ${step}`;
    node = node.has(step) ? node.get(step) : new Map();
  }
  return toolz.assocIn(record, path, value);
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  let records;
  let value;
  try {
    records = loads(readStdin());
    value = loads(opts.get("value") ?? "null");
  } catch (err) {
    if (!(err instanceof JSONError)) throw err;
    return print("error: invalid JSON");
  }
  if (!Array.isArray(records) || !records.every((r) => r instanceof Map)) {
    return print("error: stdin must be a JSON list of objects");
  }
  const key = opts.get("key") ?? "type";
  const path = (opts.get("path") ?? "0").split(".").map((p) => (/^[0-9]+$/.test(p) ? BigInt(p) : p));
  show("groupby", () => toolz.groupby(key, records));
  show("countby", () => toolz.countby(key, records));
  show("frequencies", () => toolz.frequencies(toolz.pluck(key, records)));
  show("unique", () => toolz.unique(toolz.pluck(key, records)));
  show("merge", () => toolz.merge(records));
  show("merge_with", () => toolz.mergeWith(records));
  show("keyfilter", () => toolz.keyfilter((k) => !k.startsWith("_"), toolz.merge(records)));
  show("get_in", () => toolz.getIn(path, records));
  if (path.every((p) => typeof p === "string")) show("assoc_in", () => assoc(toolz.merge(records), path, value));
  else print("assoc_in: skipped (path has an index)");
}

main();
process.stdout.write(out.join(""));
