// The game viewer: the position after any event (as the engine describes
// it, from GetGameState), the event list, stepping with buttons, the event
// box and the arrow keys, the verdict and the rule broken, the hash-chain
// check and the checkpoint that includes the game's last event, whose
// inclusion proof is verified here with SHA-256 (RFC 9162, 2.1.3.2).
'use strict';

const viewer = {id: '', game: null, events: [], adjudication: null, current: 0, last: 1, token: 0};

async function loadGame() {
  const main = document.getElementById('main');
  viewer.id = pathId();
  const base = '/api/games/' + encodeURIComponent(viewer.id);
  try {
    const [game, events, adjudication] = await Promise.all([
      api(base), apiAll(base + '/events', 'events', 1000), api(base + '/adjudication')]);
    viewer.game = game;
    viewer.events = events;
    viewer.adjudication = adjudication;
    viewer.last = Math.max(1, Number(game.lastEvent || events.length || 1));
    const wanted = Number(query('event') || viewer.last);
    main.replaceChildren(
      el('h1', {}, 'Game ', viewer.id),
      summary(game, adjudication),
      el('div', {class: 'viewer'},
        el('div', {},
          el('section', {id: 'position-panel', 'aria-label': 'position'},
            el('div', {class: 'controls'},
              el('button', {type: 'button', id: 'first', title: 'first event (Home)', onclick: () => go(1)}, '« First'),
              el('button', {type: 'button', id: 'back', title: 'previous event (←)', onclick: () => go(viewer.current - 1), 'aria-label': 'previous event'}, '◀'),
              el('button', {type: 'button', id: 'forward', title: 'next event (→)', onclick: () => go(viewer.current + 1), 'aria-label': 'next event'}, '▶'),
              el('button', {type: 'button', id: 'last', title: 'last event (End)', onclick: () => go(viewer.last)}, 'Last »'),
              el('label', {for: 'jump'}, 'Event'),
              el('input', {id: 'jump', type: 'number', min: 1, max: viewer.last, inputmode: 'numeric',
                           onchange: event => go(Number(event.target.value))}),
              el('span', {class: 'muted'}, 'of ', String(viewer.last))),
            el('div', {id: 'position'}))),
        el('section', {id: 'event-list'}, el('h2', {}, 'Events'),
          el('ol', {class: 'events', id: 'events'}, events.map(eventItem)))),
      el('section', {id: 'integrity'}, el('h2', {}, 'Integrity'),
        el('p', {id: 'chain'}, 'Checking the hash chain…'),
        el('div', {id: 'checkpoint'}, transparencyView(adjudication))));
    document.addEventListener('keydown', onKey);
    await go(Math.min(Math.max(1, wanted), viewer.last), true);
    performance.mark('useful');
    document.body.dataset.ready = '1';
    checkChain(base);
    verifyInclusion(adjudication);
  } catch (error) {
    showError(main, error);
    document.body.dataset.ready = 'error';
  }
}

