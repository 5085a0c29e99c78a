// The board: a game's board SVG (docs/table.md) inlined in a viewport that pans and zooms, and made
// playable. Nothing in it knows a game.
//
// The SVG convention every game follows (docs/rendering.md, docs/table.md):
//   - an element with data-action="TEXT" stands for the legal action TEXT: clicking sends it;
//   - an element with data-select="KEY" opens the hidden layer <g data-layer="KEY" display="none">
//     whose elements carry the complete data-action (one layer shown at a time; clicking elsewhere
//     or Escape closes it); a layer drawn visible from the start stays visible;
//   - a layer whose direct children are two or more [data-choice] parts is a cycle: one choice is
//     shown at a time, turned with the staged move's controls (or r / Shift+R, or a click on it)
//     and sent with Confirm (Enter);
//   - data-label is what a part does in words (its name and tooltip); <title> children describe;
//   - the root's data-cell (a cell's size in units) and data-focus ("x y", where to look first).
// The viewport: the SVG keeps its natural size (one unit a CSS pixel at zoom 1) under a CSS scale;
// the viewport's own (hidden) scroll position is the pan, so focusing or scrolling a part into
// view pans the board too.

const PARTS = "[data-action],[data-select]";
/** A cell is never drawn smaller than this (CSS px) by default. */
const MIN_CELL = 56;
/** A pointer that moves less than this (CSS px) between down and up clicks; more drags. */
const DRAG = 6;
const PAN_STEP = 80;

/** The text of an element's own <title> child (not a descendant's), or "". */
export function ownTitle(element) {
  for (const child of element.children) {
    if (child.tagName.toLowerCase() === "title") return child.textContent.trim();
  }
  return "";
}

/** The nearest element (from `element` up to `stop`) that has its own <title>. */
function titled(element, stop) {
  for (let node = element; node && node !== stop.parentNode; node = node.parentNode) {
    if (node.nodeType === 1 && ownTitle(node)) return node;
  }
  return null;
}

/** Parse an SVG document's text into an <svg> element for this page (throws on bad XML). */
export function parseSvg(text) {
  const doc = new DOMParser().parseFromString(text, "image/svg+xml");
  const root = doc.documentElement;
  if (root.nodeName !== "svg" || doc.querySelector("parsererror")) {
    throw new Error("the server sent a picture this browser cannot read");
  }
  root.querySelectorAll("script, foreignObject").forEach((node) => node.remove());
  for (const element of [root, ...root.querySelectorAll("*")]) {
    for (const attribute of [...element.attributes]) {
      if (/^on/i.test(attribute.name)) element.removeAttribute(attribute.name);
    }
  }
  return document.importNode(root, true);
}

/** The viewBox of an svg as numbers [x, y, width, height] (from width/height when it has none). */
export function viewBoxOf(svg) {
  const box = (svg.getAttribute("viewBox") || "").trim().split(/[\s,]+/).map(Number);
  if (box.length === 4 && box.every(Number.isFinite) && box[2] > 0 && box[3] > 0) return box;
  const width = parseFloat(svg.getAttribute("width")) || 600;
  const height = parseFloat(svg.getAttribute("height")) || 400;
  return [0, 0, width, height];
}

/** What a part does in words: its data-label, or its notation. */
export function partLabel(part) {
  const text = part.dataset.action ?? part.dataset.select ?? "";
  const label = (part.dataset.label || "").trim();
  const title = ownTitle(part);
  if (label) return label === text ? label : `${label} (${text})`;
  return title && title !== text ? `${text}: ${title}` : text;
}

/**
 * Make the clickable parts of `svg` keyboard buttons (tabindex, role, aria-label, tooltip), or, when
 * `interactive` is false, strip them so that nothing looks or acts like a button.
 */
