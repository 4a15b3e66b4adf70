// The tournament index: every tournament (or those of ?league=ID) with its
// game, league, status, rounds played of planned and players, each linked
// to its page. The list carries no seeds (ListTournaments).
'use strict';

async function loadTournaments() {
  const main = document.getElementById('main');
  const league = query('league');
  const path = '/api/tournaments' + (league ? '?league=' + encodeURIComponent(league) : '');
  try {
    const tournaments = await apiAll(path, 'tournaments', 500);
    main.replaceChildren(
      el('h1', {}, league ? `Tournaments of league ${league}` : 'Tournaments'),
      ...(league ? [el('p', {}, el('a', {href: '/tournaments'}, 'All tournaments'))] : []),
      tournaments.length === 0 ? el('p', {class: 'muted'}, 'No tournaments yet.') :
      el('div', {class: 'scroll'}, el('table', {id: 'tournaments-table'},
        el('thead', {}, el('tr', {},
          el('th', {}, 'Tournament'), el('th', {}, 'Game'), el('th', {}, 'League'),
          el('th', {}, 'Status'), el('th', {class: 'num'}, 'Rounds'),
          el('th', {class: 'num'}, 'Players'))),
        el('tbody', {}, tournaments.map(tournamentRow)))));
    performance.mark('useful');
    document.body.dataset.ready = '1';
  } catch (error) {
    showError(main, error);
    document.body.dataset.ready = 'error';
  }
}

function tournamentRow(t) {
  const id = idOf(t.name);
  const settings = t.settings || {};
  return el('tr', {},
    el('td', {}, el('a', {href: '/tournaments/' + encodeURIComponent(id)}, id)),
    el('td', {}, settings.gameType || ''),
    el('td', {}, settings.league ?
      el('a', {href: '/leagues/' + encodeURIComponent(settings.league)}, settings.league) : '–'),
    el('td', {}, t.status || ''),
    el('td', {class: 'num'}, `${Number(t.roundsStarted || 0)} of ${Number(settings.rounds || 0)}`),
    el('td', {class: 'num'}, String((t.players || []).length)));
}

document.addEventListener('DOMContentLoaded', loadTournaments);
