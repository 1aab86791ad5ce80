/**
 * The app's Content-Security-Policy, one string for every page: the meta tag in
 * renderer/index.html (a test keeps them equal), the header the Electron shell adds to our pages,
 * and browser mode's server. No `unsafe-eval` (zod runs jitless) and no inline scripts or styles:
 * React's `style={}` props are set through the CSSOM, which `style-src 'self'` allows.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob: labeldesk-media:",
  "media-src 'self' blob: labeldesk-media:",
  "connect-src 'self' ws://127.0.0.1:* ws://localhost:*",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');
