// RepoZero trace viewer: runs -> episodes -> one episode's timeline, over the JSON endpoints of
// `repozero traces view`. Everything from a trace is untrusted text: it only ever enters the page as
// text nodes (never as HTML).
"use strict";

const PAGE = 50;
const app = document.getElementById("app");
const crumbs = document.getElementById("crumbs");

function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

const TOKEN = new URLSearchParams(location.search).get("token") || "";

async function api(path, params) {
  const query = new URLSearchParams(params || {}).toString();
  const headers = TOKEN ? { Authorization: `token ${TOKEN}` } : {};
  const res = await fetch(`/api/${path}${query ? "?" + query : ""}`, { headers });
  const body = await res.json();
  if (!res.ok) throw new Error(body.error || res.statusText);
  return body;
}

const fmt = {
  num: (x, d = 3) => (x === null || x === undefined ? "–" : Number(x).toFixed(d).replace(/\.?0+$/, "") || "0"),
  int: (x) => (x === null || x === undefined ? "–" : Number(x).toLocaleString("en")),
  secs: (x) => (x === null || x === undefined ? "–" : `${Number(x).toFixed(2)} s`),
  rate: (s) => (s ? `${s.passed_cases}/${s.total} (${(100 * s.success_rate).toFixed(0)}%)` : "–"),
};

function setCrumbs(...parts) {
  crumbs.replaceChildren(...parts.flatMap((p) => [" › ", p]));
}

function statusBadge(status) {
  return h("span", { class: `badge status-${status}` }, status);
}

function longText(value, { open = true, cls = "", maxLines = 40 } = {}) {
  if (!value) return null;
  const pre = h("pre", { class: cls }, value.text);
  const note = value.omitted ? h("p", { class: "omitted" }, `… ${fmt.int(value.omitted)} more characters not shown`) : null;
  const lines = value.text.split("\n").length;
  if (open && lines <= maxLines) return h("div", {}, pre, note);
  return h("details", {}, h("summary", {}, `${fmt.int(lines)} lines`), pre, note);
}

// ---- home: runs and the solve matrix ---------------------------------------------------------

async function showHome() {
  setCrumbs();
  const [runs, matrix] = await Promise.all([api("runs"), api("matrix")]);
  const rows = runs.map((r) =>
    h("tr", {},
      h("td", {}, h("a", { href: `#/run/${r.key}` }, r.run_id)),
      h("td", {}, r.model), h("td", {}, r.protocol), h("td", {}, r.dataset),
      h("td", { class: "n" }, fmt.int(r.episodes)),
      h("td", {}, Object.entries(r.statuses).map(([s, n]) => h("span", {}, statusBadge(s), ` ${n} `))),
      h("td", { class: "path" }, r.path)));
  app.replaceChildren(
    h("h2", {}, "Runs"),
    h("table", { id: "runs" },
      h("thead", {}, h("tr", {}, ["run", "model", "protocol", "dataset", "episodes", "status", "directory"].map((c) => h("th", {}, c)))),
      h("tbody", {}, rows)),
    h("h2", {}, "Solve matrix (sample × run)"),
    matrixTable(matrix));
}

function matrixTable(matrix, limit = 200) {
  const head = h("tr", {}, h("th", {}, "sample"), matrix.runs.map((r) => h("th", {}, r.run_id)));
  const body = h("tbody", {});
  const more = h("button", { type: "button" }, "more samples");
  let shown = 0;
  const add = () => {
    for (const s of matrix.samples.slice(shown, shown + limit)) {
      body.append(h("tr", {}, h("td", {}, s.sample), matrix.runs.map((r) => {
        const c = s.cells[r.key];
        if (!c) return h("td", { class: "cell none" }, "·");
        const cls = c.solved ? "solved" : "unsolved";
        const link = `#/run/${r.key}?sample=${encodeURIComponent(s.sample)}`;
        return h("td", { class: `cell ${cls}`, title: `best reward ${fmt.num(c.best)}` }, h("a", { href: link }, `${c.solved}/${c.attempts}`));
      })));
    }
    shown += limit;
    more.hidden = shown >= matrix.samples.length;
  };
  more.addEventListener("click", add);
  add();
  return h("div", {}, h("table", { id: "matrix" }, h("thead", {}, head), body), more);
}

