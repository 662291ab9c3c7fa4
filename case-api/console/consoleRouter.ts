/**
 * The operator console at /console: server-rendered pages over the same gateway as the API (the
 * queue, a case, its actions, assignment). Sign-in and sessions are in consoleSessions.ts; every
 * action is a POST that must carry the session's CSRF token and, when the browser sends one, a
 * same-origin Origin. Pages follow the case file live through /console/changes (changeWatcher.ts).
 */
import express, { type Response } from 'express';
import { z } from 'zod';
import { operatorIdentity, type OperatorIdentity } from '../../client/operatorIdentity';
import { mayWaive } from '../apiKeys';
import type { CaseGateway } from '../caseGateway';
import { caseView } from '../caseView';
import { DEFAULT_CONSOLE_LONG_POLL_SECONDS, type CaseApiConfig } from '../config';
import { HttpError } from '../httpError';
import { requestIdOf } from '../requestId';
import { caseIdParam } from '../schemas';
import { escapeHtml } from '../escapeHtml';
import { caseBody } from './casePage';
import { ChangeWatcher, type Watched } from './changeWatcher';
import { queueFiltersOf, listFiltersOf } from './queueFilters';
import { page } from './layout';
import { liveScript } from './liveScript';
import { queueBody } from './queuePage';
import { mountFunnelPages } from './funnelRoutes';
import { mountConsoleSessions, sameOrigin } from './consoleSessions';
import { csrfTokenMatches, shownName, type Session } from './session';
import { operatorNamesOf } from '../../case-file/consoleOperators';

export interface ConsoleOptions {
  namespace: string;
}

const actionForms = {
  retry: z.object({ step: z.string().min(1).max(300), reason: z.string().trim().max(500).optional() }),
  waive: z.object({
    step: z.string().min(1).max(300),
    reason: z.string().trim().min(1, 'a waiver needs a reason').max(500),
  }),
  picklist: z.object({ providerId: z.string().trim().min(1, 'choose a company').max(200) }),
  cancel: z.object({ reason: z.string().trim().max(500).optional() }),
  assign: z
    .object({ to: z.enum(['me', 'colleague', 'nobody']), assignee: z.string().trim().max(200).optional() })
    .refine((f) => f.to !== 'colleague' || Boolean(f.assignee), 'choose a colleague'),
};
type ActionName = keyof typeof actionForms;

