// python-slugify with every option: a JavaScript port of slugify_options.py.
import { pyInt } from "./pytext.mjs";
import { slugify, smartTruncate } from "./slugify.mjs";

const NAMES = [
  "text", "max-length", "word-boundary", "save-order", "separator", "stopwords", "lowercase",
  "replacements", "allow-unicode", "entities", "decimal", "hexadecimal",
];
const FLAGS = [
  ["word-boundary", "wordBoundary", false], ["save-order", "saveOrder", false], ["lowercase", "lowercase", true],
  ["allow-unicode", "allowUnicode", false], ["entities", "entities", true], ["decimal", "decimal", true],
  ["hexadecimal", "hexadecimal", true],
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

function buildOptions(opts) {
  const options = {};
  for (const [name, key, byDefault] of FLAGS) {
    const value = opts.get(name) ?? (byDefault ? "yes" : "no");
    if (value !== "yes" && value !== "no") return `--${name} must be yes or no`;
    options[key] = value === "yes";
  }
  const maxLength = pyInt(opts.get("max-length") ?? "0");
  if (maxLength === null) return "--max-length is not an integer";
  options.maxLength = Number(maxLength);
  options.separator = opts.get("separator") ?? "-";
  if (opts.has("stopwords")) options.stopwords = opts.get("stopwords").split(",").filter((w) => w);
  if (opts.has("replacements")) {
    let pairs;
    try {
      pairs = JSON.parse(opts.get("replacements"));
    } catch {
      return "--replacements is not valid JSON";
    }
    const ok = Array.isArray(pairs) && pairs.every(
      (p) => Array.isArray(p) && p.length === 2 && p.every((s) => typeof s === "string"),
    );
    if (!ok) return "--replacements must be a JSON list of [old, new] string pairs";
    options.replacements = pairs;
  }
  return options;
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (!opts.has("text")) return print("error: --text is required");
  const options = buildOptions(opts);
  if (typeof options === "string") return print(`error: ${options}`);
  const slug = slugify(opts.get("text"), options);
  print(`slug: ${slug}`);
  print(`length: ${Array.from(slug).length}`);
  if (options.maxLength > 0) {
    print(`truncated text: ${smartTruncate(opts.get("text"), options.maxLength, options.wordBoundary)}`);
  }
}

main();
process.stdout.write(out.join(""));
