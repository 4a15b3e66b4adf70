// Draws a PositionView (position_view.proto) as SVG: each row of the board
// as a band of spaces (wrapped to the width), every piece as a disc in its
// seat's colour, then every player's holdings and the shared piles.
'use strict';

const SEAT_COLOURS = ['#d62728', '#1f77b4', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2'];
const KIND_FILL = {tile: '#f4e3b5', water: '#a9cfee', land: '#cfe8c3', card: '#e6e0f3',
                   empty: '#f1f1f1', flooded: '#7fb0dc', built: '#b9e4c9'};

function boardSvg(view) {
  // Ten spaces a line on a desk, six on a phone (so a peninsula fits).
  const perLine = window.innerWidth < 600 ? 6 : 10, w = 74, h = 58, gap = 6, rowTitle = 20;
  let y = 4;
  const parts = [];
  for (const row of view.rows || []) {
    parts.push(svg('text', {x: 4, y: y + 14, 'font-size': 13, 'font-weight': 600, fill: '#1d2330'}, row.name || ''));
    y += rowTitle;
    (row.spaces || []).forEach((space, i) => {
      const x = 4 + (i % perLine) * (w + gap);
      const top = y + Math.floor(i / perLine) * (h + gap);
      const content = String(space.content || '');
      const group = svg('g', {class: 'space'},
        svg('title', {}, `${space.label || ''}: ${content}`),
        svg('rect', {x, y: top, width: w, height: h, rx: 5, fill: KIND_FILL[space.kind] || '#fff', stroke: '#8a93a5'}),
        svg('text', {x: x + 4, y: top + 12, 'font-size': 10, fill: '#5b6475'}, String(space.label || '').slice(0, 12)),
        svg('text', {x: x + 4, y: top + 27, 'font-size': 11, fill: '#1d2330'}, content.length > 11 ? content.slice(0, 10) + '…' : content));
      (space.pieces || []).forEach((piece, k) => {
        const cx = x + 10 + (k % 6) * 11, cy = top + 40 + Math.floor(k / 6) * 11;
        group.append(svg('circle', {cx, cy, r: 5, fill: SEAT_COLOURS[(piece.seat || 0) % SEAT_COLOURS.length],
                                    stroke: '#fff', 'stroke-width': 1, class: 'piece'},
                         svg('title', {}, `seat ${(piece.seat || 0) + 1}: ${piece.label || ''}`)));
      });
      parts.push(group);
    });
    y += Math.ceil((row.spaces || []).length / perLine) * (h + gap) + 4;
  }
  const width = 4 + perLine * (w + gap);
  return svg('svg', {class: 'board', id: 'board', viewBox: `0 0 ${width} ${Math.max(y, 10)}`, role: 'img',
                     'aria-label': `the board: ${view.headline || ''}`}, parts);
}

function holdingsTable(view) {
  return el('div', {class: 'scroll'}, el('table', {id: 'holdings'},
    el('thead', {}, el('tr', {}, el('th', {}, 'Player'), el('th', {}, 'Holdings'))),
    el('tbody', {}, (view.players || []).map(p => el('tr', {class: p.toAct ? 'to-act' : ''},
      el('td', {}, svg('svg', {width: 12, height: 12, 'aria-hidden': 'true'},
                       svg('circle', {cx: 6, cy: 6, r: 5, fill: SEAT_COLOURS[(p.seat || 0) % SEAT_COLOURS.length]})),
         ' ', p.player || `seat ${(p.seat || 0) + 1}`, p.toAct ? ' (to act)' : ''),
      el('td', {}, el('ul', {class: 'plain'}, (p.items || []).map(item => el('li', {},
        item.name, ': ', String(item.count || 0), item.detail ? ` (${item.detail})` : '')))))))));
}

function pilesLine(view) {
  return el('p', {class: 'muted', id: 'piles'}, (view.piles || []).map(
    pile => `${pile.name} ${pile.count || 0}${pile.detail ? ` (${pile.detail})` : ''}`).join(' · '));
}