export function prepareParts(svg, interactive) {
  if (interactive) {
    svg.querySelectorAll(PARTS).forEach((part) => {
      part.setAttribute("tabindex", "0");
      part.setAttribute("role", "button");
      part.setAttribute("aria-label", partLabel(part));
      if (part.dataset.select !== undefined) part.setAttribute("aria-expanded", "false");
    });
  } else {
    svg.querySelectorAll(PARTS).forEach((part) => {
      part.removeAttribute("data-action");
      part.removeAttribute("data-select");
      part.classList.remove("clickable");
    });
  }
}

/** The text the tip panel shows for `target` inside `root`: the part's words and the title. */
export function tipText(target, root) {
  if (!target || !root || !root.contains(target)) return "";
  const texts = [];
  const part = target.closest?.(PARTS);
  if (part && root.contains(part) && part.dataset.label) {
    const text = part.dataset.action ?? part.dataset.select;
    texts.push(part.dataset.label === text ? text : `${part.dataset.label} · ${text}`);
  }
  const element = titled(target, root);
  if (element) texts.push(ownTitle(element));
  return texts.join(" — ");
}

const isCycle = (layer) => [...layer.children].filter((child) => child.hasAttribute("data-choice")).length >= 2;
const typing = (target) => target instanceof HTMLElement && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));

export class Board {
  /**
   * @param {HTMLElement} host   the viewport the SVG goes in (its previous SVG is replaced)
   * @param {HTMLElement} tip    the panel that shows what the part under the pointer or focus is
   * @param {(action: string) => void} onAction   called with the notation of a clicked action
   * @param {HTMLElement} controls   the staged move's controls (#stage-controls)
   */
  constructor(host, tip, onAction, controls) {
    this.host = host;
    this.tip = tip;
    this.onAction = onAction;
    this.controls = controls;
    this.world = document.createElement("div");
    this.world.className = "board-world";
    host.replaceChildren(this.world);
    this.svg = null;
    this.box = [0, 0, 1, 1];
    this.zoom = 1;
    this.placed = false; // the board was placed once: later pictures keep the pan and zoom
    this.openKey = null; // the key of the selection layer shown, or null
    this.opener = null; // the [data-select] element that opened the layer (focus returns to it)
    this.cycle = null; // the open cycle: {layer, choices, index}
    this.pointers = new Map();
    this.drag = null;
    this.pinch = null;
    this.suppressClick = false;

    host.addEventListener("click", (event) => this.click(event));
    host.addEventListener("click", (event) => {
      if (!this.suppressClick) return;
      this.suppressClick = false;
      event.stopPropagation();
      event.preventDefault();
    }, true);
    host.addEventListener("keydown", (event) => this.key(event));
    host.addEventListener("pointerover", (event) => this.showTip(event.target));
    host.addEventListener("focusin", (event) => this.showTip(event.target));
    host.addEventListener("pointerleave", () => this.showTip(null));
    host.addEventListener("pointerdown", (event) => this.pointerDown(event));
    host.addEventListener("pointermove", (event) => this.pointerMove(event));
    host.addEventListener("pointerup", (event) => this.pointerUp(event));
    host.addEventListener("pointercancel", (event) => this.pointerUp(event));
    host.addEventListener("wheel", (event) => this.wheel(event), { passive: false });
    new ResizeObserver(() => this.relayout()).observe(host);
    // A click anywhere outside the board and its controls, or Escape anywhere, closes the open layer.
    document.addEventListener("click", (event) => {
      if (!host.contains(event.target) && !controls?.contains(event.target)) this.closeLayer(false);
    });
    document.addEventListener("keydown", (event) => this.globalKey(event));
    controls?.addEventListener("click", (event) => {
      const step = event.target.closest("[data-step]")?.dataset.step;
      if (step) this.step(step);
    });
  }

