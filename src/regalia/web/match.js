// The match page (/match/ID#token=...): the board and everything around it, kept up to date by the
// server's pushes over a WebSocket. The server is the only authority: this page shows the view it
// is sent (docs/server.md, "The view") and posts the actions clicked; it knows no game's rules.

import { agentText, ApiError, clockName, clockText, errorText, fragmentToken, getJSON, h, loadMatch, postJSON, request, saveMatch, seatName as nameIn, showRules, winnerText } from "./api.js";
import { Board, parseSvg, prepareParts, tipText, viewBoxOf } from "./board.js";

const $ = (id) => document.getElementById(id);

// ----------------------------------------------------------------------------- who is looking
const matchId = decodeURIComponent((location.pathname.match(/\/match\/([^/]+)/) || [])[1] || "");
const api = `/api/matches/${encodeURIComponent(matchId)}`;
const linkToken = fragmentToken();
const kept = loadMatch(matchId); // what this browser kept from creating (or opening) the match

/** The tokens this page holds, by seat: the creator's browser holds every human seat's. */
const seatTokens = new Map((kept?.seats || []).filter((seat) => seat.token).map((seat) => [seat.seat, seat.token]));

/**
 * The token the page reads with: the link's, or, on a shared screen opened from this browser's
 * lobby, any human seat's. Without one the page is a spectator's.
 */
function readToken() {
  if (linkToken) return linkToken;
  if (kept?.screen === "shared") return seatTokens.values().next().value ?? null;
  return null;
}
let token = readToken(); // null once the server refused it: the page is then a spectator's

/**
 * The server refused the page's token (403: it acts for no seat of this match; 401: malformed): the
 * page watches as a spectator and says why, instead of staying empty.
 */
function dropToken(detail) {
  token = null;
  seatTokens.clear();
  const notice = $("notice");
  notice.textContent =
    `This link's seat token is not valid for this match (${detail || "refused"}), so you are watching as a spectator. ` +
    "Ask for a new link if you play in it.";
  notice.hidden = false;
}

// ----------------------------------------------------------------------------- state
let view = null; // the last view received
let busy = false; // a POST is on its way
let hint = null; // the hint shown: {action, agent, version}
let replayPly = null; // the ply the replay shows (null: the live view)
const replayCache = new Map();
let socket = null;
let socketLog = null; // the log as this socket last sent it: its pushes are deltas of it
let socketFatal = false; // the server refused the token: do not reconnect
let refusedAtStart = null; // the detail of a socket refused before its first view, with a token
let retry = 500;

const board = new Board($("board"), $("tip"), (action) => send(action), $("stage-controls"));

/** The board of a view: `board` (docs/table.md), or the whole picture of an older server. */
const boardOf = (v) => v?.board ?? v?.svg ?? "";

// Choices kept in this browser.
const PREFS = { skip: "regalia:skip-default", sound: "regalia:turn-sound" };
function pref(name) {
  try {
    return localStorage.getItem(PREFS[name]) === "1";
  } catch {
    return false;
  }
}
function setPref(name, on) {
  try {
    localStorage.setItem(PREFS[name], on ? "1" : "0");
  } catch {
    // private browsing: the choice lasts for this page only
  }
}
let replayPanels = null; // the panels of the position the replay shows
let autoSent = null; // the version whose only (default) action was sent by itself
let stageKey = null; // what the stage shows (its picture and version), to focus its default once

// ----------------------------------------------------------------------------- helpers
/** A seat's display name in the view (chance and unknown seats too). */
const seatName = (seat) => nameIn(view?.seats, seat);

/** The seat entry of the view (kind, agent...), or undefined. */
const seatInfo = (seat) => view?.seats?.find((candidate) => candidate.seat === seat);

/** The token that acts for `seat`: its own, or the link's (the server decides whether it may). */
function tokenFor(seat) {
  return seatTokens.get(seat) ?? token;
}

/** Whether this page may act in view `v`: a seat's view, its turn, no computer thinking, the match on. */
function canAct(v = view) {
  if (!v || !token || v.status !== "active" || v.thinking) return false;
  if (v.viewer === null || v.viewer === undefined) return false;
  return v.to_act !== null && v.to_act === v.viewer && (v.legal || []).length > 0;
}

function showError(message) {
  const box = $("error");
  box.textContent = message || "";
  box.hidden = !message;
}

// ----------------------------------------------------------------------------- actions
/** Send an action in notation for the seat to act; the new view comes back as a push. */
async function send(action) {
  if (busy || !view) return;
  if (!canAct()) {
    showError(view.status === "finished" ? "The match is over." : "It is not your turn.");
    return;
  }
  busy = true;
  document.body.classList.add("busy");
  try {
    await postJSON(`${api}/actions`, { action, version: view.version }, { token: tokenFor(view.to_act) });
    showError("");
    if (!socketOpen()) await refresh();
  } catch (error) {
    // A 409 (an older position, not this seat's turn): catch up first, then say why it was refused.
    if (error instanceof ApiError && error.status === 409) await refresh();
    showError(`Move refused: ${action} — ${errorText(error)}`);
  } finally {
    busy = false;
    document.body.classList.remove("busy");
    if (view) {
      renderControls(); // a push may have come while the request was out
      autoDefault();
    }
  }
}

async function post(path, message) {
  try {
    const answer = await postJSON(`${api}${path}`, {}, { token: tokenFor(view?.viewer ?? view?.to_act) });
    showError("");
    if (!socketOpen()) await refresh();
    return answer;
  } catch (error) {
    showError(`${message}: ${errorText(error)}`);
    return null;
  }
}

async function askHint() {
  const button = $("hint");
  button.disabled = true;
  button.textContent = "Thinking…";
  const answer = await post("/hint", "No hint");
  button.textContent = "Hint";
  button.disabled = !canAct();
  if (!answer) return;
  hint = { action: answer.action, agent: answer.agent, version: view.version };
  showHint();
}

