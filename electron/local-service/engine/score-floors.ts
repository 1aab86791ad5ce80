/**
 * The lowest score each built-in decoder keeps, published in the catalog as the solution's
 * `scoreFloor`. Kept apart from the decoders so the catalog can name them without loading TF.js.
 * CenterNet's is low on purpose (issue 27: AP 33.2 at 0.05 against 24.8 at 0.3 on COCO photos):
 * which boxes a person sees is the library's minimum-score filter, not the service's.
 */
export const CENTERNET_SCORE_FLOOR = 0.05;
export const BLAZEFACE_SCORE_FLOOR = 0.5;
export const HANDTRACK_SCORE_FLOOR = 0.4;
/** MoveNet's box is the mean of its confident keypoints' scores, which are kept from 0.3. */
export const MOVENET_SCORE_FLOOR = 0.3;
