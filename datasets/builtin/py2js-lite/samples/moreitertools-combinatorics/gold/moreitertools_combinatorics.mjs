// Permutations, combinations, partitions and runs: a JavaScript port of moreitertools_combinatorics.py.
import * as mit from "./combinatorics.mjs";
import { repr } from "./pyrepr.mjs";
import { pyInt } from "./pytext.mjs";
import { PyValueError } from "./pyvalueerror.mjs";

const NAMES = ["items", "r", "k", "target"];
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

function optionalInt(opts, name) {
  const text = opts.get(name) ?? "";
  if (text === "") return null;
  const n = pyInt(text);
  if (n === null) throw new PyValueError("not an integer");
  // Beyond +-1000 every function behaves as at +-1000 for at most 6 items.
  return n > 1000n ? 1000 : n < -1000n ? -1000 : Number(n);
}

function show(name, compute) {
  try {
    print(`${name}: ${repr(compute())}`);
  } catch (err) {
    if (!(err instanceof PyValueError)) throw err;
    print(`${name}: error: ${err.message}`);
  }
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  const text = opts.get("items") ?? "";
  const items = text ? text.split(",") : [];
  if (items.length > 6) return print("error: at most 6 items");
  let r;
  let k;
  try {
    r = optionalInt(opts, "r");
    k = optionalInt(opts, "k");
  } catch {
    return print("error: --r and --k must be integers");
  }
  const target = opts.get("target") ?? "a";
  print(`items: ${repr(items)}`);
  show("distinct_permutations", () => mit.distinctPermutations(items, r));
  show("distinct_combinations", () => mit.distinctCombinations(items, r === null ? 2 : r));
  show("powerset", () => mit.powerset(items));
  show("set_partitions", () => mit.setPartitions(items, k));
  show("partitions", () => mit.partitions(items));
  show("circular_shifts", () => mit.circularShifts(items));
  show("unique_everseen", () => mit.uniqueEverseen(items));
  show("run_length", () => mit.runLengthEncode(items));
  show("locate", () => mit.locate(items, (item) => item === target));
}

main();
process.stdout.write(out.join(""));
