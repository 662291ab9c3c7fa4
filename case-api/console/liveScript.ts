/**
 * /console/live.js: keeps a page's `[data-live]` region current. The region carries what it
 * watches and the mark it was rendered at; the script waits on /console/changes (a long poll the
 * server answers once the case file's mark changes, changeWatcher.ts) and only then fetches the
 * page and swaps the region in, unless the operator is typing in it (a reason half written must
 * not vanish): then it swaps once they are done. A script file, not inline, so helmet's CSP stays strict.
 */
export const liveScript = `(() => {
  const region = () => document.querySelector('[data-live]');
  const busy = (el) => el.contains(document.activeElement) || [...el.querySelectorAll('input[type=text],input[type=search]')].some((i) => i.value);
  const pause = (ms) => new Promise((r) => setTimeout(r, ms));
  async function refresh() {
    for (;;) {
      const el = region();
      if (!el) return;
      if (busy(el)) { await pause(1000); continue; }
      const res = await fetch(location.href, { credentials: 'same-origin', headers: { accept: 'text/html' } });
      if (!res.ok) return;
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
        const res = await fetch('/console/changes?' + el.dataset.watch + '&since=' + encodeURIComponent(el.dataset.mark || ''), { credentials: 'same-origin' });
        if (res.status === 200) await refresh();
        else if (res.status !== 204) await pause(5000);
      } catch { await pause(5000); }
    }
  }
  follow();
})();
`;