// ---- one run: filtered, paginated episodes ---------------------------------------------------

const FILTERS = ["status", "sample", "min_reward", "max_reward", "rounds", "sort"];

async function showRun(key, params) {
  const runs = await api("runs");
  const run = runs.find((r) => r.key === key);
  if (!run) throw new Error(`no run ${key}`);
  setCrumbs(h("a", { href: `#/run/${key}` }, run.run_id));
  const page = Math.max(Number(params.get("page") || 1), 1);
  const query = { run: key, offset: (page - 1) * PAGE, limit: PAGE };
  for (const f of FILTERS) if (params.get(f)) query[f] = params.get(f);
  const data = await api("episodes", query);
  app.replaceChildren(
    h("h2", {}, `Episodes of ${run.run_id}`),
    filterForm(key, run, params),
    h("p", { id: "count" }, data.total ? `showing ${data.offset + 1}–${data.offset + data.episodes.length} of ${fmt.int(data.total)}` : "no episode matches"),
    episodeTable(key, data.episodes),
    pager(key, params, page, Math.max(Math.ceil(data.total / PAGE), 1)));
}

function filterForm(key, run, params) {
  const select = (name, options) => h("select", { name }, options.map(([v, label]) => h("option", { value: v, selected: params.get(name) === v }, label)));
  const input = (name, placeholder, size = 8) => h("input", { name, placeholder, size, value: params.get(name) || "" });
  const form = h("form", { id: "filters" },
    h("label", {}, "status ", select("status", [["", "any"], ...Object.keys(run.statuses).map((s) => [s, s])])),
    h("label", {}, "sample ", input("sample", "contains", 16)),
    h("label", {}, "reward ≥ ", input("min_reward", "min", 5)),
    h("label", {}, "≤ ", input("max_reward", "max", 5)),
    h("label", {}, "rounds ", select("rounds", [["", "any"], ...run.rounds.map((r) => [String(r), String(r)])])),
    h("label", {}, "sort ", select("sort", [["sample", "sample"], ["reward", "reward"], ["finished", "latest"], ["episode", "episode id"]])),
    h("button", { type: "submit" }, "apply"));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const next = new URLSearchParams();
    for (const [k, v] of new FormData(form)) if (v) next.set(k, v);
    location.hash = `#/run/${key}?${next}`;
  });
  return form;
}

function episodeTable(key, episodes) {
  return h("table", { id: "episodes" },
    h("thead", {}, h("tr", {}, ["episode", "sample", "attempt", "status", "termination", "reward", "rounds"].map((c) => h("th", {}, c)))),
    h("tbody", {}, episodes.map((e) => h("tr", { class: e.infra_error ? "infra" : null },
      h("td", {}, h("a", { href: `#/episode/${key}/${encodeURIComponent(e.episode_id)}` }, e.episode_id)),
      h("td", {}, e.sample), h("td", { class: "n" }, e.attempt), h("td", {}, statusBadge(e.status)),
      h("td", {}, e.termination_reason), h("td", { class: "n" }, fmt.num(e.reward)), h("td", { class: "n" }, e.rounds)))));
}

function pager(key, params, page, pages) {
  const link = (p, label) => {
    const next = new URLSearchParams(params);
    next.set("page", p);
    return h("a", { href: `#/run/${key}?${next}`, class: "page" }, label);
  };
  return h("nav", { id: "pager" },
    page > 1 ? link(page - 1, "« previous") : h("span", { class: "page off" }, "« previous"),
    h("span", { id: "page-of" }, ` page ${page} of ${pages} `),
    page < pages ? link(page + 1, "next »") : h("span", { class: "page off" }, "next »"));
}

// ---- one episode: rounds, timeline, grades, diffs --------------------------------------------

