// JSON formatter: a JavaScript port of canonicaljson-g02 (canonical and pretty encoders).
import { readFileSync } from "node:fs";
import { loads, canonical, pretty, toUtf8, JSONError, LoneSurrogate, OutOfRange } from "./pyjson.mjs";

const out = [];
const print = (s) => out.push(s + "\n");

function main() {
  const argv = process.argv.slice(2);
  const args = { json: null, style: "canonical" };
  for (let i = 0; i < argv.length; i += 2) args[argv[i].replace(/^--/, "")] = argv[i + 1];

  if (!["canonical", "pretty", "both"].includes(args.style)) {
    print(`error: unknown style: ${args.style}`);
    return;
  }
  let text = args.json;
  if (text === null || text === undefined) {
    let raw;
    try { raw = readFileSync(0); } catch { raw = Buffer.alloc(0); }
    text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(raw);
  }
  let doc;
  try {
    doc = loads(text);
  } catch (e) {
    if (!(e instanceof JSONError)) throw e;
    print("error: input is not valid JSON");
    return;
  }
  try {
    if (args.style === "canonical" || args.style === "both") {
      const bytes = toUtf8(canonical(doc));
      print(`canonical (${bytes.length} bytes):`);
      print(bytes.toString("utf-8"));
    }
    if (args.style === "pretty" || args.style === "both") {
      const bytes = toUtf8(pretty(doc));
      const lines = bytes.toString("utf-8").split("\n").length;
      print(`pretty (${bytes.length} bytes, ${lines} lines):`);
      print(bytes.toString("utf-8"));
    }
  } catch (e) {
    if (e instanceof LoneSurrogate) print("error: the document contains a lone surrogate");
    else if (e instanceof OutOfRange) print(`error: ${e.message}`);
    else throw e;
  }
}

main();
process.stdout.write(out.join(""));