/** Show the hint's text, and mark it on the board and in the list of moves. */
function showHint() {
  const box = $("hint-text");
  if (!hint || !view || hint.version !== view.version) {
    hint = null;
    box.hidden = true;
    return;
  }
  const onBoard = board.highlight(hint.action);
  box.hidden = false;
  box.replaceChildren(
    "Hint",
    hint.agent ? ` (${hint.agent})` : "",
    ": ",
    h("code", {}, hint.action),
    onBoard ? " — marked on the board" : "",
    " ",
    h("button", { type: "button", class: "small-button", "data-testid": "hint-play", onclick: () => send(hint.action) }, "Play it"),
  );
  document.querySelectorAll("#legal [data-legal]").forEach((button) => {
    button.classList.toggle("hinted", button.dataset.legal === hint.action);
  });
}

async function downloadRecord() {
  try {
    const record = await getJSON(`${api}/record`, { token: tokenFor(view?.viewer) });
    const url = URL.createObjectURL(new Blob([JSON.stringify(record, null, 2)], { type: "application/json" }));
    const link = h("a", { href: url, download: `${view?.game ?? "match"}-${matchId}.json` });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  } catch (error) {
    showError(`No record: ${errorText(error)}`);
  }
}

// ----------------------------------------------------------------------------- rendering
function render(next) {
  const svgChanged = !view || boardOf(next) !== boardOf(view) || canAct(next) !== canAct();
  const first = !view;
  const newPly = !first && next.plies > view.plies;
  const wasMyTurn = !first && canAct();
  if (view && next.version !== view.version) showError(""); // a refusal is about the old position
  view = next;
  // For tests and styles: the version shown and whether the match is over.
  document.body.dataset.version = String(view.version);
  document.body.dataset.status = view.status;
  renderTitle();
  $("title").textContent = view.game_name ?? view.game;
  renderRole();
  renderStatus();
  if (replayPly === null && svgChanged) board.show(boardOf(view), { interactive: canAct() });
  if (replayPly === null && newPly) board.popScores(seatColour);
  $("board").classList.toggle("can-act", canAct() && replayPly === null);
  renderControls();
  renderLegal();
  renderSeats();
  renderSections();
  renderClocks();
  renderStage();
  renderLog();
  renderResult();
  renderReplay();
  showHint();
  if (first) rememberSeat();
  if (!first && !wasMyTurn && canAct() && pref("sound")) beep();
  autoDefault();
}

/** The tab's title: a mark while it is this page's turn, so a player in another tab sees it. */
function renderTitle() {
  const name = `${view.game_name ?? view.game} · regalia`;
  document.title = canAct() && replayPly === null ? `● Your turn · ${name}` : name;
}

/** A short beep (WebAudio), when the player asked for a sound on their turn. */
let audio = null;
function beep() {
  try {
    audio ??= new AudioContext();
    if (audio.state === "suspended") audio.resume();
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    oscillator.frequency.value = 880;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
    oscillator.connect(gain).connect(audio.destination);
    oscillator.start();
    oscillator.stop(audio.currentTime + 0.25);
  } catch {
    // no sound on this browser
  }
}

/** With "skip" asked, the default action is sent by itself when it is the only legal one. */
function autoDefault() {
  if (!pref("skip") || !canAct() || busy || replayPly !== null) return;
  const legal = view.legal || [];
  if (legal.length !== 1 || !view.default || legal[0] !== view.default || autoSent === view.version) return;
  autoSent = view.version;
  send(view.default);
}

/** A seat's link opened in this browser is kept, so the lobby lists it and a reload finds it. */
function rememberSeat() {
  if (!linkToken || view.viewer === null || view.viewer === undefined || view.screen === "shared") return;
  const seat = seatInfo(view.viewer);
  saveMatch(matchId, {
    game: view.game,
    game_name: view.game_name,
    screen: view.screen,
    created: kept?.created ?? new Date().toISOString(),
    seats: [{ seat: view.viewer, name: seat?.name, kind: "human", token: linkToken, link: `/match/${matchId}#token=${linkToken}` }],
  });
  seatTokens.set(view.viewer, linkToken);
}

function renderRole() {
  const role = $("role");
  if (view.viewer === null || view.viewer === undefined) role.textContent = "Spectator";
  else if (view.screen === "shared") role.textContent = "Shared screen";
  else role.textContent = `You play ${seatName(view.viewer)}`;
}

function renderStatus() {
  const status = $("status");
  let text;
  if (view.status === "finished") {
    text = `Game over. ${winnerText(view.seats, view.result)}`;
  } else if (view.thinking) {
    const agent = agentText(seatInfo(view.to_act));
    text = `The computer${view.to_act !== null ? ` (${seatName(view.to_act)}${agent ? `, ${agent}` : ""})` : ""} is thinking…`;
  } else if (view.to_act === null || view.to_act === undefined) {
    text = "Waiting for the server…";
  } else if (canAct()) {
    text = view.screen === "shared" ? `${seatName(view.to_act)} to play: your turn on this screen.` : `Your turn (${seatName(view.to_act)}).`;
  } else {
    const seat = seatInfo(view.to_act);
    const kind = seat?.kind === "computer" ? "the computer" : seat?.kind === "automaton" ? "the automaton" : "waiting for their move";
    text = `${seatName(view.to_act)} to play (${kind}).`;
  }
  status.textContent = text;
  status.dataset.plies = String(view.plies);
  status.dataset.state = view.status === "finished" ? "over" : view.thinking ? "thinking" : canAct() ? "your-turn" : "waiting";
}

