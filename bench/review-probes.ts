/**
 * Page-side instruments of the image review bench, the same on the app's page and on the bare
 * pages. "The frame is on screen" is taken as the end of the frame's rendering on the main thread:
 * a message posted from a requestAnimationFrame callback runs once the frame's input handlers,
 * animation callbacks, style, layout and paint are done. Canvas draws are marked by wrapping
 * clearRect (every repaint starts with one); for the next image, boxes drawn are counted too
 * (rect/strokeRect calls since the last clearRect).
 */

/** Installs `window.__bench`; idempotent (an init script on the app, evaluated on bare pages). */
export const PROBES = `(() => {
  if (window.__bench) return;
  const draws = [];
  const proto = CanvasRenderingContext2D.prototype;
  const clear = proto.clearRect;
  let rects = 0;
  proto.clearRect = function (...a) { draws.push(performance.now()); rects = 0; return clear.apply(this, a); };
  // Counting boxes costs a call per box: only armed for the next-image figure (few boxes).
  const countRects = () => {
    if (proto.rect.counted) return;
    for (const name of ['rect', 'strokeRect']) {
      const f = proto[name];
      proto[name] = function (...a) { rects++; return f.apply(this, a); };
      proto[name].counted = true;
    }
  };
  const afterFrame = (fn) => requestAnimationFrame((t) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => fn(t, performance.now());
    ch.port2.postMessage(null);
  });
  const drewSince = (a) => draws.length > 0 && draws[draws.length - 1] >= a;
  const s = { frames: null, downs: [], moves: [], expect: null, shown: null, shownAt: null, lastLoad: -1 };
  addEventListener('pointerdown', (e) => {
    const ts = e.timeStamp, n = draws.length;
    afterFrame((t, end) => s.downs.push({ ms: end - ts, drew: draws.length > n }));
  }, true);
  addEventListener('pointermove', (e) => {
    if (!e.buttons) return;
    const ts = e.timeStamp, h = performance.now(), n = draws.length;
    afterFrame((t, end) => s.moves.push({ fromEvent: end - ts, fromHandler: end - h, drew: draws.length > n }));
  }, true);
  document.addEventListener('load', (e) => {
    if (e.target instanceof HTMLImageElement && e.target.isConnected) s.lastLoad = performance.now();
  }, true);
  addEventListener('keydown', (e) => {
    const x = s.expect;
    if (!x) return;
    s.expect = null;
    const key = e.timeStamp;
    const check = (t, end) => {
      const stage = [...document.querySelectorAll('[role="img"]')].some((el) => el.getAttribute('aria-label') === x.name);
      const img = document.querySelector(x.img);
      // The list renders the rows in view; each option states the list's length.
      const listed = x.list ? Number(document.querySelector(x.list)?.getAttribute('aria-setsize') ?? 0) : 0;
      const pictured = img && img.complete && img.naturalWidth > 0 && (!x.src || img.src.endsWith(x.src));
      const painted = x.boxes === 0 || (drewSince(Math.max(key, s.lastLoad)) && rects >= x.boxes);
      if (stage && pictured && listed === x.boxes && painted) s.shown({ ms: end - key });
      else if (end - key > 5000) s.shown({ ms: NaN, stage, pictured, listed, painted });
      else afterFrame(check);
    };
    afterFrame(check);
  }, true);
  window.__bench = {
    startFrames() {
      const rec = (s.frames = []);
      const loop = (t) => {
        if (s.frames !== rec) return;
        requestAnimationFrame(loop);
        const start = performance.now();
        const ch = new MessageChannel();
        ch.port1.onmessage = () => { const end = performance.now(); rec.push({ t, start, end, painted: drewSince(t) }); };
        ch.port2.postMessage(null);
      };
      requestAnimationFrame(loop);
    },
    stopFrames() { const rec = s.frames ?? []; s.frames = null; return rec; },
    take() { const out = { downs: s.downs, moves: s.moves }; s.downs = []; s.moves = []; return out; },
    /** Arms the next keydown; \`shown\` then resolves when the item is on screen (see check above). */
    expectItem(x) { countRects(); s.expect = x; s.shownAt = new Promise((r) => (s.shown = r)); },
    shown() { return s.shownAt; },
  };
})()`;

/**
 * A bare stage: one canvas at the app's stage rectangle, the picture fitted the same way, the same
 * wheel zoom and middle-button pan, a linear-scan hit-test (smallest box containing the point) on
 * press, the pressed box moved by a drag; every repaint draws every box with strokeRect (and its
 * label when asked).
 */
