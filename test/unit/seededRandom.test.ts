import { SeededRandom } from '../../simulator/seededRandom';

test('the same seed gives the same GUIDs; another seed gives others', () => {
  const a = new SeededRandom(42);
  const b = new SeededRandom(42);
  const c = new SeededRandom(43);
  const fromA = [a.guid(), a.guid()];
  expect([b.guid(), b.guid()]).toEqual(fromA);
  expect(c.guid()).not.toBe(fromA[0]);
  expect(fromA[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
});