function renderControls() {
  const spectator = view.viewer === null || view.viewer === undefined || !token;
  const active = view.status === "active";
  const hintButton = $("hint");
  hintButton.hidden = spectator || !view.hint || !active;
  if (hintButton.textContent === "Hint") hintButton.disabled = !canAct();

  const undo = view.undo || { allowed: false, pending: null };
  const undoButton = $("undo");
  undoButton.hidden = spectator || !active;
  // The server says whether this seat may take back its last decision (with the computer's reply).
  undoButton.disabled = !undo.allowed || view.thinking || busy;

  const resignButton = $("resign");
  resignButton.hidden = spectator || !active;
  resignButton.disabled = busy;

  const request = $("undo-request");
  const pending = undo.pending;
  request.hidden = spectator || pending === null || pending === undefined || !active;
  if (!request.hidden) {
    const mine = pending === view.viewer;
    $("undo-text").textContent = mine
      ? "You asked to take back your last move; waiting for your opponent to answer."
      : `${seatName(pending)} asks to take back their last move.`;
    $("undo-accept").hidden = mine;
    $("undo-decline").hidden = mine;
  }
}

function renderLegal() {
  $("moves").hidden = view.status === "finished"; // the result and the replay take its place
  const box = $("legal");
  const form = $("type-action");
  const list = $("legal-list");
  if (!canAct()) {
    form.hidden = true;
    let why;
    if (view.status === "finished") why = "The match is over.";
    else if (view.viewer === null || view.viewer === undefined || !token) why = "You are watching: spectators cannot move.";
    else if (view.thinking) why = "Wait for the computer's move.";
    else why = `Waiting for ${seatName(view.to_act)}.`;
    box.replaceChildren(h("p", { class: "muted", "data-testid": "legal-none" }, why));
    list.replaceChildren();
    return;
  }
  form.hidden = false;
  // Group the moves by their first word (the verb), in the order the server lists them.
  const groups = new Map();
  for (const action of view.legal) {
    const verb = action.split(" ")[0];
    if (!groups.has(verb)) groups.set(verb, []);
    groups.get(verb).push(action);
  }
  const parts = [h("p", { class: "small" }, `${view.legal.length} legal move${view.legal.length === 1 ? "" : "s"}: click the board or a button.`)];
  for (const [verb, actions] of groups) {
    const buttons = actions.map((action) => actionButton(action, "legal-action", { "data-legal": action }));
    const group = h("details", { class: "legal-group", open: actions.length <= 24 || groups.size === 1 }, h("summary", {}, `${verb} (${actions.length})`), h("div", { class: "legal-buttons" }, buttons));
    parts.push(group);
  }
  box.replaceChildren(...parts);
  list.replaceChildren(...view.legal.map((action) => h("option", { value: action })));
}

/** The words of a legal action (view.labels is aligned with view.legal), or its notation. */
function labelOf(action) {
  const index = (view.legal || []).indexOf(action);
  const label = index >= 0 ? view.labels?.[index] : null;
  return label || action;
}

/** A button that sends `action`: its words, the notation beside them in smaller text. */
function actionButton(action, className, attrs = {}) {
  const label = labelOf(action);
  return h(
    "button",
    { type: "button", class: className, title: action, onclick: () => send(action), ...attrs },
    h("span", { class: "action-label" }, label),
    label !== action ? [" ", h("code", { class: "notation" }, action)] : [],
  );
}

/** The panels shown: the replay's position's, or the view's (a default from the view's seats). */
function panelsShown() {
  if (replayPly !== null && replayPanels) return replayPanels;
  if (view.panels) return view.panels;
  return {
    seats: (view.seats || []).map((seat, index) => ({ seat: seat.seat, name: seat.name, colour: "#495057", score: view.scores?.[index], facts: [] })),
    sections: [],
  };
}

