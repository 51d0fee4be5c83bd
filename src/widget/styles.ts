/**
 * The widget's stylesheet, scoped by its shadow root. `:host { all: initial }` stops the
 * page's inherited styles (fonts, colours, line height) at the element's edge; nothing
 * here can reach the page. Colours meet WCAG AA contrast in both themes.
 */
const LIGHT =
  '--bg:#fff;--fg:#111827;--muted:#4b5563;--line:#d1d5db;--soft:#f3f4f6;--field:#fff;--accent:#1d4ed8;--accent-hover:#1e40af;--on-accent:#fff;' +
  '--ring:#2563eb;--bad:#b91c1c;--bad-bg:#fef2f2;--bad-line:#fecaca;--ok:#047857;--ok-bg:#ecfdf5;--ok-line:#a7f3d0;--info-bg:#eff6ff;--info-line:#bfdbfe;color-scheme:light;';
const DARK =
  '--bg:#111827;--fg:#f9fafb;--muted:#b6bdc8;--line:#374151;--soft:#1f2937;--field:#0b1220;--accent:#93c5fd;--accent-hover:#bfdbfe;--on-accent:#0b1220;' +
  '--ring:#93c5fd;--bad:#fca5a5;--bad-bg:#2b1416;--bad-line:#7f1d1d;--ok:#6ee7b7;--ok-bg:#06281f;--ok-line:#065f46;--info-bg:#0f1f3a;--info-line:#1e3a8a;color-scheme:dark;';

export const CSS = `
:host{all:initial;display:block;max-width:560px}
:host([hidden]){display:none}
*,*::before,*::after{box-sizing:border-box}
.r{${LIGHT}font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--fg);background:var(--bg);border:1px solid var(--line);border-radius:14px;padding:18px 20px;-webkit-font-smoothing:antialiased}
.r.dark{${DARK}}
@media (prefers-color-scheme:dark){.r.auto{${DARK}}}
.brand{display:flex;align-items:center;gap:8px;margin:0 0 12px;font-size:13px;color:var(--muted)}
.brand svg{flex:none}
h3{margin:0 0 4px;font-size:17px;line-height:1.35;font-weight:650;outline:none}
p{margin:0 0 8px}
.hint{color:var(--muted);font-size:13.5px;margin:10px 0 0}
button{font:inherit;font-weight:600;cursor:pointer;border-radius:10px;border:1px solid transparent;padding:10px 18px;min-height:44px;transition:background .15s,border-color .15s}
button:focus-visible,input:focus-visible,select:focus-visible,textarea:focus-visible,a:focus-visible{outline:3px solid var(--ring);outline-offset:2px}
button:disabled{cursor:not-allowed;opacity:.65}
.primary{background:var(--accent);color:var(--on-accent);display:inline-flex;align-items:center;gap:10px}
.primary:hover:not(:disabled){background:var(--accent-hover)}
.secondary{background:transparent;color:var(--fg);border-color:var(--line)}
.secondary:hover:not(:disabled){background:var(--soft)}
.actions{display:flex;flex-wrap:wrap;gap:10px;margin-top:16px}
a{color:var(--accent);text-underline-offset:2px}
.who{display:flex;gap:12px;align-items:center;padding-bottom:14px;margin-bottom:14px;border-bottom:1px solid var(--line)}
.avatar{flex:none;width:40px;height:40px;border-radius:50%;display:grid;place-items:center;background:var(--soft);color:var(--fg);font-weight:700}
.sub{color:var(--muted);font-size:13.5px;margin:0}
.note{margin:0 0 14px}
.field{margin:0 0 14px;padding:0;border:0;min-width:0}
label,legend{display:block;font-weight:600;font-size:14px;margin:0 0 6px;padding:0}
.req{color:var(--bad);margin-inline-start:2px}
input:not([type=radio]),select,textarea{width:100%;font:inherit;color:var(--fg);background:var(--field);border:1px solid var(--line);border-radius:8px;padding:9px 11px;min-height:42px}
textarea{min-height:96px;resize:vertical}
[aria-invalid=true]{border-color:var(--bad)!important}
.choices{display:flex;gap:18px}
.choices label{display:inline-flex;align-items:center;gap:8px;font-weight:500;margin:0;cursor:pointer}
input[type=radio]{width:18px;height:18px;margin:0;accent-color:var(--accent)}
.err{color:var(--bad);font-size:13.5px;margin:6px 0 0}
.err:empty{display:none}
.msg{margin:12px 0 0;padding:10px 12px;border-radius:10px;border:1px solid var(--info-line);background:var(--info-bg);font-size:14px}
.msg:empty{display:none}
.msg.error{border-color:var(--bad-line);background:var(--bad-bg);color:var(--bad)}
.msg.ok{border-color:var(--ok-line);background:var(--ok-bg);color:var(--ok)}
.done h3{color:var(--ok)}
code{font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:var(--soft);padding:2px 6px;border-radius:6px;word-break:break-all}
.wait{min-height:44px;display:flex;align-items:center}
.spin{width:16px;height:16px;border-radius:50%;border:2px solid currentColor;border-right-color:transparent;animation:s .8s linear infinite}
@keyframes s{to{transform:rotate(360deg)}}
@media (prefers-reduced-motion:reduce){.spin{animation:none}button{transition:none}}
`;
