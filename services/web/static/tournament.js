// A tournament: its rounds (tables, games, results), the standings with
// every tie-break value, and its disputes with the rulings and what they
// changed.
'use strict';

function enumText(value, prefix) {
  return String(value || '').replace(prefix, '').toLowerCase().replace(/_/g, ' ');
}

// "Zoë Müller (zoe)", or the id alone for a player without a display name.
function playerText(id, name) {
  return name ? `${name} (${id})` : id;
}

// A table's status; a pending table whose game is over awaits confirmation.
function tableStatusText(table) {
  if (table.status === 'TABLE_STATUS_PENDING' && table.gameOver) return 'finished, awaiting confirmation';
  if (table.proposal) {
    return 'score sheet proposed by ' + (table.proposal.proposedBy || '') + ', awaiting the organiser';
  }
  if (table.reported) {
    const sheet = table.reportedResult || {};
    return 'reported from a score sheet, not refereed (signed by ' + (sheet.signedBy || []).join(', ') +
           (sheet.note ? ': ' + sheet.note : '') + ')';
  }
  return enumText(table.status, /^TABLE_STATUS_/);
}

async function loadTournament() {
  const main = document.getElementById('main');
  const id = pathId();
  const base = '/api/tournaments/' + encodeURIComponent(id);
  try {
    const tournament = await api(base);
    const started = Number(tournament.roundsStarted || 0);
    const rounds = [];
    for (let r = 1; r <= started; r++) rounds.push(api(base + '/rounds/' + r));
    const [roundList, standings, disputes] = await Promise.all([
      Promise.all(rounds), api(base + '/standings'), apiAll(base + '/disputes', 'disputes', 1000)]);
    const settings = tournament.settings || {};
    main.replaceChildren(
      el('h1', {}, 'Tournament ', id),
      el('p', {class: 'muted'}, settings.gameType || '', ' · ', String(settings.rounds || 0),
         ' rounds · ', String((tournament.players || []).length), ' players · ', tournament.status || '',
         ' · ', el('a', {href: '/tournaments'}, 'All tournaments')),
      standingsSection(standings),
      el('section', {id: 'rounds'}, el('h2', {}, 'Rounds'),
         roundList.length === 0 ? el('p', {class: 'muted'}, 'No round has started.') : null,
         roundList.map(roundView)),
      disputesSection(disputes));
    performance.mark('useful');
    document.body.dataset.ready = '1';
    if (signedIn()) showTablesInPlay().then(() => { document.body.dataset.tables = '1'; });
  } catch (error) {
    showError(main, error);
    document.body.dataset.ready = 'error';
  }
}

function standingsSection(standings) {
  const rows = standings.rows || [];
  return el('section', {id: 'standings'},
    el('h2', {}, 'Standings', standings.afterRound ? ` after round ${standings.afterRound}` : ''),
    el('p', {class: 'muted'}, 'Tie-breaks, in order: ', (standings.tieBreaks || []).join(', ') || 'none'),
    el('div', {class: 'scroll'}, el('table', {id: 'standings-table'},
      el('thead', {}, el('tr', {},
        ['Rank', 'Player', 'Points', 'Game points', 'Wins', 'Strength of schedule', 'Head to head',
         'Lot', 'Decided by'].map((h, i) => el('th', {class: i === 1 || i === 8 ? '' : 'num'}, h)))),
      el('tbody', {}, rows.map(row => el('tr', {},
        el('td', {class: 'num'}, String(row.rank || '')),
        el('td', {}, playerText(row.player, row.displayName), row.withdrawn ? ' · withdrawn' : ''),
        el('td', {class: 'num'}, row.points || '0'),
        el('td', {class: 'num'}, String(row.gamePoints || 0)),
        el('td', {class: 'num'}, String(row.wins || 0)),
        el('td', {class: 'num'}, row.strengthOfSchedule || '0'),
        el('td', {class: 'num'}, row.hasHeadToHead ? String(row.headToHead || 0) : '–'),
        el('td', {class: 'num'}, String(row.lot || 0)),
        el('td', {}, row.decidedBy || '')))))));
}

// A seat's result at a table: "place 2", "no-show", "forfeit" or "no place".
function seatResultText(table, i) {
  const outcome = ((table.reportedResult || {}).outcomes || [])[i];
  if (outcome === 'SEAT_OUTCOME_NO_SHOW') return 'no-show';
  if (outcome === 'SEAT_OUTCOME_FORFEIT') return 'forfeit';
  return table.places && table.places[i] ? `place ${table.places[i]}` : 'no place';
}

