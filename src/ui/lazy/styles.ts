/**
 * The elements' styles (in each shadow root). Every colour, the radius and the font come from a
 * `--scope-connect-*` custom property with a default (the list is in docs/ui.md); short private
 * names (`--a`, `--bg`…) keep the sheet small.
 */
export const STYLES = `
:host{--a:var(--scope-connect-accent,#3b5bdb);--at:var(--scope-connect-accent-text,#fff);--bg:var(--scope-connect-background,#fff);--sf:var(--scope-connect-surface,#f3f4f6);--tx:var(--scope-connect-text,#16181d);--mu:var(--scope-connect-muted,#596170);--bd:var(--scope-connect-border,#dcdfe4);--dg:var(--scope-connect-danger,#c0262d);--ok:var(--scope-connect-success,#237a3b);--r:var(--scope-connect-radius,14px);--bk:var(--scope-connect-backdrop,rgb(12 14 18/.55));display:inline-block;font-family:var(--scope-connect-font,system-ui,-apple-system,"Segoe UI",sans-serif);color:var(--tx);font-size:15px;line-height:1.4}
:host([theme=dark]){--bg:var(--scope-connect-background,#17191e);--sf:var(--scope-connect-surface,#24272e);--tx:var(--scope-connect-text,#eceef2);--mu:var(--scope-connect-muted,#a3aab6);--bd:var(--scope-connect-border,#3a3f48);--dg:var(--scope-connect-danger,#ff8a8f);--ok:var(--scope-connect-success,#5fd07f);color-scheme:dark}
@media (prefers-color-scheme:dark){:host([theme=auto]){--bg:var(--scope-connect-background,#17191e);--sf:var(--scope-connect-surface,#24272e);--tx:var(--scope-connect-text,#eceef2);--mu:var(--scope-connect-muted,#a3aab6);--bd:var(--scope-connect-border,#3a3f48);--dg:var(--scope-connect-danger,#ff8a8f);--ok:var(--scope-connect-success,#5fd07f);color-scheme:dark}}
*{box-sizing:border-box;font:inherit}
button,.btn,select{display:inline-flex;align-items:center;justify-content:center;gap:.5em;min-height:40px;padding:.5em 1em;border:1px solid var(--bd);border-radius:calc(var(--r)*.75);background:var(--bg);color:var(--tx);font-weight:600;cursor:pointer;text-decoration:none}
button:hover,a.btn:hover,select:hover{background:var(--sf)}
button:focus-visible,a:focus-visible,select:focus-visible{outline:3px solid var(--a);outline-offset:2px}
button:disabled{opacity:.55;cursor:default}
.primary{background:var(--a);border-color:var(--a);color:var(--at)}
.primary:hover{background:var(--a);filter:brightness(1.08)}
.chip{display:flex;gap:.5em;align-items:center}
button,.btn{white-space:nowrap}
@media (max-width:520px){:host{max-width:100%;min-width:0}.chip{flex-wrap:wrap;justify-content:flex-end;gap:.25em}.chip button,.chip select{padding:.4em .6em;font-size:13px;max-width:100%}}
.dot{width:.7em;height:.7em;border-radius:50%;background:var(--ok)}
.bad{color:var(--dg);border-color:var(--dg)}
.muted{color:var(--mu);font-weight:400}
dialog{width:min(400px,calc(100vw - 24px));max-height:calc(100vh - 24px);padding:0;border:1px solid var(--bd);border-radius:var(--r);background:var(--bg);color:var(--tx);box-shadow:0 24px 64px rgb(0 0 0/.25)}
dialog::backdrop{background:var(--bk)}
header{display:flex;align-items:center;justify-content:space-between;padding:16px 16px 8px 20px}
h2{margin:0;font-size:1.1em;font-weight:700}
.x{min-height:36px;width:36px;padding:0;border:0;font-size:1.4em;font-weight:400}
.body{padding:8px 20px 20px;display:grid;gap:12px}
ul{list-style:none;margin:0;padding:0;display:grid;gap:6px}
li>button,li>a.btn{width:100%;justify-content:flex-start;border-color:transparent;background:var(--sf);min-height:52px;white-space:normal}
li>button:hover,li>a.btn:hover{border-color:var(--bd)}
.icon{width:32px;height:32px;border-radius:8px;flex:none;display:grid;place-items:center;background:var(--a);color:var(--at);font-weight:700}
.name{flex:1;min-width:0;text-align:start}
.badge{font-size:.75em;font-weight:600;padding:.15em .6em;border-radius:99px;background:var(--bg);color:var(--mu);border:1px solid var(--bd)}
.badge.on{color:var(--ok);border-color:var(--ok)}
.center{text-align:center;display:grid;gap:8px;justify-items:center}
.spin{width:44px;height:44px;border-radius:50%;border:4px solid var(--sf);border-top-color:var(--a);animation:s 1s linear infinite}
@keyframes s{to{transform:rotate(1turn)}}
@media (prefers-reduced-motion:reduce){.spin{animation:none}}
.qr{width:min(240px,70vw);aspect-ratio:1;padding:8px;border-radius:var(--r);background:#fff;border:1px solid var(--bd)}
.qr svg{display:block;width:100%;height:100%}
.row{display:flex;gap:8px;flex-wrap:wrap;justify-content:center}
.row>*{flex:1}
dl{margin:0;display:grid;grid-template-columns:auto 1fr;gap:6px 16px}
dt{color:var(--mu)}
dd{margin:0;text-align:end;font-weight:600;overflow-wrap:anywhere}
p{margin:0}
.tw{position:fixed;inset-inline-end:16px;bottom:16px;display:flex;align-items:center;gap:.75em;padding-block:.5em;padding-inline:1em .5em;border-radius:var(--r);background:var(--tx);color:var(--bg)}
.tw:has(.toast:empty){display:none}
.tw a{color:inherit}
.tw .x{background:none;color:inherit}
[hidden]{display:none!important}
.store{display:grid;gap:8px;padding:8px;border-radius:calc(var(--r)*.75);background:var(--sf)}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
`
