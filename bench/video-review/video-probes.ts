/**
 * Page-side instruments of the video review bench. "On screen" is the end of a frame's rendering:
 * a message posted from a requestAnimationFrame callback runs once that frame's style, layout and
 * paint are done. Canvas draws are marked by wrapping clearRect (every repaint starts with one);
 * the arrival of a large reply on the bridge by a listener the WebSocket gets before the app's
 * (also marked as `vb-reply` for a trace).
 */
export const VIDEO_PROBES = `(() => {
  if (window.__vb) return;
  const s = { replies: [], draws: [] };
  window.__vb = s;
  addEventListener('pointerdown', (e) => { s.lastDown = e.timeStamp; }, true);
  const clear = CanvasRenderingContext2D.prototype.clearRect;
  CanvasRenderingContext2D.prototype.clearRect = function (...a) {
    s.draws.push({ at: performance.now(), canvas: this.canvas.className });
    return clear.apply(this, a);
  };
  const Base = window.WebSocket;
  window.WebSocket = class extends Base {
    constructor(...a) {
      super(...a);
      this.addEventListener('message', (e) => {
        const bytes = typeof e.data === 'string' ? e.data.length : e.data.size;
        if (bytes > 200000) {
          s.replies.push({ at: performance.now(), bytes });
          performance.mark('vb-reply');
        }
      });
    }
  };
  s.afterFrame = (fn) => requestAnimationFrame(() => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => fn(performance.now());
    ch.port2.postMessage(null);
  });
  /** Resolves with the time (after a frame's rendering) at which ready() first holds. */
  s.when = (ready, limitMs) => new Promise((resolve) => {
    const start = performance.now();
    const check = (end) => {
      if (ready()) resolve(end);
      else if (end - start > limitMs) resolve(NaN);
      else s.afterFrame(check);
    };
    s.afterFrame(check);
  });
})()`;

/**
 * In the page, armed just before a real press (Playwright's mouse, as CDP input): from then on
 * every frame is checked, and \`window.__vb.seek\` resolves with the milliseconds from the press's
 * event to the first frame on screen whose side panel heading names another analysed frame than
 * \`previous\`, with the stage repainted since the press; and that heading. Armed before the press,
 * not asked after it: a check that starts when Playwright's next call reaches the page would wait
 * for that round trip too, and count frames a person already saw.
 */
export const ARM_SEEK = `((previous) => {
  const s = window.__vb;
  s.lastDown = NaN;
  const heading = () => document.querySelector('.viewer-side h2')?.textContent ?? '';
  const shown = () => {
    const at = s.lastDown;
    if (!(at >= 0)) return false;
    const h = heading();
    return h !== previous && h.startsWith('Boxes at') &&
      s.draws.some((d) => d.at >= at && d.canvas === 'stage-canvas');
  };
  s.seek = s.when(shown, 5000).then((end) => ({ ms: end - s.lastDown, heading: heading() }));
})`;

/**
 * The bare page: one canvas drawing the timeline's bars (per class, a bar per sampled frame) as
 * the app's timeline shows them, timed from the data in hand to the frame on screen; and a
 * canvas drawing one frame's boxes on a press, timed from the press to the frame on screen.
 */
export const BARE_VIDEO = `(async ({ rows, frames, boxesAt }) => {
  const s = window.__vb;
  document.body.style.margin = '0';
  const t = document.createElement('canvas');
  t.width = 1000; t.height = (rows.length + 1) * 14; t.style.cssText = 'width:1000px;display:block';
  const stage = document.createElement('canvas');
  stage.width = 800; stage.height = 450; stage.className = 'bare-stage';
  document.body.append(t, stage);
  const start = performance.now();
  const ctx = t.getContext('2d');
  ctx.clearRect(0, 0, t.width, t.height);
  rows.forEach((counts, r) => {
    ctx.fillStyle = 'hsl(' + r * 80 + ' 70% 45%)';
    for (let f = 0; f < frames; f++) {
      const n = counts[f];
      if (n) ctx.fillRect(90 + (910 * f) / frames, (r + 2) * 14 - 1 - 2 * n, 1, 2 * n);
    }
  });
  const render = (await s.when(() => true, 5000)) - start;
  const seeks = [];
  for (let i = 0; i < 10; i++) {
    const frame = Math.floor(((i + 0.5) / 10) * frames);
    const done = new Promise((resolve) => {
      stage.addEventListener('pointerdown', (e) => {
        const c = stage.getContext('2d');
        c.clearRect(0, 0, 800, 450);
        c.strokeStyle = '#ffb020';
        for (const b of boxesAt[frame] ?? []) c.strokeRect(b[0] * 800, b[1] * 450, b[2] * 800, b[3] * 450);
        s.afterFrame((end) => resolve(end - e.timeStamp));
      }, { once: true });
    });
    stage.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
    seeks.push(await done);
  }
  return { render, seeks };
})`;
