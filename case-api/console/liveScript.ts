/**
 * /console/live.js: keeps a page's `[data-live]` region current by fetching the same page every
 * two seconds and swapping the region in, unless the operator is typing in it (a reason half
 * written must not vanish). A script file, not inline, so helmet's CSP stays strict.
 */
export const liveScript = `(() => {
  const region = () => document.querySelector('[data-live]');
  const busy = (el) => el.contains(document.activeElement) || [...el.querySelectorAll('input[type=text]')].some((i) => i.value);
  async function tick() {
    const el = region();
    if (!el || busy(el)) return;
    const res = await fetch(location.pathname, { credentials: 'same-origin', headers: { accept: 'text/html' } });
    if (!res.ok) return;
    const next = new DOMParser().parseFromString(await res.text(), 'text/html').querySelector('[data-live]');
    if (next && next.innerHTML !== el.innerHTML) el.innerHTML = next.innerHTML;
  }
  setInterval(() => tick().catch(() => {}), 2000);
})();
`;
