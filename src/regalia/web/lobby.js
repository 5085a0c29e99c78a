// The lobby (/): create a match of any registered game, share its links, list the matches.
// The options form is built from each game's options schema (GET /api/games), and the seats from
// what the server says those options give (POST /api/games/{game}/seats): no game is named here.

import { agentText, ago, clockName, copyText, errorText, getJSON, h, knownMatches, loadMatch, postJSON, saveMatch, seatName, showRules, winnerText } from "./api.js";

const $ = (id) => document.getElementById(id);

let games = []; // GET /api/games
let game = null; // the chosen game
let fields = []; // the option fields: [{option, read()}]
let seats = []; // the seats the options give: [{seat, name, automaton}]
const seatChoices = new Map(); // seat index -> {kind, agent, level, name}: kept when the options change
let seatsRequest = 0; // to drop answers to older requests

// ----------------------------------------------------------------------------- options form
/** A label, the input and its help text, wired for screen readers. */
function fieldBox(option, input, { inline = false } = {}) {
  const id = `opt-${option.name}`;
  const helpId = `${id}-help`;
  input.id = id;
  input.name = option.name;
  input.dataset.option = option.name;
  input.setAttribute("aria-describedby", helpId);
  const label = h("label", { for: id }, option.name.replaceAll("_", " "));
  const help = h("p", { class: "help", id: helpId }, option.help || "");
  return h("div", { class: inline ? "field inline" : "field" }, inline ? [input, " ", label] : [label, input], help);
}

/** Convert a chosen value to the option's type (choices come back from <select> as strings). */
function typed(option, value) {
  if (option.type === "int") return Number.parseInt(value, 10);
  if (option.type === "bool") return value === "true";
  return value;
}

/** One option's field: returns {element, read} where read() gives the value (undefined: not sent). */
function optionField(option) {
  const kind = option.type;
  const def = option.default;

  if (kind === "list") {
    if (option.choices) {
      // Several values from a list: one checkbox each.
      const chosen = new Set(def || []);
      const boxes = option.choices.map((choice) =>
        h("label", { class: "choice" }, h("input", { type: "checkbox", value: choice, checked: chosen.has(choice), "data-option": option.name }), ` ${choice}`),
      );
      const helpId = `opt-${option.name}-help`;
      const group = h(
        "fieldset",
        { class: "field list", "aria-describedby": helpId },
        h("legend", {}, option.name.replaceAll("_", " ")),
        h("div", { class: "choices" }, boxes),
        h("p", { class: "help", id: helpId }, option.help || ""),
      );
      const read = () => [...group.querySelectorAll("input:checked")].map((box) => typed({ type: typeof option.choices[0] === "number" ? "int" : "str" }, box.value));
      return { element: group, read };
    }
    const input = h("input", { type: "text", value: (def || []).join(", "), placeholder: "comma-separated values" });
    const read = () => input.value.split(",").map((v) => v.trim()).filter(Boolean);
    return { element: fieldBox(option, input), read };
  }

  if (kind === "bool" && !option.nullable) {
    const input = h("input", { type: "checkbox", checked: Boolean(def) });
    return { element: fieldBox(option, input, { inline: true }), read: () => input.checked };
  }

  const choices = option.choices ?? (kind === "bool" ? [true, false] : null);
  if (choices) {
    const select = h("select", {});
    if (option.nullable) select.append(h("option", { value: "" }, "(default)"));
    for (const choice of choices) {
      select.append(h("option", { value: String(choice), selected: choice === def }, String(choice)));
    }
    if (def === null || def === undefined) select.value = "";
    const read = () => (select.value === "" ? undefined : typed(option, select.value));
    return { element: fieldBox(option, select), read };
  }

  if (kind === "int" || kind === "float") {
    const input = h("input", {
      type: "number",
      inputmode: "numeric",
      step: kind === "int" ? 1 : "any",
      min: option.minimum,
      max: option.maximum,
      value: def ?? "",
      placeholder: option.nullable ? "default" : null,
    });
    const read = () => {
      if (input.value.trim() === "") return undefined;
      return kind === "int" ? Number.parseInt(input.value, 10) : Number(input.value);
    };
    const bounds = [option.minimum, option.maximum].some((v) => v !== null && v !== undefined) ? ` (${option.minimum ?? "…"} to ${option.maximum ?? "…"})` : "";
    const box = fieldBox({ ...option, help: `${option.help || ""}${bounds}` }, input);
    return { element: box, read };
  }

  const input = h("input", { type: "text", value: def ?? "", placeholder: option.nullable ? "default" : null });
  const read = () => (input.value.trim() === "" ? (option.nullable ? undefined : "") : input.value.trim());
  return { element: fieldBox(option, input), read };
}