/** A CSS colour made dark enough to read on white (contrast 4.5:1 at least). */
const readable = new Map();
function readableColour(colour) {
  if (!colour) return "#1b1b1b";
  if (readable.has(colour)) return readable.get(colour);
  const probe = h("span", { style: `color: ${colour}` });
  document.body.append(probe);
  const rgb = (getComputedStyle(probe).color.match(/[\d.]+/g) || ["27", "27", "27"]).slice(0, 3).map(Number);
  probe.remove();
  const luminance = (c) => {
    const [r, g, b] = c.map((v) => {
      const x = v / 255;
      return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  // Against the lightest panel background it sits on (the to-act seat's green, #e8f3ea).
  const ground = luminance([232, 243, 234]) + 0.05;
  let c = rgb;
  for (let i = 0; i < 30 && ground / (luminance(c) + 0.05) < 4.7; i += 1) c = c.map((v) => v * 0.88);
  const out = `rgb(${c.map((v) => Math.round(v)).join(", ")})`;
  readable.set(colour, out);
  return out;
}

/** The colour of a seat named by a .scored group's data-seat (the game's name or the index). */
function seatColour(key) {
  const seats = panelsShown().seats || [];
  const found = seats.find((seat) => seat.name === key || String(seat.seat) === String(key));
  return found ? readableColour(found.colour) : null;
}

function factList(facts) {
  if (!facts?.length) return null;
  return h(
    "dl",
    { class: "facts" },
    facts.map((fact) => h("div", { class: "fact", title: fact.title || null }, h("dt", {}, fact.label), h("dd", {}, String(fact.value ?? "")))),
  );
}

/** One panel per seat: the game's name in its colour, the player, the score, the clock, the facts. */
function renderSeats() {
  const panels = panelsShown();
  const cards = (panels.seats || []).map((entry) => {
    const seat = seatInfo(entry.seat) || {};
    const colour = entry.colour || "#495057";
    const toAct = view.status === "active" && replayPly === null && entry.seat === view.to_act;
    const you = seat.you || (view.viewer !== null && view.viewer !== undefined && entry.seat === view.viewer);
    // The player's own name, unless it is the seat's ("blue (random)" for a computer named after it).
    const player = seat.name && !String(seat.name).startsWith(String(entry.name)) ? seat.name : "";
    const agent = seat.agent ? seat.agent.replace(":", " ") : "";
    const kind = seat.kind && seat.kind !== "human" ? `${seat.kind}${agent ? `, ${agent}` : ""}` : "";
    return h(
      "div",
      { class: `seat${toAct ? " to-act" : ""}`, "data-seat": entry.seat, style: `--seat-colour: ${colour}`, "aria-current": toAct ? "true" : null },
      h(
        "div",
        { class: "seat-head" },
        h("span", { class: "turn-mark", "aria-hidden": "true" }, toAct ? "▶" : ""),
        h(
          "span",
          { class: "name" },
          h("span", { class: "seat-name", style: `color: ${readableColour(colour)}` }, entry.name ?? String(entry.seat)),
          player ? h("span", { class: "player" }, ` ${player}`) : "",
          kind ? h("span", { class: "kind" }, ` (${kind})`) : "",
          you ? h("span", { class: "you" }, view.screen === "shared" ? " (this screen)" : " (you)") : "",
          toAct ? h("span", { class: "sr-only" }, " (to play)") : "",
        ),
        h("span", { class: "score", title: "score" }, entry.score === undefined || entry.score === null ? "" : String(entry.score)),
      ),
      h("div", { class: "clock", "data-seat": entry.seat, hidden: !view.clock }, h("span", { class: "clock-label" }, "Time"), " ", h("span", { class: "clock-time", "data-testid": `clock-${entry.seat}`, role: "timer" }, "")),
      factList(entry.facts),
    );
  });
  $("seats").replaceChildren(...cards);
}

/** The game's sections (the drawn tile, the bag, hands...), in order. */
let sectionsShown = null;
function renderSections() {
  const sections = panelsShown().sections || [];
  const key = JSON.stringify(sections);
  if (key === sectionsShown) return;
  sectionsShown = key;
  const boxes = sections.map((section, index) => {
    const id = `section-${String(section.id || index).replace(/[^\w-]/g, "")}`;
    const pictures = (section.pictures || []).map((picture) => {
      let svg = null;
      try {
        svg = parseSvg(picture.svg);
        prepareParts(svg, false);
        svg.setAttribute("role", "img");
        svg.setAttribute("aria-label", picture.title || picture.caption || "picture");
        const [, , width] = viewBoxOf(svg);
        svg.removeAttribute("height");
        svg.setAttribute("width", String(Math.max(48, Math.min(width, 160))));
      } catch {
        svg = h("span", { class: "muted" }, "(picture)");
      }
      return h("figure", { class: "picture", title: picture.title || null }, svg, picture.caption ? h("figcaption", {}, picture.caption) : null);
    });
    return h(
      "section",
      { class: "panel table-section", id, "data-section": section.id, "aria-labelledby": `${id}-title` },
      h("h2", { id: `${id}-title` }, section.title || section.id || ""),
      section.text ? h("p", { class: "section-text" }, section.text) : null,
      pictures.length ? h("div", { class: "pictures" }, pictures) : null,
      factList(section.facts),
    );
  });
  $("sections").replaceChildren(...boxes);
}

// ----------------------------------------------------------------------------- the stage
/** The close-up to choose from (view.stage), with one worded button per legal action. */
function renderStage() {
  const box = $("stage");
  // The stage: the game's close-up, or (a default to take and nothing to click on the board) its
  // buttons alone.
  const live = canAct() && replayPly === null;
  const stage = live ? view.stage : null;
  const buttonsOnly = live && !stage && view.default && !$("board").querySelector("[data-action], [data-select]");
  if (!stage && !buttonsOnly) {
    box.hidden = true;
    stageKey = null;
    $("stage-picture").replaceChildren();
    $("stage-buttons").replaceChildren();
    return;
  }
  const key = `${view.version}:${stage}`;
  if (key === stageKey) return;
  const fresh = stageKey === null;
  stageKey = key;
  if (!stage) $("stage-picture").replaceChildren();
  else try {
    const svg = parseSvg(stage);
    const [, , width] = viewBoxOf(svg);
    svg.removeAttribute("height");
    svg.setAttribute("width", String(Math.max(240, width)));
    svg.setAttribute("role", "group");
    svg.setAttribute("aria-label", "close-up");
    prepareParts(svg, true);
    $("stage-picture").replaceChildren(svg);
  } catch (error) {
    $("stage-picture").replaceChildren(h("p", { class: "board-error" }, error.message));
  }
  const legal = [...(view.legal || [])];
  if (view.default && legal.includes(view.default)) legal.splice(legal.indexOf(view.default), 1), legal.unshift(view.default);
  const buttons = legal.map((action) => actionButton(action, `stage-action${action === view.default ? " default" : ""}`, { "data-stage-action": action, "data-action": action }));
  $("stage-buttons").replaceChildren(...buttons);
  box.hidden = false;
  if (fresh || document.activeElement === document.body) buttons[0]?.focus({ preventScroll: true });
}

// ----------------------------------------------------------------------------- clocks
/** The view's clock and when it arrived: the running seat's time counts down from it locally. */
let clockBase = null;

/** Each seat's panel holds its clock; the seat whose clock runs is marked. */
function renderClocks() {
  const box = $("clocks");
  const clock = view.clock;
  box.hidden = !clock;
  clockBase = clock ? { ...clock, at: performance.now(), asked: false } : null;
  if (!clock) return;
  $("clock-control").textContent = `Clock: ${clockName(clock.control)}`;
  tickClocks();
}

/** The seats' time left now: the view's remaining, less the time since it came for the seat to act. */
function tickClocks() {
  if (!clockBase) return;
  const elapsed = (performance.now() - clockBase.at) / 1000;
  for (const item of document.querySelectorAll("#seats .clock")) {
    const seat = Number(item.dataset.seat);
    const running = clockBase.running === seat;
    const left = (clockBase.remaining[seat] ?? 0) - (running ? elapsed : 0);
    item.querySelector(".clock-time").textContent = clockText(left);
    item.classList.toggle("running", running);
    item.classList.toggle("low", running && left < 30);
    item.classList.toggle("fallen", left <= 0 && (running || view.result?.ending?.reason === "time"));
    // The server ends the match when a flag falls and pushes it; without a socket, ask once.
    if (running && left < -2 && !clockBase.asked && !socketOpen()) {
      clockBase.asked = true;
      refresh();
    }
  }
}

function renderLog() {
  const log = $("log");
  const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
  const finished = view.status === "finished";
  const items = (view.log || []).map((entry, index) => {
    const who = seatName(entry.seat);
    // Numbered from 1: entry n is the n-th ply, and the replay's "after n plies" shows its result.
    let body = [h("span", { class: "ply" }, String(index + 1)), " ", h("span", { class: "who" }, who), ": ", h("code", {}, entry.text)];
    if (entry.description) body.push(h("span", { class: "description" }, ` — ${entry.description}`));
    if (entry.places?.length) {
      // A ply that happened somewhere on the board: a link that shows the place.
      body = [
        h(
          "a",
          {
            href: "#board",
            class: "log-place",
            "data-places": entry.places.join(";"),
            title: "Show it on the board",
            onclick: (event) => {
              event.preventDefault();
              if (!board.showPlaces(entry.places)) showError("That place is not on the board shown.");
            },
          },
          ...body,
        ),
      ];
    }
    const item = h("li", { "data-ply": entry.ply }, ...body);
    const mark = markOf(index + 1);
    if (mark) item.append(mark);
    if (finished) {
      // In a finished match a ply of the log is a step of the replay.
      item.append(" ", h("button", { type: "button", class: "small-button", "aria-label": `Show the position after ply ${index + 1}`, onclick: () => showReplay(index + 1) }, "show"));
    }
    return item;
  });
  log.replaceChildren(...items);
  if (atBottom || replayPly === null) log.scrollTop = log.scrollHeight;
  markReplayInLog();
}

function renderResult() {
  const box = $("result");
  box.hidden = !view.result;
  if (!view.result) return;
  $("winner").textContent = winnerText(view.seats, view.result);
  $("result-text").textContent = view.result.text ?? JSON.stringify(view.result, null, 2);
  $("record-note").textContent = "The match is over: the record is complete (replay it with `regalia replay`).";
}

// ----------------------------------------------------------------------------- replay
/** The number of positions to step through: every ply of the finished match. */
const replayLast = () => view?.plies ?? 0;

function renderReplay() {
  const box = $("replay");
  box.hidden = view.status !== "finished";
  if (box.hidden) return;
  const range = $("replay-ply");
  range.max = String(replayLast());
  if (analysisState === null) loadAnalysis();
  updateReplayControls();
}

function updateReplayControls() {
  const last = replayLast();
  const ply = replayPly ?? last;
  $("replay-ply").value = String(ply);
  $("replay-first").disabled = ply <= 0;
  $("replay-back").disabled = ply <= 0;
  $("replay-forward").disabled = ply >= last;
  $("replay-last").disabled = ply >= last;
  const entry = (view.log || [])[ply - 1];
  const what = ply === 0 ? "the start" : entry ? `${seatName(entry.seat)}: ${entry.text}${entry.description ? ` — ${entry.description}` : ""}` : "";
  $("replay-label").textContent = `Position after ply ${ply} of ${last}${what ? ` (${what})` : ""}.`;
  markReplayInLog();
  renderBest(ply);
  moveCurveCursor(ply);
}

/** Mark the ply the replay shows in the log, and scroll the log (not the page) to it. */
function markReplayInLog() {
  const log = $("log");
  for (const item of log.children) {
    const current = replayPly !== null && Number(item.dataset.ply) === replayPly - 1;
    if (current) {
      item.setAttribute("aria-current", "step");
      log.scrollTop = item.offsetTop - log.clientHeight / 2;
    } else item.removeAttribute("aria-current");
  }
}

/** The board and panels after `ply` plies: GET .../table?ply=N, or the older .../svg?ply=N. */
async function tableAt(ply) {
  let table = replayCache.get(ply);
  if (table !== undefined) return table;
  try {
    table = await getJSON(`${api}/table?ply=${ply}`, { token: tokenFor(view.viewer) });
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 404) throw error;
    table = { board: await request("GET", `${api}/svg?ply=${ply}`, { token: tokenFor(view.viewer), accept: "image/svg+xml" }), panels: null, ply };
  }
  replayCache.set(ply, table);
  return table;
}

/** Show the position after `ply` plies of the finished match (the last one is the live view). */
async function showReplay(ply) {
  const last = replayLast();
  ply = Math.max(0, Math.min(last, ply));
  const bestBoard = showBest && bestByPly.has(ply) ? await bestBoardAt(ply).catch(() => null) : null;
  if (ply >= last && !bestBoard) {
    replayPly = null;
    replayPanels = null;
    board.show(boardOf(view), { interactive: false });
    markBest(ply);
    renderSeats();
    renderSections();
    renderClocks();
    updateReplayControls();
    return;
  }
  replayPly = ply === last ? null : ply;
  updateReplayControls();
  try {
    const table = ply === last ? { board: boardOf(view), panels: null } : await tableAt(ply);
    if ((replayPly ?? last) !== ply) return;
    board.show(bestBoard ?? table.board, { interactive: false });
    markBest(ply, bestBoard !== null);
    replayPanels = table.panels;
    renderSeats();
    renderSections();
    renderClocks();
    showError("");
  } catch (error) {
    showError(`No picture of ply ${ply}: ${errorText(error)}`);
  }
}

function stepReplay(delta) {
  showReplay((replayPly ?? replayLast()) + delta);
}

// ----------------------------------------------------------------------------- analysis
// A finished match's analysis (docs/analysis.md, "In the browser"): asked for with POST
// .../analysis, computed on the server (queued, within its caps, kept with the match), then the
// evaluation curve under the replay slider, marks in the log and the best move at each ply.
let analysisState = null; // the last GET .../analysis answer (null: not asked yet)
let analysisPoll = null;
let showBest = false; // the board shows the best move instead of the one played
const analysisByPly = new Map(); // ply (from 1) -> the analysed ply
const bestByPly = new Map(); // ply -> {best, label, places}
const bestBoards = new Map();
const MARK_SIGNS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const MARK_COLOURS = { inaccuracy: "#f2c200", mistake: "#f08c00", blunder: "#e03131" };
const fmt = (x) => (x === null || x === undefined ? "–" : Number(x).toFixed(2));

async function loadAnalysis() {
  analysisState = { status: "loading" };
  try {
    showAnalysis(await getJSON(`${api}/analysis`));
  } catch (error) {
    analysisState = { status: "none" };
    $("analysis-status").textContent = `The analysis could not be read: ${errorText(error)}`;
  }
}

async function requestAnalysis() {
  $("analyse").disabled = true;
  try {
    showAnalysis(await postJSON(`${api}/analysis`, {}));
  } catch (error) {
    $("analyse").disabled = false;
    $("analysis-status").textContent = `No analysis now: ${errorText(error)}`;
  }
}

function pollAnalysis() {
  clearTimeout(analysisPoll);
  analysisPoll = setTimeout(async () => {
    try {
      showAnalysis(await getJSON(`${api}/analysis`));
    } catch {
      pollAnalysis();
    }
  }, 1000);
}

function showAnalysis(answer) {
  analysisState = answer;
  const status = answer.status;
  const button = $("analyse");
  const done = answer.progress?.done ?? 0;
  const total = answer.progress?.total ?? 0;
  button.hidden = status === "done";
  button.disabled = status === "queued" || status === "running";
  const text = {
    none: "",
    queued: "Analysis queued on the server…",
    running: `Analysing: ${done} of ${total || "?"} decisions searched…`,
    done: answer.analysis ? `Analysed at ${answer.analysis.budget} (${total} decisions).` : "",
    failed: `The analysis failed${answer.error ? `: ${answer.error}` : ""}. Press Analyse to try again.`,
  }[status] ?? "";
  $("analysis-status").textContent = text;
  $("analysis-status").dataset.status = status;
  if (status === "queued" || status === "running") pollAnalysis();
  if (status !== "done" || !answer.analysis) return;
  analysisByPly.clear();
  bestByPly.clear();
  for (const row of answer.analysis.plies) analysisByPly.set(row.ply, row);
  for (const best of answer.best || []) bestByPly.set(best.ply, best);
  drawCurve();
  renderLog();
  updateReplayControls();
  markBest(replayPly ?? replayLast());
}

/** The mark of ply `ply` in the log: ?!, ? or ?? with the loss and the best move in its title. */
function markOf(ply) {
  const row = analysisByPly.get(ply);
  if (!row?.mark) return null;
  const best = bestByPly.get(ply);
  const title = `${row.mark[0].toUpperCase()}${row.mark.slice(1)}: lost ${fmt(row.loss)} of an expected result (played ${fmt(row.value)}); best ${row.best}${best?.label ? ` (${best.label})` : ""}, value ${fmt(row.best_value)}`;
  return h("span", { class: `mark mark-${row.mark}`, "data-mark": row.mark, title, "aria-label": title, role: "img" }, MARK_SIGNS[row.mark]);
}

/** The "Best:" line of the position after `ply` plies: the best move found for ply `ply`. */
function renderBest(ply) {
  const box = $("analysis-best");
  const row = analysisByPly.get(ply);
  if (!row || analysisState?.status !== "done") {
    box.hidden = analysisState?.status !== "done";
    $("analysis-best-text").textContent = analysisState?.status === "done" ? (ply === 0 ? "The start: no move yet." : "No analysis of this ply.") : "";
    $("analysis-show-best").hidden = true;
    return;
  }
  box.hidden = false;
  const line = $("analysis-best-text");
  const best = bestByPly.get(ply);
  const who = seatName(row.seat);
  if (row.kind === "decision" && row.value !== null && row.best) {
    const same = row.best === row.played;
    const parts = [`Ply ${ply}, ${who}. Best: `, h("code", {}, row.best)];
    if (best?.label) parts.push(` (${best.label})`);
    parts.push(same ? ` (value ${fmt(row.best_value)}): the move played.` : ` (value ${fmt(row.best_value)}, played ${fmt(row.value)}).`);
    if (row.mark) parts.push(` ${row.mark[0].toUpperCase()}${row.mark.slice(1)}: lost ${fmt(row.loss)}.`);
    line.replaceChildren(...parts);
    $("analysis-show-best").hidden = same;
  } else {
    const why = { chance: `a draw of chance${row.probability !== null ? ` (probability ${fmt(row.probability)} of ${row.outcomes})` : ""}`, forced: "the only move", automaton: "an automaton's step", decision: "not searched" }[row.kind] ?? row.kind;
    line.textContent = `Ply ${ply}, ${who}: ${why}.`;
    $("analysis-show-best").hidden = true;
  }
}

/** Outline the best move of ply `ply` on the board (`data-best` on the parts at its places). */
function markBest(ply, onBestBoard = false) {
  const root = $("board");
  root.querySelectorAll("[data-best]").forEach((el) => el.removeAttribute("data-best"));
  const best = bestByPly.get(ply);
  const row = analysisByPly.get(ply);
  if (!best || !row || analysisState?.status !== "done") return;
  if (onBestBoard) root.querySelectorAll("[data-last]").forEach((el) => el.removeAttribute("data-last"));
  const places = new Set(best.places || []);
  root.querySelectorAll("[data-pos]").forEach((el) => {
    if (places.has(el.getAttribute("data-pos"))) el.setAttribute("data-best", best.best);
  });
}

async function bestBoardAt(ply) {
  if (bestBoards.has(ply)) return bestBoards.get(ply);
  const answer = await getJSON(`${api}/analysis/board?ply=${ply}`);
  bestBoards.set(ply, answer.board);
  return answer.board;
}

const SVG_NS = "http://www.w3.org/2000/svg";
function svgEl(name, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attrs)) if (value !== null && value !== undefined) el.setAttribute(key, String(value));
  el.append(...children);
  return el;
}
const CURVE = { w: 600, h: 160, pad: 10 };
const curveX = (ply) => CURVE.pad + ((CURVE.w - 2 * CURVE.pad) * ply) / Math.max(1, replayLast());
const curveY = (value) => CURVE.pad + (CURVE.h - 2 * CURVE.pad) * (1 - value);

