/**
 * A keyframe is a column of its correction (migration 19): `frame_index` holds the real frame (a
 * sample's index, or for a keyframe between samples its clip frame) and `keyframe` says which;
 * the code reads and writes both as they are. Only the team wire (a change's state, a box key)
 * and the order rows are read in still know a keyframe by its old negative frame index: this is
 * that expression, in SQL, for the outbox triggers, the rejoin check and the index.
 */

/**
 * The frame index as the team wire knows it, from a row's columns (`table` is a qualifier such as
 * `NEW.`); also the order rows are read in, through the index on this very expression.
 */
export const wireFrameIndex = (table = '') =>
  `(CASE WHEN ${table}keyframe = 1 THEN -${table}frame_index - 1 ELSE ${table}frame_index END)`;
