// One value through humanize's number functions: a JavaScript port of humanize_numbers.py.
import * as humanize from "./humanize.mjs";
import { pyFloat } from "./pyfloat.mjs";

const NAMES = ["value", "unit"];
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

function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (!opts.has("value")) return print("error: --value is required");
  const value = opts.get("value");
  print(`intcomma: ${humanize.intcomma(value)}`);
  print(`intword: ${humanize.intword(value)}`);
  print(`apnumber: ${humanize.apnumber(value)}`);
  print(`ordinal: ${humanize.ordinal(value)}`);
  print(`fractional: ${humanize.fractional(value)}`);
  print(`scientific: ${humanize.scientific(value)}`);
  const number = pyFloat(value);
  if (number === null) return print("metric: error: not a number");
  print(`metric: ${humanize.metric(number, opts.get("unit") ?? "")}`);
}

main();
process.stdout.write(out.join(""));