function summary(game, adjudication) {
  const violation = adjudication.violation;
  const standings = (adjudication.standings && adjudication.standings.players) || [];
  const names = new Map((game.players || []).map(p => [p.id, p.name || p.id]));
  return el('section', {id: 'summary'},
    el('p', {}, game.gameType || '', ' · ruleset ', game.rulesetId || '', ' · ',
       statusText(game.status), game.league ? ' · league ' : '',
       game.league ? el('a', {href: '/leagues/' + encodeURIComponent(idOf(game.league))}, idOf(game.league)) : '',
       game.tournament ? ' · tournament ' : '',
       game.tournament ? el('a', {href: '/tournaments/' + encodeURIComponent(idOf(game.tournament))}, idOf(game.tournament)) : ''),
    el('p', {}, 'Players: ', (game.players || []).map(p => p.name ? `${p.name} (${p.id})` : p.id).join(', ')),
    el('p', {id: 'verdict'}, 'Verdict: ',
       el('span', {class: adjudication.verdict === 'VERDICT_ILLEGAL' ? 'bad' : 'good'}, verdictText(adjudication.verdict))),
    violation ? el('div', {class: 'violation', id: 'violation'},
      el('strong', {}, violation.rule), ' at ',
      el('a', {href: '?event=' + violation.event, onclick: e => { e.preventDefault(); go(Number(violation.event)); }},
         'event ', String(violation.event)),
      violation.player ? ` by ${violation.player}` : '', ': ', violation.detail || '') : null,
    officialView(adjudication.official, names),
    standings.length ? el('div', {class: 'scroll'}, el('table', {id: 'final-standings'},
      el('thead', {}, el('tr', {}, el('th', {class: 'num'}, 'Place'), el('th', {}, 'Player'), el('th', {class: 'num'}, 'Score'))),
      el('tbody', {}, standings.map(s => el('tr', {},
        el('td', {class: 'num'}, String(s.place || '')), el('td', {}, names.get(s.player) || s.player),
        el('td', {class: 'num'}, String(s.score || 0))))))) : null);
}

const OFFICIAL_TITLES = {
  RESULT_SOURCE_CORRECTED: 'Official result: corrected by a ruling',
  RESULT_SOURCE_VOIDED: 'Official result: voided',
  RESULT_SOURCE_REPORTED: 'Official result: reported from a score sheet, not refereed',
};

// What a seat did at a reported table: '' (played), 'no-show' or 'forfeit'.
function seatOutcome(official, seat) {
  const outcomes = (official.reported && official.reported.outcomes) || [];
  const outcome = outcomes[seat];
  return outcome === 'SEAT_OUTCOME_NO_SHOW' ? 'no-show'
       : outcome === 'SEAT_OUTCOME_FORFEIT' ? 'forfeit' : '';
}

// What a ruling or a score sheet made of the result: a void, a corrected or
// a reported result, with who recorded it, why, and the places that stand.
// Nothing when the referee's result stands.
function officialView(official, names) {
  const source = official && official.source;
  if (!OFFICIAL_TITLES[source]) return null;
  const voided = source === 'RESULT_SOURCE_VOIDED';
  const reported = source === 'RESULT_SOURCE_REPORTED';
  const players = (official.standings && official.standings.players) || [];
  return el('div', {class: 'ruling', id: 'official'},
    el('p', {}, el('strong', {}, OFFICIAL_TITLES[source]),
       ' at ', el('a', {href: '?event=' + official.event, onclick: e => { e.preventDefault(); go(Number(official.event)); }},
                  'event ', String(official.event)),
       ` by ${official.recordedBy || ''}: ${official.reason || ''}`),
    voided ? el('p', {}, 'The game has no result: nobody at the table scores.') :
      reported ? el('p', {}, 'The table entered this result from its signed score sheet; ' +
                             'Arbiter did not referee the game.') :
      el('p', {}, 'The places below stand in place of the game\'s own result, shown after them.'),
    players.length ? el('div', {class: 'scroll'}, el('table', {id: 'official-standings'},
      el('thead', {}, el('tr', {}, el('th', {class: 'num'}, 'Place'), el('th', {}, 'Player'), el('th', {class: 'num'}, 'Game points'))),
      el('tbody', {}, players.map((s, seat) => el('tr', {},
        el('td', {class: 'num'}, seatOutcome(official, seat) || String(s.place || '')),
        el('td', {}, names.get(s.player) || s.player),
        el('td', {class: 'num'}, String(s.score || 0))))))) : null);
}

// A player's display name in the game being viewed, or its id.
function playerName(id) {
  const player = ((viewer.game && viewer.game.players) || []).find(p => p.id === id);
  return (player && player.name) || id;
}

