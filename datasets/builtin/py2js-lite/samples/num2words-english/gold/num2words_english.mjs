// Numbers as English words: a JavaScript port of num2words_english.py.
import { ConvertError, toCardinal, toCardinalFloat, toOrdinal, toOrdinalNum, toYear } from "./num2words_en.mjs";
import { pyFloat } from "./pyfloat.mjs";
import { pyInt } from "./pytext.mjs";

const NAMES = ["number", "to"];
const MODES = ["cardinal", "ordinal", "ordinal_num", "year"];
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

function parseNumber(text) {
  const n = pyInt(text);
  if (n !== null) return { int: n };
  const f = pyFloat(text);
  return f !== null && Number.isFinite(f) ? { float: f } : null;
}

function convert(mode, number) {
  if (number.float !== undefined) {
    // A float: integral values take the integer path of to_cardinal.
    const f = number.float;
    return Number.isInteger(f) ? toCardinal(BigInt(f)) : toCardinalFloat(f);
  }
  return { cardinal: toCardinal, ordinal: toOrdinal, ordinal_num: toOrdinalNum, year: toYear }[mode](number.int);
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  const to = opts.get("to") ?? "all";
  if (to !== "all" && !MODES.includes(to)) return print("error: --to must be all, cardinal, ordinal, ordinal_num or year");
  const number = parseNumber(opts.get("number") ?? "");
  if (number === null) return print("error: --number must be an integer or a finite decimal number");
  for (const mode of to === "all" ? MODES : [to]) {
    if (mode !== "cardinal" && number.int === undefined) {
      print(`${mode}: error: not an integer`);
      continue;
    }
    try {
      print(`${mode}: ${convert(mode, number)}`);
    } catch (err) {
      if (!(err instanceof ConvertError)) throw err;
      print(`${mode}: error: ${err.message}`);
    }
  }
}

main();
process.stdout.write(out.join(""));