/** The evaluation curve: one line per seat in its panel's colour, marks as dots, the ply shown. */
function drawCurve() {
  const doc = analysisState?.analysis;
  if (!doc) return;
  const seats = panelsShown().seats || [];
  const chart = svgEl("svg", {
    viewBox: `0 0 ${CURVE.w} ${CURVE.h}`,
    role: "group",
    tabindex: "0",
    "aria-label": "Evaluation curve: the expected result of each move played, per seat. Left and right arrow keys step the replay.",
    "data-testid": "curve",
    preserveAspectRatio: "none",
  });
  chart.append(svgEl("line", { x1: CURVE.pad, x2: CURVE.w - CURVE.pad, y1: curveY(0.5), y2: curveY(0.5), stroke: "#868e96", "stroke-dasharray": "4 4", "stroke-width": 1 }));
  const points = [];
  doc.seats.forEach((name, seat) => {
    const mine = doc.plies.filter((row) => row.seat === seat && row.kind === "decision" && row.value !== null);
    if (!mine.length) return;
    const panel = seats.find((s) => s.seat === seat);
    const colour = panel?.colour ? readableColour(panel.colour) : ["#1c7ed6", "#c92a2a", "#2b8a3e", "#862e9c", "#e8590c"][seat % 5];
    chart.append(svgEl("polyline", { class: "curve-line", "data-seat": seat, fill: "none", stroke: colour, "stroke-width": 2.5, "vector-effect": "non-scaling-stroke", points: mine.map((row) => `${curveX(row.ply).toFixed(1)},${curveY(row.value).toFixed(1)}`).join(" ") }, svgEl("title", {}, `${name}: expected result of its moves`)));
    for (const row of mine) points.push({ row, colour, name });
  });
  for (const { row, colour, name } of points) {
    const label = `Ply ${row.ply}, ${name}: ${row.played}, value ${fmt(row.value)}${row.mark ? `, ${row.mark} (lost ${fmt(row.loss)}; best ${row.best})` : ""}`;
    const dot = svgEl("circle", { class: row.mark ? `point mark-dot mark-${row.mark}` : "point", "data-ply": row.ply, "data-mark": row.mark, cx: curveX(row.ply), cy: curveY(row.value), r: row.mark ? 5 : 2.5, fill: row.mark ? MARK_COLOURS[row.mark] : colour, stroke: row.mark ? "#000" : "none", "stroke-width": 1 }, svgEl("title", {}, label));
    chart.append(dot);
  }
  chart.append(svgEl("line", { class: "cursor", "data-testid": "curve-cursor", x1: 0, x2: 0, y1: 0, y2: CURVE.h, stroke: "#212529", "stroke-width": 2, "vector-effect": "non-scaling-stroke" }));
  chart.addEventListener("click", (event) => {
    const box = chart.getBoundingClientRect();
    const x = ((event.clientX - box.left) / box.width) * CURVE.w;
    const ply = Math.round(((x - CURVE.pad) / (CURVE.w - 2 * CURVE.pad)) * replayLast());
    showReplay(ply);
  });
  chart.addEventListener("keydown", (event) => {
    if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
      event.preventDefault();
      stepReplay(event.key === "ArrowLeft" ? -1 : 1);
    }
  });
  $("analysis-chart").replaceChildren(chart);
  $("analysis-curve").hidden = false;
  moveCurveCursor(replayPly ?? replayLast());
}

