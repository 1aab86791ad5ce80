/**
 * The box stage, shared by image and video review: the media under a Canvas 2D layer of boxes,
 * fit/100 %/zoom around the cursor/pan, and select, move, resize and draw with the pointer.
 * Pan, zoom and drags repaint the canvas straight from refs (no React render per frame); hit-tests
 * go through a uniform grid. The element with role `img` is exactly the picture as drawn, clipped
 * to the window (the whole picture when fitted).
 */
import { useEffect, useImperativeHandle, useMemo, useRef, type ReactNode, type Ref } from 'react';
import { translateWithin, type NormBox, type Size } from '@shared/geometry/box-math.js';
import type { Point } from '@shared/geometry/orientation.js';
import {
  actualSize,
  fitToWindow,
  pan,
  screenToNormalised,
  type View,
} from '@shared/geometry/viewport.js';
import { useClassColours } from './box-colours.js';
import { paintBoxes, type PaintBox } from './box-painter.js';
import { HitGrid } from './hit-grid.js';
import { press, type Gesture } from './stage-pointer.js';
import { boxBetween, resizeBox, visiblePictureRect, zoomByKey, zoomByWheel } from './stage-view.js';

export interface StageHandle {
  fit(): void;
  actual(): void;
  zoom(zoomIn: boolean): void;
  /** Repaints at once with this selection (before React renders it): the fast highlight. */
  highlight(keys: ReadonlySet<string>): void;
  /** The current view (tests and the benchmark read it). */
  view(): View;
  /** The element with role `img` (focus goes there). */
  element(): HTMLElement | null;
}

export interface BoxChange {
  kind: 'move' | 'resize';
  boxes: Map<string, NormBox>;
}

interface BoxStageProps {
  name: string;
  /** The picture's displayed (EXIF-oriented) size; null until the media has loaded. */
  picture: Size | null;
  boxes: readonly PaintBox[];
  hidden: boolean;
  selected: ReadonlySet<string>;
  drawMode: boolean;
  onSelect(keys: Set<string>): void;
  onChange(change: BoxChange): void;
  onDraw(bbox: NormBox): void;
  handle?: Ref<StageHandle>;
  children: ReactNode;
}

const MIN_DRAW_PX = 4;

