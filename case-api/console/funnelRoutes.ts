/**
 * The console's funnel: the page (/console/funnel), its CSV (/console/funnel.csv, what the API
 * answers at GET /v1/analytics/funnel?format=csv), its script, and Chart.js itself, served from
 * node_modules at /console/chart.js (the CSP allows scripts from this origin only; there is no CDN).
 * Behind the console's sign-in like every other page; a bad range is answered 400 naming it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type express from 'express';
import type { Response } from 'express';
import { z } from 'zod';
import { readFunnel } from '../../case-file/funnel';
import { funnelCsv } from '../../case-file/funnelCsv';
import { checkFunnelRange, funnelQueryFields, funnelQueryOf } from '../../case-file/funnelQuery';
import { inTransaction } from '../../case-file/transaction';
import { describeIssues } from '../../provider';
import type { CaseGateway } from '../caseGateway';
import { escapeHtml } from '../escapeHtml';
import { funnelBody, funnelForm, type FunnelForm } from './funnelPage';
import { funnelScript } from './funnelScript';
import { page } from './layout';

const chartJsPath = path.join(path.dirname(require.resolve('chart.js')), 'chart.umd.min.js');
/** Empty fields of the GET form are absent parameters. */
const formSchema = z.preprocess(
  (query) => Object.fromEntries(Object.entries(query as object).filter(([, v]) => v !== '')),
  z.object(funnelQueryFields).superRefine(checkFunnelRange),
);

/** What the form showed, as text (a repeated parameter is not one value). */
function formValues(query: Record<string, unknown>): FunnelForm {
  const text = (value: unknown) => (typeof value === 'string' ? value.slice(0, 40) : undefined);
  return { from: text(query.from), to: text(query.to), groupBy: text(query.groupBy) ?? 'week' };
}

export interface FunnelPageContext {
  html(res: Response, status: number, body: string): void;
  signedIn(res: Response): { csrf: string; name?: string };
}

export function mountFunnelPages(router: express.Router, gateway: CaseGateway, ctx: FunnelPageContext): void {
  let chartJs: string | undefined;
  router.get('/console/chart.js', (_req, res) => {
    chartJs ??= readFileSync(chartJsPath, 'utf8');
    res.type('application/javascript').set('Cache-Control', 'max-age=3600').send(chartJs);
  });
  router.get('/console/funnel.js', (_req, res) => void res.type('application/javascript').send(funnelScript));

  const funnelOf = async (res: Response, raw: unknown) => {
    const parsed = formSchema.safeParse(raw);
    const form = formValues(raw as Record<string, unknown>);
    if (!parsed.success) {
      const problems = describeIssues(parsed.error).map(escapeHtml).join('; ');
      const body = `<h1>Where applicants drop off</h1>${funnelForm(form)}<div class="box error" role="alert">${problems}</div>`;
      ctx.html(res, 400, page('Funnel', body, { signedIn: ctx.signedIn(res) }));
      return undefined;
    }
    const pool = gateway.caseFilePool;
    if (!pool) {
      ctx.html(
        res,
        503,
        page('Funnel', '<p>The funnel needs the case file (set DATABASE_URL).</p>', { signedIn: ctx.signedIn(res) }),
      );
      return undefined;
    }
    return {
      funnel: await inTransaction(pool, (c) => readFunnel(c, funnelQueryOf(parsed.data))),
      form: { ...parsed.data },
    };
  };

  router.get('/console/funnel', async (req, res, next) => {
    try {
      const found = await funnelOf(res, req.query);
      if (found)
        ctx.html(res, 200, page('Funnel', funnelBody(found.funnel, found.form), { signedIn: ctx.signedIn(res) }));
    } catch (error) {
      next(error);
    }
  });
  router.get('/console/funnel.csv', async (req, res, next) => {
    try {
      const found = await funnelOf(res, req.query);
      if (!found) return;
      const name = `funnel-${found.funnel.from}-${found.funnel.to}-${found.funnel.groupBy}.csv`;
      res
        .type('text/csv')
        .set({ 'Cache-Control': 'no-store', 'Content-Disposition': `attachment; filename="${name}"` });
      res.send(funnelCsv(found.funnel));
    } catch (error) {
      next(error);
    }
  });
}