function eventText(event) {
  if (event.gameFinished && event.gameFinished.reported) {
    const signed = (event.gameFinished.reported.signedBy || []).join(', ');
    return `result reported from a score sheet signed by ${signed}, not refereed`;
  }
  if (event.gameFinished && event.gameFinished.correction) {
    return `result corrected by a ruling (${event.gameFinished.correction})`;
  }
  if (event.gameVoided) return `game voided: ${event.gameVoided.reason || ''}`;
  if (event.seatValue) {
    const who = playerName(event.seatValue.player);
    return `${who} adds a value to the deal: “${event.seatValue.value}”`;
  }
  if (event.dealClosed) {
    const absent = (event.dealClosed.absent || []).map(playerName);
    return absent.length ? `deal closed without a value from ${absent.join(', ')}`
                         : 'deal closed: every seat added a value';
  }
  if (event.dealerRevealed) return 'the dealer’s secret is revealed: anyone can re-derive the deal';
  if (event.action) {
    // The server's words for the action (Event.text, State::Label in the
    // position before it); none when it cannot replay the game (a sealed
    // seed) or may not show its positions to this visitor.
    if (event.text) return event.text;
    return `${playerName(event.action.player)}: an action`;
  }
  return String(event.type || '').replace(/_/g, ' ');
}

function eventItem(event) {
  const number = Number(event.event);
  const violation = viewer.adjudication && viewer.adjudication.violation;
  const illegal = violation && Number(violation.event) === number;
  return el('li', {id: 'event-' + number, class: illegal ? 'illegal' : ''},
    el('button', {type: 'button', onclick: () => go(number)}, String(number), '. ', eventText(event),
       illegal ? ' ✗' : ''));
}

async function go(event, initial) {
  if (!Number.isFinite(event)) return;
  event = Math.min(Math.max(1, Math.trunc(event)), viewer.last);
  if (event === viewer.current && !initial) return;
  const token = ++viewer.token;
  viewer.current = event;
  document.getElementById('jump').value = event;
  document.getElementById('first').disabled = document.getElementById('back').disabled = event <= 1;
  document.getElementById('forward').disabled = document.getElementById('last').disabled = event >= viewer.last;
  for (const li of document.querySelectorAll('.events li.current')) li.classList.remove('current');
  const item = document.getElementById('event-' + event);
  if (item) { item.classList.add('current'); item.scrollIntoView({block: 'nearest'}); }
  history.replaceState(null, '', '?event=' + event);
  const position = document.getElementById('position');
  if (viewer.game.status === 'GAME_STATUS_VOIDED' && viewer.game.seed === undefined) {
    // The server shows a voided game's positions only to those who see its
    // seed: they may hold cards that were never revealed.
    position.replaceChildren(el('p', {class: 'muted', id: 'no-positions'},
      'The positions of a voided game are shown to admins and auditors only: they may show cards that were never revealed.'));
    return;
  }
  try {
    const state = await api('/api/games/' + encodeURIComponent(viewer.id) + '/state?event=' + event);
    if (token !== viewer.token) return;  // a later step won
    position.replaceChildren(positionView(state));
  } catch (error) {
    if (token === viewer.token) showError(position, error);
  }
}

function positionView(state) {
  const violation = state.violation;
  return el('div', {id: 'state', 'data-event': String(state.event)},
    el('h2', {}, 'After event ', String(state.event)),
    el('p', {}, state.terminal ? 'The game is over.' :
       ['To act: ', (state.playersToAct || []).join(', ') || 'nobody']),
    el('p', {}, 'Verdict so far: ', verdictText(state.verdict)),
    violation && Number(violation.event) === Number(state.event) ?
      el('div', {class: 'violation'}, 'This event broke ', el('strong', {}, violation.rule), ': ', violation.detail || '') : null,
    state.view ? el('p', {id: 'headline'}, state.view.headline || '') : null,
    state.view ? boardSvg(state.view) : null,
    state.view ? holdingsTable(state.view) : null,
    state.view ? pilesLine(state.view) : null,
    el('details', {}, el('summary', {}, 'The position in words'),
       el('pre', {id: 'description'}, state.description || '')));
}