export function BoxStage(props: BoxStageProps) {
  const areaRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const mediaRef = useRef<HTMLDivElement>(null);
  const imgRoleRef = useRef<HTMLDivElement>(null);
  const s = useRef({
    view: { scale: 1, offsetX: 0, offsetY: 0 } as View,
    fitted: true,
    window: { width: 0, height: 0 } as Size,
    gesture: { kind: 'none' } as Gesture,
    preview: new Map<string, NormBox>(),
    drawing: null as NormBox | null,
    selected: props.selected,
    cursor: null as Point | null,
    space: false,
    frame: 0,
    /** The props the canvas shows now. */
    drawn: null as Pick<BoxStageProps, 'boxes' | 'hidden' | 'picture' | 'selected'> | null,
  }).current;
  const live = useRef(props);
  live.current = props;
  s.selected = props.selected;

  const grid = useMemo(
    () => new HitGrid(props.hidden ? [] : props.boxes.filter((b) => !b.ghost)),
    [props.boxes, props.hidden],
  );
  const byKey = useMemo(() => new Map(props.boxes.map((b) => [b.key, b])), [props.boxes]);

  const paintNow = () => {
    s.frame = 0;
    const canvas = canvasRef.current;
    const picture = live.current.picture;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx || !picture) return;
    const dpr = window.devicePixelRatio || 1;
    const { width, height } = s.window;
    if (canvas.width !== Math.round(width * dpr) || canvas.height !== Math.round(height * dpr)) {
      canvas.width = Math.round(width * dpr);
      canvas.height = Math.round(height * dpr);
    }
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const v = s.view;
    if (mediaRef.current) {
      mediaRef.current.style.transform = `translate(${v.offsetX}px, ${v.offsetY}px) scale(${v.scale})`;
    }
    const r = visiblePictureRect(v, picture, s.window);
    const el = imgRoleRef.current;
    if (el) {
      el.style.left = `${r.x}px`;
      el.style.top = `${r.y}px`;
      el.style.width = `${r.w}px`;
      el.style.height = `${r.h}px`;
    }
    s.drawn = { ...live.current, picture, selected: s.selected };
    paintBoxes(ctx, {
      boxes: live.current.hidden ? [] : live.current.boxes,
      view: v,
      picture,
      window: s.window,
      selected: s.selected,
      preview: s.preview,
      drawing: s.drawing,
      selectedColour: '#2f81f7',
    });
  };
  const paint = () => {
    if (s.frame === 0) s.frame = requestAnimationFrame(paintNow);
  };
  const setView = (v: View, fitted = false) => {
    s.view = v;
    s.fitted = fitted;
    paint();
  };
  const fit = () => {
    if (live.current.picture) setView(fitToWindow(live.current.picture, s.window), true);
  };

  useImperativeHandle(props.handle, () => ({
    fit,
    actual: () => {
      if (live.current.picture) setView(actualSize(live.current.picture, s.window));
    },
    zoom: (zoomIn) => setView(zoomByKey(s.view, zoomIn, s.cursor, s.window)),
    highlight: (keys) => {
      s.selected = keys;
      paintNow();
    },
    view: () => s.view,
    element: () => imgRoleRef.current,
  }));

  // A new picture opens fitted; a resized window keeps a fitted picture fitted.
  useEffect(() => {
    fit();
  }, [props.picture?.width, props.picture?.height, props.name]);

  useEffect(() => {
    const area = areaRef.current;
    if (!area) return;
    const ro = new ResizeObserver(() => {
      s.window = { width: area.clientWidth, height: area.clientHeight };
      if (s.fitted) fit();
      else paint();
    });
    ro.observe(area);
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const b = area.getBoundingClientRect();
      setView(
        zoomByWheel(s.view, e.deltaY, e.deltaMode, { x: e.clientX - b.left, y: e.clientY - b.top }),
      );
    };
    // Not a React listener: React's wheel listeners are passive, and the page must not scroll.
    area.addEventListener('wheel', onWheel, { passive: false });
    const onKey = (e: KeyboardEvent) => {
      if (e.key === ' ' && !(e.target instanceof HTMLInputElement)) s.space = e.type === 'keydown';
    };
    window.addEventListener('keydown', onKey);
    window.addEventListener('keyup', onKey);
    return () => {
      ro.disconnect();
      area.removeEventListener('wheel', onWheel);
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('keyup', onKey);
      if (s.frame) cancelAnimationFrame(s.frame);
    };
  }, []);

  // The solution's classes arrived or changed: the boxes take their colours.
  const colours = useClassColours();
  useEffect(() => paint(), [colours]);

  // Boxes, selection or visibility changed: repaint; not for a render that changed none of them
  // (a press already painted its selection itself: at 5,000 boxes a second paint costs ~5 ms).
  useEffect(() => {
    const d = s.drawn;
    const p = live.current;
    if (!d || d.boxes !== p.boxes || d.hidden !== p.hidden || d.picture !== p.picture) paint();
    else if (d.selected.size !== p.selected.size || [...p.selected].some((k) => !d.selected.has(k)))
      paint();
  });

  const local = (e: { clientX: number; clientY: number }): Point => {
    const b = areaRef.current?.getBoundingClientRect() ?? { left: 0, top: 0 };
    return { x: e.clientX - b.left, y: e.clientY - b.top };
  };

  const onPointerDown = (e: React.PointerEvent) => {
    const picture = props.picture;
    if (!picture || (e.button !== 0 && e.button !== 1)) return;
    e.preventDefault();
    imgRoleRef.current?.focus({ preventScroll: true });
    areaRef.current?.setPointerCapture(e.pointerId);
    const r = press(local(e), {
      view: s.view,
      picture,
      grid,
      selected: s.selected,
      byKey,
      drawMode: props.drawMode,
      pan: e.button === 1 || s.space,
      shift: e.shiftKey,
    });
    s.gesture = r.gesture;
    if (r.selection) {
      s.selected = r.selection;
      paintNow();
      props.onSelect(r.selection);
    }
  };

  const onPointerMove = (e: React.PointerEvent) => {
    const p = local(e);
    s.cursor = p;
    const g = s.gesture;
    const picture = props.picture;
    if (g.kind === 'none' || !picture) return;
    if (g.kind === 'pan') {
      setView(pan(s.view, p.x - g.last.x, p.y - g.last.y), false);
      g.last = p;
      return;
    }
    const n = screenToNormalised(s.view, picture, p);
    if (g.kind === 'draw') {
      g.to = n;
      s.drawing = boxBetween(g.from, g.to);
    } else if (g.kind === 'resize') {
      s.preview = new Map([[g.key, resizeBox(g.start, g.handle, n.x - g.from.x, n.y - g.from.y)]]);
    } else {
      g.moved = true;
      const dx = n.x - g.from.x;
      const dy = n.y - g.from.y;
      const next = new Map<string, NormBox>();
      for (const [key, b] of g.start) next.set(key, translateWithin(b, dx, dy));
      s.preview = next;
    }
    paint();
  };

  const onPointerUp = () => {
    const g = s.gesture;
    s.gesture = { kind: 'none' };
    const picture = props.picture;
    if (g.kind === 'draw' && picture) {
      const box = s.drawing;
      s.drawing = null;
      const px = box ? Math.min(box.w * picture.width, box.h * picture.height) * s.view.scale : 0;
      if (box && px >= MIN_DRAW_PX) props.onDraw(box);
    } else if ((g.kind === 'move' && g.moved) || g.kind === 'resize') {
      if (s.preview.size > 0) props.onChange({ kind: g.kind, boxes: s.preview });
    }
    // A plain click changed nothing drawn: no repaint (5,000 boxes cost a few ms each).
    if (s.preview.size > 0 || g.kind === 'draw') paint();
    s.preview = new Map();
  };

  return (
    <div
      ref={areaRef}
      className={`stage-area${props.drawMode ? ' drawing' : ''}`}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onPointerLeave={() => (s.cursor = null)}
      onAuxClick={(e) => e.preventDefault()}
    >
      <div
        ref={mediaRef}
        className="stage-media"
        style={{ width: props.picture?.width, height: props.picture?.height }}
      >
        {props.children}
      </div>
      <canvas ref={canvasRef} className="stage-canvas" aria-hidden="true" />
      <div
        ref={imgRoleRef}
        role="img"
        aria-label={props.name}
        tabIndex={0}
        className="stage-picture"
      />
    </div>
  );
}
