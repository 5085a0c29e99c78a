// The HTTP side of the client: JSON requests with a seat token, errors that say what is wrong,
// and the tokens a browser keeps for the matches it created or was invited to.
// Nothing here knows any game: the server's API (docs/server.md) is the whole contract.

/** A refused request: the HTTP status, the server's `detail` and, when the engine names one, its `rule`. */
export class ApiError extends Error {
  constructor(status, detail, rule = null) {
    super(detail);
    this.status = status;
    this.detail = detail;
    this.rule = rule;
  }
}

/** FastAPI's validation errors come as a list of {loc, msg}; everything else as a string. */
function detailText(detail) {
  if (Array.isArray(detail)) {
    return detail
      .map((item) => {
        const where = Array.isArray(item.loc) ? item.loc.filter((part) => part !== "body").join(".") : "";
        return where ? `${where}: ${item.msg}` : String(item.msg ?? JSON.stringify(item));
      })
      .join("; ");
  }
  if (detail && typeof detail === "object") return JSON.stringify(detail);
  return String(detail ?? "");
}

/**
 * One request to the server. `token` goes in the Authorization header, `body` is sent as JSON.
 * Returns the parsed JSON (or the text for non-JSON answers); throws ApiError for a 4xx/5xx.
 */
export async function request(method, path, { token = null, body = undefined, accept = null } = {}) {
  const headers = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (accept) headers.Accept = accept;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
    });
  } catch (error) {
    throw new ApiError(0, `the server cannot be reached (${error.message})`);
  }
  const type = response.headers.get("Content-Type") || "";
  const payload = type.includes("json") ? await response.json().catch(() => null) : await response.text();
  if (!response.ok) {
    const detail = payload && typeof payload === "object" ? detailText(payload.detail) : String(payload || "");
    const rule = payload && typeof payload === "object" ? payload.rule ?? null : null;
    throw new ApiError(response.status, detail || `${response.status} ${response.statusText}`, rule);
  }
  return payload;
}

export const getJSON = (path, options) => request("GET", path, options);
export const postJSON = (path, body, options = {}) => request("POST", path, { ...options, body });

/** The text of an error for the page: the detail, and the rule it cites when there is one. */
export function errorText(error) {
  if (error instanceof ApiError) {
    return error.rule ? `${error.detail} (rule: ${error.rule})` : error.detail;
  }
  return String(error?.message ?? error);
}

// ---------------------------------------------------------------------------------------------
// Seats as the server lists them: {seat, name, kind, agent} with `seat` the seat's number, -1 for
// chance, and `agent` a computer seat's spec ("mcts:easy", "random").

/** A seat's name in a list of seats (chance and unknown seats too). */
export function seatName(seats, seat) {
  if (seat === null || seat === undefined) return "—";
  const found = (seats || []).find((candidate) => candidate.seat === seat);
  if (found) return found.name ?? String(seat);
  return seat < 0 ? "chance" : String(seat);
}

/** A computer seat's agent as text ("mcts easy"), or "" when its name already says it ("blue (random)"). */
export function agentText(seat) {
  const agent = seat?.agent;
  return !agent || String(seat.name).includes(agent) ? "" : agent.replace(":", " ");
}

/** Who won a finished match (its `result`), as a sentence ("blue lost on time. red wins."); "" while it is on. */
export function winnerText(seats, result) {
  if (!result) return "";
  const onTime = result.ending?.reason === "time" ? `${seatName(seats, result.ending.seat)} lost on time. ` : "";
  return onTime + (result.winner === null || result.winner === undefined ? "A draw." : `${seatName(seats, result.winner)} wins.`);
}

