// The board: a game's SVG (docs/rendering.md) inlined in the page and made playable.
//
// The SVG convention every game follows:
//   - an element with data-action="TEXT" stands for the legal action TEXT: clicking sends it;
//   - an element with data-select="KEY" opens the hidden layer <g data-layer="KEY" display="none">
//     whose elements carry the complete data-action (one layer shown at a time; clicking elsewhere
//     or Escape closes it); a layer drawn visible from the start stays visible;
//   - <title> children are tooltips: what a tile is and how it scores.
// This module adds keyboard access (tabindex, role, aria-label, Enter/Space), the hover/focus
// panel for the titles, the hint highlight and the zoom. Nothing in it knows a game.

const PARTS = "[data-action],[data-select]";

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
function parseSvg(text) {
  const doc = new DOMParser().parseFromString(text, "image/svg+xml");
  const root = doc.documentElement;
  if (root.nodeName !== "svg" || doc.querySelector("parsererror")) {
    throw new Error("the server sent a picture this browser cannot read");
  }
  return document.importNode(root, true);
}

export class Board {
  /**
   * @param {HTMLElement} host   the element the SVG goes in (its previous SVG is replaced)
   * @param {HTMLElement} tip    the panel that shows the title of the part under the pointer or focus
   * @param {(action: string) => void} onAction   called with the notation of a clicked action
   */
  constructor(host, tip, onAction) {
    this.host = host;
    this.tip = tip;
    this.onAction = onAction;
    this.svg = null;
    this.openKey = null; // the key of the selection layer shown, or null
    this.zoom = 1;
    this.opener = null; // the [data-select] element that opened the layer (focus returns to it)

    host.addEventListener("click", (event) => this.click(event));
    host.addEventListener("keydown", (event) => this.key(event));
    host.addEventListener("pointerover", (event) => this.showTip(event.target));
    host.addEventListener("focusin", (event) => this.showTip(event.target));
    host.addEventListener("pointerleave", () => this.showTip(null));
    // A click anywhere outside the board, or Escape anywhere, closes the open layer.
    document.addEventListener("click", (event) => {
      if (!host.contains(event.target)) this.closeLayer(false);
    });
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && this.openKey !== null) this.closeLayer(true);
    });
  }

  /**
   * Show an SVG document. `interactive` false strips the clickable parts (a spectator, a replay,
   * a position where this page may not act), so nothing on it looks or acts like a button.
   */
  show(svgText, { interactive }) {
    const hadFocus = this.svg && this.svg.contains(document.activeElement);
    const focusedAction = hadFocus ? document.activeElement.dataset.action ?? document.activeElement.dataset.select : null;
    let svg;
    try {
      svg = parseSvg(svgText);
    } catch (error) {
      this.host.replaceChildren(Object.assign(document.createElement("p"), { className: "board-error", textContent: error.message }));
      this.svg = null;
      return;
    }
    // The viewBox scales the picture: drop the fixed size and let CSS give the width.
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    svg.setAttribute("role", "group");
    svg.setAttribute("aria-label", "board");
    svg.setAttribute("focusable", "false");
    svg.style.width = `${this.zoom * 100}%`;
    svg.querySelectorAll("[data-layer]").forEach((layer) => {
      // Remember how the game drew each layer: a layer shown from the start is the only choice.
      layer.dataset.initialDisplay = layer.getAttribute("display") || "inline";
    });
    if (interactive) {
      svg.querySelectorAll(PARTS).forEach((part) => {
        const text = part.dataset.action ?? part.dataset.select;
        const title = ownTitle(part);
        part.setAttribute("tabindex", "0");
        part.setAttribute("role", "button");
        part.setAttribute("aria-label", title && title !== text ? `${text}: ${title}` : text);
        if (part.dataset.select !== undefined) part.setAttribute("aria-expanded", "false");
      });
    } else {
      svg.querySelectorAll(PARTS).forEach((part) => {
        part.removeAttribute("data-action");
        part.removeAttribute("data-select");
        part.classList.remove("clickable");
      });
    }
    this.host.replaceChildren(svg);
    this.svg = svg;
    this.openKey = null;
    this.opener = null;
    // Keep the keyboard user's place when the same part is still there after a push.
    if (focusedAction) {
      const again = [...svg.querySelectorAll(PARTS)].find((part) => (part.dataset.action ?? part.dataset.select) === focusedAction);
      if (again) again.focus({ preventScroll: true });
    }
  }

  /** The layers of the current picture. */
  layers() {
    return this.svg ? [...this.svg.querySelectorAll("[data-layer]")] : [];
  }

  /** Show the layer `key` (and hide the others that were hidden at first). */
  openLayer(key, opener = null) {
    this.openKey = key;
    this.opener = opener;
    for (const layer of this.layers()) {
      const show = layer.dataset.layer === key || layer.dataset.initialDisplay !== "none";
      layer.setAttribute("display", show ? "inline" : "none");
      layer.classList.toggle("open", layer.dataset.layer === key);
    }
    this.svg?.querySelectorAll("[data-select]").forEach((part) => {
      part.setAttribute("aria-expanded", String(part.dataset.select === key));
      part.classList.toggle("selected", part.dataset.select === key);
    });
  }

  /** Back to the layers as the game drew them; `refocus` returns the focus to the opener. */
  closeLayer(refocus) {
    if (this.openKey === null) return;
    const opener = this.opener;
    this.openLayer(null);
    if (refocus && opener && opener.isConnected) opener.focus();
  }

  click(event) {
    if (!this.svg) return;
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
    if (event.key !== "Enter" && event.key !== " ") return;
    const part = event.target.closest?.(PARTS);
    if (!part || !this.svg?.contains(part)) return;
    event.preventDefault();
    if (part.dataset.action !== undefined) {
      this.closeLayer(false);
      this.onAction(part.dataset.action);
      return;
    }
    // Enter opens the layer (or, when it is open, goes to its choices again); Escape closes it.
    const key = part.dataset.select;
    if (this.openKey !== key) this.openLayer(key, part);
    // The layer is drawn last, so its choices come last in the tab order: go to the first one.
    const layer = this.layers().find((candidate) => candidate.dataset.layer === key);
    layer?.querySelector("[data-action]")?.focus();
  }

  /** The panel under the board shows the <title> of the part under the pointer or focus. */
  showTip(target) {
    if (!this.tip) return;
    const element = target && this.svg && this.svg.contains(target) ? titled(target, this.svg) : null;
    const text = element ? ownTitle(element) : "";
    this.tip.textContent = text || "Point at or focus a part of the board to read what it is.";
    this.tip.classList.toggle("empty", !text);
  }

  /**
   * Mark the element of `action` as the hint (opening the layer that holds it). Returns whether the
   * board shows it.
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
      this.openLayer(layer.dataset.layer, opener ?? null);
    }
    part.classList.add("hinted");
    return true;
  }

  /** Zoom the picture (1 = fit the width); the board scrolls when it is larger. */
  setZoom(zoom) {
    this.zoom = Math.min(4, Math.max(1, zoom));
    if (this.svg) this.svg.style.width = `${this.zoom * 100}%`;
    this.host.classList.toggle("zoomed", this.zoom > 1);
    return this.zoom;
  }
}
