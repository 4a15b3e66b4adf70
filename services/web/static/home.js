// The start page: leagues, tournaments and finished games.
'use strict';

async function loadHome() {
  const main = document.getElementById('main');
  try {
    const [leagues, tournamentPage, gamePage] = await Promise.all([
      apiAll('/api/leagues', 'leagues', 500),
      api('/api/tournaments?page_size=20'),
      api('/api/games?page_size=500'),
    ]);
    const games = gamePage.games || [];
    const tournaments = tournamentPage.tournaments || [];
    main.replaceChildren(
      el('h1', {}, 'Leagues, tournaments and games'),
      el('section', {id: 'leagues'}, el('h2', {}, 'Leagues'),
         leagues.length === 0 ? el('p', {class: 'muted'}, 'No leagues yet.') :
         el('ul', {class: 'plain'}, leagues.map(l => el('li', {},
           el('a', {href: '/leagues/' + encodeURIComponent(idOf(l.name))}, idOf(l.name)),
           ' ', el('span', {class: 'muted'}, ((l.settings && l.settings.gameTypes) || []).join(', '), ' · ',
                   String(l.ratedGames || 0), ' rated games'))))),
      el('section', {id: 'tournaments'}, el('h2', {}, 'Tournaments'),
         tournaments.length === 0 ? el('p', {class: 'muted'}, 'No tournaments yet.') :
         el('ul', {class: 'plain'}, tournaments.map(t => el('li', {},
           el('a', {href: '/tournaments/' + encodeURIComponent(idOf(t.name))}, idOf(t.name)),
           ' ', el('span', {class: 'muted'}, (t.settings && t.settings.gameType) || '', ' · ',
                   t.status || '')))),
         el('p', {}, el('a', {href: '/tournaments', id: 'all-tournaments'}, 'All tournaments'))),
      el('section', {id: 'games'}, el('h2', {}, signedIn() ? 'Games you may see' : 'Finished games'),
         gamePage.nextPageToken ? el('p', {class: 'muted'}, 'The first ', String(games.length), ' are listed.') : null,
         el('div', {class: 'scroll'}, el('table', {},
           el('thead', {}, el('tr', {}, el('th', {}, 'Game'), el('th', {}, 'Type'),
                              el('th', {}, 'Players'), el('th', {class: 'num'}, 'Events'))),
           el('tbody', {}, games.map(g => el('tr', {},
             el('td', {}, el('a', {href: '/games/' + encodeURIComponent(idOf(g.name))}, idOf(g.name))),
             el('td', {}, g.gameType || ''),
             el('td', {}, (g.players || []).map(p => p.name || p.id).join(', ')),
             el('td', {class: 'num'}, String(g.lastEvent || 0)))))))));
    performance.mark('useful');
    document.body.dataset.ready = '1';
  } catch (error) {
    showError(main, error);
    document.body.dataset.ready = 'error';
  }
}

document.addEventListener('DOMContentLoaded', loadHome);
