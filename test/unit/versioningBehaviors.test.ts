/**
 * Every workflow type the worker registers declares its Worker Versioning behaviour
 * (workflows/versioningBehaviors.ts): the journey upgrades, steps and resources pin. A workflow
 * type added without one would silently take the worker's default.
 */
import * as workflows from '../../workflows';
import { versioningBehaviors } from '../../workflows/versioningBehaviors';

const registered = Object.entries(workflows).filter(([, value]) => typeof value === 'function');

test('each registered workflow type has a behaviour: the journey AUTO_UPGRADE, every other one PINNED', () => {
  expect(Object.keys(versioningBehaviors).sort()).toEqual(registered.map(([name]) => name).sort());
  const expected = Object.fromEntries(
    registered.map(([name]) => [name, name === 'onboardCase' ? 'AUTO_UPGRADE' : 'PINNED']),
  );
  expect(versioningBehaviors).toEqual(expected);
});

test('each registered workflow function carries the declaration (setWorkflowOptions ran on it)', () => {
  for (const [name, fn] of registered) {
    expect({
      name,
      declared: typeof (fn as { workflowDefinitionOptions?: unknown }).workflowDefinitionOptions,
    }).toEqual({ name, declared: 'function' });
  }
});
