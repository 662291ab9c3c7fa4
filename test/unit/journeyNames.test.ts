/**
 * The names of steps and operator actions (client/journeyNames.ts) are the ones every place uses:
 * docs/architecture.md's "Names" tables, the journey input's `steps`, the workflows the worker
 * registers, the Updates, the case API's routes, the CLI's commands and the case file's plan order
 * (which cannot import client/ and keeps a list of its own).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { caseRoutes } from '../../case-api/caseRoutes';
import { openApiPath } from '../../case-api/routeSpec';
import { inPlanOrder } from '../../case-file/stepOrder';
import { journeyProgram } from '../../cli/journeyProgram';
import { onboardCaseInputFields } from '../../client/journeyInput';
import { resolveJourneyPicklistUpdate, retryStepUpdate, waiveStepUpdate } from '../../client/journeyMessages';
import { journeySteps, operatorActions, stepKinds, type OperatorUpdateName } from '../../client/journeyNames';
import { operatorUpdateId } from '../../client/operatorRequestId';
import { projectRoot } from '../../config/projectRoot';

/** The rows of the Markdown table whose header starts with `firstHeader`, each as its cells without backticks. */
function tableRows(markdown: string, firstHeader: string): string[][] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`| ${firstHeader}`));
  expect(start).toBeGreaterThan(-1);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim().replace(/`/g, '')),
    );
  }
  return rows;
}

const architecture = readFileSync(path.join(projectRoot, 'docs/architecture.md'), 'utf8');
const namesAt = architecture.indexOf('\n## Names\n');
const names = architecture.slice(namesAt, architecture.indexOf('\n## ', namesAt + 1));

test("docs/architecture.md's table of steps is the code's", () => {
  const expected = Object.entries(journeySteps).map(([field, { key, workflowType }]) => {
    const stepKey = field === 'identityVerification' ? `${key}/<personId>` : key;
    return [stepKey, field, workflowType, `case/<caseId>/${stepKey}`];
  });
  expect(tableRows(names, 'Step key')).toEqual(expected);
});

test("docs/architecture.md's table of operator actions is the code's", () => {
  const expected = Object.entries(operatorActions).map(([update, action]) => [
    update,
    `POST ${openApiPath(action.path)}`,
    `journey ${action.cli}${action.cli === action.name ? '' : ` (or ${action.name})`}`,
    operatorUpdateId(action.name, '<requestId>'),
  ]);
  expect(tableRows(names, 'Update')).toEqual(expected);
});

test("the journey input's steps are the table's fields", () => {
  expect(Object.keys(onboardCaseInputFields.shape.steps.shape).sort()).toEqual(Object.keys(journeySteps).sort());
});

test('the worker registers each step workflow by its type', () => {
  const index = readFileSync(path.join(projectRoot, 'workflows/index.ts'), 'utf8');
  const exported = [...index.matchAll(/export \{ (\w+) \}/g)].map((m) => m[1]);
  expect(exported).toEqual(expect.arrayContaining(Object.values(journeySteps).map((s) => s.workflowType)));
});

test("the case file's plan order is the table's", () => {
  const reversed = Object.fromEntries([...stepKinds].reverse().map((kind) => [kind, kind]));
  expect(Object.keys(inPlanOrder(reversed))).toEqual(stepKinds);
});

test('each operator action is the Update, the API route and the CLI command of the table', () => {
  const updates: Record<OperatorUpdateName, string> = {
    retryStep: retryStepUpdate.name,
    waiveStep: waiveStepUpdate.name,
    resolvePicklist: resolveJourneyPicklistUpdate.name,
  };
  const program = journeyProgram(() => {});
  for (const update of Object.keys(operatorActions) as OperatorUpdateName[]) {
    const action = operatorActions[update];
    expect(updates[update]).toBe(update);
    const route = caseRoutes.find((r) => r.path === action.path);
    expect(route).toMatchObject({ method: 'post', operationId: update, idempotent: action.name });
    const command = program.commands.find((c) => c.name() === action.cli);
    expect(command).toBeDefined();
    expect([command!.name(), ...command!.aliases()]).toContain(action.name);
  }
});
