/** A new soak report replaces its own part of docs/reliability.md and keeps the fault suite's record below it. */
import { FAULT_SUITE_HEADING, withFaultSuiteSection } from '../../bench/soak/faultSuiteSection';

test('the fault suite section survives a new soak report; without one the report is the file', () => {
  const previous = `# Reliability: the soak\n\nold figures\n\n${FAULT_SUITE_HEADING}\n\nthree runs, all green\n`;
  expect(withFaultSuiteSection('# Reliability: the soak\n\nnew figures\n', previous)).toBe(
    `# Reliability: the soak\n\nnew figures\n\n${FAULT_SUITE_HEADING}\n\nthree runs, all green\n`,
  );
  expect(withFaultSuiteSection('report\n', '# old\n')).toBe('report\n');
  expect(withFaultSuiteSection('report\n', undefined)).toBe('report\n');
});