export function consoleRouter(config: CaseApiConfig, gateway: CaseGateway, options: ConsoleOptions): express.Router {
  const router = express.Router();
  const secret = config.sessionSecret;
  const form = express.urlencoded({ extended: false, limit: config.maxBodyBytes });
  const html = (res: Response, status: number, body: string) =>
    void res.status(status).type('html').set('Cache-Control', 'no-store').send(body);

  router.get('/console/live.js', (_req, res) => void res.type('application/javascript').send(liveScript));
  mountConsoleSessions(router, config, form, html, gateway.caseFilePool);

  const operators = [...new Set(config.keys.filter((k) => k.role === 'operator').map((k) => k.name))];
  const watcher = gateway.desk ? new ChangeWatcher(gateway.desk) : undefined;
  const me = (res: Response) => (res.locals.session as Session).key;
  const waives = (res: Response) => mayWaive(config.waiveRole, res.locals.roles as string[] | undefined);
  const signedIn = (res: Response) => ({ csrf: res.locals.csrf as string, name: shownName(res.locals.session) });
  const pool = gateway.caseFilePool;
  mountFunnelPages(router, gateway, { html, signedIn });
  /** The names of the OIDC operators among these identities (none without a case file). */
  const namesOf = async (identities: (string | null | undefined)[]) =>
    pool
      ? operatorNamesOf(
          pool,
          identities.filter((i): i is string => Boolean(i)),
        )
      : undefined;

  router.get('/console', async (req, res) => {
    const filters = queueFiltersOf(req.query);
    try {
      // The mark before the list: a change in between then shows as a change, never goes unseen.
      const mark = await watcher?.mark({ queue: true });
      const { state, ...listFilters } = listFiltersOf(filters);
      const found = await gateway.list(state, 50, filters.cursor, listFilters);
      const operatorNames = await namesOf(found.cases.map((c) => c.assignee));
      const body = queueBody(found.cases, {
        filters,
        operators,
        me: me(res),
        operatorNames,
        nextCursor: found.nextPageToken,
        mark,
      });
      html(res, 200, page('Queue', body, { signedIn: signedIn(res), live: true }));
    } catch (error) {
      showError(res, error);
    }
  });

  /**
   * Long poll: answers 200 with the new mark once what the page shows changed in the case file, 204
   * after `consoleLongPollMs` (25 s).
   */
  router.get('/console/changes', async (req, res) => {
    const caseId = caseIdParam.safeParse(req.query.case);
    const watched: Watched | undefined =
      req.query.queue === '1' ? { queue: true } : caseId.success ? { caseId: caseId.data } : undefined;
    const since = typeof req.query.since === 'string' ? req.query.since.slice(0, 100) : '';
    if (!watched)
      return void res.status(400).json({ error: 'invalid_request', message: 'changes of what: case=<id> or queue=1' });
    const closed = new AbortController();
    req.on('close', () => closed.abort());
    // Without a case file there is nothing to watch: the page refreshes every 10 s instead.
    const mark = watcher
      ? await watcher.wait(
          watched,
          since,
          config.consoleLongPollMs ?? DEFAULT_CONSOLE_LONG_POLL_SECONDS * 1000,
          closed.signal,
        )
      : await new Promise<string>((r) => setTimeout(() => r('unknown'), 10_000).unref());
    if (closed.signal.aborted) return;
    res.set('Cache-Control', 'no-store');
    if (mark === null) return void res.status(204).end();
    res.json({ mark });
  });

  const showCase = async (
    res: Response,
    caseId: string,
    status = 200,
    flash?: { kind: 'error' | 'notice'; text: string },
  ) => {
    const mark = await watcher?.mark({ caseId });
    const view = { ...caseView(await gateway.status(caseId)) };
    const webUi = config.temporalUiUrl ? { url: config.temporalUiUrl, namespace: options.namespace } : undefined;
    const desk =
      gateway.desk && mark !== undefined
        ? {
            record: await gateway.desk.caseRecord(caseId),
            evidence: await gateway.desk.deskEvidence(caseId),
            timeline: await gateway.desk.timeline(caseId),
            mark,
          }
        : undefined;
    const operatorNames = await namesOf([
      desk?.record?.assignee,
      ...(desk?.timeline ?? []).flatMap((e) => (e.kind === 'operator_action' ? [e.actor, e.assignee] : [])),
    ]);
    const body = caseBody(
      view,
      {
        csrf: res.locals.csrf,
        webUi,
        operators,
        me: me(res),
        operatorNames,
        mayWaive: waives(res),
        desk: desk || undefined,
      },
      flash,
    );
    html(res, status, page(`Case ${caseId}`, body, { signedIn: signedIn(res), live: true }));
  };

  router.get('/console/cases/:caseId', async (req, res) => {
    const caseId = caseIdParam.safeParse(req.params.caseId);
    if (!caseId.success)
      return html(
        res,
        400,
        page('Not a case', '<p>That is not a case id.</p>', { signedIn: { csrf: res.locals.csrf } }),
      );
    const notice =
      typeof req.query.done === 'string' ? { kind: 'notice' as const, text: req.query.done.slice(0, 200) } : undefined;
    await showCase(res, caseId.data, 200, notice).catch((error) => showError(res, error));
  });

  router.post('/console/cases/:caseId/:action', form, async (req, res) => {
    const caseId = caseIdParam.safeParse(req.params.caseId);
    const action = req.params.action as ActionName;
    if (!caseId.success || !(action in actionForms))
      return html(res, 404, page('Not found', '<p>No such action.</p>', { signedIn: { csrf: res.locals.csrf } }));
    if (!sameOrigin(req) || !csrfTokenMatches(secret, res.locals.session, req.body?.csrf))
      return html(res, 403, page('Refused', '<p>Refused: the form did not come from this console.</p>'));
    if (action === 'waive' && !waives(res)) {
      return html(
        res,
        403,
        page(
          'Refused',
          `<div class="box error" role="alert">Refused: waiving a step needs the ` +
            `${escapeHtml(config.waiveRole ?? '')} role.</div><p><a href="/console/cases/` +
            `${encodeURIComponent(caseId.data)}">Back to the case</a></p>`,
          { signedIn: signedIn(res) },
        ),
      );
    }
    const parsed = actionForms[action].safeParse(req.body);
    if (!parsed.success)
      return showCase(res, caseId.data, 400, {
        kind: 'error',
        text: parsed.error.issues.map((i) => i.message).join('; '),
      }).catch((e) => showError(res, e));
    try {
      const done = await runAction(
        gateway,
        caseId.data,
        action,
        parsed.data as never,
        operatorIdentity(me(res), { requestId: requestIdOf(res) }),
      );
      res.redirect(303, `/console/cases/${encodeURIComponent(caseId.data)}?done=${encodeURIComponent(done)}`);
    } catch (error) {
      if (error instanceof HttpError && (error.status === 409 || error.status === 422))
        return showCase(res, caseId.data, error.status, { kind: 'error', text: error.message }).catch((e) =>
          showError(res, e),
        );
      showError(res, error);
    }
  });

  function showError(res: Response, error: unknown): void {
    const http = error instanceof HttpError ? error : new HttpError(500, 'internal', 'Something failed; try again');
    html(
      res,
      http.status,
      page(
        'Problem',
        `<div class="box error" role="alert">${http.message.replace(/[<>&"]/g, '')}` +
          `</div><p><a href="/console">Back to the queue</a></p>`,
        { signedIn: signedIn(res) },
      ),
    );
  }

  return router;
}

/**
 * `identity`: the signed-in operator (the name of the key they signed in with) and the request's
 * id (its `Request-Id`), for the audit trail; a console form sends no Idempotency-Key.
 */
async function runAction(
  gateway: CaseGateway,
  caseId: string,
  action: ActionName,
  form: Record<string, string | undefined>,
  identity: OperatorIdentity,
): Promise<string> {
  switch (action) {
    case 'retry':
      await gateway.retryStep(caseId, form.step!, form.reason || 'retried from the console', identity);
      return `${form.step} is running again`;
    case 'waive':
      await gateway.waiveStep(caseId, form.step!, form.reason!, identity);
      return `${form.step} waived`;
    case 'picklist':
      await gateway.resolvePicklist(caseId, form.providerId!, identity);
      return `company ${form.providerId} chosen`;
    case 'cancel':
      await gateway.cancel(caseId, form.reason || 'cancelled from the console', identity);
      return 'cancel requested';
    case 'assign': {
      const assignee = form.to === 'me' ? identity.actor : form.to === 'colleague' ? form.assignee! : null;
      await gateway.assign(caseId, assignee, identity);
      return assignee ? `assigned to ${assignee}` : 'released';
    }
  }
}
