/**
 * A small HTML reference of the OpenAPI document: every operation, its role, parameters and
 * answers. No scripts, no CDN.
 */
import { escapeHtml } from './escapeHtml';

interface Operation {
  operationId: string;
  summary: string;
  description?: string;
  'x-required-role': string;
  parameters: { name: string; in: string; required: boolean; description?: string }[];
  requestBody?: { content: { 'application/json': { schema: unknown } } };
  responses: Record<string, { description: string }>;
}

export function referencePage(document: {
  info: { title: string; version: string; description: string };
  paths: Record<string, Record<string, Operation>>;
}): string {
  const sections = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => operationSection(method, path, op)),
  );
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(document.info.title)}</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1d2330}
code,pre{font:13px ui-monospace,monospace;background:#f3f4f7;padding:.1rem .3rem;border-radius:3px}
section{border:1px solid #dde;border-radius:6px;padding:.5rem 1rem;margin:1rem 0}
.m{font-weight:700;text-transform:uppercase;margin-right:.5rem}.get{color:#06c}.post{color:#080}
table{border-collapse:collapse}td,th{text-align:left;padding:.1rem .6rem .1rem 0;vertical-align:top}
.role{float:right;font-size:12px;background:#eef;padding:.1rem .4rem;border-radius:3px}</style></head>
<body><h1>${escapeHtml(document.info.title)} <small>${escapeHtml(document.info.version)}</small></h1>
<p>${escapeHtml(document.info.description)}</p>
<p>Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1).</p>${sections.join('\n')}</body></html>`;
}

function operationSection(method: string, path: string, op: Operation): string {
  const params = op.parameters
    .map(
      (p) =>
        `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${p.in}` +
        `${p.required ? ', required' : ''}</td><td>${escapeHtml(p.description ?? '')}</td></tr>`,
    )
    .join('');
  const responses = Object.entries(op.responses)
    .map(([status, r]) => `<tr><td><code>${status}</code></td><td>${escapeHtml(r.description)}</td></tr>`)
    .join('');
  return (
    `<section id="${escapeHtml(op.operationId)}"><span class="role">${escapeHtml(op['x-required-role'])}</span>` +
    `<h2><span class="m ${method}">${method}</span><code>${escapeHtml(path)}</code></h2>\n` +
    `<p>${escapeHtml(op.summary)}</p>${op.description ? `<p>${escapeHtml(op.description)}</p>` : ''}\n` +
    `${params ? `<h3>Parameters</h3><table>${params}</table>` : ''}` +
    `${op.requestBody ? '<h3>Body</h3><p>JSON, see the schema in /openapi.json.</p>' : ''}\n` +
    `<h3>Responses</h3><table>${responses}</table></section>`
  );
}
