// Ordinal numbers (1st, 2nd, 3rd...): a JavaScript port of inflection_ordinal.py.
import { pyInt, pyStrip, readStdin, splitlines } from "./pytext.mjs";

const NAMES = ["number", "style"];
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

function ordinal(number) {
  const n = number < 0n ? -number : number;
  if ([11n, 12n, 13n].includes(n % 100n)) return "th";
  return { 1: "st", 2: "nd", 3: "rd" }[Number(n % 10n)] ?? "th";
}

const ordinalize = (number) => `${number}${ordinal(number)}`;

function main() {
  const opts = parseArgs(process.argv.slice(2));
  const style = opts.get("style") ?? "full";
  if (style !== "full" && style !== "suffix") return print("error: --style must be full or suffix");
  const lines = opts.has("number") ? [opts.get("number")] : splitlines(readStdin());
  let shown = 0;
  lines.forEach((line, i) => {
    if (!pyStrip(line)) return;
    const number = pyInt(line);
    if (number === null) return print(`line ${i + 1}: not an integer`);
    shown += 1;
    print(style === "full" ? ordinalize(number) : ordinal(number));
  });
  print(`total: ${shown}`);
}

main();
process.stdout.write(out.join(""));
