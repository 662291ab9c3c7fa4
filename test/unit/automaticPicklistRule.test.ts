import { automaticChoice } from '../../workflows/creditReportWorkflow';

const entry = (
  provider_id: string,
  company_name: string,
  company_number: string | null,
  country_code: string | null = 'GB',
) => ({ provider_id, company_name, company_number, country_code, address: null });
const picklist = [
  entry('A', 'Acme Ltd', '1'),
  entry('B', 'Acme Ltd (Holdings)', '1'),
  entry('C', 'Acme Ltd', '2', 'IE'),
];

test.each([
  ['an exact name and country', { company_id: 'c', company_name: 'acme ltd (holdings)' }, 'B'],
  ['the name, narrowed by country', { company_id: 'c', company_name: 'Acme Ltd', country_code: 'IE' }, 'C'],
  ['the number when the name does not decide', { company_id: 'c', company_number: '2' }, 'C'],
  ['nothing when two entries share the name', { company_id: 'c', company_name: 'Acme Ltd' }, undefined],
  ['nothing when two entries share the number', { company_id: 'c', company_number: '1' }, undefined],
  ['nothing without name or number', { company_id: 'c' }, undefined],
])('picks by %s', (_why, request, expected) => {
  expect(automaticChoice(request, picklist)?.provider_id).toBe(expected);
});
