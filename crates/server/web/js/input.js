// @ts-check
/**
 * Pointer and keyboard input on a board: a click (or Enter / Space on a
 * focused target) chooses a target; dragging from a movable piece to a
 * target makes the move in one gesture; arrow keys move the focus between
 * targets.
 */

/**
 * @typedef {{click: (target: string) => void, drag: (from: string, to: string) => void,
 *   draggable: () => boolean}} BoardHandlers
 */

/** @param {EventTarget | null} el @returns {Element | null} */
const targetOf = (el) => (el instanceof Element ? el.closest('[data-target]') : null);

/**
 * Listens to the board's pointer, clicks and keys.
 * @param {HTMLElement} box the element holding the board's SVG
 * @param {BoardHandlers} handlers
 */
export function attachBoardInput(box, handlers) {
  attachDrag(box, handlers);

  box.addEventListener('click', (e) => {
    if (box.dataset.dragged === 'yes') {
      delete box.dataset.dragged;
      return;
    }
    const t = targetOf(e.target);
    if (t) handlers.click(/** @type {string} */ (t.getAttribute('data-target')));
  });

  box.addEventListener('keydown', (e) => onKey(box, handlers, e));
}

/**
 * Dragging a movable piece: a ghost of it follows the pointer; dropped on
 * another target, the move is made (and the click that ends the drag is
 * let go).
 * @param {HTMLElement} box @param {BoardHandlers} handlers
 */
function attachDrag(box, handlers) {
  /** @type {{from: string, x: number, y: number, moved: boolean, ghost: SVGElement | null, pointerId: number} | null} */
  let dragging = null;

  box.addEventListener('pointerdown', (e) => {
    const t = targetOf(e.target);
    if (!t || e.button !== 0) return;
    if (t.getAttribute('data-drag') === 'yes' && handlers.draggable()) {
      dragging = { from: /** @type {string} */ (t.getAttribute('data-target')), x: e.clientX, y: e.clientY, moved: false, ghost: null, pointerId: e.pointerId };
    }
  });

  box.addEventListener('pointermove', (e) => {
    if (!dragging || e.pointerId !== dragging.pointerId) return;
    const dx = e.clientX - dragging.x;
    const dy = e.clientY - dragging.y;
    if (!dragging.moved && Math.hypot(dx, dy) < 8) return;
    const svg = box.querySelector('svg');
    if (!svg) return;
    if (!dragging.moved) {
      dragging.moved = true;
      const source = box.querySelector(`[data-target="${CSS.escape(dragging.from)}"]`);
      const piece = source && source.querySelector('.checker.src, .checker.selected, .card, .lg-piece, circle');
      if (piece) {
        const ghost = /** @type {SVGElement} */ (piece.cloneNode(true));
        ghost.classList.add('drag-ghost');
        ghost.setAttribute('pointer-events', 'none');
        svg.append(ghost);
        dragging.ghost = ghost;
      }
    }
    if (dragging.ghost) {
      const ctm = svg.getScreenCTM();
      const scale = ctm ? ctm.a : 1;
      dragging.ghost.setAttribute('transform', `translate(${dx / scale} ${dy / scale})`);
    }
  });

  const finish = (/** @type {PointerEvent} */ e) => {
    if (!dragging || e.pointerId !== dragging.pointerId) return;
    const d = dragging;
    dragging = null;
    if (d.ghost) d.ghost.remove();
    if (!d.moved) return;
    const under = targetOf(document.elementFromPoint(e.clientX, e.clientY));
    const to = under && under.getAttribute('data-target');
    box.dataset.dragged = 'yes';
    if (to && to !== d.from) handlers.drag(d.from, to);
  };
  box.addEventListener('pointerup', finish);
  box.addEventListener('pointercancel', (e) => {
    if (dragging && dragging.ghost) dragging.ghost.remove();
    if (dragging && e.pointerId === dragging.pointerId) dragging = null;
  });
}

/**
 * A key on a focused target: Enter or Space chooses it, the arrows move the
 * focus.
 * @param {HTMLElement} box @param {BoardHandlers} handlers @param {KeyboardEvent} e
 */
function onKey(box, handlers, e) {
  const t = targetOf(e.target);
  if (!t) return;
  // A piece that cannot be chosen now lets Enter through (to confirm).
  if ((e.key === 'Enter' || e.key === ' ') && t.matches('[data-state], .can-pick')) {
    e.preventDefault();
    e.stopPropagation();
    handlers.click(/** @type {string} */ (t.getAttribute('data-target')));
  } else if (['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'].includes(e.key)) {
    e.preventDefault();
    // Over the legal choices when there are any, else over every target.
    const choices = /** @type {SVGElement[]} */ ([...box.querySelectorAll('[data-target][data-state]')]);
    const all = choices.length && choices.includes(/** @type {SVGElement} */ (t)) ? choices
      : choices.length ? [/** @type {SVGElement} */ (t), ...choices] : /** @type {SVGElement[]} */ ([...box.querySelectorAll('[data-target]')]);
    const i = all.indexOf(/** @type {SVGElement} */ (t));
    const next = all[(i + (e.key === 'ArrowLeft' || e.key === 'ArrowUp' ? -1 : 1) + all.length) % all.length];
    if (next) next.focus();
  }
}