function moveCurveCursor(ply) {
  const cursor = document.querySelector("#analysis-chart .cursor");
  if (!cursor) return;
  cursor.setAttribute("x1", String(curveX(ply)));
  cursor.setAttribute("x2", String(curveX(ply)));
  cursor.setAttribute("data-ply", String(ply));
  document.querySelectorAll("#analysis-chart .point").forEach((dot) => {
    if (Number(dot.dataset.ply) === ply) dot.setAttribute("aria-current", "step");
    else dot.removeAttribute("aria-current");
  });
}

$("analyse").addEventListener("click", requestAnalysis);
$("analysis-show-best").addEventListener("click", () => {
  showBest = !showBest;
  $("analysis-show-best").setAttribute("aria-pressed", String(showBest));
  showReplay(replayPly ?? replayLast());
});

// ----------------------------------------------------------------------------- the connection
function socketOpen() {
  return socket !== null && socket.readyState === WebSocket.OPEN;
}

function setConnection(text, state) {
  const badge = $("connection");
  badge.textContent = text;
  badge.dataset.state = state;
}

/** Read the view over HTTP (at start, and when the WebSocket is down). */
async function refresh() {
  try {
    render(await getJSON(api, { token }));
  } catch (error) {
    if (token && error instanceof ApiError && (error.status === 401 || error.status === 403)) {
      dropToken(error.detail);
      return refresh();
    }
    showError(`Cannot load the match: ${errorText(error)}`);
    if (!view) $("status").textContent = errorText(error);
  }
}