function buildOptions() {
  const box = $("options-fields");
  // Options naming a file on the server's machine are not for a browser (the server refuses them).
  const options = (game.options || []).filter((option) => !option.file);
  fields = options.map((option) => ({ option, ...optionField(option) }));
  box.replaceChildren(...fields.map((field) => field.element));
  if (!fields.length) box.replaceChildren(h("p", { class: "muted" }, "This game has no options."));
  $("options").hidden = false;
}

/** The options as the form sets them (values left empty are not sent: the game's default). */
function readOptions() {
  const out = {};
  for (const field of fields) {
    const value = field.read();
    if (value !== undefined && !(typeof value === "number" && Number.isNaN(value))) out[field.option.name] = value;
  }
  return out;
}

// ----------------------------------------------------------------------------- seats
async function updateSeats() {
  const ticket = ++seatsRequest;
  const error = $("options-error");
  try {
    const answer = await postJSON(`/api/games/${encodeURIComponent(game.id)}/seats`, { options: readOptions() });
    if (ticket !== seatsRequest) return;
    seats = answer;
    error.hidden = true;
    $("create").disabled = false;
    renderSeats();
  } catch (failure) {
    if (ticket !== seatsRequest) return;
    error.textContent = `These options cannot be played: ${errorText(failure)}`;
    error.hidden = false;
    $("create").disabled = true;
  }
}

let seatsTimer = null;
function seatsSoon() {
  clearTimeout(seatsTimer);
  seatsTimer = setTimeout(updateSeats, 200);
}

/** The level a new computer seat plays at: medium where the agent has it. */
const DEFAULT_LEVEL = "medium";

/** The default for a seat: the first is a person, the others the computer at medium. */
function choiceFor(index) {
  if (!seatChoices.has(index)) {
    const agents = game.agents || [];
    const agent = agents.find((candidate) => (candidate.levels || []).includes(DEFAULT_LEVEL)) ?? agents[0];
    const level = agent?.levels?.includes(DEFAULT_LEVEL) ? DEFAULT_LEVEL : (agent?.levels?.[0] ?? "");
    seatChoices.set(index, { kind: index === 0 || !agent ? "human" : "computer", agent: agent?.name ?? "", level, name: "" });
  }
  return seatChoices.get(index);
}

/** How many seats a person plays, as the form stands. */
function humanSeats() {
  return seats.filter((seat, index) => !seat.automaton && choiceFor(index).kind === "human").length;
}

/** The screen choice is offered only where a second person plays; otherwise the match is online. */
function updateScreen() {
  $("screen-fieldset").hidden = humanSeats() < 2;
}

/** The screen sent: the choice where two people or more play, "online" (one private link) otherwise. */
function readScreen() {
  if (humanSeats() < 2) return "online";
  return document.querySelector("input[name=screen]:checked").value;
}

function renderSeats() {
  const rows = seats.map((seat, index) => {
    const id = `seat-${index}`;
    if (seat.automaton) {
      return h(
        "div",
        { class: "seat-row", "data-seat": seat.seat, "data-testid": `seat-${index}` },
        h("span", { class: "seat-name" }, seat.name),
        h("span", { class: "muted" }, "automaton: the rules play this seat"),
      );
    }
    const choice = choiceFor(index);
    const kind = h(
      "select",
      { id: `${id}-kind`, "data-testid": `seat-${index}-kind`, "aria-label": `${seat.name}: who plays` },
      h("option", { value: "human", selected: choice.kind === "human" }, "a person"),
      h("option", { value: "computer", selected: choice.kind === "computer", disabled: !(game.agents || []).length }, "the computer"),
    );
    const agents = h(
      "select",
      { id: `${id}-agent`, "data-testid": `seat-${index}-agent`, "aria-label": `${seat.name}: computer player` },
      (game.agents || []).map((agent) => h("option", { value: agent.name, selected: agent.name === choice.agent }, agent.name)),
    );
    const levels = h("select", { id: `${id}-level`, "data-testid": `seat-${index}-level`, "aria-label": `${seat.name}: level` });
    const name = h("input", { type: "text", id: `${id}-name`, "data-testid": `seat-${index}-name`, value: choice.name, placeholder: "player's name (optional)", "aria-label": `${seat.name}: player's name`, maxlength: 40 });
    const fillLevels = () => {
      const agent = (game.agents || []).find((candidate) => candidate.name === agents.value);
      const list = agent?.levels || [];
      levels.replaceChildren(...list.map((level) => h("option", { value: level, selected: level === choice.level }, level)));
      levels.hidden = !list.length;
      choice.level = levels.value;
    };
    const show = () => {
      const computer = kind.value === "computer";
      agents.hidden = !computer;
      levels.hidden = !computer || !levels.options.length;
      name.hidden = computer;
    };
    kind.addEventListener("change", () => {
      choice.kind = kind.value;
      show();
      updateScreen();
    });
    agents.addEventListener("change", () => {
      choice.agent = agents.value;
      choice.level = "";
      fillLevels();
      show();
    });
    levels.addEventListener("change", () => (choice.level = levels.value));
    name.addEventListener("input", () => (choice.name = name.value));
    fillLevels();
    show();
    return h(
      "div",
      { class: "seat-row", "data-seat": seat.seat, "data-testid": `seat-${index}` },
      h("label", { class: "seat-name", for: `${id}-kind` }, seat.name),
      kind,
      agents,
      levels,
      name,
    );
  });
  $("seats-fields").replaceChildren(...rows);
  updateScreen();
}

