// URL slugs with python-slugify's defaults: a JavaScript port of slugify_basic.py.
import { readStdin, splitlines } from "./pytext.mjs";
import { slugify } from "./slugify.mjs";

const NAMES = ["text"];
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

const opts = parseArgs(process.argv.slice(2));
const lines = opts.has("text") ? [opts.get("text")] : splitlines(readStdin());
for (const line of lines) {
  const slug = slugify(line);
  print(slug || "(empty)");
}
process.stdout.write(out.join(""));
