// Resolve (and optionally set) a JSON pointer: a JavaScript port of jsonpointer_resolve.py.
import { EndOfList, JsonPointer, PyException } from "./jsonpointer.mjs";
import { JSONError, dumps, loads, strRepr } from "./pyjson.mjs";
import { readStdin } from "./pytext.mjs";

const NAMES = ["pointer", "default", "set"];
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

function load(label, text) {
  try {
    return { value: loads(text) };
  } catch (err) {
    if (!(err instanceof JSONError)) throw err;
    print(`error: ${label} is not valid JSON`);
    return null;
  }
}

function describe(value) {
  if (value instanceof EndOfList) return `end of list (${Array.from(value.list).length} items)`;
  return dumps(value);
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (!opts.has("pointer")) return print("error: --pointer is required");
  const doc = load("stdin", readStdin());
  if (doc === null) return;
  const extra = new Map();
  for (const name of ["default", "set"]) {
    if (opts.has(name)) {
      const loaded = load(`--${name}`, opts.get(name));
      if (loaded === null) return;
      extra.set(name, loaded.value);
    }
  }
  try {
    const pointer = new JsonPointer(opts.get("pointer"));
    print(`parts: [${pointer.parts.map(strRepr).join(", ")}]`);
    print(`path: ${pointer.path}`);
    const resolver = new JsonPointer(opts.get("pointer"));
    const value = extra.has("default") ? resolver.resolve(doc.value, extra.get("default")) : resolver.resolve(doc.value);
    print(`value: ${describe(value)}`);
    if (extra.has("set")) print(`after set: ${dumps(resolver.set(doc.value, extra.get("set")))}`);
  } catch (err) {
    if (!(err instanceof PyException)) throw err;
    print(`error: ${err.kind}: ${err.message}`);
  }
}

main();
process.stdout.write(out.join(""));
