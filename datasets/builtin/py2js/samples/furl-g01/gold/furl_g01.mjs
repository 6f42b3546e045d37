// Scheme inspector: a pure JavaScript port of furl's get_scheme / strip_scheme / set_scheme.
import { readFileSync } from "node:fs";

function isValidScheme(scheme) {
  // Python re.match of [a-zA-Z][a-zA-Z\-\.\+]* : only the first character matters.
  return /^[a-zA-Z]/.test(scheme);
}

function getScheme(url) {
  if (url.startsWith(":")) return "";
  const noFragment = url.split("#")[0];
  const noQuery = noFragment.split("?")[0];
  const head = noQuery.split("/")[0];
  const pos = head.indexOf(":");
  // url[:max(0, pos)] on code points; pos indexes UTF-16 units of a prefix, slicing the same string is fine.
  let scheme = url.slice(0, Math.max(0, pos));
  if (scheme === "") return null;
  if (!isValidScheme(scheme)) return null;
  return scheme;
}

function stripScheme(url) {
  const scheme = getScheme(url) || "";
  let rest = url.slice(scheme.length);
  if (rest.startsWith(":")) rest = rest.slice(1);
  return rest;
}

function setScheme(url, scheme) {
  const rest = stripScheme(url);
  return scheme === null ? rest : `${scheme}:${rest}`;
}

function quoted(value) {
  if (value === null) return "null";
  let out = '"';
  for (const ch of value) {
    const c = ch.codePointAt(0);
    if (ch === '"') out += '\\"';
    else if (ch === "\\") out += "\\\\";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (ch === "\b") out += "\\b";
    else if (ch === "\f") out += "\\f";
    else if (c < 0x20) out += "\\u" + c.toString(16).padStart(4, "0");
    else out += ch;
  }
  return out + '"';
}

function parseArgs(argv) {
  const args = {};
  for (let i = 0; i + 1 < argv.length; i += 2) args[argv[i].replace(/^--/, "")] = argv[i + 1];
  return args;
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  const remove = args.remove !== undefined && ["true", "1", "yes"].includes(args.remove.trim().toLowerCase());
  let urls;
  if (args.url !== undefined) {
    urls = [args.url];
  } else {
    let text = "";
    try {
      text = readFileSync(0, "utf8");
    } catch {
      text = "";
    }
    urls = text.split("\n");
    if (urls.length && urls[urls.length - 1] === "") urls.pop();
  }
  const out = [];
  if (!urls.length) {
    out.push("no urls");
    process.stdout.write(out.join("\n") + "\n");
    return;
  }
  let withScheme = 0;
  urls.forEach((url, i) => {
    const scheme = getScheme(url);
    const rest = stripScheme(url);
    out.push(`#${i + 1} ${quoted(url)}`);
    out.push(`  scheme: ${quoted(scheme)}`);
    out.push(`  rest: ${quoted(rest)}`);
    if (args.scheme !== undefined) out.push(`  with ${quoted(args.scheme)}: ${quoted(setScheme(url, args.scheme))}`);
    if (remove) out.push(`  without: ${quoted(setScheme(url, null))}`);
    if (scheme) withScheme += 1;
  });
  out.push(`total: ${urls.length} url(s), ${withScheme} with a non-empty scheme`);
  process.stdout.write(out.join("\n") + "\n");
}

main();
