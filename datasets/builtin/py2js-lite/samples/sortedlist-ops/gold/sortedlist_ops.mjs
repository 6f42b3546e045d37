// Drive a sorted list with a script of commands from stdin: a JavaScript port of sortedlist_ops.py.
import { PyError } from "./pyerror.mjs";
import { pyInt, pyStrip, readStdin, splitlines } from "./pytext.mjs";
import { SortedList } from "./sortedlist.mjs";

const NAMES = ["init"];
const USAGE = {
  add: 1, update: -1, discard: 1, remove: 1, pop: -1, at: 1, del: 1, bisect_left: 1,
  bisect_right: 1, count: 1, index: 1, irange: 2, islice: 2, contains: 1, len: 0, show: 0,
};
const out = [];
const print = (line) => out.push(`${line}\n`);
const list = (values) => `[${values.join(", ")}]`;
const PY_SPLIT = /[\t\n\v\f\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/u;

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

function run(sl, name, args) {
  switch (name) {
    case "add": return void sl.add(args[0]);
    case "update": return void sl.update(args);
    case "discard": return void sl.discard(args[0]);
    case "remove": return void sl.remove(args[0]);
    case "pop": return String(sl.pop(...args.slice(0, 1)));
    case "at": return String(sl.at(args[0]));
    case "del": return void sl.delete(args[0]);
    case "bisect_left": return String(sl.bisectLeft(args[0]));
    case "bisect_right": return String(sl.bisectRight(args[0]));
    case "count": return String(sl.count(args[0]));
    case "index": return String(sl.index(args[0]));
    case "irange": return list(sl.irange(args[0], args[1]));
    case "islice": return list(sl.islice(args[0], args[1]));
    case "contains": return sl.contains(args[0]) ? "yes" : "no";
    case "len": return String(sl.length);
    case "show": return list(sl.values);
    default: return undefined;
  }
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  const init = [];
  for (const token of (opts.get("init") ?? "").split(",")) {
    if (!pyStrip(token)) continue;
    const value = pyInt(token);
    if (value === null) return print("error: --init must be comma-separated integers");
    init.push(value);
  }
  const sl = new SortedList(init);
  splitlines(readStdin()).forEach((line, i) => {
    const number = i + 1;
    const words = line.split(PY_SPLIT).filter((w) => w);
    if (!words.length || words[0].startsWith("#")) return;
    const [name, ...raw] = words;
    const arity = Object.hasOwn(USAGE, name) ? USAGE[name] : undefined;
    if (arity === undefined) return print(`line ${number}: unknown command ${name}`);
    if ((arity >= 0 && raw.length !== arity) || (name === "pop" && raw.length > 1)) {
      return print(`line ${number}: ${name} takes ${arity >= 0 ? arity : "any number of"} argument(s)`);
    }
    const args = raw.map(pyInt);
    if (args.includes(null)) return print(`line ${number}: arguments must be integers`);
    try {
      const result = run(sl, name, args);
      if (result !== undefined) print(result);
    } catch (err) {
      if (!(err instanceof PyError)) throw err;
      print(`line ${number}: ${err.kind}: ${err.message}`);
    }
  });
  print(`final: ${list(sl.values)}`);
}

main();
process.stdout.write(out.join(""));