/**
 * Open the WebSocket: its first message is the view, and every later one the view after a change.
 * Reconnects when it drops; while it cannot connect at all, the view is read over HTTP instead.
 */
function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}${api}/ws`);
  let delivered = false; // this socket brought a view
  socket.addEventListener("open", () => {
    socket.send(JSON.stringify(token ? { token } : {}));
    setConnection("live", "live");
    retry = 500;
  });
  socket.addEventListener("message", (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    if (message.type === "pong") return;
    if (message.type === "view" && message.view) {
      delivered = true;
      socketLog = message.view.log || [];
      if (!view || message.view.version >= view.version) render(message.view);
    } else if (message.type === "delta" && message.view) {
      // What changed since this socket's last message: the first `keep` items of its log stay
      // (fewer after an undo), `log` follows them, `view` is the rest of the new view.
      const log = message.log || [];
      if (socketLog === null || message.keep > socketLog.length || message.keep + log.length !== message.view.plies) {
        event.target.close(); // out of step: a new connection starts with the whole view
        return;
      }
      socketLog = socketLog.slice(0, message.keep).concat(log);
      if (!view || message.view.version >= view.version) render({ ...message.view, log: socketLog });
    } else if (message.type === "error") {
      if (token && !delivered) {
        refusedAtStart = message.detail; // the close asks over HTTP why (a refused token: a spectator)
        return;
      }
      socketFatal = true;
      showError(`The server refused this page: ${message.detail}`);
      if (!view) $("status").textContent = message.detail;
    }
  });
  socket.addEventListener("close", () => {
    socket = null;
    socketLog = null;
    if (refusedAtStart !== null) {
      const detail = refusedAtStart;
      const sent = token;
      refusedAtStart = null;
      refresh().then(() => {
        if (token !== sent) return connect(); // the token was refused: watch as a spectator
        socketFatal = true;
        showError(`The server refused this page: ${detail}`);
        setConnection("offline", "offline");
      });
      return;
    }
    if (socketFatal) {
      setConnection("offline", "offline");
      return;
    }
    setConnection("reconnecting…", "reconnecting");
    setTimeout(async () => {
      if (!delivered) await refresh(); // a socket that brings a view catches up by itself
      connect();
    }, retry);
    retry = Math.min(retry * 2, 10000);
  });
}

// ----------------------------------------------------------------------------- wiring
$("hint").addEventListener("click", askHint);
$("undo").addEventListener("click", () => post("/undo", "No undo"));
$("resign").addEventListener("click", () => {
  if (window.confirm("Resign this match? You will rank last.")) post("/resign", "Cannot resign");
});
$("undo-accept").addEventListener("click", () => post("/undo/accept", "Cannot accept"));
$("undo-decline").addEventListener("click", () => post("/undo/decline", "Cannot decline"));
$("record").addEventListener("click", downloadRecord);
$("rules-button").addEventListener("click", () => view && showRules(view.game, view.game_name));
$("type-action").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = $("action-input");
  const action = input.value.trim();
  if (action) send(action).then(() => (input.value = ""));
});
$("zoom-in").addEventListener("click", () => board.zoomIn());
$("zoom-out").addEventListener("click", () => board.zoomOut());
$("zoom-fit").addEventListener("click", () => board.fit());
$("zoom-last").addEventListener("click", () => board.centreOnLast());
for (const [id, name] of [["skip-default", "skip"], ["turn-sound", "sound"]]) {
  const box = $(id);
  box.checked = pref(name);
  box.addEventListener("change", () => {
    setPref(name, box.checked);
    if (name === "sound" && box.checked) beep(); // a gesture lets the page play sounds later
    if (name === "skip" && view) autoDefault();
  });
}
// The stage: its buttons and its picture's parts send their action; its parts show their words.
$("stage").addEventListener("click", (event) => {
  const part = event.target.closest("[data-stage-action], #stage-picture [data-action]");
  if (!part) return;
  event.preventDefault();
  send(part.dataset.stageAction ?? part.dataset.action);
});
$("stage-picture").addEventListener("keydown", (event) => {
  if (event.key !== "Enter" && event.key !== " ") return;
  const part = event.target.closest?.("[data-action]");
  if (!part) return;
  event.preventDefault();
  send(part.dataset.action);
});
for (const type of ["pointerover", "focusin"]) {
  $("stage-picture").addEventListener(type, (event) => {
    const text = tipText(event.target, $("stage-picture").querySelector("svg"));
    if (text) {
      $("tip").textContent = text;
      $("tip").classList.remove("empty");
    }
  });
}
$("replay-first").addEventListener("click", () => showReplay(0));
$("replay-back").addEventListener("click", () => stepReplay(-1));
$("replay-forward").addEventListener("click", () => stepReplay(1));
$("replay-last").addEventListener("click", () => showReplay(replayLast()));
$("replay-ply").addEventListener("input", (event) => showReplay(Number(event.target.value)));

setInterval(tickClocks, 250);

// A ping now and then keeps the WebSocket open through proxies that close quiet connections.
setInterval(() => {
  if (socketOpen()) socket.send(JSON.stringify({ type: "ping" }));
}, 25000);

if (!matchId) {
  $("status").textContent = "No match in this address.";
} else {
  connect();
}
