/**
 * Links taken from payloads are followed only under the configured base URL, so
 * the bearer token never leaves for another host. Relative links resolve against the base URL.
 */
import { ApplicationFailure } from '@temporalio/common';

export const LINK_OUTSIDE_BASE_URL = 'LinkOutsideBaseUrl';

export function resolveProviderLink(baseUrl: string, link: string): URL {
  const base = new URL(baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  // `//host/path` names another host (protocol-relative), not a path under ours.
  const relativePath = link.startsWith('/') && !link.startsWith('//');
  let target: URL;
  try {
    target = new URL(relativePath ? `.${link}` : link, base);
  } catch {
    throw refuse(link, 'it is not a URL');
  }
  if (target.origin !== base.origin) throw refuse(link, `its origin is not ${base.origin}`);
  if (target.username || target.password) throw refuse(link, 'it carries credentials');
  if (!target.pathname.startsWith(base.pathname)) throw refuse(link, `its path is not under ${base.pathname}`);
  return target;
}

function refuse(link: string, why: string): ApplicationFailure {
  return ApplicationFailure.create({
    type: LINK_OUTSIDE_BASE_URL,
    message: `Refused to follow provider link ${JSON.stringify(link.slice(0, 200))}: ${why}`,
    nonRetryable: true,
  });
}
