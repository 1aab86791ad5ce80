/**
 * zod for the contract. Its default compiles validators with `new Function`, which the app's CSP
 * (no `unsafe-eval`) forbids in the renderer; jitless validation is plenty fast for UI messages.
 */
import { z } from 'zod';

z.config({ jitless: true });

export { z };
