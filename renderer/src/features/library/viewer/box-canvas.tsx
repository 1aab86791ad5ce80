/**
 * Read-only boxes over a picture, on a canvas laid exactly over it (Canvas 2D: thousands of boxes
 * draw in a millisecond, where SVG takes tens). The review screen builds on this component.
 */
import { useEffect, useRef } from 'react';
import type { Box } from '../../../../../electron/shared/contract/index.js';
import { boxName, boxRect } from './box-geometry.js';

interface BoxCanvasProps {
  boxes: readonly Box[];
  selectedId: number | null;
  /** The picture under the canvas; the canvas follows its displayed size. */
  target: HTMLElement | null;
}

function cssColor(el: Element, name: string, fallback: string): string {
  return getComputedStyle(el).getPropertyValue(name).trim() || fallback;
}

export function BoxCanvas({ boxes, selectedId, target }: BoxCanvasProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || !target) return;
    const draw = () => {
      const dpr = window.devicePixelRatio || 1;
      const w = target.clientWidth;
      const h = target.clientHeight;
      canvas.width = Math.round(w * dpr);
      canvas.height = Math.round(h * dpr);
      const ctx = canvas.getContext('2d');
      if (!ctx) return;
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.clearRect(0, 0, w, h);
      const stroke = cssColor(canvas, '--box-stroke', '#ffb020');
      const strong = cssColor(canvas, '--box-selected', '#2f81f7');
      ctx.font = '600 11px system-ui, sans-serif';
      ctx.textBaseline = 'top';
      for (const box of boxes) {
        const r = boxRect(box.bbox, w, h);
        const chosen = box.id === selectedId;
        ctx.lineWidth = chosen ? 3 : 1.5;
        ctx.strokeStyle = chosen ? strong : stroke;
        ctx.strokeRect(r.x, r.y, r.w, r.h);
        const text = boxName(box);
        const tw = ctx.measureText(text).width + 6;
        const ty = r.y >= 15 ? r.y - 15 : r.y;
        ctx.fillStyle = chosen ? strong : stroke;
        ctx.fillRect(r.x, ty, tw, 15);
        ctx.fillStyle = '#000';
        ctx.fillText(text, r.x + 3, ty + 2);
      }
    };
    draw();
    const ro = new ResizeObserver(draw);
    ro.observe(target);
    return () => ro.disconnect();
  }, [boxes, selectedId, target]);

  return <canvas ref={canvasRef} className="box-canvas" aria-hidden="true" />;
}