export const BARE_STAGE = `((o) => {
  document.body.style.margin = '0';
  const c = document.createElement('canvas');
  const { x: left, y: top, width: W, height: H } = o.rect;
  c.style.cssText = 'position:absolute;left:' + left + 'px;top:' + top + 'px;width:' + W + 'px;height:' + H + 'px';
  c.width = W; c.height = H;
  document.body.append(c);
  const ctx = c.getContext('2d');
  const pw = o.picture.width, ph = o.picture.height, boxes = o.boxes;
  const fit = Math.min(W / pw, H / ph);
  let view = { k: fit, x: (W - pw * fit) / 2, y: (H - ph * fit) / 2 };
  let selected = -1, frame = 0, g = null;
  const sx = (b) => view.x + b.x * pw * view.k, sy = (b) => view.y + b.y * ph * view.k;
  const paintNow = () => {
    frame = 0;
    ctx.clearRect(0, 0, W, H);
    ctx.lineWidth = 1.5; ctx.strokeStyle = '#ffb020'; ctx.fillStyle = '#ffb020';
    ctx.font = '600 11px system-ui, sans-serif';
    for (const b of boxes) {
      const x = sx(b), y = sy(b);
      ctx.strokeRect(x, y, b.w * pw * view.k, b.h * ph * view.k);
      if (o.labels) ctx.fillText(b.label + ' ' + b.score.toFixed(2), x + 3, y - 13);
    }
    if (selected >= 0) {
      const b = boxes[selected];
      ctx.lineWidth = 3; ctx.strokeStyle = '#2f81f7';
      ctx.strokeRect(sx(b), sy(b), b.w * pw * view.k, b.h * ph * view.k);
    }
  };
  const paint = () => { if (!frame) frame = requestAnimationFrame(paintNow); };
  const local = (e) => ({ x: e.clientX - left, y: e.clientY - top });
  const norm = (p) => ({ x: (p.x - view.x) / (pw * view.k), y: (p.y - view.y) / (ph * view.k) });
  c.addEventListener('wheel', (e) => {
    e.preventDefault();
    const f = Math.exp(-Math.max(-300, Math.min(300, e.deltaY)) * 0.0015), p = local(e);
    view = { k: view.k * f, x: p.x - (p.x - view.x) * f, y: p.y - (p.y - view.y) * f };
    paint();
  }, { passive: false });
  c.addEventListener('pointerdown', (e) => {
    c.setPointerCapture(e.pointerId);
    const p = local(e);
    if (e.button === 1) { g = { pan: p }; return; }
    const n = norm(p);
    let best = -1, area = Infinity;
    for (let i = 0; i < boxes.length; i++) {
      const b = boxes[i];
      if (n.x < b.x || n.y < b.y || n.x > b.x + b.w || n.y > b.y + b.h) continue;
      if (b.w * b.h < area) { best = i; area = b.w * b.h; }
    }
    selected = best;
    g = best >= 0 ? { from: n, start: { ...boxes[best] } } : null;
    paintNow();
  });
  c.addEventListener('pointermove', (e) => {
    if (!g) return;
    const p = local(e);
    if (g.pan) { view = { ...view, x: view.x + p.x - g.pan.x, y: view.y + p.y - g.pan.y }; g.pan = p; }
    else { const n = norm(p); boxes[selected] = { ...g.start, x: g.start.x + n.x - g.from.x, y: g.start.y + n.y - g.from.y }; }
    paint();
  });
  c.addEventListener('pointerup', () => (g = null));
  c.addEventListener('auxclick', (e) => e.preventDefault());
  paintNow();
})`;

/** A bare viewer: pictures already decoded, the next one shown by swapping an img's src. */
export const BARE_PICTURES = `(async (o) => {
  document.body.style.margin = '0';
  const held = await Promise.all(o.urls.map(async (u) => { const i = new Image(); i.src = u; await i.decode(); return i; }));
  const shown = document.createElement('img');
  shown.id = 'bare-picture';
  shown.alt = '';
  shown.setAttribute('role', 'img');
  shown.setAttribute('aria-label', 'bare-0');
  shown.style.cssText = 'position:absolute;left:' + o.rect.x + 'px;top:' + o.rect.y + 'px;width:' + o.rect.width + 'px;height:' + o.rect.height + 'px';
  shown.src = held[0].src;
  document.body.append(shown);
  let at = 0;
  addEventListener('keydown', () => {
    at = (at + 1) % held.length;
    shown.src = held[at].src;
    shown.setAttribute('aria-label', 'bare-' + at);
  });
  await shown.decode();
})`;
