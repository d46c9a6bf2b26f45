// Drawing the seat's screen from its state: plain DOM, redrawn whole on each change (a hand is at most
// a few dozen cards, a board a few hundred squares). What tests drive is marked as docs/client.md says:
// data-card, data-option, data-line, data-square (board.js), data-grid-row, data-clock, data-reject,
// data-results, and data-online on the root.
import { drawBoard } from './board.js'
import { moveOption } from './protocol.js'

// A board game's grid (docs/protocol.md, "Boards") as text rows, each numbered, when the view has no
// layout to draw it with (a server that sends none).
function gridRows (view) {
  const grid = view && view.grid
  if (!grid || !Array.isArray(grid.r) || (view.layout && typeof view.layout === 'object')) return []
  const width = String(grid.y).length
  return grid.r.map((row, i) => String(grid.y - i).padStart(width, ' ') + ' ' + row.split('').join(' '))
}

function el (tag, attributes = {}, text = null) {
  const node = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value)
  if (text !== null) node.textContent = text
  return node
}

export function cardButton (token, t, { selected, disabled }) {
  const face = t.face(token)
  const button = el('button', {
    type: 'button',
    class: `card suit-${face.suit}${selected ? ' selected' : ''}`,
    'data-card': token,
    'aria-label': t.cardName(token),
    'aria-pressed': selected ? 'true' : 'false'
  })
  if (disabled) button.setAttribute('aria-disabled', 'true')
  if (face.glyph) {
    button.append(el('span', { class: 'rank', 'aria-hidden': 'true' }, face.rank))
    button.append(el('span', { class: 'pip', 'aria-hidden': 'true' }, face.glyph))
  } else {
    const star = token === 'RJ' ? '\u2605' : '\u2606' // a filled star for the red joker, an open one for the black
    button.append(el('span', { class: 'rank joker', 'aria-hidden': 'true' }, t.cardName(token)))
    button.append(el('span', { class: 'pip', 'aria-hidden': 'true' }, star + '\uFE0E'))
  }
  return button
}

/** Redraw everything from `state` (SeatState), `link` ({online, lag, retryIn, refused}) and the page's
 * settings; `armed`: the option waiting for its confirming second tap. */