  // ------------------------------------------------------------------------- the picture
  /**
   * Show an SVG document. `interactive` false strips the clickable parts (a spectator, a replay,
   * a position where this page may not act). The pan and zoom stay as the user left them.
   */
  show(svgText, { interactive }) {
    const hadFocus = this.svg && this.svg.contains(document.activeElement);
    const focusedAction = hadFocus ? document.activeElement.dataset.action ?? document.activeElement.dataset.select : null;
    const centre = this.placed && this.svg ? this.centreUnits() : null;
    let svg;
    try {
      svg = parseSvg(svgText || "");
    } catch (error) {
      this.world.replaceChildren(Object.assign(document.createElement("p"), { className: "board-error", textContent: error.message }));
      this.svg = null;
      this.setCycle(null);
      return;
    }
    this.box = viewBoxOf(svg);
    svg.setAttribute("viewBox", this.box.join(" "));
    svg.setAttribute("width", String(this.box[2]));
    svg.setAttribute("height", String(this.box[3]));
    svg.setAttribute("role", "group");
    svg.setAttribute("aria-label", "board");
    svg.setAttribute("focusable", "false");
    svg.querySelectorAll("[data-layer]").forEach((layer) => {
      // Remember how the game drew each layer: a layer shown from the start is the only choice.
      layer.dataset.initialDisplay = layer.getAttribute("display") || "inline";
    });
    prepareParts(svg, interactive);
    this.world.replaceChildren(svg);
    this.svg = svg;
    this.openKey = null;
    this.opener = null;
    this.setCycle(null);
    if (centre) {
      this.layout(centre);
    } else {
      this.zoom = this.clampZoom(this.defaultZoom());
      this.layout(this.snug(this.focusUnits()));
      this.placed = true;
    }
    // A cycle the game shows from the start (the only square for a tile) is open at once.
    if (interactive) {
      const shown = this.layers().find((layer) => layer.dataset.initialDisplay !== "none" && isCycle(layer));
      if (shown) this.openLayer(shown.dataset.layer, null);
    }
    // Keep the keyboard user's place when the same part is still there after a push.
    if (focusedAction) {
      const again = [...svg.querySelectorAll(PARTS)].find((part) => (part.dataset.action ?? part.dataset.select) === focusedAction && part.getClientRects().length);
      if (again) again.focus({ preventScroll: true });
    }
  }

  /** The root's data-cell (units), or null. */
  cell() {
    const cell = Number(this.svg?.dataset.cell);
    return Number.isFinite(cell) && cell > 0 ? cell : null;
  }

  /** Zoom 1, or more when a cell would be smaller than MIN_CELL px. */
  defaultZoom() {
    const cell = this.cell();
    return cell ? Math.max(1, MIN_CELL / cell) : 1;
  }

  /** The zoom that shows the whole board. */
  fitZoom() {
    const [, , width, height] = this.box;
    const w = this.host.clientWidth || 300;
    const h = this.host.clientHeight || 300;
    return Math.min(w / width, h / height) * 0.96;
  }

  clampZoom(zoom) {
    const low = Math.min(this.fitZoom(), this.defaultZoom(), 1) * 0.75;
    const high = Math.max(this.defaultZoom(), 1) * 4;
    return Math.min(high, Math.max(low, zoom));
  }

  /**
   * A centre (units) moved so that the viewport shows as much of the board as it can: the board's
   * middle on an axis where it fits whole, else no empty margin beyond its edge.
   */
  snug(centre) {
    const [x, y, width, height] = this.box;
    const halfW = this.host.clientWidth / 2 / this.zoom;
    const halfH = this.host.clientHeight / 2 / this.zoom;
    const along = (value, start, size, half) =>
      size <= 2 * half ? start + size / 2 : Math.min(start + size - half, Math.max(start + half, value));
    return { x: along(centre.x, x, width, halfW), y: along(centre.y, y, height, halfH) };
  }

  /** The root's data-focus in units, or the middle of the board. */
  focusUnits() {
    const [x, y, width, height] = this.box;
    const focus = (this.svg?.dataset.focus || "").trim().split(/[\s,]+/).map(Number);
    if (focus.length === 2 && focus.every(Number.isFinite)) return { x: focus[0], y: focus[1] };
    return { x: x + width / 2, y: y + height / 2 };
  }

  pads() {
    return { x: this.host.clientWidth / 2, y: this.host.clientHeight / 2 };
  }

