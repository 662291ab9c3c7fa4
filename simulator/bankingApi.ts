/** Banking (spec §1, §4.7, §6.6): open banking connection requests and per-account endpoints. */
import express, { type Router } from 'express';
import { routes } from '../activities/routes';
import type { OpenBankingConnectionRequest } from '../provider';
import { sendError } from './apiErrors';
import { recordCreation } from './idempotency';
import type { SimulatorStore } from './store';

export function createBankingApi(store: SimulatorStore): Router {
  const router = express.Router();

  router.post(routes.createOpenBankingConnection.pattern, (req, res) => {
    const owner = store.cases.get(req.params.caseId as string);
    if (!owner) return sendError(res, 404, 'not_found', `No case ${req.params.caseId}`);
    const id = store.random.guid();
    const connection: OpenBankingConnectionRequest = {
      bank_connection_id: id,
      entity_type: owner.entity_type,
      entity_id: owner.case_id,
      status: 'Pending',
      connection_link: `https://openbanking.simulator.invalid/${id}`,
    };
    store.openBankingConnections.set(id, connection);
    recordCreation(store, res, id);
    res.status(201).json(connection);
  });

  const account = (id: string) => store.accounts.get(id);
  router.get(routes.bankAccount.pattern, (req, res) => {
    const found = account(req.params.accountConnectionId as string);
    if (!found) return sendError(res, 404, 'not_found', `No bank account ${req.params.accountConnectionId}`);
    res.json(found.account);
  });
  router.get(routes.bankAccountBalances.pattern, (req, res) => {
    const found = account(req.params.accountConnectionId as string);
    if (!found) return sendError(res, 404, 'not_found', `No bank account ${req.params.accountConnectionId}`);
    res.json(found.balances);
  });
  router.get(routes.bankAccountTransactions.pattern, (req, res) => {
    const found = account(req.params.accountConnectionId as string);
    if (!found) return sendError(res, 404, 'not_found', `No bank account ${req.params.accountConnectionId}`);
    res.json(found.transactions);
  });

  return router;
}