function roundView(round) {
  return el('div', {class: 'panel round'},
    el('h3', {}, 'Round ', String(round.round), round.closed ? ' (closed)' : ' (open)'),
    (round.byes || []).length ? el('p', {}, 'Byes: ', round.byes.join(', ')) : null,
    el('div', {class: 'scroll'}, el('table', {},
      el('thead', {}, el('tr', {}, el('th', {class: 'num'}, 'Table'), el('th', {}, 'Game'),
                         el('th', {}, 'Status'), el('th', {}, 'Results (place, game points, points)'))),
      el('tbody', {}, (round.tables || []).map(table => el('tr', {},
        el('td', {class: 'num'}, String(table.number)),
        el('td', {}, el('a', {href: '/games/' + encodeURIComponent(idOf(table.game))}, idOf(table.game))),
        el('td', {}, tableStatusText(table),
          table.status === 'TABLE_STATUS_PENDING' && !table.gameOver && table.game
            ? [el('span', {class: 'in-play', 'data-game': idOf(table.game)}),
               ' · ', el('a', {href: '/play/' + encodeURIComponent(idOf(table.game)), class: 'play-link'}, 'table page')]
            : null),
        el('td', {}, el('ul', {class: 'plain'}, (table.players || []).map((player, i) => el('li', {},
          playerText(player, (table.displayNames || [])[i]), ': ', seatResultText(table, i),
          table.gamePoints && table.gamePoints[i] !== undefined ? `, ${table.gamePoints[i]} game points` : '',
          table.points && table.points[i] !== undefined ? `, ${table.points[i]} points` : ''))))))))));
}

// Each table in play: its events so far and who is to act, for a signed-in
// visitor who may read the game (the organiser, an auditor, the table's
// players); the others see its status and the link only.
async function showTablesInPlay() {
  await Promise.all([...document.querySelectorAll('span.in-play')].map(async span => {
    try {
      const game = await api('/api/games/' + encodeURIComponent(span.dataset.game));
      const toAct = game.playersToAct || [];
      span.textContent = ` · ${game.lastEvent} events` + (toAct.length ? `, to act: ${toAct.join(', ')}` : '');
    } catch (error) {
      span.textContent = '';
    }
  }));
}

function disputesSection(disputes) {
  return el('section', {id: 'disputes'}, el('h2', {}, 'Disputes'),
    disputes.length === 0 ? el('p', {class: 'muted'}, 'No disputes.') :
    disputes.map(d => {
      const ruling = d.ruling;
      const adjudication = d.adjudication || {};
      return el('div', {class: 'panel dispute'},
        el('h3', {}, idOf(d.name), ' · round ', String(d.round), ', table ', String(d.table)),
        el('p', {}, 'About ', el('a', {href: '/games/' + encodeURIComponent(idOf(d.game)) + '?event=' + (d.event || 1)},
                                 idOf(d.game), ' at event ', String(d.event || 0)), ': ', d.reason || ''),
        el('p', {}, 'Referee: ', verdictText(adjudication.verdict),
           adjudication.violation && adjudication.violation.rule ?
             ` (${adjudication.violation.rule} at event ${adjudication.violation.event}: ${adjudication.violation.detail || ''})` : '',
           adjudication.chainIntact === false ? ' · hash chain broken' : ''),
        el('p', {}, 'State: ', enumText(d.state, /^DISPUTE_STATE_/)),
        ruling ? el('div', {class: 'ruling'},
          el('p', {}, el('strong', {}, 'Ruling: ', enumText(ruling.kind, /^RULING_KIND_/)), ' — ', ruling.reason || ''),
          ruling.corrected && (ruling.corrected.places || []).length ? el('p', {}, 'Corrected places: ', (ruling.corrected.places || []).join(', '),
                                '; game points: ', (ruling.corrected.gamePoints || []).join(', ')) : null,
          (ruling.changes || []).length === 0 ? el('p', {class: 'muted'}, 'No standing changed.') :
          el('div', {class: 'scroll'}, el('table', {class: 'changes'},
            el('thead', {}, el('tr', {}, el('th', {}, 'Player'), el('th', {}, 'Rank'),
                               el('th', {}, 'Points'), el('th', {}, 'Game points'))),
            el('tbody', {}, ruling.changes.map(c => el('tr', {},
              el('td', {}, c.player),
              el('td', {}, `${c.rankBefore || 0} → ${c.rankAfter || 0}`),
              el('td', {}, `${c.pointsBefore || '0'} → ${c.pointsAfter || '0'}`),
              el('td', {}, `${c.gamePointsBefore || 0} → ${c.gamePointsAfter || 0}`))))))) : null);
    }));
}

document.addEventListener('DOMContentLoaded', loadTournament);