  /** The point (units) at the centre of the viewport. */
  centreUnits() {
    const [x, y] = this.box;
    return { x: x + this.host.scrollLeft / this.zoom, y: y + this.host.scrollTop / this.zoom };
  }

  /**
   * Size the world for the zoom (the board with half a viewport around it, so that any point of
   * the board may sit at the centre) and put `centre` (units) in the middle of the viewport.
   */
  layout(centre) {
    if (!this.svg) return;
    const [x, y, width, height] = this.box;
    const pad = this.pads();
    this.world.style.width = `${width * this.zoom + 2 * pad.x}px`;
    this.world.style.height = `${height * this.zoom + 2 * pad.y}px`;
    this.svg.style.left = `${pad.x}px`;
    this.svg.style.top = `${pad.y}px`;
    this.svg.style.transform = `scale(${this.zoom})`;
    this.host.dataset.zoom = this.zoom.toFixed(3);
    this.host.scrollLeft = Math.max(0, Math.min(width, centre.x - x)) * this.zoom;
    this.host.scrollTop = Math.max(0, Math.min(height, centre.y - y)) * this.zoom;
  }

  relayout() {
    if (!this.svg) return;
    this.layout(this.centreUnits()); // the centre in units does not depend on the viewport's size
  }

  /** Zoom to `zoom` keeping the point under (px, py) (viewport px; default its centre) in place. */
  setZoom(zoom, px = null, py = null) {
    if (!this.svg) return this.zoom;
    const width = this.host.clientWidth;
    const height = this.host.clientHeight;
    px ??= width / 2;
    py ??= height / 2;
    const [x, y] = this.box;
    const pad = this.pads();
    const ux = x + (this.host.scrollLeft + px - pad.x) / this.zoom;
    const uy = y + (this.host.scrollTop + py - pad.y) / this.zoom;
    this.zoom = this.clampZoom(zoom);
    // The point under the pointer stays: the centre moves with it.
    this.layout({ x: ux + (width / 2 - px) / this.zoom, y: uy + (height / 2 - py) / this.zoom });
    return this.zoom;
  }

  zoomIn() { return this.setZoom(this.zoom * 1.25); }
  zoomOut() { return this.setZoom(this.zoom / 1.25); }

  /** The whole board in the viewport. */
  fit() {
    if (!this.svg) return;
    const [x, y, width, height] = this.box;
    this.zoom = this.clampZoom(this.fitZoom());
    this.layout({ x: x + width / 2, y: y + height / 2 });
  }

  panBy(dx, dy) {
    this.host.scrollLeft += dx;
    this.host.scrollTop += dy;
  }

  /** Centre on the elements (their joint box), at least at the default zoom's detail. */
  centreOnElements(elements) {
    if (!this.svg || !elements.length) return false;
    const rects = elements.map((element) => element.getBoundingClientRect()).filter((r) => r.width || r.height);
    if (!rects.length) return false;
    const left = Math.min(...rects.map((r) => r.left));
    const right = Math.max(...rects.map((r) => r.right));
    const top = Math.min(...rects.map((r) => r.top));
    const bottom = Math.max(...rects.map((r) => r.bottom));
    const origin = this.svg.getBoundingClientRect();
    const [x, y] = this.box;
    this.layout({ x: x + ((left + right) / 2 - origin.left) / this.zoom, y: y + ((top + bottom) / 2 - origin.top) / this.zoom });
    return true;
  }

  /** Centre on the last ply's parts (or the board's focus). */
  centreOnLast() {
    if (!this.svg) return;
    if (!this.centreOnElements([...this.svg.querySelectorAll("[data-last]")])) this.layout(this.snug(this.focusUnits()));
  }

  /** Centre on the parts at these data-pos values and flash them; returns whether any was found. */
  showPlaces(places) {
    if (!this.svg) return false;
    const wanted = new Set(places);
    const found = [...this.svg.querySelectorAll("[data-pos]")].filter((element) => wanted.has(element.dataset.pos));
    if (!this.centreOnElements(found)) return false;
    for (const element of found) {
      element.classList.remove("flash");
      void element.getBoundingClientRect();
      element.classList.add("flash");
      setTimeout(() => element.classList.remove("flash"), 1600);
    }
    return true;
  }

