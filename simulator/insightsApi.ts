/**
 * Insights (spec §1, §4.7, §6.6): affordability and income-and-employer verification, computed
 * asynchronously after the configured delay. The verification endpoint exists even on failure.
 */
import express, { type Router } from 'express';
import { path, routes } from '../activities/routes';
import type { AffordabilityInsight, IncomeEmployerResult } from '../provider';
import { sendError } from './apiErrors';
import { recordCreation } from './idempotency';
import type { Jobs } from './jobs';
import type { Case, SimulatorStore } from './store';
import type { WebhookDispatcher } from './webhookDispatcher';

export interface InsightsApiOptions {
  baseUrl: () => string;
  now: () => Date;
  jobs: Jobs;
  dispatcher: WebhookDispatcher;
}

export function createInsightsApi(store: SimulatorStore, options: InsightsApiOptions): Router {
  const router = express.Router();
  const caseOf = (id: string) => store.cases.get(id);

  router.post(routes.requestAffordabilityInsight.pattern, (req, res) => {
    const owner = caseOf(req.params.caseId as string);
    if (!owner) return sendError(res, 404, 'not_found', `No case ${req.params.caseId}`);
    const insight: AffordabilityInsight = {
      request_id: store.random.guid(),
      entity_type: owner.entity_type,
      entity_id: owner.case_id,
      status: 'Pending',
      currency: 'GBP',
      monthly_income: null,
      monthly_expenditure: null,
      monthly_disposable_income: null,
    };
    store.affordability.set(insight.request_id, insight);
    recordCreation(store, res, insight.request_id);
    options.jobs.schedule(() => completeAffordability(store, options, insight));
    res.status(202).json({ request_id: insight.request_id, status: 'Pending' });
  });

  router.get(routes.affordabilityInsight.pattern, (req, res) => {
    const insight = store.affordability.get(req.params.requestId as string);
    if (!insight) return sendError(res, 404, 'not_found', `No affordability insight ${req.params.requestId}`);
    res.json(insight);
  });

  router.get(routes.affordabilityInsightTransactions.pattern, (req, res) => {
    const insight = store.affordability.get(req.params.requestId as string);
    if (!insight) return sendError(res, 404, 'not_found', `No affordability insight ${req.params.requestId}`);
    res.json({ request_id: insight.request_id, transactions: caseTransactions(store, insight.entity_id) });
  });

  router.post(routes.requestIncomeEmployer.pattern, (req, res) => {
    const owner = caseOf(req.params.caseId as string);
    if (!owner) return sendError(res, 404, 'not_found', `No case ${req.params.caseId}`);
    const result: IncomeEmployerResult = {
      request_id: store.random.guid(),
      entity_type: owner.entity_type,
      entity_id: owner.case_id,
      status: 'Pending',
      message: null,
      employer_name: null,
      annual_income: null,
      currency: 'GBP',
      failure_detail: null,
    };
    store.incomeEmployer.set(result.request_id, result);
    recordCreation(store, res, result.request_id);
    const requestedAt = options.now().toISOString();
    options.jobs.schedule(() => completeIncomeEmployer(store, options, owner, result, requestedAt));
    res.status(202).json({ request_id: result.request_id, status: 'Pending' });
  });

  router.get(routes.incomeEmployer.pattern, (req, res) => {
    const result = store.incomeEmployer.get(req.params.requestId as string);
    if (!result) return sendError(res, 404, 'not_found', `No income and employer request ${req.params.requestId}`);
    res.json(result);
  });

  return router;
}

/** After a restart from saved state: insights still pending are computed (their job was lost with the process). */
export function resumeInsights(store: SimulatorStore, options: InsightsApiOptions): void {
  for (const insight of store.affordability.values()) {
    if (insight.status === 'Pending') options.jobs.schedule(() => completeAffordability(store, options, insight));
  }
  for (const result of store.incomeEmployer.values()) {
    const owner = store.cases.get(result.entity_id);
    if (result.status === 'Pending' && owner)
      options.jobs.schedule(() => completeIncomeEmployer(store, options, owner, result, options.now().toISOString()));
  }
}

function caseTransactions(store: SimulatorStore, caseId: string) {
  return [...store.accounts.values()].filter((a) => a.case_id === caseId).flatMap((a) => a.transactions.transactions);
}

async function completeAffordability(
  store: SimulatorStore,
  options: InsightsApiOptions,
  insight: AffordabilityInsight,
): Promise<void> {
  const transactions = caseTransactions(store, insight.entity_id);
  const income = transactions.filter((t) => t.amount > 0).reduce((sum, t) => sum + t.amount, 0);
  const spending = -transactions.filter((t) => t.amount < 0).reduce((sum, t) => sum + t.amount, 0);
  Object.assign(insight, {
    status: 'Complete',
    monthly_income: income,
    monthly_expenditure: Math.round(spending * 100) / 100,
    monthly_disposable_income: Math.round((income - spending) * 100) / 100,
  });
  const base = options.baseUrl();
  await options.dispatcher.emit('AffordabilityInsights.Completed', {
    'AffordabilityInsights.Completed': {
      request_id: insight.request_id,
      affordability_insight_endpoint: `${base}${path(routes.affordabilityInsight, { requestId: insight.request_id })}`,
      affordability_insight_transactions_endpoint:
        `${base}` + `${path(routes.affordabilityInsightTransactions, { requestId: insight.request_id })}`,
    },
  });
}

async function completeIncomeEmployer(
  store: SimulatorStore,
  options: InsightsApiOptions,
  owner: Case,
  result: IncomeEmployerResult,
  requestedAt: string,
): Promise<void> {
  if (owner.income_employer_outcome === 'Complete') {
    Object.assign(result, {
      status: 'Complete',
      message: 'Income and employer verified',
      employer_name: 'Acme Widgets Ltd',
      annual_income: 42_000,
    });
  } else {
    Object.assign(result, {
      status: 'Failed',
      message: 'The employer could not be verified',
      failure_detail: 'No payroll record matches the declared employer for the last three months',
    });
  }
  await options.dispatcher.emit('IncomeEmployerInsights.Completed', {
    'IncomeEmployerInsights.Completed': {
      status: result.status,
      message: result.message,
      entity_type: owner.entity_type,
      entity_id: owner.case_id,
      datetime_requested: requestedAt,
      datetime_completed: options.now().toISOString(),
      income_and_employer_request: {
        request_id: result.request_id,
        verification_endpoint: `${options.baseUrl()}${path(routes.incomeEmployer, { requestId: result.request_id })}`,
      },
    },
  });
}
