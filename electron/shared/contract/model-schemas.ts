/** Own ONNX models of the embedded service (issue 27 §2): the Service screen's Models section. */
import { z } from './zod.js';

export const OwnModel = z.object({
  id: z.string(),
  source: z.string(),
  bytes: z.number(),
  type: z.string(),
  /** 'declared' or the sentence saying why the type was assumed. */
  typeFrom: z.string(),
  input: z.object({ width: z.number(), height: z.number() }),
  classes: z.array(z.string()),
  namesFrom: z.string(),
  frameCost: z.object({ image: z.number(), videoFrame: z.number() }),
  addedAt: z.string(),
});
export type OwnModel = z.infer<typeof OwnModel>;

export const AddModelInput = z.object({
  /** An absolute path to the .onnx file. */
  file: z.string().trim().min(1).max(4096),
  type: z.enum(['yolov5', 'yolov8', 'yolo11', 'yolox', 'rtdetr', 'end2end']).optional(),
  namesFile: z.string().trim().min(1).max(4096).optional(),
  id: z.string().trim().min(1).max(63).optional(),
  frameCost: z.number().int().min(1).max(1000).optional(),
});

export const AddModelResult = z.object({ model: OwnModel, notes: z.array(z.string()) });
export const ModelIdInput = z.object({ id: z.string().min(1).max(63) });