  /** Pop the points of the .scored groups up over their boxes for a moment. */
  popScores(colourOf) {
    if (!this.svg) return;
    const origin = this.world.getBoundingClientRect();
    for (const group of this.svg.querySelectorAll(".scored[data-points]")) {
      const points = Number(group.dataset.points);
      if (!points) continue;
      const rect = group.getBoundingClientRect();
      const pop = document.createElement("div");
      pop.className = "score-pop";
      pop.setAttribute("aria-hidden", "true");
      pop.dataset.seat = group.dataset.seat ?? "";
      pop.textContent = `${points > 0 ? "+" : ""}${points}`;
      pop.style.left = `${rect.left - origin.left + rect.width / 2}px`;
      pop.style.top = `${rect.top - origin.top + rect.height / 2}px`;
      pop.style.color = colourOf(group.dataset.seat) || "#1b1b1b";
      this.world.append(pop);
      setTimeout(() => pop.remove(), 2500);
    }
  }

  // ------------------------------------------------------------------------- pointers
  pointerDown(event) {
    if (event.pointerType === "mouse" && event.button !== 0) return;
    this.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (this.pointers.size === 1) {
      this.drag = { id: event.pointerId, x: event.clientX, y: event.clientY, left: this.host.scrollLeft, top: this.host.scrollTop, moved: false };
    } else if (this.pointers.size === 2) {
      const [a, b] = [...this.pointers.values()];
      this.pinch = { distance: Math.hypot(a.x - b.x, a.y - b.y) || 1, zoom: this.zoom };
      if (this.drag) this.drag.moved = true;
    }
  }

  pointerMove(event) {
    if (!this.pointers.has(event.pointerId)) return;
    this.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (this.pinch && this.pointers.size >= 2) {
      const [a, b] = [...this.pointers.values()];
      const rect = this.host.getBoundingClientRect();
      const distance = Math.hypot(a.x - b.x, a.y - b.y) || 1;
      this.setZoom(this.pinch.zoom * (distance / this.pinch.distance), (a.x + b.x) / 2 - rect.left, (a.y + b.y) / 2 - rect.top);
      return;
    }
    const drag = this.drag;
    if (!drag || drag.id !== event.pointerId) return;
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    if (!drag.moved && Math.hypot(dx, dy) < DRAG) return;
    if (!drag.moved) {
      drag.moved = true;
      this.host.classList.add("dragging");
      try {
        this.host.setPointerCapture(event.pointerId);
      } catch {
        // the pointer is gone already
      }
    }
    this.host.scrollLeft = drag.left - dx;
    this.host.scrollTop = drag.top - dy;
  }

  pointerUp(event) {
    if (!this.pointers.has(event.pointerId)) return;
    this.pointers.delete(event.pointerId);
    if (this.pinch && this.pointers.size === 1) {
      // The end of a pinch: the finger left drags on from where it is (no click at its end).
      const [[id, at]] = [...this.pointers.entries()];
      this.drag = { id, x: at.x, y: at.y, left: this.host.scrollLeft, top: this.host.scrollTop, moved: true };
    }
    if (this.pointers.size < 2) this.pinch = null;
    if (this.drag && (this.drag.id === event.pointerId || this.pointers.size === 0) && !this.pointers.has(this.drag.id)) {
      if (this.drag.moved) {
        this.suppressClick = true; // the click that ends a drag is no click
        setTimeout(() => (this.suppressClick = false), 0);
      }
      this.drag = null;
      this.host.classList.remove("dragging");
    }
  }

  wheel(event) {
    if (!this.svg || event.ctrlKey && event.deltaY === 0) return;
    event.preventDefault();
    const rect = this.host.getBoundingClientRect();
    const delta = event.deltaMode === 1 ? event.deltaY * 16 : event.deltaY;
    this.setZoom(this.zoom * Math.exp(-delta * 0.002), event.clientX - rect.left, event.clientY - rect.top);
  }

