// tabs.js: the page's two views, Live and Study, as ARIA tabs.
import { STUDY_DEFAULTS, buildQuery } from '../shared/url.js';
import { $, app, isCustom, download, copyText } from './page.js';

/** Show the live view or the Study view (study.js, loaded on first use). The live run pauses
 * while the study is shown (it would take a core from the study's workers) and plays again on
 * return if it was playing. `study`: settings from a link ({ choice, study }). */
export async function setView(view, study = null) {
  const tabs = { live: $('tab-live'), study: $('tab-study') };
  for (const [name, tab] of Object.entries(tabs)) {
    tab.setAttribute('aria-selected', String(name === view));
    tab.tabIndex = name === view ? 0 : -1;
  }
  $('live-panel').hidden = view !== 'live';
  $('study-panel').hidden = view !== 'study';
  if (view === app.view && !study) return;
  app.view = view;
  const p = app.player;
  if (view === 'study') {
    app.resumeLive = p.playing;
    p.setPlaying(false);
    if (!app.study) {
      const { StudyView } = await import('../study/study.js');
      app.study = new StudyView($('study-panel'), {
        presets: app.presets,
        live: () => ({ scenario: app.settings.scenario, system: app.settings.system, problem: app.linkProblem }),
        download,
        copyText,
        setQuery: (q) => { if (app.view === 'study') history.replaceState(null, '', q); },
      });
      window.tumble.study = app.study.hook();
      app.study.set(study?.choice ?? { scenario: 'nk-revolute' }, study?.study ?? STUDY_DEFAULTS);
    } else {
      app.study.set(study?.choice ?? null, study?.study ?? null);
    }
  } else {
    if (!isCustom(app.settings.scenario) || app.settings.system) history.replaceState(null, '', buildQuery(app.settings));
    if (app.resumeLive) p.setPlaying(true);
  }
}

/** Wire the Live and Study tabs. */
export function wireTabs() {
  const order = ['live', 'study'];
  for (const name of order) {
    const tab = $(`tab-${name}`);
    tab.addEventListener('click', () => setView(name));
    // arrow keys move between the tabs (and show the tab), as in the ARIA tabs pattern
    tab.addEventListener('keydown', (e) => {
      const k = { ArrowLeft: -1, ArrowRight: 1, Home: -9, End: 9 }[e.key];
      if (!k) return;
      e.preventDefault();
      e.stopPropagation();
      const next = order[Math.max(0, Math.min(order.length - 1, order.indexOf(name) + k))];
      $(`tab-${next}`).focus();
      setView(next);
    });
  }
}