/** The seats for POST /api/matches. */
function readSeats() {
  return seats.map((seat, index) => {
    if (seat.automaton) return { kind: "automaton" };
    const choice = choiceFor(index);
    if (choice.kind === "computer") {
      const out = { kind: "computer", agent: choice.agent };
      if (choice.level) out.level = choice.level;
      return out;
    }
    return choice.name.trim() ? { kind: "human", name: choice.name.trim() } : { kind: "human" };
  });
}

// ----------------------------------------------------------------------------- creating
async function create(event) {
  event.preventDefault();
  const error = $("create-error");
  const button = $("create");
  button.disabled = true;
  error.hidden = true;
  const screen = readScreen();
  const time_control = $("time-control").value;
  const isPublic = $("public").checked;
  try {
    const answer = await postJSON("/api/matches", { game: game.id, options: readOptions(), seats: readSeats(), screen, time_control, public: isPublic });
    saveMatch(answer.id, { ...answer, game: game.id, game_name: game.name, screen, created: new Date().toISOString() });
    showCreated(answer, screen);
    loadLists();
  } catch (failure) {
    error.textContent = `The match was not created: ${errorText(failure)}`;
    error.hidden = false;
  } finally {
    button.disabled = false;
  }
}

/** One link with its copy button. */
function linkItem(label, path, testid) {
  const url = new URL(path, location.origin).href;
  const status = h("span", { class: "copied", "aria-live": "polite" });
  return h(
    "li",
    { "data-testid": testid },
    h("span", { class: "link-label" }, label),
    h("a", { href: url, class: "link-url" }, url),
    h(
      "span",
      { class: "link-buttons" },
      h("button", { type: "button", class: "small-button", "data-testid": `${testid}-copy`, "aria-label": `Copy the link: ${label}`, onclick: async () => {
        status.textContent = (await copyText(url)) ? " copied" : " copy failed: select the link";
      } }, "Copy"),
      status,
    ),
  );
}

function showCreated(answer, screen) {
  const list = $("created-links");
  const items = [];
  const humans = answer.seats.filter((seat) => seat.link);
  const alone = humans.length === 1; // one person against the computer: their link, nobody else's
  if ((screen === "shared" || alone) && humans.length) {
    items.push(h("li", { class: "primary-link" }, h("a", { href: humans[0].link, class: "button primary", "data-testid": "play-here" }, screen === "shared" ? "Play on this screen" : "Play")));
  }
  for (const seat of answer.seats) {
    const what = screen === "shared" ? "this screen" : alone ? "your link (this browser keeps it)" : "player's private link";
    if (seat.link) items.push(linkItem(`${seat.name}: ${what}`, seat.link, `link-${seat.seat}`));
    else items.push(h("li", { "data-testid": `link-${seat.seat}` }, h("span", { class: "link-label" }, `${seat.name}: ${seat.kind}`)));
  }
  if (answer.spectator) items.push(linkItem("spectators (anyone may watch)", answer.spectator, "link-spectator"));
  list.replaceChildren(...items);
  const box = $("created");
  box.hidden = false;
  box.focus();
}

