// The renderer's Content-Security-Policy, one definition for both hosts: the Electron app:// protocol and the headless host.
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  // React and the chart library set inline style attributes; scripts stay 'self' only.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  // The app submits no forms anywhere.
  "form-action 'none'",
].join('; ');
