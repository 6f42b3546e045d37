// Case and word-form conversions: a JavaScript port of inflection_case.py.
import * as inflection from "./inflection.mjs";

const NAMES = ["text", "op", "separator"];
const OPS = [
  "camelize", "camelize_lower", "underscore", "dasherize", "humanize",
  "titleize", "tableize", "parameterize", "transliterate",
];
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

function run(op, text, separator) {
  switch (op) {
    case "camelize":
      return inflection.camelize(text);
    case "camelize_lower":
      try {
        return inflection.camelize(text, false);
      } catch {
        return "error: empty string";
      }
    case "parameterize":
      return inflection.parameterize(text, separator);
    default:
      return inflection[op](text);
  }
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (!opts.has("text")) return print("error: --text is required");
  const op = opts.get("op") ?? "all";
  if (op !== "all" && !OPS.includes(op)) return print(`error: unknown op (choose from all, ${OPS.join(", ")})`);
  for (const name of op === "all" ? OPS : [op]) {
    print(`${name}: ${run(name, opts.get("text"), opts.get("separator") ?? "-")}`);
  }
}

main();
process.stdout.write(out.join(""));