async function showEpisode(key, id) {
  const [runs, data] = await Promise.all([api("runs"), api("episode", { run: key, id })]);
  const run = runs.find((r) => r.key === key);
  setCrumbs(h("a", { href: `#/run/${key}` }, run ? run.run_id : key), h("span", {}, id));
  const e = data.episode;
  app.replaceChildren(
    h("h2", {}, `Episode ${e.episode_id}`),
    h("dl", { id: "outcome" },
      ...[["sample", e.sample], ["library", e.library], ["attempt", e.attempt], ["status", statusBadge(e.status)],
        ["termination", e.termination_reason], ["reward", `${fmt.num(e.reward)} (${e.reward_formula || "?"})`],
        ["rounds", e.rounds], ["model", e.policy_model], ["protocol", e.protocol],
        ["tokens", `${fmt.int(e.usage.prompt_tokens)} in, ${fmt.int(e.usage.completion_tokens)} out`],
        ["cost", `$${fmt.num(e.usage.cost_usd, 4)}`], ["wall time", fmt.secs(e.timings.wall_s)],
        ["infra failure", e.infra_error ? `yes ${e.error}` : "no"],
        ["cheat flags", e.cheat_flags.join(", ") || "none"]].flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v)])),
    ...data.rounds.map(roundSection));
}

function roundSection(r) {
  return h("section", { class: "round", id: `round-${r.index}` },
    h("h3", {}, `ACE round ${r.index}`, h("span", { class: "grades" },
      ` visible ${fmt.rate(r.visible_summary)} · hidden ${fmt.rate(r.hidden_summary)}`,
      r.fresh_inputs ? ` · fresh inputs ${r.fresh_kept}/${r.fresh_inputs} kept` : "")),
    h("ol", { class: "timeline" }, r.events.map(eventItem)),
    r.oracle.length ? oracleTable(r.oracle) : null,
    r.visible_cases.length ? visibleCases(r.visible_cases) : null,
    r.hidden_cases.length ? h("div", { class: "hidden-cases" }, h("h4", {}, "Hidden cases (ids and statuses only)"),
      r.hidden_cases.map((c) => h("span", { class: `case status-${c.status}`, title: c.status }, c.case_id))) : null,
    r.feedback ? h("div", { class: "feedback" }, h("h4", {}, "Feedback shown to the coder next"), longText(r.feedback, { open: false })) : null);
}

function message(m) {
  const label = m.role + (m.name ? ` (${m.name})` : "");
  return h("div", { class: `msg role-${m.role}` }, h("span", { class: "who" }, label),
    m.reasoning ? h("details", { class: "reasoning" }, h("summary", {}, "reasoning"), h("pre", {}, m.reasoning.text)) : null,
    longText(m.content, { open: m.role !== "system", maxLines: m.content && m.content.text.includes("repozero: feedback") ? 400 : 40 }),
    m.tool_calls.map((c) => h("div", { class: "tool-call" }, h("span", { class: "who" }, `→ ${c.name}`), longText(c.arguments))));
}

function newMessages(messages, first) {
  // What the call added to its conversation: the task on a first call, else mostly the last command's
  // output (shown above as the command) -- folded, except feedback after an ACE round.
  if (!messages.length) return null;
  const feedback = messages.some((m) => m.content && m.content.text.includes("repozero: feedback"));
  const what = messages.map((m) => `${m.role} (${fmt.int(m.content ? m.content.text.length : 0)} chars)`).join(", ");
  const body = h("div", { class: "new-messages" }, messages.map(message));
  if (first) return body;
  return h("details", { open: feedback, class: feedback ? "feedback-in" : null },
    h("summary", {}, feedback ? `feedback: ${what}` : `new input: ${what}`), body);
}

function eventItem(ev) {
  if (ev.kind === "model_call") {
    return h("li", { class: `event model_call role-${ev.role}` },
      h("div", { class: "head" }, h("b", {}, `${ev.role} · step ${ev.step}`),
        ` ${fmt.secs(ev.latency_s)} · ${fmt.int(ev.prompt_tokens)} → ${fmt.int(ev.completion_tokens)} tokens · ${ev.finish_reason || "?"}`,
        ev.retries ? ` · ${ev.retries} retries` : "", ev.messages_shared ? ` · ${ev.messages_shared} earlier messages` : ""),
      newMessages(ev.new_messages, ev.step === 0 || !ev.messages_shared),
      h("div", { class: "response" }, message(ev.response)));
  }
  if (ev.kind === "command") {
    const failed = ev.exit_code !== 0 && ev.exit_code !== null;
    return h("li", { class: `event command${failed ? " failed" : ""}` },
      h("div", { class: "head" }, h("b", {}, `$ ${ev.tool}`),
        ` exit ${ev.exit_code === null ? "–" : ev.exit_code} · ${fmt.secs(ev.duration_s)}`,
        ev.timed_out ? " · timed out" : "", ev.truncated ? ` · output cut (${fmt.int(ev.output_bytes)} bytes)` : ""),
      longText(ev.command, { cls: "cmd" }), longText(ev.output, { cls: "out" }));
  }
  if (ev.kind === "failed_call") {
    return h("li", { class: "event failed_call" }, h("b", {}, `${ev.role} · step ${ev.step}: model call failed`), ` ${ev.error}`);
  }
  const steps = `${ev.steps} step${ev.steps === 1 ? "" : "s"}`;
  return h("li", { class: "event agent_end" }, `${ev.role} finished: ${ev.termination} after ${steps} (${fmt.secs(ev.wall_s)})`);
}

