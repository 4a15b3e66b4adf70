// A league's leaderboard, a page at a time, and a rating-history chart for
// the player chosen (?player=ID opens with one).
'use strict';

const PAGE_SIZE = 50;
const leagueState = {id: '', tokens: [''], page: 0, board: null};

async function loadLeague() {
  const main = document.getElementById('main');
  leagueState.id = pathId();
  try {
    const league = await api('/api/leagues/' + encodeURIComponent(leagueState.id));
    const settings = league.settings || {};
    main.replaceChildren(
      el('h1', {}, 'League ', leagueState.id),
      el('p', {class: 'muted', id: 'league-facts'}, settings.displayName || '', ' · ',
         (settings.gameTypes || []).join(', '), ' · ', settings.ratingSystem || '', ' · ', String(league.ratedGames || 0), ' rated games'),
      el('section', {id: 'board'}, el('p', {class: 'muted'}, 'Loading the leaderboard…')),
      el('section', {id: 'history', hidden: true}));
    await showPage(0);
    performance.mark('useful');
    document.body.dataset.ready = '1';
    const player = query('player');
    if (player) await showHistory(player);
  } catch (error) {
    showError(main, error);
    document.body.dataset.ready = 'error';
  }
}

async function showPage(page) {
  const token = leagueState.tokens[page];
  const board = await api('/api/leagues/' + encodeURIComponent(leagueState.id) +
                          '/leaderboard?page_size=' + PAGE_SIZE +
                          (token ? '&page_token=' + encodeURIComponent(token) : ''));
  leagueState.page = page;
  leagueState.tokens[page + 1] = board.nextPageToken || '';
  const rows = board.rows || [];
  const total = Number(board.totalPlayers || rows.length);
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const section = document.getElementById('board');
  section.replaceChildren(
    el('h2', {}, 'Leaderboard'),
    el('p', {class: 'muted', id: 'board-total'}, String(total), ' players · page ',
       String(page + 1), ' of ', String(pages)),
    el('div', {class: 'scroll'}, el('table', {id: 'leaderboard'},
      el('thead', {}, el('tr', {}, el('th', {class: 'num'}, 'Rank'), el('th', {}, 'Player'),
                         el('th', {class: 'num'}, 'Rating'), el('th', {class: 'num'}, 'Games'),
                         el('th', {}, ''))),
      el('tbody', {}, rows.map(row => el('tr', {},
        el('td', {class: 'num'}, String(row.rank || '')),
        el('td', {}, el('a', {href: '?player=' + encodeURIComponent(row.player),
                              onclick: event => { event.preventDefault(); showHistory(row.player); }},
                        row.player)),
        el('td', {class: 'num'}, fixed(row.displayRating, 1)),
        el('td', {class: 'num'}, String(row.games || 0)),
        el('td', {}, row.provisional ? el('span', {class: 'mark', title: 'provisional: few games so far'}, 'provisional') : '')))))),
    el('div', {class: 'controls'},
      el('button', {type: 'button', id: 'prev-page', disabled: page === 0,
                    onclick: () => showPage(page - 1)}, '← Previous'),
      el('button', {type: 'button', id: 'next-page', disabled: !board.nextPageToken,
                    onclick: () => showPage(page + 1)}, 'Next →')));
}

async function showHistory(player) {
  const section = document.getElementById('history');
  section.hidden = false;
  section.replaceChildren(el('p', {class: 'muted'}, 'Loading the history of ', player, '…'));
  try {
    const points = await apiAll('/api/leagues/' + encodeURIComponent(leagueState.id) + '/players/' +
                                encodeURIComponent(player) + '/history', 'points', 500);
    history.replaceState(null, '', '?player=' + encodeURIComponent(player));
    section.replaceChildren(el('h2', {}, 'Rating history of ', player),
                            el('p', {class: 'muted'}, String(points.length), ' rated games'),
                            ratingChart(points));
  } catch (error) {
    showError(section, error);
  }
}

// An SVG line of display ratings, one point per rated game.
function ratingChart(points) {
  const width = 600, height = 220, pad = 40;
  const values = points.map(p => Number(p.displayRating || 0));
  const low = Math.min(...values, 0), high = Math.max(...values, 1);
  const x = i => pad + (points.length < 2 ? 0 : (i * (width - 2 * pad)) / (points.length - 1));
  const y = v => height - pad - ((v - low) * (height - 2 * pad)) / (high - low || 1);
  const chart = svg('svg', {class: 'chart', id: 'rating-chart', viewBox: `0 0 ${width} ${height}`,
                            role: 'img', 'aria-label': 'rating after each game'},
    svg('line', {x1: pad, y1: height - pad, x2: width - pad, y2: height - pad, stroke: '#999'}),
    svg('line', {x1: pad, y1: pad, x2: pad, y2: height - pad, stroke: '#999'}),
    svg('text', {x: 4, y: pad, 'font-size': 11, fill: '#555'}, fixed(high, 0)),
    svg('text', {x: 4, y: height - pad, 'font-size': 11, fill: '#555'}, fixed(low, 0)),
    svg('text', {x: width / 2, y: height - 8, 'font-size': 11, fill: '#555', 'text-anchor': 'middle'},
        'rated games'),
    svg('polyline', {fill: 'none', stroke: '#1f5fbf', 'stroke-width': 2,
                     points: values.map((v, i) => `${x(i)},${y(v)}`).join(' ')}));
  values.forEach((v, i) => chart.append(
    svg('circle', {cx: x(i), cy: y(v), r: 3, fill: '#1f5fbf'},
        svg('title', {}, `${points[i].game || ''}: ${fixed(v, 1)}`))));
  return chart;
}

document.addEventListener('DOMContentLoaded', loadLeague);
