/**
 * The console's page frame: one stylesheet inline (allowed by helmet's CSP), the live-update script
 * from /console/live.js.
 */
import { escapeHtml } from '../escapeHtml';

const style = `body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1d2330;background:#f6f7f9}
header{background:#1d2330;color:#fff;padding:.6rem 1.5rem;display:flex;gap:1.5rem;align-items:center}
header a{color:#fff}
header form{margin-left:auto}main{padding:1rem 1.5rem;max-width:72rem}
table{border-collapse:collapse;width:100%;background:#fff;margin:.5rem 0 1rem}
th,td{border-bottom:1px solid #e3e5ea;text-align:left;padding:.4rem .6rem;vertical-align:top}
th{background:#eef0f4;font-weight:600}code{font:12px ui-monospace,monospace}
.state{display:inline-block;padding:0 .45rem;border-radius:3px;font-size:12px;font-weight:600;background:#e3e5ea}
.needs_attention,.failed,.expired{background:#fde2e1;color:#8a1c13}.completed,.waived{background:#dff3e4;color:#14532d}
.waiting,.running{background:#e0ecff;color:#123c7a}.cancelled{background:#eee;color:#555}
.box{background:#fff;border:1px solid #e3e5ea;border-radius:6px;padding:.6rem 1rem;margin:.6rem 0}
.error{background:#fde2e1;border-color:#f5b5b0}.notice{background:#dff3e4;border-color:#a7dbb5}
.muted{color:#667}form.inline{display:inline-flex;gap:.4rem;margin:.2rem 0}
input[type=text],input[type=password]{padding:.25rem .4rem;border:1px solid #bbc;border-radius:3px}
button{padding:.25rem .7rem;border:1px solid #2f4b8f;background:#3b5bab;color:#fff;border-radius:3px;cursor:pointer}
button.danger{background:#a2352c;border-color:#7a231c}
form.filters{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center}
select,input[type=search]{padding:.2rem .3rem;border:1px solid #bbc;border-radius:3px}
.chart{margin:.4rem 0}.chart figcaption{font-size:12px;color:#556}
.key{display:inline-block;width:.8rem;height:.8rem;vertical-align:middle}.key.in{background:#2f7d4f}
.key.out{background:#b5473a}
ol.timeline{list-style:none;padding:0;background:#fff;border:1px solid #e3e5ea;border-radius:6px}
ol.timeline li{padding:.35rem .8rem;border-bottom:1px solid #eef0f4}ol.timeline time{color:#556;margin-right:.5rem}
.owner form.inline{margin-left:.6rem}header .who{margin-left:auto}header .who+form{margin-left:0}`;

export function page(
  title: string,
  body: string,
  options: { signedIn?: { csrf: string; name?: string }; live?: boolean } = {},
): string {
  const who = options.signedIn?.name
    ? `<span class="who">Signed in as <strong id="operator">${escapeHtml(options.signedIn.name)}</strong></span>`
    : '';
  const nav = options.signedIn
    ? `<a href="/console">Queue</a>${who}<form method="post" action="/console/logout"><input type="hidden" ` +
      `name="csrf" value="${escapeHtml(options.signedIn.csrf)}"><button>Sign out</button></form>`
    : '';
  const live = options.live ? `<script src="/console/live.js" defer></script>` : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escapeHtml(title)} · Journeys console</title><style>${style}</style>${live}</head>
<body><header><strong>Journeys console</strong>${nav}</header><main>${body}</main></body></html>`;
}
