// @ts-check
/** Small DOM and SVG helpers: elements from tag, attributes and children. */

const SVG_NS = 'http://www.w3.org/2000/svg';

/** @typedef {string | number | boolean | null | undefined} AttrValue */
/** @typedef {Node | string | number | null | undefined | false | any[]} Child */
/** @typedef {AttrValue | ((e: any) => void)} AttrOrListener */

/**
 * Sets attributes (and `on*` listeners) on an element.
 * @param {Element} el
 * @param {Record<string, AttrOrListener>} attrs
 */
function setAttrs(el, attrs) {
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2), /** @type {EventListener} */ (value));
    } else if (key === 'text') {
      el.textContent = String(value);
    } else {
      el.setAttribute(key, value === true ? '' : String(value));
    }
  }
}

/**
 * Appends children, skipping empty ones.
 * @param {Element} el
 * @param {Child[]} children
 */
function append(el, children) {
  for (const c of /** @type {any[]} */ (children).flat(8)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === 'object' ? c : String(c));
  }
}

/**
 * An HTML element.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, AttrOrListener>} [attrs]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, /** @type {Child[]} */ (children));
  return el;
}

/**
 * An SVG element.
 * @param {string} tag
 * @param {Record<string, AttrOrListener>} [attrs]
 * @param {...(Child | Child[])} children
 * @returns {SVGElement}
 */
export function s(tag, attrs = {}, ...children) {
  const el = /** @type {SVGElement} */ (document.createElementNS(SVG_NS, tag));
  setAttrs(el, attrs);
  append(el, /** @type {Child[]} */ (children));
  return el;
}

/**
 * An SVG `<text>` that never runs wider than `width`: a text whose
 * estimated width (`size` px glyphs, about 0.55 em each) exceeds it is
 * squeezed to fit.
 * @param {Record<string, AttrOrListener>} attrs @param {string} text
 * @param {number} width @param {number} size the font size in px
 * @returns {SVGElement}
 */
export function fittedText(attrs, text, width, size) {
  const squeeze = [...text].length * size * 0.55 > width
    ? { textLength: width, lengthAdjust: 'spacingAndGlyphs' }
    : {};
  return s('text', { ...attrs, ...squeeze }, text);
}

/**
 * An `<svg>` root with a view box, scaled to its container.
 * @param {number} width
 * @param {number} height
 * @param {string} label the board's accessible name
 * @param {...(Child | Child[])} children
 * @returns {SVGSVGElement}
 */
export function svgRoot(width, height, label, ...children) {
  const el = /** @type {SVGSVGElement} */ (
    s('svg', {
      viewBox: `0 0 ${width} ${height}`,
      role: 'group',
      'aria-label': label,
      class: 'board-svg',
      preserveAspectRatio: 'xMidYMid meet',
    }, ...children)
  );
  return el;
}

/**
 * Replaces the children of `el`.
 * @param {Element} el
 * @param {...(Child | Child[])} children
 */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, /** @type {Child[]} */ (children));
}

/**
 * A clickable, focusable SVG group: a target of the board's picker.
 * @param {string} target the target id (e.g. `pt:13`)
 * @param {string} label its accessible name
 * @param {Record<string, AttrValue>} attrs extra attributes (class, ...)
 * @param {...(Child | Child[])} children
 */
export function target(target, label, attrs, ...children) {
  const el = s('g', {
    ...attrs,
    'data-target': target,
    role: 'button',
    tabindex: 0,
    'aria-label': label,
  }, ...children);
  // The label names the target in full; the numbers and words drawn on it
  // are part of the picture.
  for (const text of el.querySelectorAll('text')) text.setAttribute('aria-hidden', 'true');
  return el;
}

/**
 * Turns a landscape board drawing a quarter turn clockwise for a phone held
 * upright; texts stay upright.
 * @param {SVGSVGElement} svg a root made by `svgRoot`
 * @returns {SVGSVGElement}
 */
export function portrait(svg) {
  const [, , w, h] = (svg.getAttribute('viewBox') || '0 0 0 0').split(' ').map(Number);
  const turned = s('g', { transform: `translate(${h} 0) rotate(90)` });
  turned.append(...svg.childNodes);
  for (const text of turned.querySelectorAll('text')) {
    const x = Number(text.getAttribute('x') || 0);
    const y = Number(text.getAttribute('y') || 0);
    const own = text.getAttribute('transform');
    text.setAttribute('transform', `${own ? own + ' ' : ''}rotate(-90 ${x} ${y})`);
  }
  svg.setAttribute('viewBox', `0 0 ${h} ${w}`);
  svg.classList.add('portrait');
  svg.append(turned);
  return svg;
}

/**
 * On a phone, holds a board to the room between its top and the foot of
 * the screen less the row below it (its buttons), so that the row stays
 * on the screen; elsewhere the board keeps its own height. With `finger`,
 * the board is never held so small that a target on it (`[data-target]`)
 * is under `finger` px either way: then the page scrolls instead.
 * @param {HTMLElement} board the board's box (sets `--board-room` on it)
 * @param {Element} below the row kept on the screen under it
 * @param {number} [finger] the smallest size of a target to tap, in px
 */
export function fitToRoom(board, below, finger = 0) {
  if (!window.matchMedia('(max-width: 900px)').matches) {
    board.style.removeProperty('--board-room');
    return;
  }
  const top = board.getBoundingClientRect().top + window.scrollY;
  const room = Math.floor(window.innerHeight - top - below.getBoundingClientRect().height - 12);
  board.style.setProperty('--board-room', `${Math.max(room, 200, finger > 0 ? roomForFinger(board, finger) : 0)}px`);
}

/**
 * The height a board needs for its smallest target to measure `finger` px
 * either way (0 when it shows no targets): the ratio of the board's height
 * to that target's does not change with the scale it is drawn at.
 * @param {HTMLElement} board @param {number} finger
 */
function roomForFinger(board, finger) {
  const svg = board.querySelector('.board-svg');
  const height = svg ? svg.getBoundingClientRect().height : 0;
  let smallest = Infinity;
  for (const target of board.querySelectorAll('[data-target]')) {
    const r = target.getBoundingClientRect();
    const side = Math.min(r.width, r.height);
    if (side > 0) smallest = Math.min(smallest, side);
  }
  return height > 0 && Number.isFinite(smallest) ? Math.ceil((height * finger) / smallest) : 0;
}
