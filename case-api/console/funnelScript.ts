/**
 * /console/funnel.js: draws the funnel page's charts with Chart.js (served from node_modules at
 * /console/chart.js) from the figures the page carries as JSON (`#funnel-data`, data only: the CSP
 * allows scripts from this origin alone, never inline). Three charts over the whole range: how
 * each step's reached cases ended; the median time in each step by whom it waited on; and
 * operators' median and 90th percentile time to first action. Minutes on every time axis.
 */
export const funnelScript = `(() => {
  const data = JSON.parse(document.getElementById('funnel-data').textContent);
  const steps = data.total.steps;
  const labels = steps.map((s) => s.step);
  const minutes = (seconds) => (seconds === null ? null : Math.round(seconds / 6) / 10);
  const stacked = { x: { stacked: true }, y: { stacked: true, beginAtZero: true } };
  const draw = (id, config) => new Chart(document.getElementById(id), {
    ...config,
    options: { animation: false, responsive: true, maintainAspectRatio: false, ...config.options },
  });
  draw('funnel-outcomes', {
    type: 'bar',
    data: { labels, datasets: [
      { label: 'completed', data: steps.map((s) => s.completed), backgroundColor: '#2f7d4f' },
      { label: 'waived', data: steps.map((s) => s.waived), backgroundColor: '#8fbf9f' },
      { label: 'unfinished (dropped off or under way)', data: steps.map((s) => s.unfinished), backgroundColor: '#b5473a' },
    ] },
    options: { scales: stacked, plugins: { title: { display: true, text: 'Cases that reached each step, by how the step ended' } } },
  });
  draw('funnel-waits', {
    type: 'bar',
    data: { labels, datasets: [
      { label: 'on the applicant', data: steps.map((s) => minutes(s.waitingOnApplicant.medianSeconds)), backgroundColor: '#3b5bab' },
      { label: 'on the provider', data: steps.map((s) => minutes(s.waitingOnProvider.medianSeconds)), backgroundColor: '#9aa7c7' },
      { label: 'on an operator', data: steps.map((s) => minutes(s.waitingOnOperator.medianSeconds)), backgroundColor: '#d08a2e' },
    ] },
    options: { scales: stacked, plugins: { title: { display: true, text: 'Median minutes in each step, by whom it waited on' } } },
  });
  draw('funnel-first-action', {
    type: 'bar',
    data: { labels, datasets: [
      { label: 'median', data: steps.map((s) => minutes(s.firstAction.medianSeconds)), backgroundColor: '#3b5bab' },
      { label: '90th percentile', data: steps.map((s) => minutes(s.firstAction.p90Seconds)), backgroundColor: '#9aa7c7' },
    ] },
    options: { scales: { y: { beginAtZero: true } }, plugins: { title: { display: true, text: "Operators' minutes to first action" } } },
  });
  document.body.dataset.charts = 'drawn';
})();
`;