function onKey(event) {
  if (event.target && event.target.tagName === 'INPUT') return;
  const moves = {ArrowLeft: -1, ArrowRight: 1};
  if (event.key in moves) { event.preventDefault(); go(viewer.current + moves[event.key]); }
  else if (event.key === 'Home') { event.preventDefault(); go(1); }
  else if (event.key === 'End') { event.preventDefault(); go(viewer.last); }
}

async function checkChain(base) {
  const where = document.getElementById('chain');
  try {
    const check = await api(base + '/verify');
    where.replaceChildren(
      check.intact ? el('span', {class: 'good'}, 'Hash chain intact') : el('span', {class: 'bad'}, 'Hash chain broken'),
      ` over ${check.events || 0} events`,
      check.intact ? '' : ` at event ${check.firstBadEvent}: ${check.problem || ''}`,
      check.lastEventHash ? el('span', {class: 'hash'}, ' · last hash ', check.lastEventHash) : '');
  } catch (error) {
    showError(where, error);
  }
}

function transparencyView(adjudication) {
  const proof = adjudication.lastEventInclusion;
  if (!proof) {
    return el('p', {class: 'muted'}, 'Not yet in a signed checkpoint',
              adjudication.transparencyNote ? ': ' + adjudication.transparencyNote : '.');
  }
  const checkpoint = proof.checkpoint || {};
  return el('div', {},
    el('p', {}, 'The last event (', String(adjudication.lastEvent || ''), ') is leaf ', String(proof.leafIndex || 0),
       ' of the signed checkpoint of ', el('strong', {id: 'tree-size'}, String(checkpoint.treeSize || proof.treeSize)),
       ' leaves (', checkpoint.origin || '', ').'),
    el('p', {class: 'hash'}, 'Root: ', el('span', {id: 'root'}, toHex(fromBase64(checkpoint.rootHash)))),
    el('p', {id: 'inclusion'}, 'Verifying the inclusion proof…'));
}

async function sha256(...parts) {
  const total = parts.reduce((n, p) => n + p.length, 0);
  const data = new Uint8Array(total);
  let at = 0;
  for (const p of parts) { data.set(p, at); at += p.length; }
  return new Uint8Array(await crypto.subtle.digest('SHA-256', data));
}

async function verifyInclusion(adjudication) {
  const proof = adjudication.lastEventInclusion;
  const where = document.getElementById('inclusion');
  if (!proof || !where) return;
  try {
    if (!(window.crypto && crypto.subtle)) throw new Error('this browser offers no SHA-256 here');
    const checkpoint = proof.checkpoint || {};
    let fn = Number(proof.leafIndex || 0), sn = Number(proof.treeSize || checkpoint.treeSize) - 1;
    let r = await sha256(new Uint8Array([0]), fromHex(proof.eventHash));
    for (const p of (proof.hashes || []).map(fromBase64)) {
      if (sn === 0) throw new Error('the proof is too long');
      if (fn % 2 === 1 || fn === sn) {
        r = await sha256(new Uint8Array([1]), p, r);
        if (fn % 2 === 0) while (fn % 2 === 0 && fn !== 0) { fn = Math.floor(fn / 2); sn = Math.floor(sn / 2); }
      } else {
        r = await sha256(new Uint8Array([1]), r, p);
      }
      fn = Math.floor(fn / 2); sn = Math.floor(sn / 2);
    }
    const ok = sn === 0 && toHex(r) === toHex(fromBase64(checkpoint.rootHash)) &&
               proof.eventHash === adjudication.lastEventHash;
    where.replaceChildren(ok ? el('span', {class: 'good'}, 'Included: the proof leads from the last event to the root (checked in this page).')
                             : el('span', {class: 'bad'}, 'The inclusion proof does not lead to the root.'));
  } catch (error) {
    where.replaceChildren(el('span', {class: 'bad'}, 'Could not verify the proof: ', error.message));
  }
}

document.addEventListener('DOMContentLoaded', loadGame);
