// Convert integers to Roman numerals and back: a JavaScript port of the roman_numerals.py test program.
import { pyInt } from "./pyint.mjs";

const NAMES = ["number", "numeral"];
const MAP = [
  ["M", 1000], ["CM", 900], ["D", 500], ["CD", 400], ["C", 100], ["XC", 90],
  ["L", 50], ["XL", 40], ["X", 10], ["IX", 9], ["V", 5], ["IV", 4], ["I", 1],
];
const PATTERN = /^M{0,4}(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})\n?$/;

class RomanError extends Error {}

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

function toRoman(n) {
  if (!(n > -1n && n < 5000n)) throw new RomanError("number out of range (must be 0..4999)");
  if (n === 0n) return "N";
  let rest = Number(n);
  let result = "";
  for (const [numeral, value] of MAP) {
    while (rest >= value) {
      result += numeral;
      rest -= value;
    }
  }
  return result;
}

function fromRoman(s) {
  if (!s) throw new RomanError("Input can not be blank");
  if (s === "N") return 0;
  if (!PATTERN.test(s)) throw new RomanError(`Invalid Roman numeral: ${s}`);
  let result = 0;
  let index = 0;
  for (const [numeral, value] of MAP) {
    while (s.slice(index, index + numeral.length) === numeral) {
      result += value;
      index += numeral.length;
    }
  }
  return result;
}

function convertNumber(text) {
  const number = pyInt(text);
  if (number === null) return print("error: --number is not an integer");
  try {
    print(`${number} = ${toRoman(number)}`);
  } catch (err) {
    if (!(err instanceof RomanError)) throw err;
    print(`error: ${err.message}`);
  }
}

function convertNumeral(text) {
  let value;
  try {
    value = fromRoman(text.toUpperCase());
  } catch (err) {
    if (!(err instanceof RomanError)) throw err;
    return print(`error: ${err.message}`);
  }
  print(`${toRoman(BigInt(value))} = ${value}`);
}

const opts = parseArgs(process.argv.slice(2));
if (opts.size === 0) print("error: nothing to convert");
if (opts.has("number")) convertNumber(opts.get("number"));
if (opts.has("numeral")) convertNumeral(opts.get("numeral"));
process.stdout.write(out.join(""));