/** Seconds on a clock as text: "4:59", "1:02:03", "23:59:59" (never below 0:00). */
export function clockText(seconds) {
  const whole = Math.max(0, Math.ceil(seconds - 1e-9));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const secs = String(whole % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${secs}` : `${minutes}:${secs}`;
}

/** A time control's notation as people say it: "5 min + 5 s", "1 day a move", "60 s a move". */
export function clockName(control) {
  const fischer = /^fischer:([\d.]+)\+([\d.]+)$/.exec(control || "");
  if (fischer) {
    const main = Number(fischer[1]);
    return `${main % 60 ? `${main} s` : `${main / 60} min`} + ${Number(fischer[2])} s`;
  }
  const move = /^move:([\d.]+)$/.exec(control || "");
  if (move) {
    const secs = Number(move[1]);
    if (secs % 86400 === 0) return `${secs / 86400} day${secs === 86400 ? "" : "s"} a move`;
    return secs % 60 ? `${secs} s a move` : `${secs / 60} min a move`;
  }
  return "no clock";
}

// ---------------------------------------------------------------------------------------------
// Tokens kept in this browser: localStorage["regalia:match:ID"] = {id, game, game_name, screen,
// created, spectator, seats: [{seat, name, kind, token?, link?}]}. The lobby writes the whole
// answer of POST /api/matches; a match page opened with #token=... adds that seat's token.

const PREFIX = "regalia:match:";

/** What this browser knows about a match (null when nothing). */
export function loadMatch(id) {
  try {
    return JSON.parse(localStorage.getItem(PREFIX + id) || "null");
  } catch {
    return null;
  }
}

/** Remember a match, merging the seats (and their tokens) with what was already kept. */
export function saveMatch(id, info) {
  const old = loadMatch(id) || { id, seats: [] };
  const seats = [...(old.seats || [])];
  for (const seat of info.seats || []) {
    const index = seats.findIndex((known) => known.seat === seat.seat);
    if (index < 0) seats.push(seat);
    else seats[index] = { ...seats[index], ...Object.fromEntries(Object.entries(seat).filter(([, v]) => v != null)) };
  }
  const merged = { ...old, ...info, seats };
  try {
    localStorage.setItem(PREFIX + id, JSON.stringify(merged));
  } catch {
    // Private browsing or a full storage: the links still work, the browser just forgets them.
  }
  return merged;
}

/** Every match this browser holds tokens for, newest first. */
export function knownMatches() {
  const out = [];
  for (let i = 0; i < localStorage.length; i += 1) {
    const key = localStorage.key(i);
    if (key && key.startsWith(PREFIX)) {
      const info = loadMatch(key.slice(PREFIX.length));
      if (info) out.push(info);
    }
  }
  return out.sort((a, b) => String(b.created || "").localeCompare(String(a.created || "")));
}

/** The token in the page's fragment (`#token=...`), or null. */
export function fragmentToken() {
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  return params.get("token") || null;
}

/** Copy a text to the clipboard (with a fallback for pages served over plain http). */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.append(area);
    area.select();
    const ok = document.execCommand("copy");
    area.remove();
    return ok;
  }
}

/** A small element builder: h("button", {class: "x", onclick: f}, "text", child...). */
export function h(tag, attrs = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value == null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") element.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(element.dataset, value);
    else if (value === true) element.setAttribute(key, "");
    else element.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child == null || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/** "3 min ago" for an ISO time (or the time itself when it cannot be read). */
export function ago(when) {
  const time = Date.parse(when);
  if (Number.isNaN(time)) return when ? String(when) : "";
  const seconds = Math.max(0, Math.round((Date.now() - time) / 1000));
  if (seconds < 60) return "just now";
  if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 86400) return `${Math.round(seconds / 3600)} h ago`;
  return new Date(time).toLocaleDateString();
}

/** The game's rulebook (Markdown, shown as text) in a modal dialog made on first use. */
export async function showRules(gameId, gameName = gameId) {
  let dialog = document.getElementById("rules-dialog");
  if (!dialog) {
    dialog = h(
      "dialog",
      { id: "rules-dialog", "aria-labelledby": "rules-title", "data-testid": "rules-dialog" },
      h("div", { class: "dialog-head" }, h("h2", { id: "rules-title" }, "Rules"), h("form", { method: "dialog" }, h("button", { type: "submit", "data-testid": "rules-close" }, "Close"))),
      h("div", { id: "rules-text", class: "rules-text", tabindex: "0" }),
    );
    document.body.append(dialog);
  }
  const text = dialog.querySelector("#rules-text");
  dialog.querySelector("#rules-title").textContent = `Rules: ${gameName}`;
  dialog.showModal();
  if (dialog.dataset.game === gameId) return;
  text.textContent = "Loading…";
  try {
    // The server renders the Markdown (raw HTML escaped) and the game's reference (docs/server.md).
    const page = await request("GET", `/api/games/${encodeURIComponent(gameId)}/rules.html`, { accept: "text/html" });
    const main = new DOMParser().parseFromString(page, "text/html").querySelector("main");
    text.replaceChildren(...(main ? [...main.childNodes].map((node) => document.importNode(node, true)) : []));
    dialog.dataset.game = gameId;
  } catch (error) {
    text.textContent = `The rules cannot be read: ${errorText(error)}`;
  }
}
