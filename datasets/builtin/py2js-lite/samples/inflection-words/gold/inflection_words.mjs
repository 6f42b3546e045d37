// Plural and singular forms of English words: a JavaScript port of inflection_words.py.
import { pluralize, singularize } from "./inflection.mjs";
import { pyInt, readStdin, splitlines } from "./pytext.mjs";

const NAMES = ["word", "count"];
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

function show(word, count) {
  const plural = pluralize(word);
  print(`plural: ${plural}`);
  print(`singular: ${singularize(word)}`);
  if (count !== null) {
    const one = count === 1n || count === -1n;
    print(`phrase: ${count} ${one ? word : plural}`);
  }
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  let count = null;
  if (opts.has("count")) {
    count = pyInt(opts.get("count"));
    if (count === null) return print("error: --count is not an integer");
  }
  let words;
  if (opts.has("word")) {
    words = [opts.get("word")];
  } else {
    words = splitlines(readStdin());
    if (words.length === 0) return print("error: no words");
  }
  for (const word of words) show(word, count);
}

main();
process.stdout.write(out.join(""));
