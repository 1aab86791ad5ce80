/**
 * COCOeval's twelve summary figures (its `stats`, in its order), named as its summarize() prints
 * them: what the Quality screen and `labeldesk evaluate --coco` show and the JSON keys they use.
 */
export interface CocoStatName {
  /** The JSON key of `labeldesk evaluate --coco --json`. */
  key: string;
  /** The short name people know (AP50, AR@10, AR small…). */
  name: string;
  kind: 'AP' | 'AR';
  iou: '0.50:0.95' | '0.50' | '0.75';
  area: 'all' | 'small' | 'medium' | 'large';
  maxDets: 1 | 10 | 100;
}

const stat = (
  key: string,
  name: string,
  kind: 'AP' | 'AR',
  iou: CocoStatName['iou'],
  area: CocoStatName['area'],
  maxDets: CocoStatName['maxDets'],
): CocoStatName => ({ key, name, kind, iou, area, maxDets });

export const COCO_STATS: readonly CocoStatName[] = [
  stat('ap', 'AP', 'AP', '0.50:0.95', 'all', 100),
  stat('ap50', 'AP50', 'AP', '0.50', 'all', 100),
  stat('ap75', 'AP75', 'AP', '0.75', 'all', 100),
  stat('apSmall', 'AP small', 'AP', '0.50:0.95', 'small', 100),
  stat('apMedium', 'AP medium', 'AP', '0.50:0.95', 'medium', 100),
  stat('apLarge', 'AP large', 'AP', '0.50:0.95', 'large', 100),
  stat('ar1', 'AR@1', 'AR', '0.50:0.95', 'all', 1),
  stat('ar10', 'AR@10', 'AR', '0.50:0.95', 'all', 10),
  stat('ar100', 'AR@100', 'AR', '0.50:0.95', 'all', 100),
  stat('arSmall', 'AR small', 'AR', '0.50:0.95', 'small', 100),
  stat('arMedium', 'AR medium', 'AR', '0.50:0.95', 'medium', 100),
  stat('arLarge', 'AR large', 'AR', '0.50:0.95', 'large', 100),
];