  // ------------------------------------------------------------------------- layers and cycles
  /** The layers of the current picture. */
  layers() {
    return this.svg ? [...this.svg.querySelectorAll("[data-layer]")] : [];
  }

  /** Show the layer `key` (and hide the others that were hidden at first). */
  openLayer(key, opener = null) {
    this.openKey = key;
    this.opener = opener;
    let cycle = null;
    for (const layer of this.layers()) {
      const show = layer.dataset.layer === key || layer.dataset.initialDisplay !== "none";
      layer.setAttribute("display", show ? "inline" : "none");
      layer.classList.toggle("open", layer.dataset.layer === key);
      if (layer.dataset.layer === key && key !== null && isCycle(layer)) cycle = layer;
    }
    this.svg?.querySelectorAll("[data-select]").forEach((part) => {
      part.setAttribute("aria-expanded", String(part.dataset.select === key));
      part.classList.toggle("selected", part.dataset.select === key);
    });
    this.setCycle(cycle);
  }

  /** Back to the layers as the game drew them; `refocus` returns the focus to the opener. */
  closeLayer(refocus) {
    if (this.openKey === null) return;
    const opener = this.opener;
    this.openLayer(null);
    if (refocus && opener && opener.isConnected) opener.focus({ preventScroll: true });
  }

  /** Make `layer` the open cycle (null: none), showing its first choice. */
  setCycle(layer) {
    if (!layer) {
      this.cycle = null;
      if (this.controls) this.controls.hidden = true;
      return;
    }
    const choices = [...layer.children].filter((child) => child.hasAttribute("data-choice"));
    this.cycle = { layer, choices, index: 0 };
    if (this.controls) {
      this.controls.querySelector("[data-step=prev]").textContent = layer.dataset.prevLabel || "Previous";
      this.controls.querySelector("[data-step=next]").textContent = layer.dataset.nextLabel || "Next";
      this.controls.hidden = false;
    }
    this.turn(0);
  }

  /** Show the cycle's choice `index` (modulo its length). */
  turn(index) {
    const cycle = this.cycle;
    if (!cycle) return;
    const n = cycle.choices.length;
    cycle.index = ((index % n) + n) % n;
    const hadFocus = cycle.choices.some((choice) => choice === document.activeElement);
    cycle.choices.forEach((choice, i) => {
      const shown = i === cycle.index;
      choice.setAttribute("display", shown ? "inline" : "none");
      choice.classList.toggle("shown", shown);
    });
    const choice = cycle.choices[cycle.index];
    if (hadFocus) choice.focus({ preventScroll: true });
    const label = this.controls?.querySelector("#stage-choice");
    if (label) label.textContent = `${choice.dataset.label || choice.dataset.action || ""} (${cycle.index + 1} of ${n})`;
    this.showTip(choice);
  }

  /** A staged move's step: prev, next, confirm or cancel. */
  step(step) {
    if (!this.cycle) return;
    if (step === "next") this.turn(this.cycle.index + 1);
    else if (step === "prev") this.turn(this.cycle.index - 1);
    else if (step === "cancel") this.closeLayer(true);
    else if (step === "confirm") {
      const action = this.cycle.choices[this.cycle.index].dataset.action;
      if (action === undefined) return;
      this.closeLayer(false);
      this.onAction(action);
    }
  }

  // ------------------------------------------------------------------------- clicks and keys
  click(event) {
    if (!this.svg) return;
    const choice = this.cycle ? event.target.closest("[data-choice]") : null;
    if (choice && this.cycle.choices.includes(choice)) {
      event.preventDefault();
      this.step("next"); // a click on the choice shown turns it
      return;
    }
    const action = event.target.closest("[data-action]");
    if (action && this.svg.contains(action)) {
      event.preventDefault();
      this.closeLayer(false);
      this.onAction(action.dataset.action);
      return;
    }
    const select = event.target.closest("[data-select]");
    if (select && this.svg.contains(select)) {
      event.preventDefault();
      const key = select.dataset.select;
      if (this.openKey === key) this.closeLayer(false);
      else this.openLayer(key, select);
      return;
    }
    this.closeLayer(false); // a click on the board's background
  }

