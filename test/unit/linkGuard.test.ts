import { ApplicationFailure } from '@temporalio/common';
import { LINK_OUTSIDE_BASE_URL, resolveProviderLink } from '../../activities/linkGuard';

describe('resolveProviderLink', () => {
  test.each([
    ['http://127.0.0.1:8480', 'http://127.0.0.1:8480/v2/identity/1', 'http://127.0.0.1:8480/v2/identity/1'],
    ['http://127.0.0.1:8480', '/v2/identity/1', 'http://127.0.0.1:8480/v2/identity/1'],
    ['https://api.example.com/tenant', '/v2/documents/7', 'https://api.example.com/tenant/v2/documents/7'],
    [
      'https://api.example.com/tenant/',
      'https://api.example.com/tenant/v2/documents/7',
      'https://api.example.com/tenant/v2/documents/7',
    ],
  ])('follows %s + %s', (base, link, expected) => {
    expect(resolveProviderLink(base, link).toString()).toBe(expected);
  });

  test.each([
    ['another host', 'https://api.example.com', 'https://evil.example.net/v2/identity/1'],
    ['another scheme', 'https://api.example.com', 'http://api.example.com/v2/identity/1'],
    ['another port', 'https://api.example.com', 'https://api.example.com:8443/v2/identity/1'],
    ['a path outside the base path', 'https://api.example.com/tenant', 'https://api.example.com/other/v2/identity/1'],
    ['a traversal out of the base path', 'https://api.example.com/tenant', '/../other/v2'],
    ['credentials in the link', 'https://api.example.com', 'https://user:pw@api.example.com/v2/identity/1'],
    ['a protocol-relative link', 'https://api.example.com', '//evil.example.net/v2'],
  ])('refuses %s', (_why, base, link) => {
    let failure: unknown;
    try {
      resolveProviderLink(base, link);
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({ type: LINK_OUTSIDE_BASE_URL, nonRetryable: true });
  });
});