// ----------------------------------------------------------------------------- match lists
function matchTable(matches, finished) {
  if (!matches.length) return h("p", { class: "muted" }, finished ? "No public match finished yet." : "No public match in progress.");
  const rows = matches.map((match) => {
    // "blue (random)" already says it is the computer; other names get their kind when not human.
    const kindOf = (seat) => (seat.kind === "human" || (seat.agent && !agentText(seat)) ? "" : ` (${seat.kind})`);
    const players = (match.seats || []).map((seat) => `${seat.name}${kindOf(seat)}`).join(", ");
    const known = loadMatch(match.id);
    const links = [h("a", { href: `/match/${encodeURIComponent(match.id)}`, "data-testid": "watch" }, finished ? "Replay" : "Watch")];
    for (const seat of known?.seats || []) {
      if (seat.token && !finished) links.push(" · ", h("a", { href: `/match/${encodeURIComponent(match.id)}#token=${seat.token}` }, `Play ${seat.name}`));
    }
    return h(
      "tr",
      { "data-match": match.id },
      h("td", {}, match.game_name ?? match.game, match.time_control && match.time_control !== "none" ? h("span", { class: "small muted" }, ` · ${clockName(match.time_control)}`) : ""),
      h("td", {}, players),
      h("td", {}, String(match.plies ?? "")),
      h("td", {}, finished ? winnerText(match.seats, match.result) : match.to_act !== null && match.to_act !== undefined ? `${seatName(match.seats, match.to_act)} to play` : ""),
      h("td", {}, ago(match.updated ?? match.created)),
      h("td", {}, links),
    );
  });
  return h(
    "div",
    { class: "table-scroll" },
    h(
      "table",
      { class: "matches" },
      h("thead", {}, h("tr", {}, ["Game", "Players", "Plies", finished ? "Result" : "Turn", "Updated", "Links"].map((name) => h("th", { scope: "col" }, name)))),
      h("tbody", {}, rows),
    ),
  );
}

/** The matches this browser keeps (localStorage): each with its game and the links of its seats here. */
function showMine() {
  const mine = knownMatches().slice(0, 30);
  if (!mine.length) {
    $("mine").replaceChildren(h("p", { class: "muted" }, "None yet: the matches you create or open with a seat link are kept here."));
    return;
  }
  const items = mine.map((match) => {
    const path = `/match/${encodeURIComponent(match.id)}`;
    const links = [];
    for (const seat of match.seats || []) {
      if (seat.token) links.push(h("a", { href: `${path}#token=${seat.token}`, "data-testid": "my-seat-link" }, match.screen === "shared" ? "Play on this screen" : `Play ${seat.name ?? `seat ${seat.seat}`}`), " · ");
      if (match.screen === "shared" && seat.token) break; // one link plays every seat of a shared screen
    }
    links.push(h("a", { href: path, "data-testid": "my-watch-link" }, "Watch"));
    return h(
      "li",
      { "data-match": match.id, "data-testid": "my-match" },
      h("span", { class: "link-label" }, match.game_name ?? match.game ?? "match"),
      match.created ? h("span", { class: "small muted" }, ` · created ${ago(match.created)} · `) : " · ",
      links,
    );
  });
  $("mine").replaceChildren(h("ul", { class: "links" }, items));
}

async function loadLists() {
  showMine();
  const error = $("list-error");
  try {
    const [active, finished] = await Promise.all([
      getJSON("/api/matches?status=active&limit=30"),
      getJSON("/api/matches?status=finished&limit=30"),
    ]);
    $("active").replaceChildren(matchTable(active, false));
    $("finished").replaceChildren(matchTable(finished, true));
    error.hidden = true;
  } catch (failure) {
    error.textContent = `The matches cannot be listed: ${errorText(failure)}`;
    error.hidden = false;
  }
}

// ----------------------------------------------------------------------------- start
function chooseGame() {
  game = games.find((candidate) => candidate.id === $("game").value) ?? games[0];
  const players = game.min_players === game.max_players ? `${game.min_players}` : `${game.min_players} to ${game.max_players}`;
  $("game-help").textContent = `${players} players. `;
  $("game-help").append(h("button", { type: "button", class: "link-button", "data-testid": "rules-button", onclick: () => showRules(game.id, game.name) }, "Rules"));
  seatChoices.clear();
  buildOptions();
  updateSeats();
}

async function start() {
  try {
    games = await getJSON("/api/games");
  } catch (failure) {
    $("create-error").textContent = `The games cannot be read: ${errorText(failure)}`;
    $("create-error").hidden = false;
    return;
  }
  $("game").replaceChildren(...games.map((entry) => h("option", { value: entry.id }, entry.name)));
  const wanted = new URLSearchParams(location.search).get("game");
  if (wanted && games.some((entry) => entry.id === wanted)) $("game").value = wanted;
  $("game").addEventListener("change", chooseGame);
  $("options-fields").addEventListener("change", seatsSoon);
  $("options-fields").addEventListener("input", seatsSoon);
  $("create-form").addEventListener("submit", create);
  $("refresh").addEventListener("click", loadLists);
  chooseGame();
  loadLists();
  setInterval(() => {
    if (document.visibilityState === "visible") loadLists();
  }, 15000);
}

start();