  key(event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === "Enter" || event.key === " ") {
      const part = event.target.closest?.(PARTS);
      if (!part || !this.svg?.contains(part)) return;
      event.preventDefault();
      const opensCycle = this.cycle && part.dataset.select !== undefined && part.dataset.select === this.openKey;
      if (this.cycle && (this.cycle.choices.includes(part) || opensCycle)) {
        this.step("confirm");
        return;
      }
      if (part.dataset.action !== undefined) {
        this.closeLayer(false);
        this.onAction(part.dataset.action);
        return;
      }
      // Enter opens the layer (or, when it is open, goes to its choices again); Escape closes it.
      const key = part.dataset.select;
      if (this.openKey !== key) this.openLayer(key, part);
      // The layer is drawn last, so its choices come last in the tab order: go to the first one.
      if (this.cycle) this.cycle.choices[this.cycle.index].focus({ preventScroll: true });
      else this.layers().find((candidate) => candidate.dataset.layer === key)?.querySelector("[data-action]")?.focus({ preventScroll: true });
      return;
    }
    const pans = { ArrowLeft: [-PAN_STEP, 0], ArrowRight: [PAN_STEP, 0], ArrowUp: [0, -PAN_STEP], ArrowDown: [0, PAN_STEP] };
    if (pans[event.key]) {
      event.preventDefault();
      this.panBy(...pans[event.key]);
    } else if (event.key === "+" || event.key === "=") {
      event.preventDefault();
      this.zoomIn();
    } else if (event.key === "-" || event.key === "_") {
      event.preventDefault();
      this.zoomOut();
    } else if (event.key === "0") {
      event.preventDefault();
      this.fit();
    }
  }

  /** Keys anywhere on the page while a cycle is open (r, Shift+R, Enter) and Escape for a layer. */
  globalKey(event) {
    if (event.defaultPrevented) return; // the board's own keys handled it
    if (event.key === "Escape" && this.openKey !== null) {
      this.closeLayer(true);
      return;
    }
    if (!this.cycle || typing(event.target) || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === "r" || event.key === "R") {
      event.preventDefault();
      this.step(event.shiftKey || event.key === "R" ? "prev" : "next");
    } else if (event.key === "Enter") {
      // Enter on another button presses that button; elsewhere it confirms the staged move.
      const active = document.activeElement;
      if (active && active !== document.body && active !== this.host && !this.svg?.contains(active)) return;
      event.preventDefault();
      this.step("confirm");
    }
  }

  /** The panel under the board shows what the part under the pointer or focus is. */
  showTip(target) {
    if (!this.tip) return;
    const text = tipText(target, this.svg);
    this.tip.textContent = text || "Point at or focus a part of the board to read what it is.";
    this.tip.classList.toggle("empty", !text);
  }

  /**
   * Mark the element of `action` as the hint (opening the layer that holds it, turning a cycle to
   * it). Returns whether the board shows it.
   */
  highlight(action) {
    if (!this.svg) return false;
    this.svg.querySelectorAll(".hinted").forEach((part) => part.classList.remove("hinted"));
    if (!action) return false;
    const part = [...this.svg.querySelectorAll("[data-action]")].find((candidate) => candidate.dataset.action === action);
    if (!part) return false;
    const layer = part.closest("[data-layer]");
    if (layer) {
      const opener = [...this.svg.querySelectorAll("[data-select]")].find((s) => s.dataset.select === layer.dataset.layer);
      opener?.classList.add("hinted");
      if (this.openKey !== layer.dataset.layer) this.openLayer(layer.dataset.layer, opener ?? null);
      if (this.cycle) {
        const index = this.cycle.choices.indexOf(part);
        if (index >= 0) this.turn(index);
      }
    }
    part.classList.add("hinted");
    return true;
  }
}