export function draw (root, state, link, t, settings) {
  const $ = (id) => root.querySelector(`#${id}`)
  root.dataset.online = link.online ? 'true' : 'false'
  // Busy: an action is on its way, or its answer came before the view it made (the options wait for it).
  root.dataset.busy = state.view !== null && !state.ready() ? 'true' : 'false'
  root.dataset.boardStatus = state.view ? state.view.st : ''
  root.classList.toggle('contrast', settings.contrast)
  document.title = t('title')

  // The link: online or offline, the lag of the last answer, the next try.
  const conn = $('conn')
  let words = link.online ? t('online') : t('offline')
  if (link.online && link.lag !== null) words += ' · ' + t('lag', { ms: link.lag })
  if (!link.online && link.retryIn !== null) words += ' · ' + t('retry', { s: link.retryIn })
  conn.textContent = words
  conn.className = `conn ${link.online ? 'up' : 'down'}`
  $('lang').textContent = t('switchLanguage')
  $('lang').setAttribute('aria-label', t('switchLanguageName'))
  $('settings-title').textContent = t('settings')
  $('confirm-label').textContent = t('confirm')
  $('contrast-label').textContent = t('contrast')
  $('clear').textContent = t('clear')
  $('call').textContent = state.called !== null && state.view && state.called === state.view.b ? t('called') : t('call')
  $('call').disabled = !state.view
  const view = state.view
  const game = !!(view && view.grid) // a board game: a game (局) on a board, not a deal of cards (副)
  $('status-title').textContent = t(game ? 'gameStatus' : 'status')
  $('hand-title').textContent = t('hand')
  $('options').setAttribute('aria-label', t('options'))

  const ask = state.ask()
  const head = $('board-title')
  const turn = $('turn')
  if (!view) {
    head.textContent = link.refused ? t('badCredentials') : state.unknown !== null ? t('unknownDevice') : link.online ? t('waiting') : t('connecting')
    turn.textContent = ''
  } else {
    head.textContent = t(game ? 'game' : 'board', { b: view.b, s: view.s + 1 }) // people count seats from 1, as the console does
    const stopped = game ? 'gameStopped' : 'stopped'
    const ended = game ? 'gameEnded' : 'ended'
    turn.textContent = view.st === 'stopped' ? t(stopped) : view.st === 'ended' ? t(ended) : ask ? t('yourTurn') : ''
  }
  drawClock($('clock'), state, t)
  drawResults($('results'), view, t)

  const lines = $('lines')
  lines.replaceChildren(
    ...(view && Array.isArray(view.l) ? view.l : []).map((line) => el('li', { 'data-line': '' }, line)),
    ...gridRows(view).map((row) => el('li', { 'data-grid-row': '' }, row))
  )

  const asking = !!ask && moveOption(ask) >= 0 && state.ready()
  const drawn = drawBoard($('board'), view, asking, state.picked, t('emptySquare'))
  $('board-area').hidden = !drawn
  $('hand-area').hidden = drawn

  const hand = $('hand')
  const cards = state.hand().map((token, i) => cardButton(token, t, {
    selected: state.selected.has(i),
    disabled: !!ask && Array.isArray(ask.s) && !ask.s.includes(i)
  }))
  cards.forEach((button, i) => { button.dataset.index = String(i) })
  hand.replaceChildren(...cards)
  hand.setAttribute('aria-label', t('hand'))
  $('count').textContent = state.selected.size ? t('selected', { n: state.selected.size }) : ''

  $('prompt').textContent = ask ? ask.p : ''
  const options = (ask ? ask.o : []).map((option, n) => {
    const button = el('button', {
      type: 'button',
      class: `option${settings.armed === n ? ' armed' : ''}`,
      'data-option': String(n),
      'data-kind': option.a && option.a.k ? option.a.k : ''
    }, option.l)
    if (!state.ready()) button.setAttribute('aria-disabled', 'true')
    return button
  })
  $('options').replaceChildren(...options)

  const note = $('note')
  note.removeAttribute('data-reject')
  let text = ''
  if (state.unknown !== null) {
    text = `${t('unknownDevice')}: ${state.unknown}. ${t('askReferee')}`
  } else if (state.rejection) {
    text = t('refused', { why: t.reason(state.rejection.code, state.rejection.why) })
    note.dataset.reject = state.rejection.code || ''
  } else if (state.notice) {
    text = t(state.notice)
  } else if (settings.armed !== null && ask && ask.o[settings.armed]) {
    text = t('confirmAgain', { label: ask.o[settings.armed].l })
  } else if (state.awaiting !== null) {
    text = t('sending')
  } else if (state.stopped) {
    text = state.stopped
  }
  note.textContent = text
}

/** The link to the event's results site, once the board is over and the server names the site
 * (`res`: a path on the page's own host, or an https address); in English its English pages. */
export function drawResults (link, view, t) {
  const res = view && view.st === 'ended' && typeof view.res === 'string' ? view.res : ''
  const safe = res.startsWith('/') || res.startsWith('https://')
  link.hidden = !safe
  if (!safe) {
    link.removeAttribute('href')
    link.removeAttribute('data-results')
    return
  }
  const href = t.lang === 'en' && res.endsWith('/') ? res + 'en/' : res
  link.href = href
  link.dataset.results = href
  link.textContent = t('results')
}

export function drawClock (clock, state, t) {
  const seconds = state.secondsLeft()
  clock.dataset.clock = String(seconds)
  clock.textContent = seconds ? t('seconds', { n: seconds }) : ''
}
