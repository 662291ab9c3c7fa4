/**
 * /console/live.js: keeps a page's `[data-live]` region current. The region carries what it
 * watches and the mark it was rendered at; the script waits on /console/changes (a long poll the
 * server answers once the case file's mark changes, changeWatcher.ts) and only then fetches the
 * page and swaps the region in, unless the operator is typing in it (a reason half written must
 * not vanish): then it swaps once they are done. A session that ended is answered with a redirect
 * to the sign-in page: the script goes there instead of asking again. Redirects are not followed
 * by fetch (helmet's upgrade-insecure-requests would send the followed request over https to a
 * plain-http console); the page navigates. A script file, not inline, so helmet's CSP stays strict.
 */
export const liveScript = `(() => {
  const region = () => document.querySelector('[data-live]');
  const busy = (el) => el.contains(document.activeElement) ||
    [...el.querySelectorAll('input[type=text],input[type=search]')].some((i) => i.value);
  const pause = (ms) => new Promise((r) => setTimeout(r, ms));
  const get = (url, headers) => fetch(url, { credentials: 'same-origin', redirect: 'manual', headers });
  const signedOut = (res) => res.type === 'opaqueredirect' && (location.assign('/console/login'), true);
  async function refresh() {
    for (;;) {
      const el = region();
      if (!el) return;
      if (busy(el)) { await pause(1000); continue; }
      const res = await get(location.href, { accept: 'text/html' });
      if (signedOut(res) || !res.ok) return;
      const next = new DOMParser().parseFromString(await res.text(), 'text/html').querySelector('[data-live]');
      if (!next || busy(el)) continue;
      el.innerHTML = next.innerHTML;
      el.dataset.mark = next.dataset.mark;
      return;
    }
  }
  async function follow() {
    for (;;) {
      const el = region();
      if (!el || !el.dataset.watch) return;
      try {
        const res = await get('/console/changes?' + el.dataset.watch + '&since=' +
          encodeURIComponent(el.dataset.mark || ''), {});
        if (signedOut(res)) return;
        if (res.status === 200) await refresh();
        else if (res.status !== 204) await pause(5000);
      } catch { await pause(5000); }
    }
  }
  follow();
})();
`;
