import { clientSecretExpiryWarning } from '../../activities/clientSecretExpiry';
import { readProviderConfig } from '../../activities/providerConfig';

const now = new Date('2026-11-21T12:00:00Z');

test('no warning without a configured date, or while it is far off', () => {
  expect(clientSecretExpiryWarning(undefined, now)).toBeUndefined();
  expect(clientSecretExpiryWarning(new Date('2027-06-01T00:00:00Z'), now)).toBeUndefined();
});

test('a warning as the date nears, naming the variables to set', () => {
  expect(clientSecretExpiryWarning(new Date('2026-12-10T00:00:00Z'), now)).toMatch(
    /expires on 2026-12-10 \(in 18 days\).*PROVIDER_CLIENT_SECRET_SECONDARY/,
  );
});

test('a different warning once it has passed', () => {
  expect(clientSecretExpiryWarning(new Date('2026-11-01T00:00:00Z'), now)).toMatch(/expired on 2026-11-01/);
});

test('the date is read from PROVIDER_CLIENT_SECRET_EXPIRES_AT and a bad one is named', () => {
  expect(
    readProviderConfig({ PROVIDER_CLIENT_SECRET_EXPIRES_AT: '2027-01-31' }).clientSecretExpiresAt?.toISOString(),
  ).toBe('2027-01-31T00:00:00.000Z');
  expect(() => readProviderConfig({ PROVIDER_CLIENT_SECRET_EXPIRES_AT: 'soon' })).toThrow(
    /PROVIDER_CLIENT_SECRET_EXPIRES_AT/,
  );
});
