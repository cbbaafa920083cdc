// The board's size, as on lichess: a handle at the board's bottom-right
// corner; dragging it makes the board bigger or smaller, and the size is
// kept in localStorage for the next visit. The size is a zoom on the
// board's natural size (style.css's --sq), so that the page's layout
// still fits a smaller window; style.css bounds it so that the board never
// outgrows the window's height nor pushes the moves column under it.
// chessground follows its box by itself (a ResizeObserver). Phones have
// no handle: the board is as wide as the screen there. Loaded before
// app.js, whose helpers it uses when called.
'use strict';

const ZOOM_KEY = 'kestrel-board-zoom';
const ZOOM_MIN = 0.4;
const ZOOM_MAX = 1.6;

function setZoom(zoom) {
  const z = Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, zoom));
  document.documentElement.style.setProperty('--zoom', z.toFixed(3));
  return z;
}

function wireResize() {
  let saved = NaN;
  try { saved = Number(localStorage.getItem(ZOOM_KEY)); } catch (e) { /* storage off: the natural size */ }
  if (saved > 0) setZoom(saved);
  const handle = $('board-resize');
  handle.addEventListener('pointerdown', (down) => {
    down.preventDefault();
    handle.setPointerCapture(down.pointerId);
    const start = Number(getComputedStyle(document.documentElement).getPropertyValue('--zoom')) || 1;
    const width = $('board').getBoundingClientRect().width;
    let zoom = start;
    // The corner follows the pointer: half the drag across plus half down.
    const move = (ev) => { zoom = setZoom(start * (width + (ev.clientX - down.clientX + ev.clientY - down.clientY) / 2) / width); };
    const up = () => {
      handle.removeEventListener('pointermove', move);
      handle.removeEventListener('pointerup', up);
      handle.removeEventListener('pointercancel', up);
      try { localStorage.setItem(ZOOM_KEY, String(zoom)); } catch (e) { /* storage off: this visit only */ }
    };
    handle.addEventListener('pointermove', move);
    handle.addEventListener('pointerup', up);
    handle.addEventListener('pointercancel', up);
  });
  // A double click is the natural size again.
  handle.addEventListener('dblclick', () => {
    setZoom(1);
    try { localStorage.removeItem(ZOOM_KEY); } catch (e) { /* nothing kept */ }
  });
}