function oracleTable(verdicts) {
  return h("div", { class: "oracle" }, h("h4", {}, "Oracle verdicts on fresh inputs"),
    h("table", {}, h("thead", {}, h("tr", {}, ["input", "argv", "kept", "exit", "stdout"].map((c) => h("th", {}, c)))),
      h("tbody", {}, verdicts.map((v) => h("tr", {}, h("td", {}, v.input_id), h("td", {}, h("code", {}, JSON.stringify(v.argv))),
        h("td", {}, v.kept ? "kept" : `dropped: ${v.drop_reason}`), h("td", { class: "n" }, v.exit_code ?? "–"),
        h("td", {}, h("code", {}, v.stdout ?? "")))))));
}

function visibleCases(cases) {
  return h("div", { class: "visible" }, h("h4", {}, "Visible cases"),
    h("table", { class: "cases" }, h("thead", {}, h("tr", {}, ["case", "origin", "status", "argv", "exit (expected)"].map((c) => h("th", {}, c)))),
      h("tbody", {}, cases.map((c) => h("tr", {}, h("td", {}, c.case_id), h("td", {}, c.origin), h("td", {}, statusBadge(c.status)),
        h("td", {}, h("code", {}, JSON.stringify(c.argv))), h("td", { class: "n" }, `${c.exit_code ?? "–"} (${c.expected_exit})`))))),
    cases.filter((c) => c.diff).map(caseDiff));
}

function caseDiff(c) {
  const d = c.diff;
  const sign = { equal: " ", delete: "−", insert: "+" };
  const rows = d.rows.map((r) => r.op === "skip"
    ? h("div", { class: "row skip" }, `… ${fmt.int(r.lines)} equal lines …`)
    : h("div", { class: `row ${r.op === "delete" ? "del" : r.op === "insert" ? "ins" : "eq"}` },
        h("span", { class: "sign" }, sign[r.op]),
        r.segments.map(([text, changed]) => (changed ? h("mark", { class: "chg" }, text) : text))));
  const head = d.equal
    ? "stdout matches; the exit code or the run failed"
    : `stdout: expected ${fmt.int(d.expected_bytes)} bytes, got ${fmt.int(d.actual_bytes)}; first difference at byte ${fmt.int(d.first_difference)}`;
  return h("div", { class: "diff", id: `diff-${c.case_id}` },
    h("div", { class: "diff-head" }, h("b", {}, `case ${c.case_id}`), ` (${c.status}) — ${head}`),
    h("div", { class: "legend" }, "− expected   + actual   ⏎ newline   \\r carriage return   ⇥ tab   \\xNN other bytes"),
    h("div", { class: "rows" }, rows),
    d.truncated ? h("p", { class: "omitted" }, "(a window around the first difference)") : null,
    c.stderr && c.stderr.text ? h("details", {}, h("summary", {}, "stderr"), h("pre", {}, c.stderr.text)) : null);
}

// ---- routing ---------------------------------------------------------------------------------

async function route() {
  const [path, query] = location.hash.replace(/^#/, "").split("?");
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  const params = new URLSearchParams(query || "");
  try {
    if (parts[0] === "run" && parts.length === 2) await showRun(parts[1], params);
    else if (parts[0] === "episode" && parts.length === 3) await showEpisode(parts[1], parts[2]);
    else await showHome();
    document.body.dataset.view = parts[0] || "home";
  } catch (err) {
    app.replaceChildren(h("p", { class: "error" }, `Could not load this page: ${err.message}`));
  }
}

window.addEventListener("hashchange", route);
route();
